"""The clock side of a table: the real-time host's driver (Spit) and the game's timers.

A simultaneous game runs on a :class:`~cardtable.host.realtime.RealtimeHost` on the
server's clock: actions are applied in arrival order, the state's timers (re-spit, slap)
fire from the host, and bots move with their reaction-time model, driven by one task
per table (:meth:`Driver._run`). A turn-based game's ``time_limit`` (TR-V2) has a task
of its own (:meth:`Driver.arm_timer`). Every change still goes through the table's lock.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..core.game import Action
from ..host.clock import PausableClock
from ..host.realtime import Arrival, RealtimeHost
from .botplay import realtime_bot, stand_in
from .lobby import error_frame

if TYPE_CHECKING:
    from .tables import Table


class Driver:
    """The tasks and timer handles of one table; :meth:`release_tasks` forgets them."""

    def __init__(self, table: Table) -> None:
        self.t = table
        self.task: asyncio.Task[None] | None = None
        self.timer_task: asyncio.Task[None] | None = None
        self.handles: list[asyncio.TimerHandle] = []  # pending hold and countdown checks
        self._wake = asyncio.Event()
        self.accepted: list[int] = []  # versions of the arrivals accepted in the current advance
        self.failures = 0  # writes failed in a row: the backoff before the table tries again
        self.parked = False  # bots alone and nobody watching: the clock stands still until somebody comes

    def release_tasks(self) -> None:
        for task in (self.task, self.timer_task):
            if task is not None:
                task.cancel()
        for handle in self.handles:
            handle.cancel()

    def later(self, delay: float, callback: Callable[[], None]) -> None:
        """``callback`` in ``delay`` seconds on the running loop (none: nothing; tests drive by hand)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self.handles = [h for h in self.handles if h.when() > loop.time()]  # forget the ones that ran
        self.handles.append(loop.call_later(delay, callback))

    # ------------------------------------------------------------- healing
    def failed(self) -> float:
        """A write failed (the game was rebuilt from what is committed): try again after a
        backoff, 0.2 s doubling to 5 s, so the table goes on by itself once the store works.
        Returns the backoff."""
        self.failures += 1
        delay = min(5.0, 0.1 * 2.0**self.failures)
        self.later(delay, self._heal)
        return delay

    def succeeded(self) -> None:
        self.failures = 0

    def _heal(self) -> None:
        """After a failed write: fan out what is committed, let bots and timers go on."""
        t = self.t
        if t.lock.locked():  # a change is under way; it will look again itself if it fails
            self.later(0.05, self._heal)
            return
        t.after_change()
        self.arm_timer()

    # ------------------------------------------------------------ real time
    def make_host(self) -> None:
        """The real-time host over the match's state (again after a replay: fresh bot intents)."""
        t = self.t
        assert t.match is not None
        bots = {s.seat: realtime_bot(t.row.game, s.name) for s in t.row.seats if s.kind == "bot"}
        for seat in t.bots.realtime_standins:  # a person who is not waited for is played again at once
            bots[seat] = realtime_bot(t.row.game, stand_in(t.row.game))
        t.rt = RealtimeHost(t.match.state, t.match.clock, bots=bots, seed=t.row.bot_seed, on_arrival=self._arrived)

    def _arrived(self, arrival: Arrival) -> None:
        """Real-time host listener: an accepted action is numbered and committed before
        anything is sent (a player's, a bot's or a timer's)."""
        if not arrival.accepted:
            return
        t = self.t
        assert t.match is not None
        t.match.seq += 1
        seat = -1 if arrival.seat is None else arrival.seat
        client_seq = t.flow.client_seq_of(seat) if arrival.source == "player" else None
        t.store.append(t.id, t.match.seq, seat, str(arrival.action), client_seq, epoch=t.epoch)
        self.succeeded()
        self.accepted.append(t.match.seq)

    def act(self, seat: int, client_seq: int | None, action: Action, seen: int | None) -> dict[str, Any]:
        """A seat's action in a simultaneous game: it arrives now, after everything due
        before it (a bot's play, a timer), and is applied if it is still legal then."""
        t = self.t
        assert t.match is not None and t.rt is not None
        state = t.match.state
        if isinstance(t.match.clock, PausableClock) and t.match.clock.paused:
            return error_frame("paused", "the game waits until every player is back", client_seq)
        if action not in state.legal_actions(seat):
            reason = getattr(state, "illegal_reason", None)  # the engine's words, when it has them
            why = (reason(action) if reason is not None else None) or "not legal now"
            if seen is not None and seen < t.version:  # the table moved on after the client looked
                return error_frame("lost_race", f"{action}: {why}", client_seq, version=t.version)
            return error_frame("illegal", f"{action}: {why}", client_seq)
        self.accepted = []
        with t.flow.pending_action(seat, client_seq):
            try:
                t.rt.submit(action)
                arrivals = t.rt.advance()
            except Exception:
                return t.flow.write_failed(client_seq)
        mine = next((a for a in arrivals if a.source == "player" and a.action is action), None)
        if any(a.accepted for a in arrivals):
            t.after_change()
        if mine is None:  # held back by the one-hand interval (SP-10): applied when due
            self._wake.set()
            return {"type": "ack", "seq": client_seq, "version": None, "queued": True}
        if not mine.accepted:  # another arrival got there first (SP-13)
            return error_frame("lost_race", mine.reason or "too late", client_seq, version=t.version)
        version = self.accepted[[a for a in arrivals if a.accepted].index(mine)]
        t.flow.acked(seat, client_seq, version)
        return {"type": "ack", "seq": client_seq, "version": version}

    def wake(self) -> None:
        """Something changed: the driver looks at what is due now (started if it is not running)."""
        t = self.t
        if self.parked and not t.unwatched():
            self.parked = False
            if isinstance(t.match.clock if t.match else None, PausableClock):
                if t.countdown is None:
                    t.match.clock.resume()  # type: ignore[union-attr]
                else:
                    t.presence.update_pause()  # the watcher gets the countdown, then the bots go on
        self._wake.set()
        if (self.task is None or self.task.done()) and t.match is not None and not t.match.is_over:
            with contextlib.suppress(RuntimeError):  # no running loop: the host advances on each action
                self.task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        """Feed due bot moves and timers into the real-time host, on the server's clock."""
        t = self.t
        while True:
            async with t.lock:
                if t.rt is None or t.match is None or t.match.is_over:
                    return
                if t.unwatched():  # bots alone and nobody watching: stand still until somebody comes
                    if isinstance(t.match.clock, PausableClock):
                        t.match.clock.pause()
                        self.parked = True
                    return
                self._wake.clear()
                due = t.rt.next_due()
                wait = 1.0 if due is None else max(0.0, min(1.0, due - t.match.clock.now()))
            if wait > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), timeout=wait)
            backoff = 0.0
            async with t.lock:
                if t.rt is None or t.match is None:
                    return
                if t.unwatched():
                    continue  # the last watcher left meanwhile: park (above)
                self.accepted = []
                try:
                    arrivals = t.rt.advance()
                except Exception:
                    t.flow.rebuild()
                    backoff = self.failed()
                    arrivals = []
                if any(a.accepted for a in arrivals):
                    t.after_change()
            if backoff:
                await asyncio.sleep(backoff)

    # --------------------------------------------------------------- timers
    def arm_timer(self) -> None:
        """TR-V2 ``time_limit``: the host's clock posts ``time-up`` into this table's
        actor when the time runs out, even if nobody acts (after a restart the
        time counts again from the restart: downtime is not charged)."""
        t = self.t
        limit = getattr(t.game.options, "time_limit", None)
        m = t.match
        if limit is None or m is None or m.is_over or getattr(m.state, "time_up", True):
            return
        if self.timer_task is not None and not self.timer_task.done():
            return
        with contextlib.suppress(RuntimeError):  # no running loop: timers are polled on each action
            self.timer_task = asyncio.get_running_loop().create_task(self._timer(m.started + limit))

    async def _timer(self, due: float) -> None:
        t = self.t
        assert t.match is not None
        await asyncio.sleep(max(0.0, due - t.match.clock.now()) + 0.01)
        async with t.lock:
            before = t.match.seq
            try:
                t.match.poll_timers()
            except Exception:
                t.flow.rebuild()
                self.failed()  # arms this timer again after the backoff
            if t.match.seq != before:
                t.after_change()
