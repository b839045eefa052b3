"""One Trex bot against three copies of another, contract by contract, on duplicate single deals.

    python bench/trex_duel.py FOCAL OTHER [--deals N] [--seed S] [--contracts KH,QN,...,CH] [--workers K]
                              [--iterations N] [--json RUN.json] [--bots FILE.py]
    python bench/trex_duel.py --pair A.json B.json

Each deal seed is dealt once per contract and played once per seat of the focal bot (the
kingdom holder announces the contract; doubling is the bots' own), from the announcement to
the end of the deal, every bot deciding from its seat's views. ``CH`` among the contracts
lets the holder choose instead: the kingdom's first contract, announced by the holder's bot,
so that what the announcement tells of the holder's hand is there to read (the rows of ``CH``
pool whatever contracts were chosen). Prints, per contract and per role (holder, other, and
``all``: the four seatings of a deal together, the duplicate comparison), the focal bot's points
minus the mean of the other three, with its 95% interval over deals. A diagnostic for one
contract's play: the arena plays whole games.

``--json`` saves every deal's four results. ``--pair`` compares two saved runs of two focal bots
against the same partner, deals, seed and budget: per contract, the first focal bot's points a
deal (its four seatings together) minus the second's on the same deal, with its 95% interval over
deals, and how many deals came out exactly alike. Every bot's choices come from seeds of the
deal, seat and seating, so where two focal bots choose alike the deal plays out alike and the
difference is exactly zero: the pairing removes the deal's luck. ``--bots FILE.py`` runs a Python
file before the deals start, for bots it registers (``cardtable.bots.base.register_bot``): a
one-off variant of a bot measured without adding it to the package. The workers are forked, so
they have it too. A bot with a ``watch`` method is handed the deal (an object whose ``state`` is
the true state), as ``trex_table.py`` hands it the match: a yardstick that reads hidden cards,
never a player.
"""

from __future__ import annotations

import argparse
import json
import math
import runpy
import sys
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from types import SimpleNamespace
from typing import Any

import cardtable
from cardtable.bots import Budget
from cardtable.core.chance import derive, derived_key
from cardtable.core.errors import ParseError
from cardtable.games.trex.actions import A_CONTRACT, contract_code, parse_contract
from trex_table import hand_to_watchers, seated


def one(args: tuple[str, str, int, int, int | None, int | None]) -> list[tuple[str, bool, float]]:
    """Every seating of one deal under one contract: (contract, focal is holder, difference)."""
    focal, other, seed, deal, mask, iterations = args
    game = cardtable.load("trex", redeal_requests=False)
    budget = Budget(iterations=iterations) if iterations else None
    out = []
    for seat in range(4):
        state: Any = game.new_state(seed=derived_key(seed, "duel", deal) % 2**63)
        holder = state.holder
        bots = seated(game, [focal if q == seat else other for q in range(4)])
        hand_to_watchers(bots, SimpleNamespace(state=state))
        rngs = [derive(seed, "duel-bot", deal, seat, q) for q in range(4)]
        if mask is None:  # the holder announces the kingdom's first contract itself
            choice = bots[holder].act(state.view(holder), rngs[holder], budget)
            code = "CH"
        else:
            choice = A_CONTRACT[mask]
            code = contract_code(mask)
        state.apply(choice)
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


def interval(xs: list[float]) -> tuple[float, float]:
    """The mean of ``xs`` and the half-width of its 95% interval."""
    n = len(xs)
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / max(n - 1, 1))
    return m, 1.96 * sd / math.sqrt(n)


def pair(paths: list[str]) -> int:
    """Print the paired comparison of two saved runs (module docstring); 2 when they differ in
    anything but the focal bot."""
    runs = []
    for path in paths:
        with open(path) as f:
            runs.append(json.load(f))
    a, b = runs
    for key in ("other", "seed", "iterations"):
        if a[key] != b[key]:
            print(f"--pair: the runs differ in {key} ({a[key]!r} and {b[key]!r}): their deals are not the same games",
                  file=sys.stderr)
            return 2
    print(f"{a['focal']} minus {b['focal']}, each against three {a['other']}: points a deal, the four seatings "
          f"together (seed {a['seed']})")
    for code in sorted({k.split(":")[0] for k in a["deals"]}):
        diffs = []
        for key, results in a["deals"].items():
            if key.split(":")[0] == code and key in b["deals"]:
                ours = sum(x for _, x in results) / len(results)
                theirs = sum(x for _, x in b["deals"][key]) / len(b["deals"][key])
                diffs.append(ours - theirs)
        if not diffs:
            continue
        m, half = interval(diffs)
        alike = sum(1 for x in diffs if x == 0.0)
        print(f"{code:3} deals={len(diffs):4} {m:+7.2f} ± {half:5.2f}  alike={alike}")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["--pair"]:
        if len(args) != 3:
            print("usage: trex_duel.py --pair A.json B.json", file=sys.stderr)
            return 2
        return pair(args[1:])
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("focal")
    ap.add_argument("other")
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--contracts", default="KH,QN,DI,TK,TR")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--iterations", type=int, default=None, help="a fixed search budget for every bot")
    ap.add_argument("--json", default=None, help="save every deal's results here, for --pair")
    ap.add_argument("--bots", default=None, help="a Python file to run first, registering one-off bots")
    a = ap.parse_args(args)
    if a.bots is not None:
        runpy.run_path(a.bots)
    try:
        masks = [None if c == "CH" else parse_contract(c) for c in a.contracts.split(",")]
    except ParseError as e:
        ap.error(f"{e}; or CH, the holder's own choice")
    tasks = [(a.focal, a.other, a.seed, d, m, a.iterations) for d in range(a.deals) for m in masks]
    per: dict[tuple[str, bool], dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    saved: dict[str, list[tuple[bool, float]]] = {}
    with ProcessPoolExecutor(a.workers) as pool:
        for task, res in zip(tasks, pool.map(one, tasks), strict=True):
            for code, holder, diff in res:
                per[(code, holder)][task[3]].append(diff)
                saved.setdefault(f"{code}:{task[3]}", []).append((holder, diff))
    if a.json is not None:
        with open(a.json, "w") as f:
            json.dump({"focal": a.focal, "other": a.other, "seed": a.seed, "iterations": a.iterations,
                       "deals": saved}, f)
    print(f"{a.focal} minus the mean of three {a.other}, points per deal ({a.deals} deals x 4 seatings, seed {a.seed})")
    both: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    for (code, _), by_deal in per.items():
        for deal, diffs in by_deal.items():
            both[code][deal] += diffs
    rows = [((code, "holder" if holder else "other"), by_deal) for (code, holder), by_deal in per.items()]
    rows += [((code, "all"), by_deal) for code, by_deal in both.items()]
    for (code, role), by_deal in sorted(rows):
        m, half = interval([sum(v) / len(v) for v in by_deal.values()])
        print(f"{code:3} {role:6} deals={len(by_deal):4} {m:+7.1f} ± {half:5.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
