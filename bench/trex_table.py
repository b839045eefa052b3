"""One Trex bot against three copies of another, each with its own budget: the arena's duplicate
deals and statistics, plus the focal bot's points per contract.

    python bench/trex_table.py FOCAL OTHER --games N [--seed S] [--workers K]
        [--focal-iterations N | --focal-seconds S] [--other-iterations N | --other-seconds S]
        [--json RUN.json]
    python bench/trex_table.py --merge RUN1.json RUN2.json ...

Deal ``i`` is played in the four seatings with the arena's seeds (``cardtable arena trex --bots
FOCAL,OTHER,OTHER,OTHER --games N --seed S`` plays the same cards), but each bot keeps its own
budget (the arena's ``--iterations`` sets one for every bot): so ``expert`` can think its default
0.25 s against search partners held to a fixed number of iterations. Prints the arena's Markdown
table and, per contract, the focal bot's points per deal minus the mean of the other three, as
holder and not, with 95% intervals over deals. ``--json`` saves the games in the arena's format
and the points per contract and budgets; ``--merge`` pools saved runs of other seeds and the same
budgets into one table (the same seed twice would count its deals twice: refused).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import cardtable
from cardtable.arena.run import ArenaResult, GameResult, bot_seed, deal_seed, format_table, summarise
from cardtable.bots import Budget, make_bot
from cardtable.bots.base import adapt
from cardtable.games.trex.actions import contract_code
from cardtable.host.match import Match

Task = tuple[str, str, int, int, int, "Budget | None", "Budget | None"]


def seated(game: Any, seats: Sequence[str]) -> dict[int, Any]:
    """A bot of each name of ``seats``, by seat, each attached to ``game`` if it attaches."""
    bots: dict[int, Any] = {}
    for s, name in enumerate(seats):
        bot = adapt(make_bot("trex", name))
        attach = getattr(bot, "attach", None)
        if attach is not None:
            attach(game)
        bots[s] = bot
    return bots


def hand_to_watchers(bots: dict[int, Any], table: Any) -> None:
    """Hand ``table`` (a match, or anything whose ``state`` is the true state) to each bot with a
    ``watch`` method: a yardstick that reads the true deal (``bench/trex_oracle.py``), never a player."""
    for bot in bots.values():
        watch = getattr(bot, "watch", None)
        if watch is not None:
            watch(table)


def one(task: Task) -> tuple[GameResult, list[tuple[str, bool, float]]]:
    focal, other, seed, deal, rotation, focal_budget, other_budget = task
    game = cardtable.load("trex")
    names = (focal, other, other, other)
    seats = tuple(names[(s + rotation) % 4] for s in range(4))
    bots = seated(game, seats)
    budgets: dict[int, Budget] = {}
    for s, name in enumerate(seats):
        budget = focal_budget if name == focal else other_budget
        if budget is not None:
            budgets[s] = budget
    match = Match(game, seed=deal_seed(seed, deal), bots=bots, bot_seed=bot_seed(seed, deal, rotation),
                  budgets=budgets)
    hand_to_watchers(bots, match)
    match.run_bots()
    out = match.state.outcome()
    assert out is not None
    me = seats.index(focal)
    rows = []
    for _d, _k, holder, mask, deltas in match.state.records:  # type: ignore[attr-defined]
        others = [deltas[q] for q in range(4) if q != me]
        rows.append((contract_code(mask), holder == me, deltas[me] - sum(others) / 3))
    return GameResult(deal, rotation, seats, out.returns, out.winners, out.reason), rows


def budget_of(iterations: int | None, seconds: float | None) -> Budget | None:
    return Budget(iterations=iterations, seconds=seconds) if iterations or seconds else None


def report(run: ArenaResult, contracts: list[list[Any]], seeds: list[int] | None = None) -> None:
    """The arena's table and the focal bot's points per contract (``[deal, code, holder, diff]``);
    ``seeds``: the seeds of pooled runs, named in the title in place of the first run's."""
    focal, other = run.bots[0], run.bots[1]
    run.stats = summarise(run.results, [focal, other])
    table = format_table(run, "markdown")
    if seeds:
        table = table.replace(f", seed {run.seed}, ", f", seeds {', '.join(map(str, seeds))}, ", 1)
    print(table)
    print()
    print(f"{focal} minus the mean of the other three, points per deal (95% interval over {run.deals} deal seeds):")
    print()
    print("| contract | as holder | not holder |")
    print("|---|---|---|")
    per: dict[tuple[str, bool], dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    for deal, code, holder, diff in contracts:
        per[(code, bool(holder))][deal].append(diff)
    for code in sorted({c for c, _ in per}):
        cells = []
        for holder in (True, False):
            xs = [sum(v) / len(v) for v in per.get((code, holder), {}).values()]
            if len(xs) < 2:
                cells.append("–")
                continue
            m = sum(xs) / len(xs)
            sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))
            half = 1.96 * sd / math.sqrt(len(xs))
            cells.append(f"{m:+.1f} [{m - half:+.1f}, {m + half:+.1f}]")
        print(f"| {code} | {cells[0]} | {cells[1]} |")


def budgets_of(fb: Budget | None, ob: Budget | None) -> dict[str, Any]:
    """The budgets of a run as ``--json`` saves them (``None``: the bot's own default)."""
    return {"focal": None if fb is None else [fb.iterations, fb.seconds],
            "other": None if ob is None else [ob.iterations, ob.seconds]}


def merge(paths: list[str]) -> int:
    """Pool saved runs of the same bots and budgets under different seeds (their deals are
    renumbered). Two runs of one seed share their first deals, and runs of other budgets are other
    tables: both are refused. A run saved before the budgets were saved is taken as it is."""
    results: list[GameResult] = []
    contracts: list[list[Any]] = []
    offset = 0
    seconds = 0.0
    first: dict[str, Any] = {}
    seeds: list[str] = []
    budgets: dict[str, Any] | None = None
    for path in paths:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        first = first or data
        if data["bots"] != first["bots"]:
            raise SystemExit("--merge wants runs of the same bots")
        if any(s.split()[0] == str(data["seed"]) for s in seeds):
            raise SystemExit(f"--merge: two runs of seed {data['seed']} (they play the same first deals)")
        if "budgets" in data:
            if budgets is not None and data["budgets"] != budgets:
                raise SystemExit(f"--merge: {path} was played with other budgets ({data['budgets']}, not {budgets})")
            budgets = data["budgets"]
        seeds.append(f"{data['seed']} ({data['deals']} deals)")
        results += [GameResult(r["deal"] + offset, r["rotation"], tuple(r["seats"]), tuple(r["returns"]),
                               tuple(r["winners"]), r["reason"]) for r in data["results"]]
        contracts += [[deal + offset, code, holder, diff] for deal, code, holder, diff in data["contracts"]]
        offset += data["deals"]
        seconds += data["seconds"]
    run = ArenaResult("trex", "standard", tuple(first["bots"]), offset, first["seed"], results, options={},
                      tables=1, seats=4, seconds=seconds)
    report(run, contracts, [int(s.split()[0]) for s in seeds])
    print()
    print(f"pooled: seeds {', '.join(seeds)}; budgets {budgets if budgets is not None else 'not saved'}")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] == "--merge":
        return merge(args[1:])
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 epilog="--merge RUN1.json RUN2.json ... (alone) pools saved runs into one table")
    ap.add_argument("focal")
    ap.add_argument("other")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--focal-iterations", type=int)
    ap.add_argument("--focal-seconds", type=float)
    ap.add_argument("--other-iterations", type=int)
    ap.add_argument("--other-seconds", type=float)
    ap.add_argument("--json")
    a = ap.parse_args(args)
    fb = budget_of(a.focal_iterations, a.focal_seconds)
    ob = budget_of(a.other_iterations, a.other_seconds)
    tasks: list[Task] = [(a.focal, a.other, a.seed, d, r, fb, ob) for d in range(a.games) for r in range(4)]
    start = time.perf_counter()
    results: list[GameResult] = []
    per: dict[tuple[str, bool], dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    with ProcessPoolExecutor(a.workers) as pool:
        for task, (res, rows) in zip(tasks, pool.map(one, tasks), strict=True):
            results.append(res)
            for code, holder, diff in rows:
                per[(code, holder)][task[3]].append(diff)
    run = ArenaResult("trex", "standard", (a.focal, a.other, a.other, a.other), a.games, a.seed, results,
                      options={}, tables=1, seats=4, seconds=time.perf_counter() - start)
    contracts = [[deal, code, holder, diff] for (code, holder), by_deal in per.items()
                 for deal, diffs in by_deal.items() for diff in diffs]
    report(run, contracts)
    if a.json:
        data = {"game": "trex", "preset": "standard", "bots": list(run.bots), "deals": a.games, "seed": a.seed,
                "options": {}, "tables": 1, "seats": 4, "seconds": run.seconds, "budgets": budgets_of(fb, ob),
                "results": [{"deal": r.deal, "rotation": r.rotation, "seats": list(r.seats),
                             "returns": list(r.returns), "winners": list(r.winners), "reason": r.reason,
                             "table": r.table} for r in results],
                "contracts": contracts}
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump(data, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
