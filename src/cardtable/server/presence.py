"""Who is at a table: sockets coming and going, away seats, and the real-time pause (R9, S2)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from ..host.clock import PausableClock
from .connection import Connection
from .protocol import CLOSE_REPLACED

if TYPE_CHECKING:
    from .tables import Table

MAX_WAIT = 60.0
"""Seconds a real-time game waits for a person when the server has no ``hold`` (R9)."""
SPECTATOR_PACE = 0.03
"""Seconds a spectator's state frame waits, so fan-out to many spectators never delays a player."""


class Presence:
    """The table's people: connected seats (:attr:`Table.players`), spectators, and since
    when each absent person's seat has been away."""

    def __init__(self, table: Table) -> None:
        self.t = table
        self.away: dict[int, float] = {}  # human seat -> when it went offline (monotonic)
        self.pause: dict[str, Any] | None = None  # what the table waits for (real-time games, R9)
        self._resume_at: float | None = None
        self.waited: dict[int, float] = {}  # seat -> seconds the game has stood still for it so far
        self._blamed: list[int] = []  # the seats the clock stands still for now (their absence, its countdown)
        self._blamed_since: float | None = None

    # ------------------------------------------------------------ sockets
    def attach(self, conn: Connection, seat: int | None, since: int | None) -> None:
        """A connection that said hello: the welcome, missed events, the state."""
        t = self.t
        t.touched = time.monotonic()
        t.joined = True
        conn.seat = seat
        if seat is None:
            conn.pace = SPECTATOR_PACE
            t.spectators.add(conn)
        else:
            old = t.players.get(seat)
            if old is not None and old is not conn:
                old.close_soon(CLOSE_REPLACED, "replaced by a newer connection")
            t.players[seat] = conn
            if self.away.pop(seat, None) is not None:
                t.bots.standins.pop(seat, None)
                t.bots.stand_down_realtime(seat)
            self.update_pause()
        t.fanout.welcome(conn, seat, since)
        t.bots.kick()  # a table of bots alone goes on once somebody watches

    def detach(self, conn: Connection) -> None:
        t = self.t
        t.touched = time.monotonic()
        if conn.seat is not None and t.players.get(conn.seat) is conn:
            del t.players[conn.seat]
            self.away[conn.seat] = time.monotonic()
            self.hold_check()
            self.update_pause()
            t.fanout.broadcast_table()
        elif conn in t.spectators:
            t.spectators.discard(conn)
            t.fanout.broadcast_table()
        if t.unwatched():
            t.bots.kick()  # the driver parks a table of bots that nobody watches any more

    # ---------------------------------------------------------- away seats
    def away_since_start(self) -> None:
        """Every human seat not connected now is away from now (at start and after a restart)."""
        t = self.t
        now = time.monotonic()
        for s in t.row.seats:
            if s.kind == "human" and s.seat not in t.players:
                self.away.setdefault(s.seat, now)
        self.hold_check()

    def hold_check(self) -> None:
        """Look again when the hold of a seat that just went away runs out."""
        hold = self.t.hold
        wait = hold if hold is not None else (MAX_WAIT if self.t.rt is not None else None)
        if wait is not None:
            self.t.driver.later(wait + 0.05, self._hold_over)

    def _hold_over(self) -> None:
        self.update_pause()
        self.t.bots.kick()

    # ---------------------------------------------------------------- pause
    def update_pause(self) -> None:
        """A real-time game waits for every person at the table (R9, S2).

        While a person's seat has no connection (they dropped, or the server
        restarted) the game's clock stands still: bots and timers wait and
        actions are refused with ``paused``. When everyone is back it goes on
        after the table's ``countdown`` seconds, where it stopped. A person away longer
        than the table's ``hold`` (:data:`MAX_WAIT` without a hold) is no longer waited for, and
        neither is a seat the game has already stood still for that long in all (its absences and
        the countdowns after them): dropping out just before the hold runs out, again and again,
        pauses a game for one hold at most. A person not waited for is played by a stand-in
        until they are back. No-op for turn-based games and when ``countdown`` is ``None``."""
        t = self.t
        m = t.match
        if (t.rt is None or t.countdown is None or m is None or not isinstance(m.clock, PausableClock)
                or t.driver.parked):  # parked: nobody watches a table of bots; the driver resumes it
            return
        clock, before, now = m.clock, self.pause, time.monotonic()
        wait = t.hold if t.hold is not None else MAX_WAIT
        if self._blamed_since is not None:
            for seat in self._blamed:
                self.waited[seat] = self.waited.get(seat, 0.0) + (now - self._blamed_since)
        away = [] if m.is_over else [s.seat for s in t.row.seats if s.kind == "human" and s.seat not in t.players]
        missing = [seat for seat in away
                   if now - self.away.get(seat, now) < wait and self.waited.get(seat, 0.0) < wait]
        for seat in away:
            if seat not in missing:
                t.bots.stand_in_realtime(seat)
        if missing:
            self._blamed = missing
            t.driver.later(min(wait - self.waited.get(seat, 0.0) for seat in missing) + 0.01, self.update_pause)
        elif not (clock.paused and not m.is_over):
            self._blamed = []
        self._blamed_since = now if self._blamed else None
        if missing:
            clock.pause()
            self._resume_at = None
            self.pause = {"waiting": missing}
        elif clock.paused and not m.is_over:
            if self._resume_at is None:
                self._resume_at = now + t.countdown
                t.driver.later(t.countdown + 0.01, self.update_pause)
            if now < self._resume_at:
                self.pause = {"waiting": []}
            else:
                clock.resume()
                self._resume_at = self.pause = None
        else:
            clock.resume()
            self._resume_at = self.pause = None
        if self.pause != before:
            t.fanout.broadcast_table()
            if self.pause is None:
                t.bots.kick()

    def pause_info(self) -> dict[str, Any] | None:
        """Whom a paused real-time game waits for, and the seconds left of the countdown."""
        if self.pause is None:
            return None
        left = None if self._resume_at is None else round(max(0.0, self._resume_at - time.monotonic()), 1)
        return {**self.pause, "countdown": left}
