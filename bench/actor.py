"""The table as one writer, before and after: the honest acknowledgement with 100 and 500 playing
tables, the server of another revision (``--before``, default the last one with the table lock)
beside this checkout's, in one run.

Each size runs ``bench/server.py`` (LD1's mix: Trash, Trex and Spit, people scripted over
WebSockets, server bots) ``--rounds`` times per server, alternately, so both meet the same
machine. The figures are the medians over the rounds of the load generator's action->ack p50/p99
(ms) and opponent-update p99, with the ratio after/before (below 1: faster now), and the server's
CPU time per game action (µs: the figure a busy machine disturbs least).

    .venv/bin/python bench/actor.py                       # 100 and 500 tables, 30 s each, 3 rounds
    .venv/bin/python bench/actor.py --sizes 100 --seconds 10 --rounds 1
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BEFORE = "124a309"  # main before the actor: the table lock, parts with back-references


def run_bench(src: Path, games: int, seconds: float) -> dict[str, Any]:
    cmd = [sys.executable, str(ROOT / "bench/server.py"), "--games", str(games), "--seconds", str(seconds),
           "--json", "--server-src", str(src)]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600 + 4 * seconds)
    if done.returncode != 0:
        raise SystemExit(f"bench/server.py failed for {src}:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--before", default=BEFORE, help=f"the revision to compare with (default {BEFORE})")
    p.add_argument("--sizes", default="100,500", help="playing tables, comma-separated (default 100,500)")
    p.add_argument("--seconds", type=float, default=30.0, help="seconds of play per run (default 30)")
    p.add_argument("--rounds", type=int, default=3, help="runs per server and size, alternating (default 3)")
    args = p.parse_args()
    sizes = [int(x) for x in args.sizes.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        old = Path(tmp) / "before"
        archive = subprocess.run(["git", "archive", args.before, "src"], cwd=ROOT, capture_output=True, check=True)
        old.mkdir()
        subprocess.run(["tar", "-x", "-C", str(old)], input=archive.stdout, check=True)
        rows = []
        for games in sizes:
            runs: dict[str, list[dict[str, Any]]] = {"before": [], "after": []}
            for k in range(args.rounds):
                for side, src in (("before", old / "src"), ("after", ROOT / "src")):
                    r = run_bench(src, games, args.seconds)
                    runs[side].append(r)
                    print(f"  {games} tables, round {k + 1}, {side}: ack p50 {r['all']['ack_p50_ms']} ms, "
                          f"p99 {r['all']['ack_p99_ms']} ms, {r['all']['actions_per_s']} actions/s, "
                          f"load {r['loadavg_before'][0]}", file=sys.stderr, flush=True)
            rows.append((games, summary(runs["before"]), summary(runs["after"])))
    print(f"{args.rounds} alternating round(s) per server and size, {args.seconds:g} s each; medians:")
    print("| tables | ack p50 before | after | ack p99 before | after | ratio p99 | update p99 before | after |"
          " CPU µs/action before | after | ratio CPU | errors before/after |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for games, b, a in rows:
        print(f"| {games} | {b['ack_p50_ms']} | {a['ack_p50_ms']} | {b['ack_p99_ms']} | {a['ack_p99_ms']} | "
              f"{ratio(a['ack_p99_ms'], b['ack_p99_ms'])} | {b['update_p99_ms']} | {a['update_p99_ms']} | "
              f"{b['cpu_us']} | {a['cpu_us']} | {ratio(a['cpu_us'], b['cpu_us'])} | {b['errors']}/{a['errors']} |")
    return 0


def summary(runs: list[dict[str, Any]]) -> dict[str, float]:
    """The medians of a server's runs of one size."""
    def med(values: list[float]) -> float:
        return round(statistics.median(values), 2)

    return {
        "ack_p50_ms": med([r["all"]["ack_p50_ms"] for r in runs]),
        "ack_p99_ms": med([r["all"]["ack_p99_ms"] for r in runs]),
        "update_p99_ms": med([r["all"]["update_p99_ms"] for r in runs]),
        "cpu_us": med([1e6 * r["server_cpu_s"] / max(1.0, r["all"]["actions_per_s"] * r["seconds"]) for r in runs]),
        "errors": sum(sum(r["all"]["errors"].values()) for r in runs),
    }


def ratio(after: float, before: float) -> str:
    return f"{after / before:.2f}" if before else "n/a"

if __name__ == "__main__":
    raise SystemExit(main())
