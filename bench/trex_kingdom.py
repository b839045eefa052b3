"""What the Trex search expects a kingdom holder to score under each contract, over random hands,
and what choosing the contracts in order is worth: the tables behind the contract choice.

    python bench/trex_kingdom.py [--hands N] [--iterations N] [--seed S] [--workers K] [--preset P]
                                 [--json OUT.json | --load OUT.json]

For ``N`` random deals the holder's first decision (every contract of the kingdom left) is
searched by ``expert`` with a fixed budget, and its estimate for every contract kept (the value
before any offset: the mean of its rollouts). Then, half the hands working out the tables and
the other half judging them:

* ``mean``: the estimate's mean per contract, what a random hand is expected to score under it;
* ``later[S]``: what the contracts of ``S`` are worth when they are left to later hands, each
  chosen as well as it can be: ``later[{}] = 0`` and ``later[S]`` the mean over hands of the best
  ``value(c) + later[S - c]`` over ``c`` in ``S`` (the holder picks one contract of the kingdom a
  deal, from a fresh hand each time: TX-9);
* the points a kingdom earns on the other half of the hands, dealt in kingdoms in random order,
  under the search's rule (the contract whose value beats its
  :data:`~cardtable.bots.trex_expert.BASELINE` by most) and under the rule that picks the best
  ``value(c) + later[S - c]``, which is the best a holder can do with these values; their
  difference, with a standard error that counts each judging hand once.

So it says how much the contract choice leaves on the table, given the search's values.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import random
import statistics
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

import cardtable
from cardtable.bots import Budget, make_bot
from cardtable.bots.base import adapt
from cardtable.bots.trex_expert import BASELINE
from cardtable.games.trex.actions import contract_code
from cardtable.games.trex.state import TrexState

Values = dict[int, float]


def one(task: tuple[str, int, int]) -> Values:
    """The search's value of every contract for the holder of deal ``seed``."""
    preset, seed, iterations = task
    game = cardtable.load("trex", preset, redeal_requests=False)
    state = game.new_state(seed=seed)
    assert isinstance(state, TrexState)
    holder = state.holder
    bot = make_bot("trex", "expert")
    bot.attach(game)  # type: ignore[attr-defined]
    adapt(bot).act(state.view(holder), random.Random(seed), Budget(iterations=iterations))
    race = bot.last_race  # type: ignore[attr-defined]
    assert race is not None and len(race.actions) == len(state.kingdom_contracts)
    return {a.arg: race.mean(i) - race.offsets[i] for i, a in enumerate(race.actions)}


def later_table(hands: list[Values], contracts: tuple[int, ...]) -> dict[frozenset[int], float]:
    """``later[S]`` for every subset ``S`` of ``contracts`` (module docstring)."""
    later: dict[frozenset[int], float] = {frozenset(): 0.0}
    for size in range(1, len(contracts) + 1):
        for subset in itertools.combinations(contracts, size):
            s = frozenset(subset)
            later[s] = statistics.fmean(max(v[c] + later[s - {c}] for c in s) for v in hands)
    return later


def kingdom(hands: list[Values], contracts: tuple[int, ...], pick: Callable[[Values, frozenset[int]], int]) -> float:
    """The points the hands earn, one a deal in order, the contract of each chosen by ``pick``."""
    left = set(contracts)
    total = 0.0
    for v in hands:
        c = pick(v, frozenset(left))
        total += v[c]
        left.remove(c)
    return total


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=1000)
    ap.add_argument("--iterations", type=int, default=1500)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--preset", default="standard")
    ap.add_argument("--json", help="save the hands' values")
    ap.add_argument("--load", help="read saved values instead of searching")
    a = ap.parse_args(argv)
    if not a.load and a.hands < 20:
        ap.error("--hands: at least 20, so that each half holds two kingdoms of five")
    if a.load:
        with open(a.load) as f:
            saved = json.load(f)
        hands = [{int(k): v for k, v in h.items()} for h in saved["hands"]]
    else:
        tasks = [(a.preset, a.seed + i, a.iterations) for i in range(a.hands)]
        with ProcessPoolExecutor(a.workers) as pool:
            hands = list(pool.map(one, tasks, chunksize=8))
        if a.json:
            with open(a.json, "w") as f:
                json.dump({"preset": a.preset, "iterations": a.iterations, "seed": a.seed, "hands": hands}, f)
    contracts = tuple(sorted(hands[0]))
    if len(hands) < 4 * len(contracts):
        ap.error(f"--hands: at least {4 * len(contracts)}, so that each half holds two kingdoms")
    learn, judge = hands[: len(hands) // 2], hands[len(hands) // 2:]
    mean = {c: statistics.fmean(v[c] for v in learn) for c in contracts}
    later = later_table(learn, contracts)
    print(f"{len(hands)} hands ({len(learn)} to work out the tables, {len(judge)} to judge them)")
    print("mean " + "  ".join(f"{contract_code(c)} {mean[c]:+.1f}" for c in contracts))
    for s, w in sorted(later.items(), key=lambda x: (len(x[0]), sorted(x[0]))):
        if s:
            extra = w - sum(mean[c] for c in s)
            print(f"later[{','.join(contract_code(c) for c in sorted(s))}] = {w:+.1f} (option value {extra:+.1f})")

    def by_baseline(v: Values, left: frozenset[int]) -> int:
        return max(sorted(left), key=lambda c: v[c] - BASELINE.get(c, 0.0))

    def by_later(v: Values, left: frozenset[int]) -> int:
        return max(sorted(left), key=lambda c: v[c] + later[left - {c}])

    rng = random.Random(a.seed)
    n = len(contracts)
    totals: dict[str, list[float]] = {"the search's rule": [], "value + later": []}
    diffs = []
    for _ in range(20):  # 20 shuffles of the judging hands, each cut into kingdoms
        order = judge[:]
        rng.shuffle(order)
        for k in range(len(order) // n):
            hands_k = order[n * k: n * k + n]
            x, y = kingdom(hands_k, contracts, by_baseline), kingdom(hands_k, contracts, by_later)
            totals["the search's rule"].append(x)
            totals["value + later"].append(y)
            diffs.append(y - x)
    for name, xs in totals.items():
        print(f"a kingdom choosing by {name}: {statistics.fmean(xs):+.1f} points")
    se = statistics.stdev(diffs) / math.sqrt(len(judge) // n)
    print(f"value + later minus the search's rule: {statistics.fmean(diffs):+.2f} points a kingdom "
          f"(standard error {se:.2f}); a choice differs in {sum(1 for d in diffs if d) / len(diffs):.0%} of kingdoms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
