"""A plain-text progress bar on stderr."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    """``[#####-----] 512/1000 matches  830/s  eta 1s``: redrawn in place on a
    terminal, a line every few seconds otherwise."""

    def __init__(self, total: int, done: int = 0, stream: TextIO | None = None, every: float = 5.0) -> None:
        self.total = total
        self.done = done
        self.start_done = done
        self.stream = stream if stream is not None else sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.every = 0.1 if self.tty else every
        self.start = time.perf_counter()
        self.last = -1e9

    def update(self, n: int) -> None:
        self.done += n
        now = time.perf_counter()
        if now - self.last >= self.every or self.done >= self.total:
            self.last = now
            self._draw(now)

    def _draw(self, now: float) -> None:
        width = 30
        frac = self.done / self.total if self.total else 1.0
        bar = "#" * int(frac * width) + "-" * (width - int(frac * width))
        elapsed = now - self.start
        rate = (self.done - self.start_done) / elapsed if elapsed > 0 else 0.0
        eta = (self.total - self.done) / rate if rate > 0 else 0.0
        text = f"[{bar}] {self.done}/{self.total} matches  {rate:.0f}/s  eta {eta:.0f}s"
        self.stream.write(("\r" + text) if self.tty else text + "\n")
        self.stream.flush()

    def close(self) -> None:
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()
