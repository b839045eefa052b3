"""A table's game from start to end: the match, the committed log, and every action through it.

The single writer: every action, a person's, a bot's or a timer's, goes through
:meth:`Flow.act` under the table's lock, is checked by the host, appended to the store
(committed) and only then acknowledged and fanned out.
"""

from __future__ import annotations

import contextlib
import secrets
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..bots import make_bot
from ..core.errors import CardtableError, IllegalActionError
from ..core.game import Action, State
from ..host.clock import PausableClock
from ..host.match import Match
from ..records.fairness import FAIR_SEED
from .connection import Outgoing
from .lobby import LobbyError, error_frame
from .ports import LogError
from .protocol import TokenBucket

if TYPE_CHECKING:
    from .tables import Table

UNDO_RATE = (1.0, 5.0)
"""Undos a seat may ask for: one a second, five at once (the server also bounds them per address).
An undo goes back to a kept copy of the state (:class:`UndoPoint`), so it costs a database
transaction and a new state frame, not a replay of the game."""


@dataclass
class UndoPoint:
    """A position a person may take their move back to: the version before the move, the move,
    and a copy of the state then (``None`` where a timer's action came between: rebuilt from the
    log when needed)."""

    version: int
    seat: int
    move: str
    state: State | None


class Flow:
    """Start, replay after a restart, actions and the end of one table's game."""

    def __init__(self, table: Table) -> None:
        self.t = table
        self.last_seq: dict[int, tuple[int, int]] = {}  # seat -> (its last client seq, the version it made)
        self._pending: tuple[int, int | None] | None = None  # the seat's action being committed
        self.undos = 0  # undos since this table was loaded: a bot that thought before one drops its move
        self.undo_buckets: dict[int, TokenBucket] = {}  # per seat (UNDO_RATE)
        # an undo table's positions to go back to, oldest first, and every person's own move
        # (version, seat): an undo never takes back another person's choice
        self.points: list[UndoPoint] = []
        self.people_moves: list[tuple[int, int]] = []

    # -------------------------------------------------------------- start
    def start(self, seed: int | None = None) -> None:
        """The host's start. A fair table starts once every seat has revealed its seed: until
        then the start waits for the last reveal (:meth:`FairPlay.reveal` calls this again).
        ``seed`` (tests only): a seeded game instead, not fair."""
        t = self.t
        if t.row.status != "open":
            raise LobbyError(409, "started", "the game has started")
        if any(s.kind == "open" for s in t.row.seats):
            raise LobbyError(409, "seats_open", "every seat needs a player or a bot")
        if seed is not None:
            t.fairplay.seeded()
        elif t.fairplay.deal is not None:
            if not t.fairplay.ready():
                t.fairplay.start_wanted = True
                t.fanout.broadcast_table()
                return
            seed = FAIR_SEED
        seed = secrets.randbits(64) if seed is None else seed
        t.store.start(t.id, seed)
        t.row.seed = seed
        t.row.status = "playing"
        match = self.new_match()
        if t.rt is not None and t.countdown is not None:  # a race starts after "ready, 3, 2, 1"
            assert isinstance(match.clock, PausableClock)
            match.clock.pause()  # Presence.update_pause counts down and lets it go
        t.fanout.broadcast_table()
        t.fanout.broadcast_state()
        t.presence.away_since_start()
        t.presence.update_pause()
        t.bots.kick()
        t.driver.arm_timer()

    def new_match(self) -> Match:
        t = self.t
        realtime = t.game.realtime
        bots = {} if realtime else {s.seat: make_bot(t.row.game, s.name) for s in t.row.seats if s.kind == "bot"}
        clock = PausableClock() if realtime else None
        fair = t.fairplay.deal if t.fairplay.ready() else None
        match = Match(t.game, seed=t.row.seed, bots=bots, bot_seed=t.row.bot_seed, clock=clock, fair=fair)
        match.listeners.append(self._persist)
        t.match = match
        t.rt = None
        if realtime:
            t.driver.make_host()
        return match

    def replay(self) -> None:
        """Rebuild the game from the seed (a fair game: its stored protocol's seeds) and the
        committed log (after a restart or a failed write)."""
        t = self.t
        match = self.new_match()
        t.fanout.checkpoints.clear()
        self.last_seq = {}
        self.points, self.people_moves = [], []
        for row in t.store.actions(t.id):
            if t.row.undo and row.client_seq is not None:
                self._mark_person_move(row.seat, row.version, row.action, match.state.clone)
            match.state.play(t.game.parse_action(row.action))
            match.seq = row.version
            if row.client_seq is not None:
                self.last_seq[row.seat] = (row.client_seq, row.version)
        for seat, seq in t.store.undone_seqs(t.id).items():  # a resend of a move taken back stays a resend
            if seq > self.last_seq.get(seat, (0, 0))[0]:
                self.last_seq[seat] = (seq, match.seq)
        if t.rt is not None:
            t.driver.make_host()
            t.presence.update_pause()

    # ------------------------------------------------------------ actions
    @contextlib.contextmanager
    def pending_action(self, seat: int, client_seq: int | None) -> Iterator[None]:
        """While a seat's action is with the host: its client seq goes into the log with it."""
        self._pending = (seat, client_seq)
        try:
            yield
        finally:
            self._pending = None

    def client_seq_of(self, seat: int) -> int | None:
        """The client seq of ``seat``'s action being committed now (``None``: a bot's, a timer's)."""
        if self._pending is not None and self._pending[0] == seat:
            return self._pending[1]
        return None

    def acked(self, seat: int, client_seq: int | None, version: int) -> None:
        if client_seq is not None:
            self.last_seq[seat] = (client_seq, version)

    def write_failed(self, client_seq: int | None) -> dict[str, Any]:
        """The log could not be written: rebuild from what is committed, try again later by
        itself (bots, timers); the seat's ``server`` error."""
        self.rebuild()
        self.t.driver.failed()
        self.t.after_change()
        return error_frame("server", "the action could not be saved (the server's store is not writable "
                           "now); try again", client_seq)

    def rebuild(self) -> None:
        """The game as committed, after a write that failed (the state in memory went ahead of the log)."""
        try:
            self.replay()
        except Exception as exc:  # not even readable: the next look (after the backoff) tries again
            print(f"cardtable serve: table {self.t.id} could not be rebuilt yet: {exc}", file=sys.stderr)

    def _persist(self, seat: int, action: Action) -> None:
        """Host listener: every accepted action (a seat's, a bot's, a timer's) is
        committed to the log before the host returns, so before any ack."""
        t = self.t
        assert t.match is not None
        t.store.append(t.id, t.match.seq, seat, str(action), self.client_seq_of(seat), epoch=t.epoch)
        t.driver.succeeded()

    def act(self, seat: int, client_seq: int | None, text: str, seen: int | None = None) -> dict[str, Any]:
        """Apply ``seat``'s action; the reply frame (``ack`` or ``error``) for that seat.

        ``seen`` is the version of the state the client chose the action on: in
        a simultaneous game an action that was overtaken (``seen`` older than
        now) and is no longer legal is an ``error`` with code ``lost_race``
        rather than ``illegal`` (SP-13). The caller holds the table's lock. Other
        seats and spectators get the new state through the fan-out.
        """
        t = self.t
        if t.match is None:
            return error_frame("not_started", "the game has not started", client_seq)
        if client_seq is not None:
            last = self.last_seq.get(seat)
            if last is not None and client_seq <= last[0]:
                # a resend (R2, R3): answer with the original result, apply nothing
                return {"type": "ack", "seq": client_seq, "version": last[1] if client_seq == last[0] else None,
                        "dup": True}
        try:
            action = t.game.parse_action(text)
        except CardtableError as exc:
            return error_frame("bad_action", str(exc), client_seq)
        named = getattr(action, "seat", None)
        if isinstance(named, int) and named != seat:  # Spit actions name a seat: it must be the token's (P7)
            return error_frame("illegal", "that action belongs to another seat", client_seq)
        if t.rt is not None:
            return t.driver.act(seat, client_seq, action, seen)
        before = t.match.seq
        kept = t.match.state.clone() if t.row.undo and client_seq is not None else None
        with self.pending_action(seat, client_seq):
            try:
                version = t.match.submit(seat, action)
            except IllegalActionError as exc:
                if t.match.seq != before:  # a timer expiry was accepted first
                    t.after_change()
                return error_frame("illegal", str(exc), client_seq)
            except Exception:
                return self.write_failed(client_seq)
        if kept is not None:  # the copy is of this move's position unless a timer's action came first
            self._mark_person_move(seat, version, str(action), lambda: kept if version - 1 == before else None,
                                   position=kept)
        self.acked(seat, client_seq, version)
        return {"type": "ack", "seq": client_seq, "version": version}

    def _mark_person_move(self, seat: int, version: int, move: str, copy: Any, position: State | None = None) -> None:
        """A person's own move made ``version`` (an undo table): kept as a point to go back to if
        the person chose it among two legal actions or more (the page answers a question with one
        answer by itself, even Trash's lone "stock"). ``position``: the state the move was chosen
        in (default: the match's state now, before the move is played); ``copy()`` makes the copy kept."""
        assert self.t.match is not None
        state = position if position is not None else self.t.match.state
        self.people_moves.append((version, seat))
        if state.current_player() == seat and len(state.legal_actions(seat)) > 1:
            self.points.append(UndoPoint(version - 1, seat, move, copy()))

    def after_change(self) -> None:
        """Mark the end, fan the new state out and let the bots move."""
        t = self.t
        if t.match is not None and t.match.is_over and t.row.status != "over":
            try:
                t.store.set_status(t.id, "over")
            except LogError:
                t.driver.failed()  # marked over when the store works again
            else:
                t.row.status = "over"
                t.fanout.broadcast_table()
        t.fanout.broadcast_state()
        t.bots.kick()

    # ---------------------------------------------------------------- undo
    def undo_refused(self, seat: int) -> dict[str, Any] | None:
        """Why ``seat`` may not take a move back now (an ``error`` frame), or ``None``.

        Undo is a table option (chosen at creation, off by default), for one person against bots
        only: refused while any other seat is a person's, and never in a real-time game (Spit),
        nor before the start or after the end."""
        t = self.t
        if not t.row.undo:
            return error_frame("undo_off", "this table was created without undo")
        if t.rt is not None:
            return error_frame("undo_realtime", "a real-time game has no undo")
        if t.match is None:
            return error_frame("not_started", "the game has not started")
        if t.match.is_over:
            return error_frame("over", "the game is over: no more undo")
        if any(s.kind == "human" and s.seat != seat for s in t.row.seats):
            return error_frame("undo_people", "undo is only for a person alone against bots: "
                               "another person plays at this table")
        return None

    def undo_point(self, seat: int) -> UndoPoint | dict[str, Any]:
        """Where the table goes back to when ``seat`` undoes: the position before its last move
        that it chose itself (not a stand-in's or a timer's move), so its move and every bot's
        reply after it are taken back; an ``error`` frame if there is none, or if another person's
        own move came after it (a person who left and whose seat a stand-in now plays: an undo
        never takes back another person's choice)."""
        mine = next((p for p in reversed(self.points) if p.seat == seat), None)
        if mine is None:
            return error_frame("undo_nothing", "you have no move to take back")
        if any(version > mine.version and other != seat for version, other in self.people_moves):
            return error_frame("undo_people", "another person's move came after yours: it is not taken back")
        return mine

    def _state_at(self, version: int) -> State:
        """The state at ``version``, played again from the deal (a point kept without a copy)."""
        t = self.t
        assert t.match is not None
        state = t.match.new_state()
        for row in t.store.actions(t.id):
            if row.version > version:
                break
            state.play(t.game.parse_action(row.action))
        return state

    def undo(self, seat: int) -> dict[str, Any] | None:
        """Take back ``seat``'s last own move and every bot move after it (lock held): committed
        to the store, then the table goes back to the copy of the state kept at that point, and
        everyone gets an ``undo`` frame and the state from ``state.view(seat)``. ``None``, or an
        ``error`` frame for the seat (nothing changes)."""
        t = self.t
        refused = self.undo_refused(seat)
        if refused is not None:
            return refused
        bucket = self.undo_buckets.setdefault(seat, TokenBucket(*UNDO_RATE))
        if not bucket.take():
            return error_frame("rate_limited", "too many undos; wait a little")
        assert t.match is not None
        found = self.undo_point(seat)
        if isinstance(found, dict):
            return found
        try:
            position = found.state if found.state is not None else self._state_at(found.version)
        except (LogError, CardtableError):
            return error_frame("server", "the game could not be read back; try again")
        before = t.version
        try:
            t.store.undo(t.id, found.version, epoch=t.epoch)
        except LogError:
            return error_frame("server", "the undo could not be saved (the server's store is not writable "
                               "now); try again")
        self.undos += 1
        self._go_back(found, position)
        t.bots.standins.clear()  # a stand-in's memory is of the line taken back
        t.talk.forget()
        view = t.match.state.view(seat)
        after = view.events[-1].seq + 1 if view.events else None
        frame = {"type": "undo", "seat": seat, "version": t.version, "taken": before - t.version,
                 "next_event": after}
        public = Outgoing(frame)
        for conn in t.connections():  # the move taken back is named to its own seat only
            conn.drop("state")
            conn.push({**frame, "move": found.move} if conn.seat == seat else public)
        t.after_change()
        if t.driver.timer_task is not None:  # the time limit's clock starts again, as after a restart
            t.driver.timer_task.cancel()
            t.driver.timer_task = None
        t.driver.arm_timer()
        return None

    def _go_back(self, point: UndoPoint, position: State) -> None:
        """The table as after a restart at ``point``: a new match (fresh bots, as a replay makes)
        in ``position``; the points and moves after it forgotten; a resend of a move taken back
        stays a resend."""
        t = self.t
        match = self.new_match()
        match.state = position
        match.seq = point.version
        t.fanout.checkpoints.clear()
        self.points = [p for p in self.points if p.version < point.version]
        self.people_moves = [(v, s) for v, s in self.people_moves if v <= point.version]
        self.last_seq = {seat: (seq, min(version, point.version)) for seat, (seq, version) in self.last_seq.items()}
