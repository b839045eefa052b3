"""The table as one writer, before and after: the honest acknowledgement with 100 and 500 playing
tables, the server of another revision (``--before``, default the last one with the table lock)
beside this checkout's, in one run.

Each size runs ``bench/server.py`` (LD1's mix: Trash, Trex and Spit, people scripted over
WebSockets, server bots) once per server, alternately, so both meet the same machine. The
figures are the load generator's action->ack p50/p99 (ms) and the opponent-update p99, with the
ratio after/before (below 1: faster now).

    .venv/bin/python bench/actor.py                       # 100 and 500 tables, 30 s each
    .venv/bin/python bench/actor.py --sizes 100 --seconds 10
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BEFORE = "124a309"  # main before the actor: the table lock, parts with back-references


def run_bench(src: Path, games: int, seconds: float) -> dict:
    cmd = [sys.executable, str(ROOT / "bench/server.py"), "--games", str(games), "--seconds", str(seconds),
           "--json", "--server-src", str(src)]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600 + 4 * seconds)
    if done.returncode != 0:
        raise SystemExit(f"bench/server.py failed for {src}:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--before", default=BEFORE, help=f"the revision to compare with (default {BEFORE})")
    p.add_argument("--sizes", default="100,500", help="playing tables, comma-separated (default 100,500)")
    p.add_argument("--seconds", type=float, default=30.0, help="seconds of play per run (default 30)")
    args = p.parse_args()
    sizes = [int(x) for x in args.sizes.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        old = Path(tmp) / "before"
        archive = subprocess.run(["git", "archive", args.before, "src"], cwd=ROOT, capture_output=True, check=True)
        old.mkdir()
        subprocess.run(["tar", "-x", "-C", str(old)], input=archive.stdout, check=True)
        rows = []
        for games in sizes:
            before = run_bench(old / "src", games, args.seconds)
            after = run_bench(ROOT / "src", games, args.seconds)
            rows.append((games, before["all"], after["all"], before["loadavg_before"][0]))
    print("| tables | ack p50 before | after | ack p99 before | after | ratio p99 | update p99 before | after |"
          " errors before/after |")
    print("|---|---|---|---|---|---|---|---|---|")
    for games, b, a, _ in rows:
        ratio = a["ack_p99_ms"] / b["ack_p99_ms"] if b["ack_p99_ms"] else float("nan")
        print(f"| {games} | {b['ack_p50_ms']} | {a['ack_p50_ms']} | {b['ack_p99_ms']} | {a['ack_p99_ms']} | "
              f"{ratio:.2f} | {b['update_p99_ms']} | {a['update_p99_ms']} | "
              f"{sum(b['errors'].values())}/{sum(a['errors'].values())} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
