"""Clocks for the host. The engines have no clock; the host reads one of these
and feeds timer expiries into a game as actions.

``SystemClock`` is the real monotonic clock; ``VirtualClock`` only moves when
told, for tests and simulations.
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
