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

__all__ = ["DEFAULT_BOTS", "HINT_BOTS", "HUMAN", "SeatSpec", "default_seats", "parse_seats", "pick_bot"]

HUMAN = "human"
_HUMAN_WORDS = ("human", "h", "you", "me", "humano")

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
