"""Simulation throughput: matches/s with 1 and 2 workers in the same run, and
the scaling efficiency rate(2) / (2 × rate(1)).

    python bench/simulate.py [--games N] [--repeat R] [--game trash] [--seed S]

For each game whose metrics module is registered (cardtable.sim.metrics.METRICS),
the same seeded matches are played three ways, one after the other:

  host      cardtable.host.play_out (checked play through the Match authority), 1 process
  sim -j1   cardtable.sim.simulate, unchecked fast path, 1 worker (in-process)
  sim -j2   the same with 2 worker processes (results identical, checked below)

It also prints matches per CPU-second of the workers (process time), which the
machine's other load does not change: if it is the same for -j1 and -j2, the
parallel run does no extra work and any shortfall in wall-time scaling comes
from CPUs that were not free.

Wall time includes the process pool's start-up and the writing of the Parquet
chunks, as a user of ``cardtable simulate`` sees it. Each figure is the best of
``--repeat`` measurements, and the load average is printed: on a machine shared
with other work, wall-time scaling says more about the neighbours than about
the simulator.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

import cardtable
from cardtable.bots import make_bot
from cardtable.host import play_out
from cardtable.sim import SimSpec, match_seeds, simulate
from cardtable.sim.metrics import METRICS

SETUPS: dict[str, tuple[dict[str, object], list[str]]] = {
    "trash": ({}, ["sensible"]),
    "trex": ({}, ["random"]),
    "spit": ({"max_rounds": 50}, ["medium"]),
}


def host_rate(spec: SimSpec, games: int) -> float:
    game = spec.load()
    start = time.perf_counter()
    for m in range(games):
        seed, bot_seed = match_seeds(spec.seed, m)
        play_out(game, [make_bot(spec.game, b) for b in spec.lineup(m)], seed, bot_seed)
    return games / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=2000, help="matches per measurement (default 2000)")
    ap.add_argument("--game", action="append", help="only these games (default: every registered one)")
    ap.add_argument("--repeat", type=int, default=3, help="best of this many measurements (default 3)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    names = [g for g in (args.game or METRICS) if g in cardtable.game_names() and g in SETUPS]
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"cardtable simulate throughput, {args.games} matches per measurement, best of {args.repeat}, "
          f"{os.cpu_count()} CPUs, load average {load}")
    print(f"{'game (bots)':32} {'host m/s':>9} {'sim -j1':>9} {'sim -j2':>9} {'speed-up':>9} {'efficiency':>10}"
          f" {'per CPU-s -j1':>13} {'-j2':>6}")
    for name in names:
        options, bots = SETUPS[name]
        spec = SimSpec.build(name, None, dict(options), bots, args.seed)
        host = 0.0
        if spec.game != "spit":  # Spit needs the real-time host, not Match
            host = max(host_rate(spec, max(1, args.games // 4)) for _ in range(args.repeat))
        rates = {1: 0.0, 2: 0.0}
        cpu = {1: 0.0, 2: 0.0}
        for _ in range(args.repeat):
            for workers in (1, 2):
                with tempfile.TemporaryDirectory() as d:
                    run = simulate(spec, args.games, Path(d), workers=workers, progress=False)
                rates[workers] = max(rates[workers], run.rate)
                cpu[workers] = max(cpu[workers], run.cpu_rate)
                rows = [r["winners"] for r in run.rows]
                if workers == 1:
                    first = rows
                assert rows == first, "results differ between 1 and 2 workers"
        speedup = rates[2] / rates[1]
        label = f"{name} ({','.join(spec.bots)})"
        print(f"{label:32} {host:9.0f} {rates[1]:9.0f} {rates[2]:9.0f} {speedup:8.2f}x {speedup / 2:9.0%}"
              f" {cpu[1]:13.0f} {cpu[2]:6.0f}")
    print(f"load average after: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
