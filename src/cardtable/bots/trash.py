"""Trash bots. They read only the seat's :class:`TrashView`.

* ``sensible``: takes a placeable discard, always displaces a wild (TR-12: never
  worse), and puts a wild on the face-down slot whose number is scarcest (the
  most copies already face-up or discarded).
* ``stock``: always draws from the stock (the baseline of RULES.md studies), but
  otherwise plays like ``sensible``.
"""

from __future__ import annotations

import random
from collections import Counter

from ..core.game import Action, PlayerView
from ..games.trash.actions import A_DISCARD, A_DISPLACE, A_STOCK, TrashAction
from ..games.trash.view import TrashView
from .base import register_bot


def _visible_numbers(view: TrashView) -> Counter[int]:
    seen: Counter[int] = Counter()
    for layout in view.layouts:
        for card in layout:
            if card is not None and not card.is_joker:
                seen[int(card.rank)] += 1
    for card in view.discard:
        if not card.is_joker:
            seen[int(card.rank)] += 1
    return seen


def wild_slot(view: TrashView, legal: tuple[Action, ...]) -> Action:
    """The wild placement on the slot whose number is hardest to come by."""
    seen = _visible_numbers(view)
    slots = [a for a in legal if isinstance(a, TrashAction) and a.kind == "wild"]
    return max(slots, key=lambda a: (seen[a.slot], a.slot))


class SensibleTrashBot:
    name = "sensible"
    take_discard = True

    def act(self, view: PlayerView, rng: random.Random) -> Action:
        assert isinstance(view, TrashView)
        legal = view.legal_actions
        if A_DISPLACE in legal:
            return A_DISPLACE
        if A_STOCK in legal:
            top = view.top_discard
            wanted = top is not None and view.seat is not None and view.placeable(top, view.seat)
            return A_DISCARD if self.take_discard and A_DISCARD in legal and wanted else A_STOCK
        return wild_slot(view, legal)


class StockTrashBot(SensibleTrashBot):
    name = "stock"
    take_discard = False


register_bot("trash", "sensible", SensibleTrashBot)
register_bot("trash", "stock", StockTrashBot)
