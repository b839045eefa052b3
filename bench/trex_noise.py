"""How much of the Trex search's choice is noise: the plain search and the racing one at a budget,
against a long plain search of the same positions.

    python bench/trex_noise.py [--decisions N] [--iterations N] [--oracle N] [--seed S]

Plays games of ``expert`` at seat 0 against three ``spar-search`` (300 iterations, to go fast)
and, at a quarter of seat 0's trick decisions with more than one legal card in the first 5 deals
of each game (drawn at random), copies the bot as it stands and asks three copies: plain PIMC
(every legal card on every world) at ``--oracle`` iterations, whose mean per card is taken as the
card's value, and plain and racing PIMC at ``--iterations``. Prints each one's mean loss: the best
card's value minus the value of the card it chose. The long search shares the others' model, so
the loss is what a larger budget would recover, not the distance from the best play.
"""

from __future__ import annotations

import argparse
import copy
import random
import statistics
from typing import Any

import cardtable
from cardtable.bots import Budget, make_bot
from cardtable.host.match import Match


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--decisions", type=int, default=150)
    ap.add_argument("--iterations", type=int, default=1500)
    ap.add_argument("--oracle", type=int, default=12000)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    game = cardtable.load("trex")
    losses: dict[str, list[float]] = {"plain": [], "racing": []}
    seed = a.seed
    while len(losses["plain"]) < a.decisions:
        bots: dict[int, Any] = {s: make_bot("trex", "expert" if s == 0 else "spar-search") for s in range(4)}
        budgets = {s: Budget(iterations=a.iterations if s == 0 else 300) for s in range(4)}
        match = Match(game, seed=seed, bots=bots, bot_seed=seed, budgets=budgets)
        n = 0
        while not match.is_over and match.state.deal_index < 5 and len(losses["plain"]) < a.decisions:  # type: ignore[attr-defined]
            st: Any = match.state
            if (match.to_move() == 0 and st.phase.name == "TRICK" and len(st.legal_actions()) > 1
                    and random.Random(seed * 1000 + n).random() < 0.25):
                view = st.view(0)
                chosen = {}
                values: dict[str, float] = {}
                for name, racing, iterations in (("oracle", False, a.oracle), ("plain", False, a.iterations),
                                                 ("racing", True, a.iterations)):
                    bot = copy.deepcopy(bots[0])
                    bot.merge = bot.racing = racing
                    rng = random.Random(seed * 7 + n + (name != "oracle"))
                    chosen[name] = str(bot.act(view, rng, Budget(iterations=iterations)))
                    if name == "oracle":
                        race = bot.last_race  # its means weigh the worlds as the bot does
                        values = {str(act): race.mean(i) for i, act in enumerate(race.actions)}
                best = max(values.values())
                for name in losses:
                    losses[name].append(best - values[chosen[name]])
            n += 1
            match.run_bot()
        seed += 1
    print(f"{a.decisions} trick decisions of {seed - a.seed} games, {a.iterations} iterations against a"
          f" {a.oracle}-iteration plain search:")
    for name, lost in losses.items():
        print(f"  {name}: mean loss {statistics.mean(lost):.3f} points a decision,"
              f" {sum(v > 0.5 for v in lost)} decisions over 0.5")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
