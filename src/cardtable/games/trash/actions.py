"""Trash actions: every player decision of TR-13, plus the host's ``time-up``.

Canonical text forms (printed by ``str`` and read by :func:`parse_action`):

=============  ==========================================================
``stock``      draw the top card of the stock (TR-7a)
``discard``    take the top card of the discard pile (TR-7b)
``wild N``     place the wild in hand on face-down slot N (TR-10.3, TR-12a)
``displace``   put the number in hand on its slot and pick up the wild there (TR-12a)
``decline``    do not displace; the number is discarded and the turn ends (TR-12b)
``time-up``    the host's clock says the match time has run out (TR-V2); not a player's action
=============  ==========================================================

``parse_action`` also accepts ``draw``/``s`` for stock, ``take``/``d`` for
discard, ``wN`` and ``slot N`` for a wild placement.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ...core.errors import ParseError
from ...core.game import Action

STOCK: Final = "stock"
DISCARD: Final = "discard"
DISPLACE: Final = "displace"
DECLINE: Final = "decline"
WILD: Final = "wild"
TIME_UP: Final = "time-up"

MAX_SLOTS: Final = 10
_FIXED = (STOCK, DISCARD, DISPLACE, DECLINE)


@dataclass(frozen=True, slots=True)
class TrashAction(Action):
    """A Trash action. ``slot`` is used by ``wild`` only (1..10)."""

    kind: str
    slot: int = 0

    def __reduce__(self) -> tuple[object, tuple[str, int]]:
        """By its fields: the compiled frozen class refuses to be set back field by field."""
        return (TrashAction, (self.kind, self.slot))

    @property
    def index(self) -> int:
        """0 stock, 1 discard, 2 displace, 3 decline, 3+N wild N, 14 time-up."""
        if self.kind == WILD:
            return 3 + self.slot
        if self.kind == TIME_UP:
            return 4 + MAX_SLOTS
        return _FIXED.index(self.kind)

    def __str__(self) -> str:
        return f"wild {self.slot}" if self.kind == WILD else self.kind

    def __repr__(self) -> str:
        return f"TrashAction.parse({str(self)!r})"

    @staticmethod
    def parse(text: str) -> TrashAction:
        return parse_action(text)


A_STOCK: Final = TrashAction(STOCK)
A_DISCARD: Final = TrashAction(DISCARD)
A_DISPLACE: Final = TrashAction(DISPLACE)
A_DECLINE: Final = TrashAction(DECLINE)
A_TIME_UP: Final = TrashAction(TIME_UP)
A_WILD: Final = (A_STOCK, *tuple(TrashAction(WILD, k) for k in range(1, MAX_SLOTS + 1)))
"""``A_WILD[k]`` is ``wild k`` (index 0 is unused)."""

ALL_ACTIONS: Final = (A_STOCK, A_DISCARD, A_DISPLACE, A_DECLINE, *A_WILD[1:], A_TIME_UP)
NUM_ACTIONS: Final = len(ALL_ACTIONS)

_ALIASES: Final = {
    "stock": A_STOCK, "draw": A_STOCK, "s": A_STOCK,
    "discard": A_DISCARD, "take": A_DISCARD, "d": A_DISCARD,
    "displace": A_DISPLACE, "y": A_DISPLACE,
    "decline": A_DECLINE, "n": A_DECLINE,
    "time-up": A_TIME_UP,
}


def parse_action(text: str) -> TrashAction:
    """The action written as ``text``.

    >>> parse_action("wild 3"), parse_action("draw")
    (TrashAction.parse('wild 3'), TrashAction.parse('stock'))
    """
    if not isinstance(text, str):
        raise ParseError(f"not a Trash action: {text!r}")
    key = " ".join(text.strip().lower().split())
    if key in _ALIASES:
        return _ALIASES[key]
    for prefix in ("wild ", "slot ", "w", "wild"):
        number = key[len(prefix):].strip()
        if key.startswith(prefix) and number.isascii() and number.isdigit() and len(number) <= 3:
            slot = int(number)
            if 1 <= slot <= MAX_SLOTS:
                return A_WILD[slot]
            raise ParseError(f"no slot {slot}: slots are 1 to {MAX_SLOTS}")
    raise ParseError(
        f"not a Trash action: {text!r} (try: stock, discard, wild N, displace, decline)"
    )


def action_from_index(index: int) -> TrashAction:
    if not isinstance(index, int) or not 0 <= index < NUM_ACTIONS:
        raise ParseError(f"no Trash action has index {index!r}")
    return ALL_ACTIONS[index]
