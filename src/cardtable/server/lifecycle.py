"""A table's game from start to end: the match, the committed log, and every action through it.

Every action, a person's, a bot's or a timer's, goes through :func:`act` (or the real-time
host, :mod:`.driver`): it is checked by the host and applied, its row goes into the change's
:class:`~.effects.Persist` effects, and the actor stores it before anything is acknowledged or
fanned out. A write that fails makes the table what the log holds again (:func:`write_failed`).
"""

from __future__ import annotations

import contextlib
import secrets
import sys
from collections.abc import Callable, Iterator
from typing import Any

from ..bots import make_bot
from ..core.errors import CardtableError, IllegalActionError
from ..core.game import Action, State
from ..host.clock import PausableClock
from ..host.factory import match_clock
from ..host.match import Match
from ..records.fairness import FAIR_SEED
from . import botplay, driver, fairplay, fanout, moveclock, presence, talk
from .commands import MoveTimeUp
from .connection import Outgoing
from .lobby import LobbyError, error_frame
from .ports import LogError
from .protocol import TokenBucket
from .state import TableState, UndoPoint
from .store import ActionRow, Taken

UNDO_RATE = (1.0, 5.0)
"""Undos a seat may ask for: one a second, five at once (the server also bounds them per address).
An undo goes back to a kept copy of the state (:class:`UndoPoint`), so it costs a database
transaction and a new state frame, not a replay of the game."""



# -------------------------------------------------------------- start
def start(s: TableState, seed: int | None = None) -> None:
    """The host's start. A fair table starts once every seat has revealed its seed: until then the
    start waits for the last reveal (:func:`.fairplay.reveal` calls this again). ``seed`` (tests
    only): a seeded game instead, not fair."""
    if s.row.status != "open":
        raise LobbyError(409, "started", "the game has started")
    if any(seat.kind == "open" for seat in s.row.seats):
        raise LobbyError(409, "seats_open", "every seat needs a player or a bot")
    if seed is not None:
        fairplay.seeded(s)
    elif s.fair.deal is not None:
        if not fairplay.ready(s):
            s.fair.start_wanted = True
            fanout.broadcast_table(s)
            return
        seed = FAIR_SEED
    seed = secrets.randbits(64) if seed is None else seed
    s.fx.persist("start", s.id, seed, fenced=True)
    s.row.seed = seed
    s.row.status = "playing"
    match = new_match(s)
    if s.rt is not None and s.countdown is not None:  # a race starts after "ready, 3, 2, 1"
        assert isinstance(match.clock, PausableClock)
        match.clock.pause()  # update_pause counts down and lets it go
    fanout.broadcast_table(s)
    fanout.broadcast_state(s)
    presence.away_since_start(s)
    presence.update_pause(s)
    botplay.kick(s)
    driver.arm_timer(s)


def new_match(s: TableState, *, host: bool = True) -> Match:
    """The table's match from its first state; with ``host``, a real-time game's host over it
    (a replay makes the host once the logged actions are played: the host schedules the timers
    that run in the state it is made over)."""
    realtime = s.game.realtime
    bots = {} if realtime else {seat.seat: make_bot(s.row.game, seat.name) for seat in s.row.seats
                                if seat.kind == "bot"}
    fair = s.fair.deal if fairplay.ready(s) else None
    match = Match(s.game, seed=s.row.seed, bots=bots, bot_seed=s.row.bot_seed, clock=match_clock(s.game), fair=fair)

    def persist(seat: int, action: Action) -> None:
        """Every accepted action (a seat's, a bot's, a timer's) is stored with the change."""
        s.fx.persist("append", s.id, match.seq, seat, str(action), client_seq_of(s, seat), fenced=True)

    match.listeners.append(persist)
    s.match = match
    s.rt = None
    if realtime and host:
        driver.make_host(s)
    return match


def load(s: TableState, taken: Taken) -> None:
    """The table as ``taken`` from the log: its row, fair-deal protocol and chat, and, once
    started, its game replayed. Who is connected stays."""
    s.row = taken.row
    fairplay.load(s)
    talk.load(s, taken.chat)
    s.match, s.rt = None, None
    if s.row.status in ("playing", "over"):
        replay(s, taken.actions, taken.undone)


def replay(s: TableState, actions: list[ActionRow], undone: dict[int, int]) -> None:
    """Rebuild the game from the seed (a fair game: its stored protocol's seeds) and the log's
    ``actions``; ``undone``: each seat's highest client seq among its moves taken back."""
    match = new_match(s, host=False)
    flow = s.flow
    s.fan.checkpoints.clear()
    flow.last_seq, flow.applied = {}, {}
    flow.points, flow.people_moves = [], []
    parsed: dict[str, Action] = {}  # a game plays few distinct actions many times: each is read once
    clock = moveclock.Rebuild(s) if s.row.clock is not None and not s.game.realtime else None
    for row in actions:
        action = parsed.get(row.action)
        if action is None:
            action = parsed[row.action] = s.game.parse_action(row.action)
        if clock is not None:
            clock.before(match.state, row)
        if s.row.undo and row.client_seq is not None:
            _mark_person_move(s, row.seat, row.version, row.action, match.state.clone)
        match.state.play(action)
        match.seq = row.version
        # the checkpoints a resume replays from, taken on the way: the first page back after a
        # take-over would replay the whole game again for its missed events
        fanout.keep_checkpoint(s, len(match.state.history), match.state)
        if row.client_seq is not None:
            acked(s, row.seat, row.client_seq, row.version)
    for seat, seq in undone.items():  # a resend of a move taken back stays a resend
        if seq > flow.last_seq.get(seat, (0, 0))[0]:
            flow.last_seq[seat] = (seq, match.seq)
    if clock is not None:
        clock.done(match.state)
    if s.game.realtime:
        driver.make_host(s)  # over the replayed state: its running timers are due again
        presence.update_pause(s)


def reload(s: TableState) -> None:
    """The table as the log holds it (after a write that failed: the state in memory went ahead
    of the log). Who is connected stays."""
    row = s.log.table(s.id)
    if row is None:
        raise LogError(f"table {s.id} is no longer in the log")
    load(s, Taken(row, s.epoch, s.log.actions(s.id), s.log.undone_seqs(s.id), s.log.chat(s.id, talk.CHAT_KEPT)))


def write_failed(s: TableState) -> None:
    """A write failed: the table is rebuilt from what is committed and tries again later by itself
    (bots, timers)."""
    try:
        reload(s)
    except Exception as exc:  # not even readable: the next look (after the backoff) tries again
        print(f"cardtable serve: table {s.id} could not be rebuilt yet: {exc}", file=sys.stderr)
    driver.failed(s)


# ------------------------------------------------------------ actions
@contextlib.contextmanager
def pending_action(s: TableState, seat: int, client_seq: int | None) -> Iterator[None]:
    """While a seat's action is with the host: its client seq goes into the log with it."""
    s.flow.pending = (seat, client_seq)
    try:
        yield
    finally:
        s.flow.pending = None


def client_seq_of(s: TableState, seat: int) -> int | None:
    """The client seq of ``seat``'s action being applied now (``None``: a bot's, a timer's)."""
    pending = s.flow.pending
    if pending is not None and pending[0] == seat:
        return pending[1]
    return None


APPLIED_KEPT = 64
"""A seat's newest applied client seqs kept with their versions, for answering resends."""


def acked(s: TableState, seat: int, client_seq: int | None, version: int) -> None:
    """``seat``'s action of ``client_seq`` was applied as ``version``. The seat's last seq stays
    its highest: a play SP-10 held back is applied after later seqs of the seat's that were not
    held (a spit request), and a resend of those stays a resend (R3)."""
    if client_seq is not None:
        last = s.flow.last_seq.get(seat)
        if last is None or client_seq >= last[0]:
            s.flow.last_seq[seat] = (client_seq, version)
        applied = s.flow.applied.setdefault(seat, {})
        applied[client_seq] = version
        if len(applied) > APPLIED_KEPT:
            del applied[next(iter(applied))]  # the oldest


def _resent(s: TableState, seat: int, client_seq: int, last: tuple[int, int]) -> dict[str, Any]:
    """The answer to a seq at or below the seat's last applied one (R2, R3): the original result
    of one applied (its version), an error for one that was refused or never sent (nothing was
    applied for it); one older than the seqs kept is a duplicate of unknown version."""
    applied = s.flow.applied.get(seat, {})
    if client_seq == last[0] or client_seq in applied:
        version = last[1] if client_seq == last[0] else applied[client_seq]
        return {"type": "ack", "seq": client_seq, "version": version, "dup": True}
    if len(applied) >= APPLIED_KEPT and client_seq < min(applied):
        return {"type": "ack", "seq": client_seq, "version": None, "dup": True}
    return error_frame("stale_seq", f"seq {client_seq} was not applied; the last applied is {last[0]}", client_seq)


def act(s: TableState, seat: int, client_seq: int | None, text: str, seen: int | None = None) -> dict[str, Any]:
    """Apply ``seat``'s action; the reply frame (``ack`` or ``error``) for that seat.

    ``seen`` is the version of the state the client chose the action on: in a simultaneous game
    an action that was overtaken (``seen`` older than now) and is no longer legal is an ``error``
    with code ``lost_race`` rather than ``illegal`` (SP-13). Other seats and spectators get the new
    state through :func:`after_change`.
    """
    m = s.match
    if m is None:
        return error_frame("not_started", "the game has not started", client_seq)
    if client_seq is not None:
        if any(seq == client_seq for seq, _ in s.flow.held.get(seat, [])):  # held back still (SP-10)
            return {"type": "ack", "seq": client_seq, "version": None, "queued": True, "dup": True}
        last = s.flow.last_seq.get(seat)
        if last is not None and client_seq <= last[0]:  # a resend (R2, R3): the original result, nothing applied
            return _resent(s, seat, client_seq, last)
    try:
        action = s.game.parse_action(text)
    except CardtableError as exc:
        return error_frame("bad_action", str(exc), client_seq)
    named = action.seat
    if named is not None and named != seat:  # Spit actions name a seat: it must be the token's (P7)
        return error_frame("illegal", "that action belongs to another seat", client_seq)
    if client_seq is not None and moveclock.overdue(s, seat):  # the clock ran out before it came
        moveclock.time_up(s, MoveTimeUp(seat, m.seq))
        return error_frame("time_up", "your time for this move ran out: a bot made it for you", client_seq)
    if s.rt is not None:
        return driver.act(s, seat, client_seq, action, seen)
    before = m.seq
    kept = m.state.clone() if s.row.undo and client_seq is not None else None
    with pending_action(s, seat, client_seq):
        try:
            version = m.submit(seat, action)
        except IllegalActionError as exc:
            if m.seq != before:  # a timer expiry was accepted first
                after_change(s)
            return error_frame("illegal", str(exc), client_seq)
    if kept is not None:  # the copy is of this move's position unless a timer's action came first
        _mark_person_move(s, seat, version, str(action), lambda: kept if version - 1 == before else None,
                          position=kept)
    acked(s, seat, client_seq, version)
    return {"type": "ack", "seq": client_seq, "version": version}


def _mark_person_move(s: TableState, seat: int, version: int, move: str, copy: Callable[[], State | None],
                      position: State | None = None) -> None:
    """A person's own move made ``version`` (an undo table): kept as a point to go back to if the
    person chose it among two legal actions or more (the page answers a question with one answer
    by itself, even Trash's lone "stock"). ``position``: the state the move was chosen in
    (default: the match's state now, before the move is played); ``copy()`` makes the copy kept."""
    assert s.match is not None
    state = position if position is not None else s.match.state
    s.flow.people_moves.append((version, seat))
    if state.current_player() == seat and len(state.legal_actions(seat)) > 1:
        s.flow.points.append(UndoPoint(version - 1, seat, move, copy()))


def after_change(s: TableState) -> None:
    """Mark the end, fan the new state out and let the bots move."""
    mark_over(s)
    fanout.broadcast_state(s)
    botplay.kick(s)


def mark_over(s: TableState) -> None:
    """If the game has ended and the table does not say so yet: it says so at once, and the
    :class:`~.effects.Finished` effect records the result and only then writes ``over`` in the log
    (:meth:`~.actor.Actor.finish`). A process killed in between leaves the log's table ``playing``
    with a finished game; loaded again (a restart, a take-over), its :class:`~.commands.Resume`
    comes here and the result is recorded then: once, since recording is idempotent per table."""
    if s.match is not None and s.match.is_over and s.row.status != "over":
        s.row.status = "over"
        s.fx.finished()
        fanout.broadcast_table(s)


# ---------------------------------------------------------------- undo
def undo_refused(s: TableState, seat: int) -> dict[str, Any] | None:
    """Why ``seat`` may not take a move back now (an ``error`` frame), or ``None``.

    Undo is a table option (chosen at creation, off by default), for one person against bots
    only: refused while any other seat is a person's, and never in a real-time game (Spit), nor
    before the start or after the end."""
    if not s.row.undo:
        return error_frame("undo_off", "this table was created without undo")
    if s.rt is not None:
        return error_frame("undo_realtime", "a real-time game has no undo")
    if s.match is None:
        return error_frame("not_started", "the game has not started")
    if s.match.is_over:
        return error_frame("over", "the game is over: no more undo")
    if any(seat_row.kind == "human" and seat_row.seat != seat for seat_row in s.row.seats):
        return error_frame("undo_people", "undo is only for a person alone against bots: "
                           "another person plays at this table")
    return None


def undo_point(s: TableState, seat: int) -> UndoPoint | dict[str, Any]:
    """Where the table goes back to when ``seat`` undoes: the position before its last move that
    it chose itself (not a stand-in's or a timer's move), so its move and every bot's reply after
    it are taken back; an ``error`` frame if there is none, or if another person's own move came
    after it (a person who left and whose seat a stand-in now plays: an undo never takes back
    another person's choice)."""
    mine = next((p for p in reversed(s.flow.points) if p.seat == seat), None)
    if mine is None:
        return error_frame("undo_nothing", "you have no move to take back")
    if any(version > mine.version and other != seat for version, other in s.flow.people_moves):
        return error_frame("undo_people", "another person's move came after yours: it is not taken back")
    return mine


def _state_at(s: TableState, version: int) -> State:
    """The state at ``version``, played again from the deal (a point kept without a copy)."""
    assert s.match is not None
    state = s.match.new_state()
    for row in s.log.actions(s.id):
        if row.version > version:
            break
        state.play(s.game.parse_action(row.action))
    return state


def undo(s: TableState, seat: int) -> dict[str, Any] | None:
    """Take back ``seat``'s last own move and every bot move after it: stored in the log, the
    table goes back to the copy of the state kept at that point, and everyone gets an ``undo``
    frame and the state from ``state.view(seat)``. ``None``, or an ``error`` frame for the seat
    (nothing changes)."""
    refused = undo_refused(s, seat)
    if refused is not None:
        return refused
    bucket = s.flow.undo_buckets.setdefault(seat, TokenBucket(*UNDO_RATE))
    if not bucket.take():
        return error_frame("rate_limited", "too many undos; wait a little")
    found = undo_point(s, seat)
    if isinstance(found, dict):
        return found
    try:
        position = found.state if found.state is not None else _state_at(s, found.version)
    except (LogError, CardtableError):
        return error_frame("server", "the game could not be read back; try again")
    before = s.version
    s.fx.persist("undo", s.id, found.version, fenced=True)
    s.flow.undos += 1
    _go_back(s, found, position)
    s.bots.standins.clear()  # a stand-in's memory is of the line taken back
    talk.forget(s)
    assert s.match is not None
    view = s.match.state.view(seat)
    after = view.events[-1].seq + 1 if view.events else None
    frame = {"type": "undo", "seat": seat, "version": s.version, "taken": before - s.version, "next_event": after}
    public = Outgoing(frame)
    for conn in s.connections():  # the move taken back is named to its own seat only
        s.fx.drop(conn, "state")
        s.fx.send(conn, {**frame, "move": found.move} if s.players.get(seat) == conn else public)
    after_change(s)
    driver.arm_timer(s)  # the time limit's clock starts again, as after a restart
    return None


def _go_back(s: TableState, point: UndoPoint, position: State) -> None:
    """The table as after a restart at ``point``: a new match (fresh bots, as a replay makes) in
    ``position``; the points and moves after it forgotten; a resend of a move taken back stays a
    resend."""
    match = new_match(s)
    match.state = position
    match.seq = point.version
    s.fan.checkpoints.clear()
    flow = s.flow
    flow.points = [p for p in flow.points if p.version < point.version]
    flow.people_moves = [(v, who) for v, who in flow.people_moves if v <= point.version]
    flow.last_seq = {who: (seq, min(version, point.version)) for who, (seq, version) in flow.last_seq.items()}
    flow.applied = {who: {seq: min(version, point.version) for seq, version in seqs.items()}
                    for who, seqs in flow.applied.items()}  # a resend of a move taken back stays a resend


def left_seats(s: TableState) -> set[int]:
    """The seats whose person left the game in progress (or whose clock ran out too often): the
    table's record of who left, and any seat a bot holds now whose moves a person made, which the
    log tells after a restart too (if the log cannot be read now, the table's own record is what
    there is)."""
    seats = s.row.seats
    left = set(s.left)
    with contextlib.suppress(LogError):
        left |= {a.seat for a in s.log.actions(s.id)
                 if a.client_seq is not None and 0 <= a.seat < len(seats) and seats[a.seat].kind == "bot"}
    return left


def runner_look(s: TableState, watcher: str) -> dict[str, Any]:
    """What an event's runner reads of its table (the :class:`~.commands.Look` command, answered
    after every command before it: the log holds what it says). ``status``; each seat's ``kind``;
    the seats whose person is ``online``; whether ``watcher`` watches it; whether the game is
    ``over`` and its ``winners``; the seats ``left``; and the deals finished, as the public view has
    them (``deals``: number, contract and each hand's points, for a game that scores deals)."""
    out: dict[str, Any] = {"status": s.row.status, "kinds": [seat.kind for seat in s.row.seats],
                           "online": sorted(s.players), "watched": watcher in s.spectators, "over": False,
                           "winners": None, "left": [], "deals": []}
    if s.match is None:
        return out
    outcome = s.match.state.outcome()
    out["over"] = s.match.is_over
    out["winners"] = None if outcome is None else sorted(outcome.winners)
    out["left"] = sorted(left_seats(s))
    view: Any = s.match.state.view(None)
    out["deals"] = [[int(d), str(code), [float(x) for x in deltas]]
                    for d, _k, _h, code, deltas in getattr(view, "deal_scores", ())]
    return out
