"""Garbage collection for a process that answers players: few and short pauses.

CPython's cyclic collector stops the event loop while it runs. With its default thresholds
(700, 10, 10) a server with hundreds of live tables collects its young objects hundreds of times a
minute, and its whole heap each time the heap has grown by a quarter: at 500 playing tables
(``bench/server.py --games 500``) that was about 4 s of collection a minute, with pauses of the
whole heap of about 200 ms every few seconds, the largest part of the 99th percentile
acknowledgement (LD1). So ``cardtable serve`` runs a :class:`Collector`:

- the young generation is collected every :data:`YOUNG` new objects rather than 700;
- every :data:`FREEZE_EVERY` seconds what is alive is frozen (:func:`gc.freeze`): tables,
  connections and games that live for minutes leave the collections, which look only at what is
  newer;
- every :data:`SWEEP_EVERY` seconds everything is unfrozen and the whole heap collected once, so
  that reference cycles that died after they were frozen (a table dropped from memory) are freed:
  one full pause every ten minutes instead of one every few seconds, and memory that does not grow
  with the tables that came and went (LD2).

Objects without reference cycles are freed when their last reference goes, frozen or not.
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Callable

YOUNG = 5000
"""New objects (allocations less deallocations) between two collections of the young generation."""
FREEZE_EVERY = 10.0
"""Seconds between two freezes of the objects alive."""
SWEEP_EVERY = 600.0
"""Seconds between two collections of the whole heap, the frozen objects included."""


class Collector:
    """The process's collection policy from :meth:`install` to :meth:`uninstall`. :meth:`run`
    ticks on the event loop's clock; :meth:`tick` and :meth:`install` take the time from their
    caller (a test)."""

    def __init__(self, *, young: int = YOUNG, freeze_every: float = FREEZE_EVERY,
                 sweep_every: float = SWEEP_EVERY) -> None:
        self.young = young
        self.freeze_every = freeze_every
        self.sweep_every = sweep_every
        self.sweeps = 0
        self._saved: tuple[int, int, int] | None = None
        self._last_sweep = 0.0

    def install(self, now: float) -> None:
        """The thresholds set and the heap frozen (the modules and the games replayed at start-up).
        It is not collected first: that took a tenth of a node's start-up, which competes for the
        cores with the nodes taking over a dead node's tables, and the few cycles the imports left
        are freed at the first sweep."""
        if self._saved is None:
            self._saved = gc.get_threshold()
        _, middle, old = self._saved
        gc.set_threshold(self.young, middle, old)
        gc.freeze()
        self._last_sweep = now

    def tick(self, now: float) -> None:
        """Freeze what is alive; once every :attr:`sweep_every` seconds, first collect everything."""
        if now - self._last_sweep >= self.sweep_every:
            gc.unfreeze()
            gc.collect()
            self.sweeps += 1
            self._last_sweep = now
        gc.freeze()

    def uninstall(self) -> None:
        """Everything unfrozen and the thresholds as they were (a test's process goes on)."""
        gc.unfreeze()
        if self._saved is not None:
            gc.set_threshold(*self._saved)
            self._saved = None

    async def run(self, clock: Callable[[], float] | None = None) -> None:
        """:meth:`tick` every :attr:`freeze_every` seconds, until cancelled."""
        now = clock or asyncio.get_running_loop().time
        self.install(now())
        try:
            while True:
                await asyncio.sleep(self.freeze_every)
                self.tick(now())
        finally:
            self.uninstall()
