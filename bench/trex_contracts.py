"""Per-contract points of one Trex bot against three copies of another, on duplicate deals.

``python bench/trex_contracts.py FOCAL OTHER --games N [--seed S]`` plays every game once per
seating of the focal bot and prints, per contract, the focal bot's mean points per deal and
the others' (as holder and not), with 95% intervals over games. A diagnostic for tuning the
rule-based Trex policies; the arena (``cardtable arena``) gives the game results.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor

from cardtable.arena.run import bot_seed, deal_seed
from cardtable.bots import make_bot
from cardtable.core.registry import load
from cardtable.games.trex.actions import contract_code
from cardtable.host.match import Match


def one(args: tuple[str, str, int, int, int]) -> list[tuple[str, bool, float]]:
    focal, other, seed, deal, rotation = args
    game = load("trex")
    names = [other] * 4
    names[rotation] = focal
    bots = {s: make_bot("trex", n) for s, n in enumerate(names)}
    match = Match(game, seed=deal_seed(seed, deal), bots=bots, bot_seed=bot_seed(seed, deal, rotation))
    match.run_bots()
    out = []
    for _d, _k, holder, mask, deltas in match.state.records:  # type: ignore[attr-defined]
        others = [deltas[q] for q in range(4) if q != rotation]
        out.append((contract_code(mask), holder == rotation, deltas[rotation] - sum(others) / 3))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("focal")
    ap.add_argument("other")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=2)
    a = ap.parse_args(argv)
    tasks = [(a.focal, a.other, a.seed, d, r) for d in range(a.games) for r in range(4)]
    rows: dict[tuple[str, bool], list[float]] = defaultdict(list)
    with ProcessPoolExecutor(a.workers) as pool:
        for res in pool.map(one, tasks):
            for code, holder, diff in res:
                rows[(code, holder)].append(diff)
    print(f"{a.focal} minus the mean of three {a.other}, points per deal ({a.games} games x 4 seatings)")
    for (code, holder), xs in sorted(rows.items()):
        n = len(xs)
        m = sum(xs) / n
        sd = math.sqrt(sum((x - m) ** 2 for x in xs) / max(n - 1, 1))
        print(f"{code:3} {'holder' if holder else 'other ':6} n={n:4} {m:+7.1f} ± {1.96 * sd / math.sqrt(n):5.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
