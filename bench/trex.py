"""Trex benchmark, side by side with OpenSpiel's Hearts in the same run.

    python bench/trex.py [--seconds S] [--preset standard]

Both engines are driven from Python the same way: at every decision a
uniformly random legal action (``legal_actions`` then apply); OpenSpiel's chance
nodes are sampled from ``chance_outcomes()`` with their probabilities
(``random.choices``). cardtable's chance (the shuffle) happens inside the
engine, from the seed.

* A Trex "deal" runs from the shuffle to the score of one of the 20 deals of a
  game (redeal requests, announcement, doubling and play included); deals/s is
  20 × games/s (8 × under ``complex``).
* An OpenSpiel Hearts game is one deal: the pass-direction and card chance
  nodes, the passes and 13 tricks.

Times are CPU time of this process (``time.process_time``), so other work on
the machine takes nothing from either engine's figure. The machine may still be
shared (caches, memory bandwidth), so the engines run in interleaved rounds (each
round runs both, for ``--seconds`` each, in alternating order) and every round
gives a ratio; the verdict is on the **median ratio** of the rounds, printed
with its spread. Deals/s are medians over the rounds too.

Prints deals/s for both, the ratio (target: cardtable ≥ 2.0 × OpenSpiel),
whole Trex games/s and µs per action. Install OpenSpiel with
``pip install open-spiel`` (the ``bench`` extra); without it only cardtable's
figures are printed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

import cardtable


def bench_trex(seconds: float, preset: str) -> dict[str, float]:
    game = cardtable.load("trex", preset=preset)
    rng = random.Random(1)
    games = actions = 0
    start = time.process_time()
    while True:
        state = game.new_state(seed=games)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            actions += 1
        games += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            break
    deals = games * game.num_deals  # type: ignore[attr-defined]
    return {
        "deals_per_s": deals / elapsed,
        "games_per_s": games / elapsed,
        "us_per_action": elapsed / actions * 1e6,
        "actions_per_deal": actions / deals,
    }


def bench_hearts(seconds: float) -> dict[str, float] | str:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError as exc:
        return f"OpenSpiel is not installed ({exc}); pip install open-spiel (the bench extra)"
    game: Any = pyspiel.load_game("hearts")
    rng = random.Random(1)
    deals = actions = 0
    start = time.process_time()
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                legal = state.legal_actions()
                action = legal[rng.randrange(len(legal))]
            state.apply_action(action)
            actions += 1
        deals += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            break
    return {
        "deals_per_s": deals / elapsed,
        "us_per_action": elapsed / actions * 1e6,
        "actions_per_deal": actions / deals,
    }


def _median(rows: list[dict[str, float]], key: str) -> float:
    return statistics.median(r[key] for r in rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=2.0, help="time per engine and round (default 2)")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (default 5)")
    parser.add_argument("--preset", default="standard", help="Trex preset (default standard)")
    args = parser.parse_args()

    trex: list[dict[str, float]] = []
    hearts: list[dict[str, float]] = []
    ratios: list[float] = []
    missing = ""
    for i in range(args.rounds):  # interleaved, in alternating order, so both see the same machine load
        h: dict[str, float] | str | None = None
        if i % 2 and not missing:
            h = bench_hearts(args.seconds)
        t = bench_trex(args.seconds, args.preset)
        if not i % 2 and not missing:
            h = bench_hearts(args.seconds)
        trex.append(t)
        if isinstance(h, str):
            missing = h
        elif h is not None:
            hearts.append(h)
            ratios.append(t["deals_per_s"] / h["deals_per_s"])
    deals, games = _median(trex, "deals_per_s"), _median(trex, "games_per_s")
    print(f"cardtable trex ({args.preset}), random legal play through legal_actions + apply:")
    print(f"  deals/s       {deals:10.0f}   (median of {len(trex)} rounds of {args.seconds:g} s)")
    per_game = round(deals / games)
    print(f"  games/s       {games:10.1f}   (whole games of {per_game} deals)")
    print(f"  us/action     {_median(trex, 'us_per_action'):10.2f}   "
          f"({_median(trex, 'actions_per_deal'):.1f} actions per deal)")
    if missing:
        print(f"OpenSpiel hearts: NOT RUN. {missing}")
        return
    print("OpenSpiel hearts (pyspiel from Python), random legal play, chance sampled from chance_outcomes():")
    print(f"  deals/s       {_median(hearts, 'deals_per_s'):10.0f}   (median of {len(hearts)} rounds)")
    print(f"  us/action     {_median(hearts, 'us_per_action'):10.2f}   "
          f"({_median(hearts, 'actions_per_deal'):.1f} actions per deal, chance included)")
    ratio = statistics.median(ratios)
    verdict = "meets" if ratio >= 2.0 else "MISSES"
    print(
        f"ratio cardtable/OpenSpiel deals/s: {ratio:.2f}x median of {len(ratios)} interleaved rounds "
        f"(min {min(ratios):.2f}x, max {max(ratios):.2f}x; {verdict} the 2.0x target)"
    )


if __name__ == "__main__":
    main()
