"""Say when the event loop stood still, and where (LD10).

Every table, socket and lease renewal of a server process shares one event loop: anything that
holds it (a synchronous database call, a long computation, a collection pause) delays them all,
and in a cluster a loop held past the lease (``cluster.LEASE_TTL``) loses the node's tables. The
:class:`Watchdog` is a thread that watches a heartbeat the loop writes every :data:`BEAT` seconds;
when the heartbeat is older than :data:`STALL`, it writes the loop thread's stack to stderr once
("cardtable serve: the event loop stood still for 0.62 s in: ..."), so a stall is found where it
happens, not guessed at from its effects.
"""

from __future__ import annotations

import asyncio
import sys
import threading
import time
import traceback
from typing import TextIO

BEAT = 0.05
"""Seconds between two heartbeats of the loop."""
STALL = 0.5
"""Seconds without a heartbeat after which the loop's stack is written."""


class Watchdog:
    """:meth:`run` on the loop (a task) beats, and watches the beats from a thread of its own."""

    def __init__(self, stall: float = STALL, out: TextIO | None = None) -> None:
        self.stall = stall
        self.out = out
        self.beat = time.monotonic()
        self.reports = 0  # stalls written so far
        self._loop_thread = threading.get_ident()
        self._stop = threading.Event()

    async def run(self) -> None:
        """Beat until cancelled, watched by a thread that ends with it."""
        self._loop_thread = threading.get_ident()
        self.beat = time.monotonic()
        watcher = threading.Thread(target=self._watch, name="loop-watchdog", daemon=True)
        watcher.start()
        try:
            while True:
                self.beat = time.monotonic()
                await asyncio.sleep(BEAT)
        finally:
            self._stop.set()

    def _watch(self) -> None:
        reported = 0.0  # the heartbeat of the stall written last (one report a stall)
        while not self._stop.wait(BEAT):
            beat = self.beat
            still = time.monotonic() - beat
            if still > self.stall and beat != reported:
                reported = beat
                self._report(still)

    def _report(self, still: float) -> None:
        frame = sys._current_frames().get(self._loop_thread)
        where = "".join(traceback.format_stack(frame)[-12:]) if frame is not None else "(no stack)\n"
        out = self.out or sys.stderr
        out.write(f"cardtable serve: the event loop stood still for {still:.2f} s in:\n{where}")
        out.flush()
        self.reports += 1
