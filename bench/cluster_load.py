"""The cluster under load: the honest acknowledgement with 200, 500 and 1,000 playing tables, on
one SQLite process and on 1, 2 and 3 cluster nodes (PostgreSQL log, Redis bus), in one run; and
what a PostgreSQL append and a Redis publish cost per action (docs/deploy.md).

Each (tables, server) pair runs ``bench/server.py`` once (LD1's mix: Trash, Trex and Spit, people
scripted over WebSockets, server bots; table k opened on node k mod N, its sockets on that node),
the sizes one after the other and the servers alternately within a size, so each size's servers
meet the same machine. Reported per pair: ack p50/p99 (ms), their ratio to the single process of
the same size, actions a second, and the server processes' CPU time per action.

The per-action costs are measured apart, in this process, against a throwaway PostgreSQL and
Redis: ``PgLog.append`` of one action (a transaction with the version check and the lease
epoch), ``Store.append`` on SQLite for comparison, and one Redis ``PUBLISH`` of a 2 KB state frame
(round trip each, and a pipelined batch as the cluster's bus sends them).

    .venv/bin/python bench/cluster_load.py                                   # 200, 500, 1000 tables, 30 s
    .venv/bin/python bench/cluster_load.py --sizes 200 --nodes 1,3 --seconds 10
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.server.services import Postgres, Redis, postgres_bindir, redis_binary  # noqa: E402


def run_load(tables: int, nodes: int | None, seconds: float) -> dict[str, Any]:
    """bench/server.py with ``tables`` tables: one SQLite process (``nodes`` None) or a cluster."""
    cmd = [sys.executable, str(ROOT / "bench/server.py"), "--games", str(tables), "--seconds", str(seconds), "--json"]
    if nodes is not None:
        cmd += ["--cluster", "--nodes", str(nodes)]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=1200 + 4 * seconds)
    if done.returncode != 0:
        raise SystemExit(f"bench/server.py failed ({' '.join(cmd[2:])}):\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def costs(n: int) -> dict[str, float]:
    """Microseconds per PostgreSQL append, SQLite append and Redis publish (round trip, pipelined)."""
    from cardtable.server.pglog import PgLog
    from cardtable.server.store import Store, TableRow

    bindir, binary = postgres_bindir(), redis_binary()
    if bindir is None or binary is None:
        raise SystemExit("bench/cluster_load.py needs PostgreSQL and Redis: make services")
    out: dict[str, float] = {}
    pg, redis = Postgres(bindir), Redis(binary)
    pg.start()
    redis.start()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for name, log in (("sqlite", Store(Path(tmp) / "log.sqlite3")), ("postgres", PgLog(pg.new_database()))):
                log.create_table(TableRow("bench", "trash", "standard", {}, 1, 2, "h", "playing", time.time()))
                epoch = log.claim("bench")
                t0 = time.perf_counter()
                for v in range(1, n + 1):
                    log.append("bench", v, 0, "draw", v, epoch=epoch)
                out[f"{name}_append_us"] = round(1e6 * (time.perf_counter() - t0) / n, 1)
                log.close()
        out.update(asyncio.run(_publish(redis.url(), n)))
    finally:
        redis.close()
        pg.close()
    return out


async def _publish(url: str, n: int) -> dict[str, float]:
    import redis.asyncio as aioredis

    frame = json.dumps({"op": "send", "to": "n1.7", "latest": "state", "frame": "x" * 2000})
    client = aioredis.from_url(url, decode_responses=True)
    try:
        t0 = time.perf_counter()
        for _ in range(n):
            await client.publish("ct:node:n1", frame)
        one = time.perf_counter() - t0
        t0 = time.perf_counter()
        for start in range(0, n, 64):  # as the bus sends them: what has queued up, in one pipeline
            async with client.pipeline(transaction=False) as pipe:
                for _ in range(min(64, n - start)):
                    pipe.publish("ct:node:n1", frame)
                await pipe.execute()
        batched = time.perf_counter() - t0
    finally:
        await client.aclose()
    return {"redis_publish_us": round(1e6 * one / n, 1), "redis_publish_pipelined_us": round(1e6 * batched / n, 1)}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sizes", default="200,500,1000", help="playing tables, comma-separated (default 200,500,1000)")
    p.add_argument("--nodes", default="1,2,3", help="cluster sizes to run, comma-separated (default 1,2,3)")
    p.add_argument("--seconds", type=float, default=30.0, help="seconds of play per run (default 30)")
    p.add_argument("--appends", type=int, default=2000, help="appends and publishes timed for the costs (default 2000)")
    args = p.parse_args()
    sizes = [int(x) for x in args.sizes.split(",")]
    clusters = [int(x) for x in args.nodes.split(",")]
    c = costs(args.appends)
    print(f"per action: PostgreSQL append {c['postgres_append_us']} µs (SQLite {c['sqlite_append_us']} µs); "
          f"Redis publish of a 2 KB frame {c['redis_publish_us']} µs a round trip, "
          f"{c['redis_publish_pipelined_us']} µs pipelined")
    print("| tables | server | ack p50 ms | ack p99 ms | p99 / single | actions/s | server CPU µs/action | errors |")
    print("|---|---|---|---|---|---|---|---|")
    for tables in sizes:
        single = run_load(tables, None, args.seconds)
        rows = [("1 process, SQLite", single)]
        rows += [(f"{n} node(s), PostgreSQL + Redis", run_load(tables, n, args.seconds)) for n in clusters]
        base = single["all"]["ack_p99_ms"]
        for name, r in rows:
            a = r["all"]
            actions = max(1.0, a["actions_per_s"] * r["seconds"])
            ratio = f"{a['ack_p99_ms'] / base:.2f}" if base and a["ack_p99_ms"] else "n/a"
            print(f"| {tables} | {name} | {a['ack_p50_ms']} | {a['ack_p99_ms']} | {ratio} | {a['actions_per_s']} | "
                  f"{round(1e6 * r['server_cpu_s'] / actions, 1)} | {sum(a['errors'].values())} |", flush=True)
    print(f"machine: {os.cpu_count()} CPUs; load average now {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
