"""One Trex bot against three copies of another, contract by contract, on duplicate single deals.

    python bench/trex_duel.py FOCAL OTHER [--deals N] [--seed S] [--contracts KH,QN,...] [--workers K]
                              [--iterations N]

Each deal seed is dealt once per contract and played once per seat of the focal bot (the
kingdom holder announces the contract; doubling is the bots' own), from the announcement to
the end of the deal, every bot deciding from its seat's views. Prints, per contract and per
role (holder, other, and ``all``: the four seatings of a deal together, the duplicate
comparison), the focal bot's points minus the mean of the other three, with its 95% interval
over deals. A diagnostic for one contract's play: the arena plays whole games.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import cardtable
from cardtable.bots import Budget
from cardtable.core.chance import derive, derived_key
from cardtable.games.trex.actions import A_CONTRACT, contract_code, parse_contract
from trex_table import seated


def one(args: tuple[str, str, int, int, int, int | None]) -> list[tuple[str, bool, float]]:
    """Every seating of one deal under one contract: (contract, focal is holder, difference)."""
    focal, other, seed, deal, mask, iterations = args
    game = cardtable.load("trex", redeal_requests=False)
    code = contract_code(mask)
    budget = Budget(iterations=iterations) if iterations else None
    out = []
    for seat in range(4):
        state: Any = game.new_state(seed=derived_key(seed, "duel", deal) % 2**63)
        holder = state.holder
        state.apply(A_CONTRACT[mask])
        bots = seated(game, [focal if q == seat else other for q in range(4)])
        rngs = [derive(seed, "duel-bot", deal, seat, q) for q in range(4)]
        start = state.deal_index
        guard = 0
        while state.deal_index == start and not state.is_terminal() and guard < 500:
            q = state.current_player()
            state.apply(bots[q].act(state.view(q), rngs[q], budget))
            guard += 1
        deltas = state.records[-1][4]
        others = [deltas[q] for q in range(4) if q != seat]
        out.append((code, holder == seat, deltas[seat] - sum(others) / 3))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("focal")
    ap.add_argument("other")
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--contracts", default="KH,QN,DI,TK,TR")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--iterations", type=int, default=None, help="a fixed search budget for every bot")
    a = ap.parse_args(argv)
    masks = [parse_contract(c) for c in a.contracts.split(",")]
    tasks = [(a.focal, a.other, a.seed, d, m, a.iterations) for d in range(a.deals) for m in masks]
    per: dict[tuple[str, bool], dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    with ProcessPoolExecutor(a.workers) as pool:
        for task, res in zip(tasks, pool.map(one, tasks), strict=True):
            for code, holder, diff in res:
                per[(code, holder)][task[3]].append(diff)
    print(f"{a.focal} minus the mean of three {a.other}, points per deal ({a.deals} deals x 4 seatings, seed {a.seed})")
    both: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    for (code, _), by_deal in per.items():
        for deal, diffs in by_deal.items():
            both[code][deal] += diffs
    rows = [((code, "holder" if holder else "other"), by_deal) for (code, holder), by_deal in per.items()]
    rows += [((code, "all"), by_deal) for code, by_deal in both.items()]
    for (code, role), by_deal in sorted(rows):
        xs = [sum(v) / len(v) for v in by_deal.values()]
        n = len(xs)
        m = sum(xs) / n
        sd = math.sqrt(sum((x - m) ** 2 for x in xs) / max(n - 1, 1))
        print(f"{code:3} {role:6} deals={n:4} {m:+7.1f} ± {1.96 * sd / math.sqrt(n):5.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
