"""Who is at a table: connections coming and going, away seats, and the real-time pause (R9, S2)."""

from __future__ import annotations

import hmac
import time
from typing import Any

from ..host.clock import PausableClock
from . import botplay, fanout
from .commands import HoldOver, UpdatePause
from .protocol import CLOSE_BAD_TOKEN, CLOSE_REPLACED
from .state import TableState

MAX_WAIT = 60.0
"""Seconds a real-time game waits for a person when the server has no ``hold`` (R9)."""
SPECTATOR_PACE = 0.03
"""Seconds a spectator's state frame waits, so fan-out to many spectators never delays a player
(set on the spectator's connection at the edge)."""


# ------------------------------------------------------------ connections
def attach(s: TableState, conn: str, seat: int | None, since: int | None, lang: str,
           holder: str | None = None) -> None:
    """A connection that said hello: the welcome, missed events, the state. A seat whose token is
    no longer the one the socket said hello with (``holder``: the person left, another sat) is
    refused as an unknown token (A1): the socket closes, and nothing of the game is sent (H12)."""
    if seat is not None and holder is not None:
        now = s.row.seats[seat].token_hash if 0 <= seat < len(s.row.seats) else None
        if now is None or not hmac.compare_digest(now, holder):
            s.fx.close(conn, CLOSE_BAD_TOKEN, "unknown seat token")
            return
    s.touched = time.monotonic()
    s.joined = True
    if seat is None:
        s.spectators[conn] = lang
    else:
        old = s.players.get(seat)
        if old is not None and old != conn:
            s.langs.pop(old, None)
            s.fx.close(old, CLOSE_REPLACED, "replaced by a newer connection")
        s.players[seat] = conn
        s.langs[conn] = lang
        if s.presence.away.pop(seat, None) is not None:
            s.bots.standins.pop(seat, None)
            botplay.stand_down_realtime(s, seat)
        update_pause(s)
    fanout.welcome(s, conn, seat, since)
    botplay.kick(s)  # a table of bots alone goes on once somebody watches


def detach(s: TableState, conn: str) -> None:
    s.touched = time.monotonic()
    seat = next((seat for seat, c in s.players.items() if c == conn), None)
    if seat is not None:
        del s.players[seat]
        s.langs.pop(conn, None)
        s.presence.away[seat] = time.monotonic()
        hold_check(s)
        update_pause(s)
        fanout.broadcast_table(s)
    elif s.spectators.pop(conn, None) is not None:
        fanout.broadcast_table(s)
    if s.unwatched():
        botplay.kick(s)  # the driver parks a table of bots that nobody watches any more


# ---------------------------------------------------------- away seats
def away_since_start(s: TableState) -> None:
    """Every human seat not connected now is away from now (at start and after a restart)."""
    now = time.monotonic()
    for seat in s.row.seats:
        if seat.kind == "human" and seat.seat not in s.players:
            s.presence.away.setdefault(seat.seat, now)
    hold_check(s)


def hold_check(s: TableState) -> None:
    """Look again when the hold of a seat that just went away runs out."""
    wait = s.hold if s.hold is not None else (MAX_WAIT if s.rt is not None else None)
    if wait is not None:
        s.fx.schedule(wait + 0.05, HoldOver())


def hold_over(s: TableState) -> None:
    update_pause(s)
    botplay.kick(s)


# ---------------------------------------------------------------- pause
def update_pause(s: TableState) -> None:
    """A real-time game waits for every person at the table (R9, S2).

    While a person's seat has no connection (they dropped, or the server restarted) the game's
    clock stands still: bots and timers wait and actions are refused with ``paused``. When
    everyone is back it goes on after the table's ``countdown`` seconds, where it stopped. A
    person away longer than the table's ``hold`` (:data:`MAX_WAIT` without a hold) is no longer
    waited for, and neither is a seat the game has already stood still for that long in all (its
    absences and the countdowns after them): dropping out just before the hold runs out, again
    and again, pauses a game for one hold at most. A person not waited for is played by a
    stand-in until they are back. No-op for turn-based games and when ``countdown`` is ``None``."""
    m = s.match
    if (s.rt is None or s.countdown is None or m is None or not isinstance(m.clock, PausableClock)
            or s.clock.parked):  # parked: nobody watches a table of bots; the driver resumes it
        return
    p = s.presence
    clock, before, now = m.clock, p.pause, time.monotonic()
    wait = s.hold if s.hold is not None else MAX_WAIT
    if p.blamed_since is not None:
        for seat in p.blamed:
            p.waited[seat] = p.waited.get(seat, 0.0) + (now - p.blamed_since)
    people = [seat.seat for seat in s.row.seats if seat.kind == "human"]
    away = [] if m.is_over else [seat for seat in people if seat not in s.players]
    missing = [seat for seat in away if now - p.away.get(seat, now) < wait and p.waited.get(seat, 0.0) < wait]
    for seat in away:
        if seat not in missing:
            botplay.stand_in_realtime(s, seat)
    if missing:
        p.blamed = missing
        s.fx.schedule(min(wait - p.waited.get(seat, 0.0) for seat in missing) + 0.01, UpdatePause())
    elif not (clock.paused and not m.is_over):
        p.blamed = []
    p.blamed_since = now if p.blamed else None
    if missing:
        clock.pause()
        p.resume_at = None
        p.pause = {"waiting": missing}
    elif clock.paused and not m.is_over:
        if p.resume_at is None:
            p.resume_at = now + s.countdown
            s.fx.schedule(s.countdown + 0.01, UpdatePause())
        if now < p.resume_at:
            p.pause = {"waiting": []}
        else:
            clock.resume()
            p.resume_at = p.pause = None
    else:
        clock.resume()
        p.resume_at = p.pause = None
    if p.pause != before:
        fanout.broadcast_table(s)
        if p.pause is None:
            botplay.kick(s)


def pause_info(s: TableState) -> dict[str, Any] | None:
    """Whom a paused real-time game waits for, and the seconds left of the countdown."""
    p = s.presence
    if p.pause is None:
        return None
    left = None if p.resume_at is None else round(max(0.0, p.resume_at - time.monotonic()), 1)
    return {**p.pause, "countdown": left}
