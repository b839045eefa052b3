"""Everything that can change a table, as data: the commands of its mailbox.

A table changes only by one command at a time, applied by its actor (:mod:`.actor`) through
:func:`.handle.handle`: the lobby's requests, what a socket says, a bot's answer and a timer's
call all arrive here. Nothing else writes a table's state.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..bots import Bot


# ------------------------------------------------------------------ the lobby (HTTP)
@dataclass(frozen=True, slots=True)
class Sit:
    seat: Any
    name: Any
    commitment: Any = None
    account: int | None = None  # the sitter's account, set by the server (one seat of a rated table each)


@dataclass(frozen=True, slots=True)
class Commit:
    token: Any
    commitment: Any


@dataclass(frozen=True, slots=True)
class Reveal:
    token: Any
    seed: Any


@dataclass(frozen=True, slots=True)
class Leave:
    token: Any


@dataclass(frozen=True, slots=True)
class AddBot:
    seat: Any
    bot: Any


@dataclass(frozen=True, slots=True)
class Free:
    seat: Any


@dataclass(frozen=True, slots=True)
class Start:
    seed: int | None = None  # tests only: a seeded game instead of a fair one


# ------------------------------------------------------------------ a socket
@dataclass(frozen=True, slots=True)
class Attach:
    """A socket said hello: ``seat`` (``None``: a spectator), the version it saw last. ``holder``:
    the digest of the seat token it said hello with, which the table checks against the seat's
    token now (a node that does not own the table found the seat in a copy of the row that may be
    older; a socket following its table to a new owner carries it too). ``None``: a caller in the
    table's own process that found the seat itself (tests)."""

    conn: str
    seat: int | None
    since: int | None
    lang: str = "en"
    holder: str | None = None


@dataclass(frozen=True, slots=True)
class Detach:
    conn: str


@dataclass(frozen=True, slots=True)
class Act:
    """A seat's action; with ``conn``, its answer goes to that socket and the change is fanned out."""

    seat: int
    seq: int | None
    text: str
    seen: int | None = None
    conn: str | None = None


@dataclass(frozen=True, slots=True)
class Undo:
    seat: int
    conn: str | None = None


@dataclass(frozen=True, slots=True)
class Chat:
    seat: int
    text: str
    conn: str | None = None


@dataclass(frozen=True, slots=True)
class Hint:
    seat: int
    conn: str | None = None


# ------------------------------------------------------------------ bots
@dataclass(frozen=True, slots=True)
class BotMoved:
    """A bot's answer to :class:`~.effects.Think`: its move, and the bot and generator as they came
    back (a search bot's memory). ``key`` is the position it was asked about."""

    seat: int
    key: tuple[int, int]
    action: Any
    bot: Bot
    rng: random.Random
    asked: float


@dataclass(frozen=True, slots=True)
class Release:
    """A bot's move whose pacing delay has passed."""

    seat: int
    key: tuple[int, int]
    action: Any


@dataclass(frozen=True, slots=True)
class StepBot:
    """The bot to move moves now, thinking on the table (tests, tables without an event loop)."""


# ------------------------------------------------------------------ clocks
@dataclass(frozen=True, slots=True)
class Advance:
    """A real-time game: apply what is due now (bots' plays, the game's timers)."""


@dataclass(frozen=True, slots=True)
class TimeUp:
    """A turn-based game's time limit may have run out."""


@dataclass(frozen=True, slots=True)
class MoveTimeUp:
    """A rated table's per-move clock may have run out for ``seat``'s move at ``version``."""

    seat: int
    version: int


@dataclass(frozen=True, slots=True)
class RenameSeat:
    """A seat's shown name becomes ``name`` (a deleted account's seats: its anonymous label)."""

    seat: int
    name: str


@dataclass(frozen=True, slots=True)
class HoldOver:
    """An away person's hold may have run out."""


@dataclass(frozen=True, slots=True)
class UpdatePause:
    """Look again at what a real-time game waits for."""


@dataclass(frozen=True, slots=True)
class Heal:
    """After a failed write: fan out what is committed, and let bots and timers go on."""


@dataclass(frozen=True, slots=True)
class Resume:
    """A table loaded from the log goes on: away seats, bots, timers."""


@dataclass(frozen=True, slots=True)
class Fan:
    """Fan the state out and let the bots move (after a change made outside a command: tests)."""


@dataclass(frozen=True, slots=True)
class Show:
    """What anyone may know of the table (its lobby summary)."""


@dataclass(frozen=True, slots=True)
class Look:
    """What an event's runner reads of its table (:func:`~.lifecycle.runner_look`), on any node:
    ``watcher`` is the connection id it watches the table as."""

    watcher: str


@dataclass(frozen=True, slots=True)
class CloseAll:
    code: int


Command = (Sit | Commit | Reveal | Leave | AddBot | Free | Start | Attach | Detach | Act | Undo | Chat | Hint
           | BotMoved | Release | StepBot | Advance | TimeUp | MoveTimeUp | RenameSeat | HoldOver | UpdatePause | Heal
           | Resume | Fan | Show | Look | CloseAll)
