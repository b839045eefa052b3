"""What a change of a table asks the world to do, as data.

A table's concerns (:mod:`.seating`, :mod:`.lifecycle`, ...) change the table's state and say
what must follow in :class:`Effects`; they write no database, send no frame and start no timer
themselves. The table's actor (:mod:`.actor`) carries the effects out in one order:

1. every :class:`Persist`, in order, to the action log; if one fails, nothing else of the change
   happens: the table is rebuilt from what the log holds (:func:`.lifecycle.write_failed`);
2. then what leaves: :class:`Send`, :class:`Drop` and :class:`Close` to connections (through the
   bus), :class:`Schedule` (a command to the same table later), :class:`Think` (a bot's move worked
   out away from the table, answered by a :class:`~.commands.BotMoved` command).

So a frame that tells of a change, an acknowledgement included, leaves only after the change is
durable, whether the log answers at once (SQLite) or after a round trip (a shared database).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .connection import Outgoing

if TYPE_CHECKING:
    from ..bots import Bot
    from .commands import Command


@dataclass(slots=True)
class Persist:
    """Call ``op`` of the action log with ``args`` (and the owner's lease epoch when ``fenced``)."""

    op: str
    args: tuple[Any, ...]
    fenced: bool = False


@dataclass(slots=True)
class Send:
    """A frame to one connection; ``latest``: it replaces a queued unsent frame of that key."""

    to: str
    frame: Outgoing
    latest: str | None = None


@dataclass(slots=True)
class Drop:
    """Forget a queued unsent frame of key ``latest`` on one connection."""

    to: str
    latest: str


@dataclass(slots=True)
class Close:
    """Close one connection once what is queued for it is sent."""

    to: str
    code: int
    reason: str


@dataclass(slots=True)
class Schedule:
    """``command`` to this table in ``delay`` seconds; one with a ``slot`` replaces the earlier
    one of that slot that has not run yet."""

    delay: float
    command: Command
    slot: str | None = None


@dataclass(slots=True)
class Think:
    """A bot's move at ``seat`` from ``view``, worked out away from the table and answered by
    ``BotMoved(seat, key, ...)``; ``key`` tells the table whether the position is still the one
    the bot was asked about."""

    seat: int
    key: tuple[int, int]
    bot: Bot
    view: Any
    rng: random.Random
    asked: float


@dataclass(slots=True)
class Finished:
    """The game is over (its end stored): results and ratings may be recorded."""


Effect = Persist | Send | Drop | Close | Schedule | Think | Finished


@dataclass(slots=True)
class Effects:
    """The effects of one change, in the order they were asked for."""

    items: list[Effect] = field(default_factory=list)

    def persist(self, op: str, *args: Any, fenced: bool = False) -> None:
        self.items.append(Persist(op, args, fenced))

    def send(self, to: str, frame: dict[str, Any] | Outgoing, latest: str | None = None) -> None:
        self.items.append(Send(to, frame if isinstance(frame, Outgoing) else Outgoing(frame), latest))

    def drop(self, to: str, latest: str) -> None:
        self.items.append(Drop(to, latest))

    def close(self, to: str, code: int, reason: str) -> None:
        self.items.append(Close(to, code, reason))

    def schedule(self, delay: float, command: Command, slot: str | None = None) -> None:
        self.items.append(Schedule(delay, command, slot))

    def think(self, think: Think) -> None:
        self.items.append(think)

    def finished(self) -> None:
        self.items.append(Finished())

    def take(self) -> list[Effect]:
        """The effects so far, and none left here."""
        items, self.items = self.items, []
        return items
