"""What seeing every hand is worth to the Trex search: ``oracle`` against three of another bot.

    python bench/trex_oracle.py OTHER --games N [--seed S] [--workers K] [--noise P] [--single | --blind]
        [--focal-iterations N | --focal-seconds S] [--other-iterations N | --other-seconds S]
        [--json RUN.json]

``oracle`` is the search under ``expert`` (PIMC with exact endgames, the same budget) with the
true deal as its every world: it reads the hidden hands from the match, so it is a yardstick
that only this bench registers. Its worlds then average over the play alone: in a world's
rollouts each other seat plays the strong policy or the card sense (a coin per seat and world,
alike for every candidate) and a random legal card ``--noise`` of the time (0.1 by default);
its own seat plays the strong policy. ``--single`` searches one world with the strong policy
at every seat (one rollout a candidate). ``--blind`` is the control, ``oracle-blind``: the same
bot with its worlds dealt from its view as ``search`` deals them, so that what the oracle gains
over it is what the hands are worth, not its rollouts. The table is :mod:`trex_table`'s (duplicate deals in
the four seatings, the points per contract); ``--json`` runs pool with ``trex_table.py --merge``.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from typing import Any

import trex_table
from cardtable.bots import Budget
from cardtable.bots.base import register_bot
from cardtable.bots.trex_infer import MODELS, noisy
from cardtable.bots.trex_pimc import SearchTrexBot, rollout_seats, rollout_with

STRONG, CARD_SENSE = MODELS[0][2], MODELS[1][2]


class OracleTrexBot(SearchTrexBot):
    """The search with the true deal as its every world (:meth:`watch` gives it the match)."""

    name = "oracle"

    def __init__(self, noise: float = 0.1, single: bool = False, blind: bool = False) -> None:
        super().__init__(iterations=None)
        self.noise = noise
        self.single = single
        self.blind = blind
        self.match: Any = None
        self.rng = random.Random(0)
        self.models: list[Callable[[Any], Any]] = [STRONG] * 4
        """Who plays each other seat in the current world's rollouts (every candidate's alike)."""

    def watch(self, match: Any) -> None:
        self.match = match

    def draw(self, view: Any, dealer: Any, rng: random.Random) -> Any:
        self.rng = rng
        self.models = [STRONG if rng.random() < 0.5 else CARD_SENSE for _ in range(4)]
        return dealer.deal(rng) if self.blind else self.match.state.clone()

    def act(self, view: Any, rng: random.Random, budget: Any = None) -> Any:
        if self.single:
            budget = Budget(iterations=1)  # one world: every candidate rolled out once
        return super().act(view, rng, budget)

    def rollout(self, st: Any, seat: int) -> float:
        if self.single:
            return rollout_with(st, seat, STRONG, self.stakes)
        policies = [STRONG if q == seat else noisy(self.models[q], self.rng, self.noise) for q in range(4)]
        return rollout_seats(st, seat, policies, self.stakes)


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if "-h" in args or "--help" in args:
        print(__doc__)
        return 0
    ap = argparse.ArgumentParser(add_help=False)
    ap.add_argument("--noise", type=float, default=0.1)
    ap.add_argument("--single", action="store_true")
    ap.add_argument("--blind", action="store_true")
    own, rest = ap.parse_known_args(args)
    if not 0.0 <= own.noise <= 1.0:
        ap.error("--noise is a share of the plays, from 0 to 1")
    if own.single and own.blind:
        ap.error("--single searches the true deal once: it has no blind form")
    name = "oracle-blind" if own.blind else "oracle"
    # the workers are forked, so they build the bot this registration describes
    register_bot("trex", name, lambda: OracleTrexBot(own.noise, own.single, own.blind), "bench only")
    return trex_table.main([name, *rest])


if __name__ == "__main__":
    sys.exit(main())
