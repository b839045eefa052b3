"""Trash benchmark beside the naive simulator (``bench/peers/trash_naive.py``), pure and compiled builds.

    python bench/trash.py [--seconds S] [--rounds R]

Both sides play 2-player hands of 10 slots, one hand per game:
  cardtable  ``load("trash", max_hands=1)``, a uniformly random legal action through
             ``legal_actions`` + ``apply`` (events and checked phases included); the same with
             the peer's policy (it draws the discard whenever it is useful, so its hands are
             shorter than uniformly random ones: about 11 turns against 13); and the batch entry
             ``core.playouts`` (the random games without a loop in Python)
  naive      ``play_hand`` with the ('smart', 'random') policies: dicts, no API, no events
Times are CPU time of each worker process; the builds and the peer run in interleaved
rounds and every figure is the median over the rounds. Prints hands/s and the ratios to the peer
(target: at least 1.0x, stretch 2x).
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

PEERS = Path(__file__).resolve().parent / "peers"
"""The naive peer, kept in the repository as its author wrote it (``bench/peers/trash_naive.py``)."""


def bench_api(seconds: float, peer_policy: bool = False) -> float:
    """Hands/s through ``legal_actions`` + ``apply``: a uniformly random legal action, or with
    ``peer_policy`` the peer's own policy ('smart' draws, random wild slots): take the discard
    whenever it is offered (it is offered only when it can be placed) and displace a wild whenever
    a natural card can, else a random legal action. One generator for the run, as the peer's."""
    import cardtable

    game = cardtable.load("trash", max_hands=1)
    rng = random.Random(1)
    hands = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state: Any = game.new_state(seed=hands)
        while not state.is_terminal():
            legal = state.legal_actions()
            wanted = [a for a in legal if a.kind in ("discard", "displace")] if peer_policy else None
            state.apply(wanted[0] if wanted else legal[int(rng.random() * len(legal))])
        hands += 1
    return hands / (time.process_time() - start)


def bench_playouts(seconds: float) -> float:
    import cardtable
    from cardtable.core import playouts

    game = cardtable.load("trash", max_hands=1)
    rng = random.Random(1)
    hands = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        playouts(game.new_state(seed=hands), 1, rng)
        hands += 1
    return hands / (time.process_time() - start)


def bench_naive(seconds: float) -> float:
    sys.path.insert(0, str(PEERS))
    import trash_naive  # type: ignore[import-not-found]

    rng = random.Random(1)
    hands = 0
    policies = [("smart", "random"), ("smart", "random")]
    start = time.process_time()
    while time.process_time() - start < seconds:
        trash_naive.play_hand(policies, 10, rng, first=hands % 2)
        hands += 1
    return hands / (time.process_time() - start)


def worker(build: str, seconds: float) -> None:
    if build == "peer":
        print(json.dumps({"naive": bench_naive(seconds)}))
        return
    import cardtable.core

    assert cardtable.core.COMPILED is (build == "compiled"), f"{build} run imported {cardtable.core.build_name()}"
    print(json.dumps({"api": bench_api(seconds), "peer policy": bench_api(seconds, peer_policy=True),
                      "playouts": bench_playouts(seconds)}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per measurement (default 2)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3)")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker, args.seconds)
        return
    builds = available()
    if not (PEERS / "trash_naive.py").exists():
        sys.exit(f"the peer is missing: {PEERS / 'trash_naive.py'}")
    if "compiled" not in builds:
        print("the compiled build is missing (make setup builds it): pure figures only")
    rows: dict[str, list[float]] = {}
    me = Path(__file__).resolve()
    for i in range(args.rounds):
        order = ["peer", *builds] if i % 2 == 0 else [*builds, "peer"]
        for build in order:
            for key, value in run_worker(me, build, ["--seconds", str(args.seconds)]).items():
                rows.setdefault(key if build == "peer" else f"{build} {key}", []).append(value)
    med = {k: statistics.median(v) for k, v in rows.items()}
    naive = med["naive"]
    print(f"Trash, 2 players, 10 slots, one hand per game; median of {args.rounds} interleaved rounds "
          f"of {args.seconds:g} CPU s each")
    print(f"{'':46} {'hands/s':>10} {'vs naive':>9}")
    print(f"{'naive simulator (peer)':46} {naive:10.0f} {1.0:8.2f}x")
    labels = {"api": "legal_actions + apply", "peer policy": "the same, the peer's policy",
              "playouts": "core.playouts (batch)"}
    for build in builds:
        for key, label in labels.items():
            value = med[f"{build} {key}"]
            print(f"{f'cardtable {build}, {label}':46} {value:10.0f} {value / naive:8.2f}x")
    best = max(med[f"{b} api"] for b in builds) / naive
    verdict = "meets" if best >= 1.0 else "MISSES"
    print(f"best through legal_actions + apply: {best:.2f}x the naive simulator ({verdict} the 1.0x target)")


if __name__ == "__main__":
    main()
