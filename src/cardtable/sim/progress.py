"""The progress bar of a simulation on stderr, drawn by ``rich.progress``.

On a terminal the bar is redrawn in place (matches done, rate, time left); when stderr is
not a terminal (a log file, CI) rich prints nothing while running and the final bar once.
"""

from __future__ import annotations

import sys
from typing import TextIO


class Progress:
    """``matches ━━━━━━━━━━╸━━━━━━━━━━ 512/1000  51%  830/s  0:00:01``."""

    def __init__(self, total: int, done: int = 0, stream: TextIO | None = None, label: str = "matches") -> None:
        # rich comes with the sim extra; imported here so that `cardtable.sim` imports without it
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, TaskProgressColumn, TextColumn, TimeRemainingColumn
        from rich.progress import Progress as RichProgress

        self.total = total
        self.done = done
        self.console = Console(file=stream if stream is not None else sys.stderr, highlight=False)
        self.bar = RichProgress(
            TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TaskProgressColumn(),
            TextColumn("[progress.data.speed]{task.fields[rate]}"),
            TimeRemainingColumn(), console=self.console, refresh_per_second=10,
        )
        self.task = self.bar.add_task(label, total=total, completed=done, rate="")
        self.started = False  # drawn from the first finished chunk on: a run that fails first prints no bar

    def update(self, n: int) -> None:
        if not self.started:
            self.started = True
            self.bar.start()
        self.done += n
        self.bar.advance(self.task, n)
        speed = self.bar.tasks[0].speed
        if speed:
            self.bar.update(self.task, rate=f"{speed:.0f}/s")

    def close(self) -> None:
        if self.started:
            self.bar.stop()
