"""Terminal styling: ANSI colour when wanted, plain text otherwise."""

from __future__ import annotations

import os
import sys
from typing import TextIO

from ..core.cards import Card

RESET = "\x1b[0m"
CODES = {"red": "31", "green": "32", "yellow": "33", "blue": "34", "magenta": "35", "cyan": "36",
         "bold": "1", "dim": "2", "reverse": "7"}


def want_color(stream: TextIO = sys.stdout, flag: bool | None = None) -> bool:
    """Colour unless ``--no-color``, ``NO_COLOR`` is set, or the stream is not a terminal."""
    if flag is not None:
        return flag
    if os.environ.get("NO_COLOR"):
        return False
    return stream.isatty()


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and its English noun: "1 slot", "9 slots" (``plural``: when it is not noun + "s")."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


class Style:
    def __init__(self, color: bool) -> None:
        self.color = color

    def __call__(self, text: str, *names: str) -> str:
        if not self.color or not names:
            return text
        return "\x1b[" + ";".join(CODES[n] for n in names) + "m" + text + RESET

    def card(self, card: Card | None, width: int = 0) -> str:
        """A card in Unicode, red for hearts and diamonds, padded to ``width``;
        ``None`` is a face-down card."""
        if card is None:
            return self("▒▒", "dim") + " " * (width - 2)
        text = card.unicode().ljust(width)
        if card.is_joker:
            return self(text, "magenta", "bold")
        return self(text, "red", "bold") if card.suit.is_red else self(text, "bold")
