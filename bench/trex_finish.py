"""Trex games finished from the same positions by a search bot playing to win the game and the
same bot playing for its own points: how often each wins from there.

    python bench/trex_finish.py [FOCAL] [OTHER] [--positions N] [--from-deal D] [--seed S]
        [--workers K] [--focal-iterations N] [--other-iterations N]

A position is a standard game whose first ``D - 1`` deals four ``hard`` players played (the
arena's deal seeds). From it the focal bot finishes the game against three ``OTHER`` in each of
the four seats (so once from each standing), twice: as it is (``stakes``, TX-39: in the play
phases the deal's scores are weighed by what they do to its chance of winning) and with
``for_the_win = False`` (its own score alone), with the same bot seeds. Prints both win shares
(a shared first place counts as a share), the paired difference with its 95% interval over
positions, and the focal bot's mean final place and total.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import cardtable
from cardtable.arena.run import bot_seed, deal_seed
from cardtable.bots import Budget, make_bot
from cardtable.host.match import Match

Task = tuple[str, str, int, int, int, int, bool, "Budget | None", "Budget | None"]


def one(task: Task) -> tuple[int, bool, float, int, int]:
    """(position, for the win, the focal bot's win share, its place 1–4, its final total)."""
    focal, other, seed, position, rotation, from_deal, to_win, fb, ob = task
    game = cardtable.load("trex")
    match = Match(game, seed=deal_seed(seed, position), bots={q: make_bot("trex", "hard") for q in range(4)},
                  bot_seed=bot_seed(seed, position, 0))
    st: Any = match.state
    for _ in range(100_000):
        if st.deal_index >= from_deal - 1 or match.is_over:
            break
        match.run_bot()
    seed_of = bot_seed(seed, position, 1 + rotation)
    for q in range(4):
        bot = make_bot("trex", focal if q == rotation else other)
        if q == rotation:
            bot.for_the_win = to_win  # type: ignore[attr-defined]
        match.add_bot(q, bot, seed_of)
        budget = fb if q == rotation else ob
        if budget is not None:
            match.budgets[q] = budget
        else:
            match.budgets.pop(q, None)
    match.run_bots()
    out = match.state.outcome()
    assert out is not None
    totals = match.state.totals  # type: ignore[attr-defined]
    share = 1.0 / len(out.winners) if rotation in out.winners else 0.0
    place = 1 + sum(t > totals[rotation] for t in totals)
    return position, to_win, share, place, totals[rotation]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("focal", nargs="?", default="expert")
    ap.add_argument("other", nargs="?", default="spar-search")
    ap.add_argument("--positions", type=int, default=10)
    ap.add_argument("--from-deal", type=int, default=16)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--focal-iterations", type=int, default=300)
    ap.add_argument("--other-iterations", type=int, default=300)
    a = ap.parse_args(sys.argv[1:] if argv is None else argv)
    if not 1 <= a.from_deal <= 20:
        ap.error("--from-deal is a deal of the standard game, 1 to 20")
    fb = Budget(iterations=a.focal_iterations)
    ob = Budget(iterations=a.other_iterations)
    tasks: list[Task] = [(a.focal, a.other, a.seed, p, r, a.from_deal, w, fb, ob)
                         for p in range(a.positions) for r in range(4) for w in (True, False)]
    start = time.perf_counter()
    share: dict[tuple[int, bool], float] = {}
    places: dict[bool, list[int]] = {True: [], False: []}
    totals: dict[bool, list[int]] = {True: [], False: []}
    with ProcessPoolExecutor(a.workers) as pool:
        for position, to_win, won, place, total in pool.map(one, tasks):
            share[(position, to_win)] = share.get((position, to_win), 0.0) + won / 4
            places[to_win].append(place)
            totals[to_win].append(total)
    diffs = [share[(p, True)] - share[(p, False)] for p in range(a.positions)]
    m = sum(diffs) / len(diffs)
    half = 1.96 * math.sqrt(sum((d - m) ** 2 for d in diffs) / max(1, len(diffs) - 1) / len(diffs))
    print(f"{a.focal} from deal {a.from_deal} against three {a.other}, {a.positions} positions x 4 seats, "
          f"iterations {a.focal_iterations}/{a.other_iterations}, seed {a.seed}, {time.perf_counter() - start:.0f} s")
    print()
    print("| the focal bot plays | win share | mean place | mean final total |")
    print("|---|---|---|---|")
    for to_win, label in ((True, "to win the game"), (False, "for its own points")):
        ws = sum(share[(p, to_win)] for p in range(a.positions)) / a.positions
        print(f"| {label} | {100 * ws:.1f}% | {sum(places[to_win]) / len(places[to_win]):.2f} "
              f"| {sum(totals[to_win]) / len(totals[to_win]):+.1f} |")
    print()
    print(f"difference in win share: {100 * m:+.1f} points [{100 * (m - half):+.1f}, {100 * (m + half):+.1f}] "
          f"(95% over positions)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
