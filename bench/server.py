"""Load benchmark of the web server: N concurrent Trash games over real WebSockets on loopback.

Starts ``cardtable serve`` on 127.0.0.1 (a free port, a temporary database),
opens N tables whose seats are all scripted WebSocket clients playing random
legal actions (so every action crosses the wire, is committed to SQLite, acked
and fanned out), and reports action-to-ack latency p50/p99 and actions/s.
With --think 0 the clients play as fast as they can (a saturation test: the
load generator shares the 2 cores); with --think 0.3 they are paced like quick
people and the latency is the server's responsiveness under that load.
Traffic goes to 127.0.0.1 only; the run is bounded by --games and --seconds.

    .venv/bin/python bench/server.py --games 100 --seconds 60 --think 0.3
    .venv/bin/python bench/server.py --games 100 --seconds 60 --think 0
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.server.netserver import Server

from cardtable.server.client import GameClient


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        parts = f.read().rsplit(")", 1)[1].split()
    return (int(parts[11]) + int(parts[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def setup(srv: Server, index: int, server_bot: bool) -> list[GameClient]:
    bots = {1: "sensible"} if server_bot else {}
    humans = (0,) if server_bot else (0, 1)
    table_id, tokens = await asyncio.to_thread(srv.table, bots, humans)
    clients = [GameClient(srv.ws, table_id, token) for token in tokens.values()]
    for c in clients:
        await c.connect()
        await c.until(lambda f: f["type"] == "state")
    return clients


async def game(clients: list[GameClient], index: int, deadline: float, think: float) -> tuple[list[float], int]:
    rng = random.Random(index)

    async def loop(c: GameClient) -> None:
        while not c.over() and time.monotonic() < deadline:
            await c.wait_turn()
            if c.over():
                return
            assert c.view is not None
            if think > 0:  # a player's thinking time, so the load is paced like people
                await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                if not c.my_turn():
                    await c.wait_turn()
                    continue
            reply = await c.act(rng.choice(c.view["legal_actions"]))
            if reply["type"] != "ack":
                raise RuntimeError(reply)

    with contextlib.suppress(TimeoutError):  # the time may be up in the middle of a game
        await asyncio.wait_for(asyncio.gather(*(loop(c) for c in clients)), max(0.0, deadline - time.monotonic()) + 5)
    for c in clients:
        await c.close()
    return [x for c in clients for x in c.latencies], max(c.version for c in clients)


async def main_async(args: argparse.Namespace) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as tmp:
        srv = Server(Path(tmp) / "bench.sqlite3", "--rate", "1000000", "--burst", "1000000", "--max-per-ip", "100000",
                     "--create-rate", "1000",
                     "--sync", args.sync).start()
        try:
            assert srv.proc is not None
            sem = asyncio.Semaphore(10)

            async def limited(i: int) -> list[GameClient]:
                async with sem:
                    return await setup(srv, i, args.server_bots)

            tables = await asyncio.gather(*(limited(i) for i in range(args.games)))
            gc.collect()
            gc.freeze()  # keep the load generator's own collector pauses out of the figures
            cpu0 = cpu_seconds(srv.proc.pid)
            me0 = time.process_time()
            t0 = time.monotonic()
            deadline = t0 + args.seconds
            results = await asyncio.gather(*(game(c, i, deadline, args.think) for i, c in enumerate(tables)))
            wall = time.monotonic() - t0
            server_cpu = cpu_seconds(srv.proc.pid) - cpu0
            client_cpu = time.process_time() - me0
        finally:
            srv.stop()
    latencies = [x for lat, _ in results for x in lat]
    actions = sum(v for _, v in results)
    return {
        "games": args.games,
        "sockets": args.games * (1 if args.server_bots else 2),
        "server_bots": args.server_bots,
        "sync": args.sync,
        "think_s": args.think,
        "wall_s": round(wall, 2),
        "client_actions": len(latencies),
        "all_actions": actions,
        "actions_per_s": round(actions / wall, 1),
        "ack_p50_ms": round(1000 * statistics.median(latencies), 2),
        "ack_p99_ms": round(1000 * percentile(latencies, 0.99), 2),
        "ack_max_ms": round(1000 * max(latencies), 2),
        "server_cpu_s": round(server_cpu, 2),
        "client_cpu_s": round(client_cpu, 2),
        "cpus": os.cpu_count(),
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=100, help="concurrent games (default 100)")
    p.add_argument("--seconds", type=float, default=60.0, help="stop after this long (default 60)")
    p.add_argument("--server-bots", action="store_true", help="seat 1 is a server-side bot instead of a client")
    p.add_argument("--think", type=float, default=0.0,
                   help="mean seconds a client waits before each action (0: as fast as it can, a saturation test)")
    p.add_argument("--sync", choices=("NORMAL", "FULL"), default="NORMAL", help="SQLite synchronous setting")
    p.add_argument("--json", action="store_true", help="print JSON only")
    args = p.parse_args()
    result = asyncio.run(main_async(args))
    if args.json:
        print(json.dumps(result))
    else:
        for k, v in result.items():
            print(f"{k:>15}: {v}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
