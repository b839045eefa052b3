"""Tables: the lobby's seats and, once started, one game each.

A :class:`Table` is what the rest of the server holds of one table: its state
(:class:`~.state.TableState`, one plain object) and its actor (:class:`~.actor.Actor`, the one
writer of that state). Everything that changes a table is a command (:mod:`.commands`) applied by
:func:`.handle.handle`; the concerns it calls each have a module of their own:

* :mod:`.seating` -- seats and tokens;
* :mod:`.fairplay` -- the fair deals' commitments and reveals;
* :mod:`.lifecycle` -- start, the committed log, actions, undo, the end;
* :mod:`.driver` -- the real-time host and the game's timers;
* :mod:`.presence` -- connections, away seats and the real-time pause;
* :mod:`.botplay` -- bots and stand-ins;
* :mod:`.talk` -- chat and hints;
* :mod:`.fanout` -- every frame, built from ``state.view(seat)`` alone.

The methods below apply a command at once (:meth:`Actor.run_now`): the table's loading, and
tests that drive a table with no event loop. The server's tasks go through :meth:`ask` and
:meth:`post`, one command at a time.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from ..core.game import Game
from ..core.registry import load
from ..host.match import Match
from ..host.realtime import RealtimeHost
from . import fanout, lifecycle, seating
from .actor import Actor, LockedLog, LogRunner
from .botpool import BotPool
from .bus import LocalBus
from .commands import (
    Act,
    AddBot,
    Attach,
    Chat,
    CloseAll,
    Command,
    Commit,
    Detach,
    Fan,
    Free,
    Hint,
    Leave,
    Resume,
    Reveal,
    Sit,
    Start,
    StepBot,
    Undo,
    UpdatePause,
)
from .connection import Connection
from .ports import ActionLog, Bus
from .presence import SPECTATOR_PACE, pause_info
from .protocol import CLOSE_RESTART, TokenBucket
from .state import TableState
from .store import TableRow, Taken


class Table:
    """One table of the lobby and its game: its state and the actor that writes it."""

    def __init__(
        self,
        taken: Taken,
        log: ActionLog | LogRunner,
        *,
        bot_delay: float = 0.0,
        hold: float | None = 60.0,
        countdown: float | None = None,
        pool: BotPool | None = None,
        bus: Bus | None = None,
        lost: Callable[[str], None] | None = None,
        finished: Callable[[Table], None] | None = None,
    ) -> None:
        runner = log if isinstance(log, LogRunner) else LogRunner(log)
        row = taken.row
        game: Game = load(row.game, row.preset, **row.options)
        # this process owns the table from now on: its writes carry the epoch of its claim, and a
        # newer claim (another owner taking the table over) makes the log refuse them (ports.OwnerLease)
        self.s = TableState(row=row, log=LockedLog(runner), game=game, epoch=taken.epoch, hold=hold,
                            countdown=countdown, bot_delay=bot_delay)
        self.s.joined = row.status != "open" or any(seat.kind == "human" for seat in row.seats)
        self.id = row.id
        self.bus: Bus = bus if bus is not None else LocalBus()
        self.owner: str | None = None  # the address that created it (in memory only: the per-address cap)
        self.visitors = 0  # sockets on their way in (between finding the table and attaching)
        self.buckets: dict[str, TokenBucket] = {}  # per seat holder (token digest): rate limits across reconnects
        self.actor = Actor(self.s, self.bus, runner, pool, owner=lambda: self.owner or f"table {self.id}",
                           lost=None if lost is None else (lambda: _soon(lost, row.id)),
                           finished=None if finished is None else (lambda: finished(self)))
        self._conns: dict[int, str] = {}  # id(connection) -> its bus id (connections attached by hand)
        lifecycle.load(self.s, taken)
        self.actor.settle()  # a table stored before fair deals gets its protocol stored now

    # ---------------------------------------------------------- what it is
    @property
    def row(self) -> TableRow:
        return self.s.row

    @property
    def game(self) -> Game:
        return self.s.game

    @property
    def match(self) -> Match | None:
        return self.s.match

    @property
    def rt(self) -> RealtimeHost | None:
        return self.s.rt

    @property
    def epoch(self) -> int:
        return self.s.epoch

    @property
    def store(self) -> ActionLog:
        return self.actor.runner.raw

    @property
    def num_players(self) -> int:
        return self.s.num_players

    @property
    def version(self) -> int:
        """The game's version as the log holds it (during a change being stored: the one before)."""
        return self.actor.version

    @property
    def touched(self) -> float:
        return self.s.touched

    @touched.setter
    def touched(self, value: float) -> None:
        self.s.touched = value

    @property
    def joined(self) -> bool:
        return self.s.joined

    def ended(self) -> bool:
        """The game is over here and in the log: nobody writes the table any more."""
        return self.row.status == "over" and not self.actor.writing_over()

    @property
    def settled(self) -> bool:
        """No change is being stored now: what the state says is what the log holds."""
        return not self.actor.busy

    def left_seats(self) -> set[int]:
        """:func:`~.lifecycle.left_seats`."""
        return lifecycle.left_seats(self.s)

    def public(self) -> dict[str, Any]:
        return fanout.public(self.s)

    @property
    def pause(self) -> dict[str, Any] | None:
        return self.s.presence.pause

    def pause_info(self) -> dict[str, Any] | None:
        return pause_info(self.s)

    def unwatched(self) -> bool:
        return self.s.unwatched()

    def idle_since(self, now: float) -> float:
        """Seconds since anyone was at this table (0 while a socket is open or on its way, or a command waits)."""
        if self.s.players or self.s.spectators or self.visitors or self.actor.pending():
            return 0.0
        return now - self.s.touched

    def seat_for_token(self, token: str) -> int | None:
        return seating.seat_for_token(self.s.row, token)

    def is_host(self, token: Any) -> bool:
        return seating.is_host(self.s.row, token)

    def bucket(self, seat: int, fresh: TokenBucket) -> TokenBucket:
        """The rate limit of whoever holds ``seat`` now: reconnecting does not refill it."""
        holder = self.s.row.seats[seat].token_hash or str(seat)
        return self.buckets.setdefault(holder, fresh)

    def view_json(self, seat: int | None, lang: str) -> dict[str, Any]:
        return fanout.view_json(self.s, seat, lang)

    def state_frame(self, seat: int | None, lang: str) -> dict[str, Any]:
        return fanout.state_frame(self.s, seat, lang)

    # ---------------------------------------------------------- the mailbox
    async def ask(self, cmd: Command) -> Any:
        return await self.actor.ask(cmd)

    def post(self, cmd: Command) -> None:
        self.actor.post(cmd)

    def now(self, cmd: Command) -> Any:
        return self.actor.run_now(cmd)

    def release(self) -> None:
        """Forget this table's tasks and timers (it is being dropped from memory)."""
        self.actor.close()

    # ---------------------------------------------------------- at once (loading, tests)
    def resume(self) -> None:
        """A game loaded from the log goes on: away seats, bots, timers."""
        self.now(Resume())

    def sit(self, seat: Any, name: Any, commitment: Any = None) -> str:
        return str(self.now(Sit(seat, name, commitment))["token"])

    def commit(self, token: Any, commitment: Any) -> int:
        return int(self.now(Commit(token, commitment))["seat"])

    def reveal(self, token: Any, seed: Any) -> int:
        return int(self.now(Reveal(token, seed))["seat"])

    def add_bot(self, seat: Any, bot: Any) -> None:
        self.now(AddBot(seat, bot))

    def free(self, seat: Any) -> None:
        self.now(Free(seat))

    def leave(self, token: Any) -> int:
        return int(self.now(Leave(token))["seat"])

    def start(self, seed: int | None = None) -> None:
        self.now(Start(seed))

    def act(self, seat: int, client_seq: int | None, text: str, seen: int | None = None) -> dict[str, Any]:
        """``seat``'s action: the ``ack`` or ``error`` frame for that seat (:meth:`after_change` fans it out)."""
        reply: dict[str, Any] = self.now(Act(seat, client_seq, text, seen))
        return reply

    def after_change(self) -> None:
        self.now(Fan())

    def step_bot(self) -> bool:
        return bool(self.now(StepBot()))

    def update_pause(self) -> None:
        self.now(UpdatePause())

    def undo(self, seat: int) -> dict[str, Any] | None:
        reply: dict[str, Any] | None = self.now(Undo(seat))
        return reply

    def chat(self, seat: int, text: str) -> dict[str, Any] | None:
        reply: dict[str, Any] | None = self.now(Chat(seat, text))
        return reply

    def hint(self, seat: int) -> dict[str, Any]:
        reply: dict[str, Any] = self.now(Hint(seat))
        return reply

    def join(self, conn: Connection, seat: int | None) -> str:
        """``conn`` on this table's bus: its id (a spectator's state frames are paced)."""
        cid = self.bus.join(conn)
        self._conns[id(conn)] = cid
        conn.seat = seat
        if seat is None:
            conn.pace = SPECTATOR_PACE
        return cid

    def attach(self, conn: Connection, seat: int | None, since: int | None) -> None:
        cid = self._conns.get(id(conn)) or self.join(conn, seat)
        self.now(Attach(cid, seat, since, conn.lang))

    def detach(self, conn: Connection) -> None:
        cid = self._conns.pop(id(conn), None)
        if cid is not None:
            self.now(Detach(cid))
            self.bus.leave(cid)

    def close_all(self, code: int = CLOSE_RESTART) -> None:
        self.now(CloseAll(code))

    @property
    def players(self) -> dict[int, str]:
        return self.s.players

    @property
    def spectators(self) -> dict[str, str]:
        return self.s.spectators


def _soon(callback: Callable[[str], None], table_id: str) -> None:
    """``callback(table_id)`` once the command under way is done (it may drop the table)."""
    try:
        asyncio.get_running_loop().call_soon(callback, table_id)
    except RuntimeError:
        callback(table_id)
