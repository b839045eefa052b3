"""Arabic in the Textual widgets: styled Rich text in visual order (docs/arabic.md).

A table draws its texts from several styled pieces (a bold seat name, a dim count, a card face
in its colours). :func:`visual_text` turns such a :class:`~rich.text.Text` into the order and
joined letters a terminal without bidi must draw, span by span: each character keeps the styles
it had (:func:`cardtable.i18n.bidi.visual_runs`). A text that may wrap must be wrapped in reading
order first and reordered line by line after, at the width it gets: :class:`VisualText` is that
renderable, and :func:`ui` is what the screens call (for ``lang="ar"`` with ``CARDTABLE_BIDI=app``;
any other language or mode gets its text back as it is).

>>> visual_text(Text("no Arabic", style="bold")).plain
'no Arabic'
"""

from __future__ import annotations

from itertools import pairwise
from typing import Literal

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.measure import Measurement
from rich.style import StyleType
from rich.text import Span, Text

from ..i18n.bidi import mode, visual_runs

Justify = Literal["left", "center", "right"]

StyleStack = tuple[StyleType, ...]


def _runs(line: Text) -> list[tuple[str, StyleStack]]:
    """A line's characters in runs of the same span styles (in the order of the spans)."""
    plain = line.plain
    cuts = {0, len(plain)}
    for span in line.spans:
        cuts.update((max(0, min(span.start, len(plain))), max(0, min(span.end, len(plain)))))
    edges = sorted(cuts)
    runs = []
    for start, end in pairwise(edges):
        if start < end:
            styles = tuple(s.style for s in line.spans if s.start <= start and end <= s.end)
            runs.append((plain[start:end], styles))
    return runs


def _visual_line(line: Text, how: str | None, rtl: bool | None) -> Text:
    out = Text(style=line.style, end="")
    spans = []
    for piece, styles in visual_runs(_runs(line), how, rtl):
        start = len(out.plain)
        out.append(piece)
        spans += [Span(start, start + len(piece), style) for style in styles]
    out.spans = spans
    return out


def visual_text(text: Text, how: str | None = None, rtl: bool | None = True) -> Text:
    """``text`` line by line in visual order (:func:`cardtable.i18n.bidi.visual_runs`), every
    character with the styles it had; ``rtl=True`` (an Arabic screen) reads each line from the
    right. Not wrapped: for a text that may wrap, :class:`VisualText`."""
    lines = text.split("\n", allow_blank=True)
    out = Text("\n").join(_visual_line(line, how, rtl) for line in lines)
    out.style, out.justify, out.no_wrap, out.overflow, out.end = text.style, text.justify, text.no_wrap, \
        text.overflow, text.end
    return out


class VisualText:
    """A Rich renderable: ``text`` wrapped in reading order at the width it is given, then each
    line in visual order (:func:`visual_text`) and aligned: ``justify`` if given, else the
    column's (a table cell), else to the right (an Arabic line ends at the right edge)."""

    def __init__(self, text: Text, justify: Justify | None = None, rtl: bool | None = True,
                 how: str | None = None) -> None:
        self.text = text
        self.justify = justify
        self.rtl = rtl
        self.how = how

    def __str__(self) -> str:
        return visual_text(self.text, self.how, self.rtl).plain

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.text)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = max(1, options.max_width)
        justify = self.justify or options.justify or ("right" if self.rtl else "left")
        no_wrap = bool(options.no_wrap or self.text.no_wrap)
        overflow = self.text.overflow or options.overflow or "fold"
        drawn = []
        for line in self.text.split("\n", allow_blank=True):
            pieces = [line] if no_wrap else list(line.wrap(console, width, justify="default", overflow=overflow))
            for piece in pieces or [Text()]:
                piece.rstrip()
                if no_wrap:
                    piece.truncate(width, overflow=overflow)
                shown = _visual_line(piece, self.how, self.rtl)
                room = width - shown.cell_len
                if room > 0 and justify == "right":
                    shown.pad_left(room)
                elif room > 0 and justify in ("center", "full"):
                    shown.pad_left(room // 2)
                    shown.pad_right(room - room // 2)
                drawn.append(shown)
        out = Text("\n").join(drawn)
        out.style = self.text.style
        yield from out.render(console, end=self.text.end)


def mirrored(lang: str) -> bool:
    """True when the screen is drawn right to left by the app (Arabic, ``CARDTABLE_BIDI=app``):
    a table's columns and a menu's choices then start at the right."""
    return lang == "ar" and mode() == "app"


def ui(text: Text | str, lang: str, *, justify: Justify | None = None, rtl: bool | None = True) -> RenderableType:
    """What a screen draws for ``text`` in ``lang``: for Arabic in a terminal without bidi
    (``CARDTABLE_BIDI=app``) a :class:`VisualText`, else the text as it is (a string as a
    :class:`~rich.text.Text`: never read as markup)."""
    line = Text(text) if isinstance(text, str) else text
    if not mirrored(lang):
        return line
    return VisualText(line, justify, rtl)


def ui_line(text: Text | str, lang: str, rtl: bool | None = True) -> Text:
    """A short text that never wraps (a label, a table's title) in visual order for ``lang``,
    as a :class:`~rich.text.Text` (so that the widget aligns it as before)."""
    line = Text(text) if isinstance(text, str) else text
    if not mirrored(lang):
        return line
    return visual_text(line, rtl=rtl)


__all__ = ["VisualText", "mirrored", "ui", "ui_line", "visual_text"]
