"""Card roles under a ``wild_mode`` (TR-3)."""

from __future__ import annotations

from functools import cache
from typing import Final

from ...core.cards import JOKER_ID

WILDCARD: Final = 0
STOP: Final = -1

_STOP_RANKS: Final = {"jacks": (12, 13), "kings": (11, 12), "all_faces": ()}
_WILD_RANKS: Final = {"jacks": (11,), "kings": (13,), "all_faces": (11, 12, 13)}


@cache
def role_table(wild_mode: str) -> tuple[int, ...]:
    """``table[card_id]``: the number 1..10, ``WILDCARD`` or ``STOP`` (TR-3)."""
    table = []
    for cid in range(JOKER_ID + 1):
        rank = cid % 13 + 1
        if cid == JOKER_ID or rank in _WILD_RANKS[wild_mode]:
            table.append(WILDCARD)
        elif rank in _STOP_RANKS[wild_mode]:
            table.append(STOP)
        else:
            table.append(rank)
    return tuple(table)
