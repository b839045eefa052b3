"""When a bot's move is released: a delay that tells nothing about the bot's cards.

A bot that answers at once when it has a single legal card, and thinks a quarter of a
second when it has many, tells the table how many legal moves it had (and so something
about its hand) by its reply time alone. :class:`Pacing` removes that channel: the host
notes when it asked the bot, lets it think, and releases the move at ``asked + delay``,
where ``delay`` is drawn from the pacing's own seeded generator and from nothing else,
neither the view nor the legal moves nor the bot's thinking time. As long as the bot
thinks less than :attr:`Pacing.floor` seconds (its budget; ``expert`` thinks about 0.25 s,
at most ~0.7 s under load), the released time has the same distribution for every
decision. A move that took longer than its drawn delay is released when it is ready and
counted in :attr:`Pacing.late`, so a host can see whether its floor is high enough.

>>> import random
>>> p = Pacing(floor=0.5, spread=0.5)
>>> 0.5 <= p.delay(random.Random(1)) < 1.0
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ..bots.base import searches
from ..core.errors import ConfigError


@dataclass
class Pacing:
    """Release a move ``floor + spread * U`` seconds after the bot was asked (``U`` uniform on
    [0, 1) from the generator given); :meth:`release_at` and :meth:`wait` apply it."""

    floor: float = 0.9
    spread: float = 0.6
    late: int = field(default=0, compare=False)

    def __post_init__(self) -> None:
        if self.floor < 0 or self.spread < 0:
            raise ConfigError(f"a release delay cannot be negative (floor {self.floor}, spread {self.spread})")

    def delay(self, rng: random.Random) -> float:
        """One release delay, from ``rng`` alone."""
        return self.floor + self.spread * rng.random()

    def release_at(self, asked: float, rng: random.Random) -> float:
        """When a move asked for at ``asked`` is released."""
        return asked + self.delay(rng)

    def wait(self, asked: float, now: float, rng: random.Random) -> float:
        """How long to hold a move asked for at ``asked`` and ready at ``now`` (0 if late)."""
        left = self.release_at(asked, rng) - now
        if left < 0:
            self.late += 1
            return 0.0
        return left


def pacing_for(seconds: float | None) -> Pacing:
    """A pacing whose floor covers a bot that thinks up to ``seconds`` a decision (with
    room for a loaded machine): the rule-based bots answer in milliseconds."""
    think = seconds or 0.0
    return Pacing(floor=max(0.5, 3 * think), spread=0.6)


SEARCH_THINK = 0.75
"""Seconds of pacing room for a search bot (``expert`` thinks about 0.25 s a decision)."""


def bot_pacing(bot: object, delay: float) -> Pacing | None:
    """How a table that shows bots' moves ``delay`` seconds apart paces ``bot``: released at
    least ``delay / 2`` after it was asked (plus room for a search bot's thinking), plus a
    draw of up to ``delay / 2``, so the pace of play stays what it was and no reply time says
    what the bot held. None when ``delay`` is 0 (a fast table: moves show as they are made)."""
    if delay <= 0:
        return None
    think = SEARCH_THINK if searches(bot) else 0.0  # the search bots have an iteration budget
    return Pacing(floor=0.5 * delay + think, spread=delay / 2)


__all__ = ["SEARCH_THINK", "Pacing", "bot_pacing", "pacing_for"]
