"""The event log column: a :class:`~textual.widgets.RichLog` that wraps its lines again when its
width changes, so no word is ever cut at the right edge (a RichLog wraps a line once, at the
width it had when the line was written; the table beside it may grow or the terminal narrow)."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.widgets import RichLog

KEEP = 2000
"""Lines kept for rewrapping (older ones leave the log)."""


class EventLog(RichLog):
    """The log of a table screen: :meth:`add` a line, :meth:`reset` to start again."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, wrap=True, markup=False, min_width=20, max_lines=KEEP)
        self.source: list[Text] = []
        self._wrapped_at = 0

    def add(self, line: Text) -> None:
        """``line`` at the end of the log, scrolled into sight at once: the log is never behind
        what the table shows (a deferred scroll waits for the next refresh, which a bot's thinking
        or a busy animation can hold back for seconds)."""
        self.source.append(line)
        del self.source[:-KEEP]
        self.write(line, scroll_end=False)
        self.scroll_end(animate=False, immediate=True, x_axis=False)

    def reset(self) -> None:
        """An empty log."""
        self.source.clear()
        self.clear()

    def on_resize(self, event: events.Resize) -> None:
        width = self.scrollable_content_region.width
        if self._wrapped_at and width != self._wrapped_at and self.source:
            self.clear()
            for line in self.source:
                self.write(line, scroll_end=False)
            self.scroll_end(animate=False, immediate=True, x_axis=False)
        if width:
            self._wrapped_at = width
