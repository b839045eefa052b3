"""The clock side of a table: the real-time host (Spit) and the game's timers.

A simultaneous game runs on a :class:`~cardtable.host.realtime.RealtimeHost` on the server's
clock: actions are applied in arrival order, the state's timers (re-spit, slap) fire from the
host, and bots move with their reaction-time model. The table schedules an
:class:`~.commands.Advance` command for the next moment something is due (at least once a
second while the game runs) and applies what is due then. A turn-based game's ``time_limit``
(TR-V2) is a scheduled :class:`~.commands.TimeUp`. After a write that failed, the table tries
again by itself after a backoff (:func:`failed`, :class:`~.commands.Heal`).
"""

from __future__ import annotations

from typing import Any

from ..core.game import Action
from ..host.clock import PausableClock
from ..host.factory import match_realtime_host
from ..host.realtime import Arrival
from .commands import Advance, Heal, TimeUp
from .lobby import error_frame
from .state import TableState


# ------------------------------------------------------------- healing
def failed(s: TableState) -> float:
    """A write failed (the game was rebuilt from what is committed): try again after a backoff,
    0.2 s doubling to 5 s, so the table goes on by itself once the log works. The backoff."""
    s.clock.failures += 1
    delay = min(5.0, 0.1 * 2.0**s.clock.failures)
    s.fx.schedule(delay, Heal(), slot="heal")
    return delay


def heal(s: TableState) -> None:
    """After a failed write: fan out what is committed, let bots and timers go on."""
    from .lifecycle import after_change

    after_change(s)
    arm_timer(s)


# ------------------------------------------------------------ real time
def make_host(s: TableState) -> None:
    """The real-time host over the match's state (again after a replay: fresh bot intents)."""
    from .botplay import realtime_bot, stand_in

    assert s.match is not None
    bots = {seat.seat: realtime_bot(s.row.game, seat.name) for seat in s.row.seats if seat.kind == "bot"}
    for seat in s.bots.realtime_standins:  # a person who is not waited for is played again at once
        bots[seat] = realtime_bot(s.row.game, stand_in(s.row.game))

    def arrived(arrival: Arrival) -> None:
        """Every accepted arrival is numbered and stored with the change (a player's, a bot's, a
        timer's). A held play (SP-10) that is refused when it comes due is answered then: its seat
        was told ``queued``, and now learns it was not applied (a resend is judged afresh)."""
        from .lifecycle import acked, client_seq_of

        if not arrival.accepted:
            if arrival.source == "player" and arrival.seat is not None:
                refused = next((h for h in s.flow.held.get(arrival.seat, []) if h[1] is arrival.action), None)
                if refused is not None:
                    s.flow.held[arrival.seat].remove(refused)
                    conn = s.players.get(arrival.seat)
                    if conn is not None:
                        s.fx.send(conn, error_frame("lost_race", arrival.reason or "too late", refused[0],
                                                    version=s.version))
            return

        assert s.match is not None
        s.match.seq += 1
        seat = -1 if arrival.seat is None else arrival.seat
        held = s.flow.held.get(seat, [])
        was_held = next((h for h in held if arrival.source == "player" and h[1] is arrival.action), None)
        if was_held is not None:  # a play SP-10 held back, applied now (maybe while the seat sends another)
            held.remove(was_held)
            client_seq: int | None = was_held[0]
            acked(s, seat, client_seq, s.match.seq)  # a resend of its seq is a duplicate from now on
        else:
            client_seq = client_seq_of(s, seat) if arrival.source == "player" else None
        s.fx.persist("append", s.id, s.match.seq, seat, str(arrival.action), client_seq, fenced=True)
        s.clock.accepted.append(s.match.seq)

    s.rt = match_realtime_host(s.match, bots=bots, seed=s.row.bot_seed, on_arrival=arrived)


def act(s: TableState, seat: int, client_seq: int | None, action: Action, seen: int | None) -> dict[str, Any]:
    """A seat's action in a simultaneous game: it arrives now, after everything due before it (a
    bot's play, a timer), and is applied if it is still legal then."""
    from .lifecycle import acked, after_change, pending_action

    assert s.match is not None and s.rt is not None
    state = s.match.state
    if isinstance(s.match.clock, PausableClock) and s.match.clock.paused:
        return error_frame("paused", "the game waits until every player is back", client_seq)
    if action not in state.legal_actions(seat):
        why = state.illegal_reason(action) or "not legal now"
        if seen is not None and seen < s.version:  # the table moved on after the client looked
            return error_frame("lost_race", f"{action}: {why}", client_seq, version=s.version)
        return error_frame("illegal", f"{action}: {why}", client_seq)
    s.clock.accepted = []
    with pending_action(s, seat, client_seq):
        s.rt.submit(action)
        arrivals = s.rt.advance()
    mine = next((a for a in arrivals if a.source == "player" and a.action is action), None)
    if any(a.accepted for a in arrivals):
        after_change(s)
    if mine is None:  # held back by the one-hand interval (SP-10): applied when due
        if client_seq is not None:  # its seq goes into the log with it then (:func:`make_host`)
            s.flow.held.setdefault(seat, []).append((client_seq, action))
        wake(s)
        return {"type": "ack", "seq": client_seq, "version": None, "queued": True}
    if not mine.accepted:  # another arrival got there first (SP-13)
        return error_frame("lost_race", mine.reason or "too late", client_seq, version=s.version)
    version = s.clock.accepted[[a for a in arrivals if a.accepted].index(mine)]
    acked(s, seat, client_seq, version)
    return {"type": "ack", "seq": client_seq, "version": version}


def drop_held(s: TableState) -> None:
    """The table closes (the server stops): the plays SP-10 still holds back are not applied,
    and each seat that was told ``queued`` is told so, to make the play again once back (its
    resend is judged afresh: the log never had it)."""
    for seat, held in s.flow.held.items():
        conn = s.players.get(seat)
        for seq, action in held:
            if conn is not None:
                s.fx.send(conn, error_frame("server", f"{action} was not applied: the server is restarting", seq))
    s.flow.held = {}


def wake(s: TableState) -> None:
    """Something changed: look at what is due now (a table parked for want of watchers goes on
    once somebody watches)."""
    from .presence import update_pause

    m = s.match
    if m is None or s.rt is None or m.is_over:
        return
    if s.clock.parked and not s.unwatched():
        s.clock.parked = False
        if isinstance(m.clock, PausableClock):
            if s.countdown is None:
                m.clock.resume()
            else:
                update_pause(s)  # the watcher gets the countdown, then the bots go on
    s.fx.schedule(0.0, Advance(), slot="advance")


def advance(s: TableState) -> None:
    """Apply what is due now in a real-time game, and look again when the next thing is due."""
    from .lifecycle import after_change

    m = s.match
    if s.rt is None or m is None or m.is_over:
        return
    if s.unwatched():  # bots alone and nobody watching: stand still until somebody comes
        if isinstance(m.clock, PausableClock):
            m.clock.pause()
            s.clock.parked = True
        return
    s.clock.accepted = []
    arrivals = s.rt.advance()
    if any(a.accepted for a in arrivals):
        after_change(s)
    due = s.rt.next_due()
    wait = 1.0 if due is None else max(0.0, min(1.0, due - m.clock.now()))
    s.fx.schedule(wait, Advance(), slot="advance")


# --------------------------------------------------------------- timers
def arm_timer(s: TableState) -> None:
    """TR-V2 ``time_limit``: a :class:`~.commands.TimeUp` when the time runs out, even if nobody
    acts (after a restart the time counts again from the restart: downtime is not charged)."""
    limit = s.game.time_limit
    m = s.match
    if limit is None or m is None or m.is_over or m.state.time_up:
        return
    s.fx.schedule(max(0.0, m.started + limit - m.clock.now()) + 0.01, TimeUp(), slot="time_limit")


def time_up(s: TableState) -> None:
    from .lifecycle import after_change

    m = s.match
    if m is None:
        return
    before = m.seq
    m.poll_timers()
    if m.seq != before:
        after_change(s)
    else:
        arm_timer(s)

