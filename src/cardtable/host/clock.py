"""Clocks for the host. The engines have no clock; the host reads one of these
and feeds timer expiries into a game as actions.

``SystemClock`` is the real monotonic clock; ``VirtualClock`` only moves when
told, for tests and simulations; ``PausableClock`` stands still while a
real-time game waits for a player who dropped.
"""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float:
        """Seconds since an arbitrary origin; never decreases."""
        ...


class SystemClock:
    """The machine's monotonic clock."""

    def now(self) -> float:
        return time.monotonic()


class VirtualClock:
    """A clock that moves only by :meth:`advance` or :meth:`set`."""

    def __init__(self, start: float = 0.0) -> None:
        self._now = start

    def now(self) -> float:
        return self._now

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("a clock never goes back")
        self._now += seconds

    def set(self, when: float) -> None:
        if when < self._now:
            raise ValueError("a clock never goes back")
        self._now = when


class PausableClock:
    """A clock over ``base`` that stands still while paused.

    A real-time host reading it sees no time pass during a pause, so every
    timer and every bot's intended move keeps the time it had left (R9: Spit
    waits for a player who dropped, then goes on where it stopped).
    """

    def __init__(self, base: Clock | None = None) -> None:
        self.base: Clock = base if base is not None else SystemClock()
        self._lost = 0.0  # base time spent paused
        self._since: float | None = None  # base time of the current pause

    @property
    def paused(self) -> bool:
        return self._since is not None

    def now(self) -> float:
        base = self._since if self._since is not None else self.base.now()
        return base - self._lost

    def pause(self) -> None:
        if self._since is None:
            self._since = self.base.now()

    def resume(self) -> None:
        if self._since is not None:
            self._lost += self.base.now() - self._since
            self._since = None
