"""Cards as small coloured faces, shared by every game's table."""

from __future__ import annotations

import re

from rich.text import Text

from ..core.cards import Card
from ..core.errors import ParseError

_CARD_WORD = re.compile(r"\b(?:10|[2-9TJQKA])[CDHS]\b|\bJK\b")


def card_text(card: Card | None, wild: bool = False, width: int = 5) -> Text:
    """A card as a small face (red suits in red, a gold face for a wild); ``None`` is face-down."""
    if card is None:
        return Text("▒▒▒".center(width), style="#8fb0ff on #1f3a6e")
    if card.is_joker:
        return Text("JOK".center(width), style="bold magenta on #f4f1e8")
    face = f"{card.rank.label}{card.suit.symbol}".center(width)
    colour = "#c0182a" if card.suit.is_red else "#111111"
    return Text(face, style=f"bold {colour} on {'#ffe08a' if wild else '#f4f1e8'}")


def pretty_cards(text: str) -> str:
    """Card codes inside a text in Unicode: ``"play QH"`` -> ``"play Q♥"``.

    >>> pretty_cards("play QH then TD")
    'play Q♥ then 10♦'
    """

    def one(match: re.Match[str]) -> str:
        try:
            return Card.parse(match.group(0)).unicode()
        except ParseError:
            return match.group(0)

    return _CARD_WORD.sub(one, text)
