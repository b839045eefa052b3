"""The event log column: a :class:`~textual.widgets.RichLog` that wraps its lines again when its
width changes, so no word is ever cut at the right edge (a RichLog wraps a line once, at the
width it had when the line was written; the table beside it may grow or the terminal narrow)."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.widgets import RichLog

from ..i18n.bidi import visual_wrapped

KEEP = 2000
"""Lines kept for rewrapping (older ones leave the log)."""


class EventLog(RichLog):
    """The log of a table screen: :meth:`add` a line, :meth:`reset` to start again."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, wrap=True, markup=False, min_width=20, max_lines=KEEP)
        self.source: list[Text] = []
        self._wrapped_at = 0
        self.rtl = False  # Arabic: each line wrapped in reading order, then drawn in visual order

    def add(self, line: Text) -> None:
        """``line`` at the end of the log, scrolled into sight at once: the log is never behind
        what the table shows (a deferred scroll waits for the next refresh, which a bot's thinking
        or a busy animation can hold back for seconds)."""
        self.source.append(line)
        del self.source[:-KEEP]
        self._put(line)
        self.scroll_end(animate=False, immediate=True, x_axis=False)

    def _put(self, line: Text) -> None:
        width = self.scrollable_content_region.width
        if not self.rtl or width <= 0:
            self.write(line, scroll_end=False)
            return
        for part in visual_wrapped(line.plain, width, rtl=True):  # wrap first, then reorder
            self.write(Text(part, style=line.style), scroll_end=False)

    def rewrap(self) -> None:
        """Draw every kept line again (at a new width, or in another direction)."""
        self.clear()
        for line in self.source:
            self._put(line)
        self.scroll_end(animate=False, immediate=True, x_axis=False)

    def replace(self, lines: list[Text]) -> None:
        """The log made of ``lines`` alone (the last :data:`KEEP`), drawn once."""
        self.source = lines[-KEEP:]
        self.rewrap()

    def reset(self) -> None:
        """An empty log."""
        self.source.clear()
        self.clear()

    def on_resize(self, event: events.Resize) -> None:
        width = self.scrollable_content_region.width
        if self.source and (width != self._wrapped_at or self.rtl):
            self.rewrap()
        if width:
            self._wrapped_at = width
