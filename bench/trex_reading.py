"""How well ``expert``'s reading places the hidden cards and chooses its cards, against uniform worlds.

    python bench/trex_reading.py [OTHERS] [--candidates K,K@M,K:Q,...] [--games G] [--deals D] [--worlds W]
                                 [--iterations N] [--seed S]

``expert`` at seat 0 plays ``G`` games of ``D`` deals against three ``OTHERS`` (``spar-search``
by default; a search bot held to ``N`` iterations a decision). Readers follow seat 0's views, one
for each ``K`` of ``--candidates``: :class:`cardtable.bots.trex_infer.InferTrexBot` with
``candidates=K``, how far its worlds are tilted towards those that explain the play (as far as
keeping one world of ``K`` in proportion to its likelihood would; 1 is uniform worlds, the bot's
own is :data:`~cardtable.bots.trex_infer.CANDIDATES`). ``K@M`` searches with ``M`` iterations
instead of ``N``: ``1,1@1500`` asks whether the yardstick below sees what five times the budget
is worth. ``K:Q`` reads with the opponent models numbered by the digits ``Q`` (their places in
:data:`~cardtable.bots.trex_infer.MODELS`, the first the prior) instead of ``expert``'s
:data:`~cardtable.bots.trex_infer.READING`: ``1,4:01,4`` compares the reading by the two
policies alone with ``expert``'s.

At each of seat 0's trick decisions with a choice and plays to read: ``--worlds`` worlds are dealt
from the seat's view and weighed by each reader as its search weighs them, and for every hidden
card the weight of the worlds that put it in the hand that really holds it is its chance of being
found there. Then each reader searches the decision, dealing the same worlds as the others as
far as its budget goes, and every legal card is played out in the true deal by the strong policy:
a reader loses the best card's value minus its card's. Printed: the mean chance over hidden cards
and decisions, and the mean loss, each reader against the first with 95% intervals over
decisions. The true hands are read by the bench, never by a reader.
"""

from __future__ import annotations

import argparse
import random
import statistics
from typing import Any

import cardtable
from cardtable.bots import Budget, make_bot
from cardtable.bots.base import adapt
from cardtable.bots.trex_infer import CANDIDATES, MODELS, READING, InferTrexBot
from cardtable.bots.trex_search import action_value
from cardtable.bots.worlds import trex_dealer
from cardtable.games.trex.state import Phase
from cardtable.stats import mean_interval


def placed(worlds: list[Any], weights: list[float] | None, truth: Any, hidden: list[int]) -> float:
    """The mean over ``hidden`` of the weighed share of ``worlds`` that put each card where
    ``truth`` has it."""
    w = weights if weights is not None else [1.0] * len(worlds)
    total = sum(w)
    if total <= 0.0:
        return 0.0
    right = 0.0
    for c in hidden:
        holder = truth.owner[c]
        right += sum(x for x, world in zip(w, worlds, strict=True) if world.owner[c] == holder)
    return right / total / len(hidden)


def interval(xs: list[float], scale: float) -> str:
    """The mean of ``xs`` times ``scale``, signed, with its 95% interval (:func:`cardtable.stats.mean_interval`)."""
    m, low, high = mean_interval(xs)
    return f"{scale * m:+.2f} [{scale * low:+.2f}, {scale * high:+.2f}]"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("others", nargs="?", default="spar-search")
    ap.add_argument("--candidates", default=f"1,{CANDIDATES}")
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--deals", type=int, default=10)
    ap.add_argument("--worlds", type=int, default=300)
    ap.add_argument("--iterations", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    try:
        specs = []
        for x in a.candidates.split(","):
            head, _, models_text = x.partition(":")
            k, _, m = head.partition("@")
            models = tuple(int(d) for d in models_text) if models_text else None
            if models is not None and (not models or max(models) >= len(MODELS) or len(set(models)) < len(models)):
                raise ValueError
            specs.append((int(k), int(m) if m else a.iterations, models))
    except ValueError:
        ap.error(f"--candidates takes K, K@M or K:Q (whole numbers; Q distinct digits below {len(MODELS)})"
                 f" separated by commas, not {a.candidates!r}")
    tilts = [k for k, _, _ in specs]
    if min(a.games, a.deals, a.worlds, a.iterations, *tilts, *(m for _, m, _ in specs)) < 1:
        ap.error("--games, --deals, --worlds, --iterations and every K and M of --candidates must be at least 1")
    names = [("uniform worlds (candidates=1)" if k == 1 else f"weighed, candidates={k}")
             + (f", {m} iterations" if m != a.iterations else "")
             + (f", models {'+'.join(MODELS[i][0] for i in ms)}" if ms is not None else "") for k, m, ms in specs]
    budgets = [Budget(iterations=m) for _, m, _ in specs]
    game = cardtable.load("trex")
    budget = Budget(iterations=a.iterations)
    gains: list[list[float]] = [[] for _ in tilts]
    means: list[list[float]] = [[] for _ in tilts]
    uniforms: list[float] = []
    losses: list[list[float]] = [[] for _ in tilts]
    for g in range(a.games):
        rng = random.Random(a.seed * 1000 + g)
        state: Any = game.new_state(seed=a.seed * 1000 + g)
        players = [adapt(make_bot("trex", name)) for name in ["expert"] + [a.others] * 3]
        readers = [InferTrexBot(game=game, candidates=k, models=READING if ms is None else ms) for k, _, ms in specs]
        for _ in range(20_000):
            if state.is_terminal() or state.deal_index >= a.deals:
                break
            q = state.current_player()
            view = state.view(q)
            if q == 0:
                for reader in readers:
                    reader.observe(view)
                if state.phase is Phase.TRICK and len(view.legal_actions) > 1 and any(r.log.active for r in readers):
                    dealer = trex_dealer(view, game, readers[0].memory)
                    draw = random.Random(rng.random())
                    worlds = [dealer.deal(draw) for _ in range(a.worlds)]
                    hidden = [c for c in range(52) if state.owner[c] not in (-1, 0)]
                    uniform = placed(worlds, None, state, hidden)
                    uniforms.append(uniform)
                    for i, reader in enumerate(readers):
                        share = placed(worlds, reader.weigh([reader.score(w) for w in worlds]), state, hidden)
                        means[i].append(share)
                        gains[i].append(share - uniform)
                    values = {play: action_value(state, play, 0) for play in view.legal_actions}
                    best = max(values.values())
                    seed = rng.random()
                    for i, reader in enumerate(readers):
                        losses[i].append(best - values[reader.act(view, random.Random(seed), budgets[i])])
            action = players[q].act(view, rng, budget)
            state.apply(action)
    n = len(uniforms)
    print(f"expert against three {a.others} ({a.iterations} iterations), {a.games} games of {a.deals} deals,"
          f" {n} decisions read, {a.worlds} worlds each: the chance a hidden card is placed in its true hand")
    if n < 2:
        print("  too few decisions to read")
        return 0
    print(f"  uniform worlds: {100 * statistics.fmean(uniforms):.2f}%")
    for name, mean, gain in zip(names, means, gains, strict=True):
        print(f"  {name}: {100 * statistics.fmean(mean):.2f}%, {interval(gain, 100)} points over uniform")
    print(f"the same decisions searched by each reader ({a.iterations} iterations unless said, the same worlds):"
          " points lost against the best card, every card played out in the true deal by the strong policy")
    for i, (name, loss) in enumerate(zip(names, losses, strict=True)):
        diff = [x - y for x, y in zip(loss, losses[0], strict=True)]
        against = f", {interval(diff, 1)} against the first" if i else ""
        print(f"  {name}: {statistics.fmean(loss):.2f} a decision{against}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
