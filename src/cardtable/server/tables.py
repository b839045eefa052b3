"""Tables: the lobby's seats and, once started, one :class:`~cardtable.host.Match` each.

A :class:`Table` is the single authority over its game, the one writer of its state:
every change, a person's, a bot's or a timer's, happens under :attr:`Table.lock`. Its
concerns each have a module of their own, and the table holds one of each:

* :mod:`.seating` -- seats and tokens (:attr:`Table.seating`);
* :mod:`.fairplay` -- the fair deals' commitments and reveals (:attr:`Table.fairplay`);
* :mod:`.lifecycle` -- start, the committed log, actions, the end (:attr:`Table.flow`);
* :mod:`.driver` -- the real-time host's driver and the game's timers (:attr:`Table.driver`);
* :mod:`.presence` -- sockets, away seats and the real-time pause (:attr:`Table.presence`);
* :mod:`.botplay` -- bots and stand-ins (:attr:`Table.bots`);
* :mod:`.talk` -- chat and hints (:attr:`Table.talk`);
* :mod:`.fanout` -- every frame, built from ``state.view(seat)`` alone (:attr:`Table.fanout`);
* :mod:`.connection` -- the transport of one socket.

The methods below are the table's whole interface to the app; :mod:`.hub` holds every table.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from typing import Any

from ..core.game import Game
from ..core.registry import load
from ..host.match import Match
from ..host.realtime import RealtimeHost
from .botplay import BotDriver
from .botpool import BotPool
from .connection import Connection
from .driver import Driver
from .fairplay import FairPlay
from .fanout import FanOut
from .lifecycle import Flow
from .presence import Presence
from .protocol import CLOSE_RESTART, TokenBucket
from .seating import Seating
from .store import Store, TableRow
from .talk import Talk


class Table:
    """One table of the lobby and its game: the shared state and its parts."""

    def __init__(
        self,
        row: TableRow,
        store: Store,
        *,
        bot_delay: float = 0.0,
        hold: float | None = 60.0,
        countdown: float | None = None,
        pool: BotPool | None = None,
    ) -> None:
        self.row = row
        self.id = row.id
        self.store = store
        self.hold = hold  # seconds an away person's turn waits for them (None: forever)
        self.countdown = countdown  # seconds a real-time game waits after everyone is back (None: never stops)
        self.game: Game = load(row.game, row.preset, **row.options)
        self.match: Match | None = None
        self.rt: RealtimeHost | None = None  # simultaneous games only
        self.lock = asyncio.Lock()
        self.players: dict[int, Connection] = {}
        self.spectators: set[Connection] = set()
        self.buckets: dict[int, TokenBucket] = {}  # per-seat rate limits, kept across reconnects
        self.visitors = 0  # sockets on their way in (between finding the table and attaching)
        self.owner: str | None = None  # the address that created it (in memory only: the per-address cap)
        self.joined = row.status != "open" or any(s.kind == "human" for s in row.seats)  # someone sat or came
        self.touched = time.monotonic()
        # this process owns the table from now on: its writes carry this epoch, and a newer claim
        # (another owner taking the table over) makes the log refuse them (ports.OwnerLease)
        self.epoch = store.claim(row.id)
        self.seating = Seating(self)
        self.fairplay = FairPlay(self)
        self.flow = Flow(self)
        self.driver = Driver(self)
        self.presence = Presence(self)
        self.bots = BotDriver(self, bot_delay, pool)
        self.talk = Talk(self)
        self.fanout = FanOut(self)
        if row.status in ("playing", "over"):
            self.flow.replay()

    # ---------------------------------------------------------- the table
    @property
    def num_players(self) -> int:
        return self.game.num_players

    @property
    def version(self) -> int:
        return self.match.seq if self.match is not None else 0

    @property
    def pause(self) -> dict[str, Any] | None:
        return self.presence.pause

    def unwatched(self) -> bool:
        """Bots alone at the table and nobody connected: its game waits for a spectator."""
        return not self.players and not self.spectators and all(s.kind == "bot" for s in self.row.seats)

    def connections(self) -> Iterator[Connection]:
        """Every socket at the table, seats first."""
        yield from list(self.players.values())
        yield from list(self.spectators)

    def public(self) -> dict[str, Any]:
        """What anyone may know of the table: no tokens, no seed (the fair deal's server seed
        once the game is over)."""
        return {
            "id": self.id,
            "game": self.row.game,
            "title": self.game.title,
            "preset": self.row.preset,
            "options": self.row.options,
            "status": self.row.status,
            "version": self.version,
            "pause": self.presence.pause_info(),
            "watchers": len(self.spectators),
            "seats": [
                {"seat": s.seat, "kind": s.kind, "name": s.name, "online": s.seat in self.players,
                 "auto": s.seat in self.bots.standins or s.seat in self.bots.realtime_standins}
                for s in self.row.seats
            ],
            "fair": self.fairplay.public(),
            "undo": self.row.undo,
        }

    def idle_since(self, now: float) -> float:
        """Seconds since anyone was at this table (0 while a socket is open or on its way, or the lock is held)."""
        if self.players or self.spectators or self.visitors or self.lock.locked():
            return 0.0
        return now - self.touched

    def resume(self) -> None:
        """A game loaded from the store goes on: away seats, bots, timers (needs a running loop)."""
        if self.match is not None:
            self.presence.away_since_start()
        self.presence.update_pause()
        self.bots.kick()
        self.driver.arm_timer()

    def release(self) -> None:
        """Forget this table's tasks and timers (it is being dropped from memory)."""
        self.bots.release_tasks()
        self.driver.release_tasks()

    # ------------------------------------------------------------- seats
    def seat_for_token(self, token: str) -> int | None:
        return self.seating.seat_for_token(token)

    def is_host(self, token: Any) -> bool:
        return self.seating.is_host(token)

    def sit(self, seat: Any, name: Any, commitment: Any = None) -> str:
        return self.seating.sit(seat, name, commitment)

    def commit(self, token: Any, commitment: Any) -> int:
        return self.fairplay.commit(token, commitment)

    def reveal(self, token: Any, seed: Any) -> int:
        return self.fairplay.reveal(token, seed)

    def add_bot(self, seat: Any, bot: Any) -> None:
        self.seating.add_bot(seat, bot)

    def free(self, seat: Any) -> None:
        self.seating.free(seat)

    def leave(self, token: Any) -> int:
        return self.seating.leave(token)

    # -------------------------------------------------------------- game
    def start(self, seed: int | None = None) -> None:
        self.flow.start(seed)

    def act(self, seat: int, client_seq: int | None, text: str, seen: int | None = None) -> dict[str, Any]:
        """Apply ``seat``'s action (lock held): the ``ack`` or ``error`` frame for that seat."""
        return self.flow.act(seat, client_seq, text, seen)

    def after_change(self) -> None:
        """Fan the new state out and let the bots move."""
        self.flow.after_change()

    def step_bot(self) -> bool:
        return self.bots.step()

    def update_pause(self) -> None:
        self.presence.update_pause()

    def pause_info(self) -> dict[str, Any] | None:
        return self.presence.pause_info()

    # ----------------------------------------------------- people, frames
    def attach(self, conn: Connection, seat: int | None, since: int | None) -> None:
        self.presence.attach(conn, seat, since)

    def detach(self, conn: Connection) -> None:
        self.presence.detach(conn)

    def chat(self, seat: int, text: str) -> dict[str, Any] | None:
        return self.talk.chat(seat, text)

    def hint(self, seat: int) -> dict[str, Any]:
        return self.talk.hint(seat)

    def undo(self, seat: int) -> dict[str, Any] | None:
        """Take back ``seat``'s last move and the bots' replies (lock held): ``None``, or an ``error`` frame."""
        return self.flow.undo(seat)

    def view_json(self, seat: int | None, lang: str) -> dict[str, Any]:
        return self.fanout.view_json(seat, lang)

    def state_frame(self, seat: int | None, lang: str) -> dict[str, Any]:
        return self.fanout.state_frame(seat, lang)

    def close_all(self, code: int = CLOSE_RESTART) -> None:
        self.fanout.close_all(code)

