"""What the compiled core buys the users of the engine: ``cardtable simulate``
matches/s and the search bots' thinking, on the pure build ("before") and the compiled one
("after"), in the same run.

    python bench/fastpaths.py [--games N] [--decisions D] [--rounds R]

Each build runs in its own worker process (bench/builds.py), in interleaved rounds; every figure is
the median over the rounds, timed in CPU seconds of the worker:

  simulate   ``cardtable.sim.simulate`` with one in-process worker: Trash (two ``sensible``) and
             Trex (four ``random``), the same seeded matches on both builds (checked)
  hard       the Trex strong policy (``hard``): ms per decision over the first ``D`` decisions with a
             choice of a seeded game, four ``hard`` at the table
  expert     the Trex search bot at a fixed budget of 200 worlds per decision (the arena's
             ``--iterations`` rows): ms per decision, the same decisions on both builds; at a fixed
             *time* budget (how ``expert`` plays by default) the compiled build plays this many
             times more worlds in the same time instead
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from builds import available, run_worker

SIM_SETUPS: dict[str, tuple[dict[str, Any], list[str]]] = {"trash": ({}, ["sensible"]), "trex": ({}, ["random"])}


def bench_simulate(game: str, matches: int) -> tuple[float, list[object]]:
    from cardtable.sim import SimSpec, simulate

    options, bots = SIM_SETUPS[game]
    spec = SimSpec.build(game, None, dict(options), bots, 0)
    with tempfile.TemporaryDirectory() as d:
        start = time.process_time()
        run = simulate(spec, matches, Path(d), workers=1, progress=False)
        seconds = time.process_time() - start
    return matches / seconds, [r["winners"] for r in run.rows]


def bench_think(bot_name: str, decisions: int) -> tuple[float, list[str]]:
    """ms per decision of ``bot_name`` at seat 0 (the others ``hard``) and the moves it chose."""
    import cardtable
    from cardtable.bots import Budget, make_bot
    from cardtable.host.match import Match

    game = cardtable.load("trex")
    bots = {s: make_bot("trex", bot_name if s == 0 else "hard") for s in range(4)}
    match = Match(game, seed=11, bots=bots, bot_seed=1)
    budget = Budget(iterations=200, seconds=60.0) if bot_name == "expert" else None
    spent = 0.0
    chosen: list[str] = []
    while not match.is_over and len(chosen) < decisions:
        seat = match.to_move()
        view = match.view(seat)
        start = time.process_time()
        action = match.bots[seat].act(view, match.rngs[seat], budget if seat == 0 else None)
        if seat == 0 and len(view.legal_actions) > 1:
            spent += time.process_time() - start
            chosen.append(str(action))
        match.submit(seat, action)
    return 1000 * spent / max(1, len(chosen)), chosen


def worker(build: str, matches: int, decisions: int) -> None:
    import cardtable.core

    assert cardtable.core.COMPILED is (build == "compiled"), f"{build} run imported {cardtable.core.build_name()}"
    out: dict[str, object] = {}
    for game in SIM_SETUPS:
        out[f"simulate {game}"], out[f"rows {game}"] = bench_simulate(game, matches)
    for bot in ("hard", "expert"):
        out[f"think {bot}"], out[f"moves {bot}"] = bench_think(bot, decisions)
    print(json.dumps(out))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=400, help="matches per simulate measurement (default 400)")
    parser.add_argument("--decisions", type=int, default=30, help="decisions timed per bot (default 30)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3)")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker, args.games, args.decisions)
        return
    builds = available()
    if "compiled" not in builds:
        sys.exit("the compiled build is missing: `make setup` builds it")
    me = Path(__file__).resolve()
    figures: dict[str, dict[str, list[float]]] = {b: {} for b in builds}
    same: dict[str, object] = {}
    for i in range(args.rounds):
        for build in builds if i % 2 == 0 else builds[::-1]:
            result = run_worker(me, build, ["--games", str(args.games), "--decisions", str(args.decisions)])
            for key, value in result.items():
                if key.startswith(("rows", "moves")):  # the same games and moves on both builds
                    assert same.setdefault(key, value) == value, f"{key} differ between the builds"
                else:
                    figures[build].setdefault(key, []).append(float(value))
    med = {b: {k: statistics.median(v) for k, v in f.items()} for b, f in figures.items()}
    print(f"pure (before) and compiled (after), median of {args.rounds} interleaved rounds, CPU time; "
          f"identical games and moves on both builds")
    print(f"{'':44} {'pure':>10} {'compiled':>10} {'speed-up':>9}")
    rows = [("simulate trash", "simulate Trash (2 sensible), matches/s", True),
            ("simulate trex", "simulate Trex (4 random), matches/s", True),
            ("think hard", "Trex hard, ms per decision", False),
            ("think expert", "Trex expert at 200 worlds, ms per decision", False)]
    for key, label, higher in rows:
        pure, compiled = med["pure"][key], med["compiled"][key]
        gain = compiled / pure if higher else pure / compiled
        print(f"{label:44} {pure:10.1f} {compiled:10.1f} {gain:8.2f}x")


if __name__ == "__main__":
    main()
