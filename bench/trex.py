"""Trex benchmark beside OpenSpiel's Hearts in the same run, pure and compiled builds.

    python bench/trex.py [--seconds S] [--rounds R] [--preset standard]

* cardtable, through the API: at every decision a uniformly random legal action
  (``legal_actions`` then ``apply``); the shuffle happens inside the engine, from the seed.
* cardtable, batch: ``core.playouts(state, 1, rng)`` plays the same kind of random games
  with no Python loop per action in the compiled build.
* OpenSpiel Hearts from Python: the same loop through pyspiel, chance nodes sampled from
  ``chance_outcomes()`` (``random.choices``).
* OpenSpiel Hearts inside C++: ``pyspiel.evaluate_bots`` with uniform random bots, the
  whole game in C++ (the peer of the batch playouts).

A Trex "deal" runs from the shuffle to the score of one of the 20 deals of a game
(8 under ``complex``); an OpenSpiel Hearts game is one deal. Times are CPU time of each
worker process; the builds and the peer run in interleaved rounds and every figure is the
median of the rounds. Targets: through the API at least 4x Hearts from Python; batch
playouts at least 0.5x Hearts inside C++. OpenSpiel is the ``bench`` extra
(``pip install open-spiel``); without it only cardtable's figures are printed.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from builds import available, run_worker


def bench_trex(seconds: float, preset: str) -> dict[str, float]:
    import cardtable
    from cardtable.core import playouts

    game: Any = cardtable.load("trex", preset=preset)
    rng = random.Random(1)
    games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_state(seed=games)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        games += 1
    api = games * game.num_deals / (time.process_time() - start)
    games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        playouts(game.new_state(seed=games), 1, rng)
        games += 1
    batch = games * game.num_deals / (time.process_time() - start)
    return {"api": api, "playouts": batch}


def bench_hearts(seconds: float) -> dict[str, float]:
    import numpy as np
    import pyspiel  # type: ignore[import-not-found]

    game: Any = pyspiel.load_game("hearts")
    rng = random.Random(1)
    deals = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                legal = state.legal_actions()
                action = legal[rng.randrange(len(legal))]
            state.apply_action(action)
        deals += 1
    python = deals / (time.process_time() - start)
    bots = [pyspiel.make_uniform_random_bot(p, 1 + p) for p in range(game.num_players())]
    deals = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        pyspiel.evaluate_bots(game.new_initial_state(), bots, int(np.int64(deals)))
        deals += 1
    cpp = deals / (time.process_time() - start)
    return {"hearts_python": python, "hearts_cpp": cpp}


def worker(build: str, seconds: float, preset: str) -> None:
    if build == "peer":
        try:
            print(json.dumps(bench_hearts(seconds)))
        except ImportError as exc:
            print(json.dumps({"missing": str(exc)}))
        return
    import cardtable.core

    assert cardtable.core.COMPILED is (build == "compiled"), f"{build} run imported {cardtable.core.build_name()}"
    print(json.dumps(bench_trex(seconds, preset)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per measurement (default 2)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3)")
    parser.add_argument("--preset", default="standard", help="Trex preset (default standard)")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker, args.seconds, args.preset)
        return
    builds = available()
    if "compiled" not in builds:
        print("the compiled build is missing (make setup builds it): pure figures only")
    rows: dict[str, list[float]] = {}
    missing = ""
    me = Path(__file__).resolve()
    for i in range(args.rounds):
        order = ["peer", *builds] if i % 2 == 0 else [*builds, "peer"]
        for build in order:
            result = run_worker(me, build, ["--seconds", str(args.seconds), "--preset", args.preset])
            if "missing" in result:
                missing = result["missing"]
                continue
            for key, value in result.items():
                rows.setdefault(key if build == "peer" else f"{build} {key}", []).append(value)
    med = {k: statistics.median(v) for k, v in rows.items()}
    print(f"Trex ({args.preset}) deals/s beside OpenSpiel Hearts; median of {args.rounds} interleaved rounds "
          f"of {args.seconds:g} CPU s each")
    python, cpp = med.get("hearts_python"), med.get("hearts_cpp")
    print(f"{'':40} {'deals/s':>10} {'vs py':>7} {'vs C++':>7}")
    if python and cpp:
        print(f"{'OpenSpiel hearts from Python (peer)':40} {python:10.0f} {1.0:6.2f}x {python / cpp:6.2f}x")
        print(f"{'OpenSpiel hearts inside C++ (peer)':40} {cpp:10.0f} {cpp / python:6.2f}x {1.0:6.2f}x")
    else:
        print(f"OpenSpiel hearts: NOT RUN ({missing}); pip install open-spiel (the bench extra)")
    labels = {"api": "legal_actions + apply", "playouts": "core.playouts (batch)"}
    for build in builds:
        for key, label in labels.items():
            value = med[f"{build} {key}"]
            ratios = f" {value / python:6.2f}x {value / cpp:6.2f}x" if python and cpp else ""
            print(f"{f'cardtable {build}, {label}':40} {value:10.0f}{ratios}")
    if python and cpp:
        api = max(med[f"{b} api"] for b in builds) / python
        batch = max(med[f"{b} playouts"] for b in builds) / cpp
        print(f"through the API: {api:.2f}x Hearts from Python ({'meets' if api >= 4 else 'MISSES'} the 4x target); "
              f"batch: {batch:.2f}x Hearts inside C++ ({'meets' if batch >= 0.5 else 'MISSES'} the 0.5x target)")


if __name__ == "__main__":
    main()
