"""Who sits where: ``--seats human,sensible,human:Ana`` parsed against a game's bots.

One entry per seat, in seat order. An entry is ``human`` (also ``h``, ``you``)
or a bot name of the game (``cardtable rules GAME`` lists them; ``bot`` means
the game's default bot), optionally followed by ``:NAME`` to name the seat.

>>> [str(s) for s in parse_seats("human,sensible", "trash")]
['human', 'sensible']
>>> parse_seats("h:Ana, bot", "trash")[0].name
'Ana'
"""

from __future__ import annotations

from dataclasses import dataclass

from ..bots.base import bot_names
from ..bots.roles import DEFAULT_BOTS, HINT_BOTS, pick_bot
from ..core.errors import ConfigError

__all__ = [
    "COUNTER_CLOCKWISE",
    "DEFAULT_BOTS",
    "HINT_BOTS",
    "HUMAN",
    "NO_PRIVATE_CARDS",
    "SeatSpec",
    "around",
    "default_seats",
    "parse_seats",
    "pick_bot",
]

HUMAN = "human"
_HUMAN_WORDS = ("human", "h", "you", "me", "humano")

COUNTER_CLOCKWISE = frozenset({"trex"})
"""Games whose play goes counter-clockwise (docs/rules/index.md §0.2, TX-2): the next seat sits on your right.
The others (Trash, TR-6) go clockwise: the next seat sits on your left."""


NO_PRIVATE_CARDS = frozenset({"trash"})
"""Games where no seat sees a card another seat may not (Trash: face-down slots are hidden from
everyone, the card in hand is public): hot-seat play needs no cover screen between turns."""


def around(me: int, game: str) -> tuple[int, int, int, int]:
    """The seats of a four-seat table drawn from ``me``'s chair: bottom, left, top, right.

    The next seat in the direction of play is on the right when play goes counter-clockwise
    (Trex) and on the left when it goes clockwise (Trash):

    >>> around(0, "trex")
    (0, 3, 2, 1)
    >>> around(0, "trash")
    (0, 1, 2, 3)
    """
    after, opposite, before = (me + 1) % 4, (me + 2) % 4, (me + 3) % 4
    if game in COUNTER_CLOCKWISE:
        return me, before, opposite, after
    return me, after, opposite, before


@dataclass(frozen=True)
class SeatSpec:
    """One seat: ``kind`` is ``human`` or a bot name; ``name`` an optional display name."""

    kind: str
    name: str = ""

    @property
    def is_human(self) -> bool:
        return self.kind == HUMAN

    def __str__(self) -> str:
        return self.kind + (f":{self.name}" if self.name else "")


def parse_seats(text: str, game: str) -> tuple[SeatSpec, ...]:
    """The seats written as ``text``; :class:`ConfigError` names a bad entry."""
    seats = []
    known = bot_names(game)
    for raw in text.split(","):
        entry = raw.strip()
        if not entry:
            raise ConfigError(f"--seats: empty entry in {text!r} (write e.g. human,sensible)")
        kind, _, name = entry.partition(":")
        kind = kind.strip().lower()
        if kind in _HUMAN_WORDS:
            kind = HUMAN
        elif kind == "bot":
            kind = pick_bot(game, DEFAULT_BOTS)
        elif kind not in known:
            raise ConfigError(f"--seats: {kind!r} is neither human nor a {game} bot ({', '.join(known)})")
        seats.append(SeatSpec(kind, name.strip()))
    return tuple(seats)


def default_seats(players: int, game: str, human: int = 0, bot: str | None = None) -> tuple[SeatSpec, ...]:
    """One human at seat ``human`` and bots (``bot`` or the game's default) elsewhere."""
    if bot is not None and bot not in bot_names(game):
        raise ConfigError(f"no {game} bot named {bot!r}; bots: {', '.join(bot_names(game))}")
    kind = bot or pick_bot(game, DEFAULT_BOTS)
    return tuple(SeatSpec(HUMAN) if s == human else SeatSpec(kind) for s in range(players))
