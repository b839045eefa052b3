"""A table's state: one plain object, written only by the table's actor.

Each concern keeps its own part of it (:class:`FairData`, :class:`FlowData`, ...), and the
functions of the concern's module take the whole :class:`TableState` and change it; what must
follow (a row to store, a frame to send, a timer) goes into :attr:`TableState.fx`
(:mod:`.effects`). No part holds a reference to another: they meet here.
"""

from __future__ import annotations

import random
import time
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..core.game import Game, State
from ..host.match import Match
from ..host.realtime import RealtimeHost
from .effects import Effects
from .protocol import TokenBucket
from .store import TableRow

if TYPE_CHECKING:
    from ..bots import Bot
    from ..records.fairness import FairDeal
    from .ports import ActionLog


@dataclass
class FairData:
    """The fair-deal protocol (:mod:`.fairplay`): ``deal`` is ``None`` only for a seeded game."""

    deal: FairDeal | None = None
    start_wanted: bool = False  # the host asked to start before every seed was in


@dataclass
class UndoPoint:
    """A position a person may take their move back to: the version before the move, the move,
    and a copy of the state then (``None`` where a timer's action came between: rebuilt from the
    log when needed)."""

    version: int
    seat: int
    move: str
    state: State | None


@dataclass
class FlowData:
    """The game's flow (:mod:`.lifecycle`)."""

    last_seq: dict[int, tuple[int, int]] = field(default_factory=dict)  # seat -> (last client seq, its version)
    pending: tuple[int, int | None] | None = None  # the seat's action being applied, and its client seq
    held: dict[int, list[tuple[int, Any]]] = field(default_factory=dict)  # seat -> (client seq, action) held (SP-10)
    applied: dict[int, dict[int, int]] = field(default_factory=dict)  # seat -> {client seq: version}, the newest
    undos: int = 0  # undos since the table was loaded: a bot that thought before one drops its move
    undo_buckets: dict[int, TokenBucket] = field(default_factory=dict)
    points: list[UndoPoint] = field(default_factory=list)  # an undo table's positions to go back to
    people_moves: list[tuple[int, int]] = field(default_factory=list)  # (version, seat) of people's own moves


@dataclass
class ClockData:
    """The real-time host's driving and the game's timers (:mod:`.driver`)."""

    accepted: list[int] = field(default_factory=list)  # versions of the arrivals accepted in one advance
    failures: int = 0  # writes failed in a row: the backoff before the table tries again
    parked: bool = False  # bots alone and nobody watching: the clock stands still until somebody comes


@dataclass
class PresenceData:
    """Away seats and the real-time pause (:mod:`.presence`)."""

    away: dict[int, float] = field(default_factory=dict)  # human seat -> when it went offline (monotonic)
    pause: dict[str, Any] | None = None  # what a real-time game waits for (R9)
    resume_at: float | None = None
    waited: dict[int, float] = field(default_factory=dict)  # seat -> seconds the game stood still for it
    blamed: list[int] = field(default_factory=list)  # the seats the clock stands still for now
    blamed_since: float | None = None


@dataclass
class BotData:
    """Stand-ins and the bot being asked (:mod:`.botplay`)."""

    standins: dict[int, tuple[Bot, random.Random]] = field(default_factory=dict)
    realtime_standins: set[int] = field(default_factory=set)
    thinking: tuple[int, int] | None = None  # the position a bot was asked about and has not answered yet


@dataclass
class MoveClockData:
    """A rated table's per-move clock (:mod:`.moveclock`)."""

    turn: tuple[int, int] | None = None  # (seat, version) of the move being timed
    started: float = 0.0  # when that move's time began (monotonic)
    deal: Any = None  # the deal the banks belong to: each deal gives every seat a full bank
    banks: dict[int, float] = field(default_factory=dict)  # human seat -> seconds of bank left
    timeouts: dict[int, int] = field(default_factory=dict)  # human seat -> moves a stand-in made for it


@dataclass
class TalkData:
    """Chat lines and hint advisers (:mod:`.talk`)."""

    log: deque[dict[str, Any]] = field(default_factory=deque)
    hint_bots: dict[int, Bot] = field(default_factory=dict)


@dataclass
class FanData:
    """Copies of the state kept for resumes (:mod:`.fanout`)."""

    checkpoints: dict[int, Any] = field(default_factory=dict)
    replayed: int = 0  # actions played again to serve resumes


@dataclass(eq=False)
class TableState:
    """One table of the lobby and its game."""

    row: TableRow
    log: ActionLog  # read from by the concerns (a replay); written only through Persist effects
    game: Game
    epoch: int  # this owner's lease epoch: every write carries it
    hold: float | None = 60.0  # seconds an away person's turn waits for them (None: forever)
    countdown: float | None = None  # seconds a real-time game waits after everyone is back (None: never stops)
    bot_delay: float = 0.0
    match: Match | None = None
    rt: RealtimeHost | None = None  # real-time games only
    players: dict[int, str] = field(default_factory=dict)  # seat -> the id of its connection
    spectators: dict[str, str] = field(default_factory=dict)  # connection id -> its language
    langs: dict[str, str] = field(default_factory=dict)  # a seat's connection id -> its language
    joined: bool = False  # someone sat or came
    touched: float = field(default_factory=time.monotonic)
    fair: FairData = field(default_factory=FairData)
    flow: FlowData = field(default_factory=FlowData)
    clock: ClockData = field(default_factory=ClockData)
    presence: PresenceData = field(default_factory=PresenceData)
    bots: BotData = field(default_factory=BotData)
    talk: TalkData = field(default_factory=TalkData)
    fan: FanData = field(default_factory=FanData)
    moves: MoveClockData = field(default_factory=MoveClockData)
    left: set[int] = field(default_factory=set)  # seats whose person left the game in progress (abandoned)
    accounts: dict[int, int] = field(default_factory=dict)  # seat -> the account that sat there, while in memory
    fx: Effects = field(default_factory=Effects)

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def num_players(self) -> int:
        return self.game.num_players

    @property
    def version(self) -> int:
        return self.match.seq if self.match is not None else 0

    def unwatched(self) -> bool:
        """Bots alone at a casual table and nobody connected: its game waits for a spectator. A
        rated game goes on to its end whoever is there, so that its result and ratings are
        recorded (leaving a losing game and closing the page never escapes them)."""
        return (not self.row.rated and not self.players and not self.spectators
                and all(s.kind == "bot" for s in self.row.seats))

    def connections(self) -> list[str]:
        """Every connection at the table, seats first."""
        return [*self.players.values(), *self.spectators]

    def lang_of(self, conn: str) -> str:
        return self.spectators.get(conn) or self.langs.get(conn, "en")
