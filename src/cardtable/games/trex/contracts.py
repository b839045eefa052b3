"""The trick contracts as small scoring objects (docs/rules/trex.md §2.4, TX-16, TX-V1, TX-V8).

A :class:`TrickContract` knows which cards score (``unit[card]``, a positive
penalty), what a trick costs, which cards may be doubled and for how much, and
how to charge a capture, doubling included. The state only asks it to score a
finished trick; it never branches on the contract itself.
"""

from __future__ import annotations

from typing import Final

from ...core.cards import KING_HEARTS, QUEENS
from ...core.options import Options
from .actions import DI, DOUBLABLE, KH, QN, TK

DIAMOND_IDS: Final = tuple(range(13, 26))


class TrickContract:
    """One trick-taking deal: KH, QN, DI, TK or a combination of them (Complex)."""

    __slots__ = (
        "doublable",
        "dvalue",
        "ends_early",
        "hearts_restricted",
        "mask",
        "mode",
        "scoring_cards",
        "trick_penalty",
        "unit",
    )

    def __init__(self, mask: int, o: Options) -> None:
        self.mask = mask
        diamond, trick = (15, 10) if o.swap_diamonds_tricks else (10, 15)  # TX-V8
        unit = [0] * 52
        dvalue = [0] * 52
        if mask & KH:  # TX-26
            unit[KING_HEARTS] += 75
            if o.doubling is True:
                dvalue[KING_HEARTS] = 75
        if mask & QN:  # TX-27
            for q in QUEENS:
                unit[q] += 25
                if o.doubling in (True, "queens_only"):  # TX-V4
                    dvalue[q] = 25
        if mask & DI:  # TX-28; Q♦ counts as a queen and as a diamond in Complex (TX-V1)
            for d in DIAMOND_IDS:
                unit[d] += diamond
        self.unit: tuple[int, ...] = tuple(unit)
        self.dvalue: tuple[int, ...] = tuple(dvalue)
        self.trick_penalty = trick if mask & TK else 0  # TX-29
        self.doublable: tuple[int, ...] = tuple(c for c in DOUBLABLE if dvalue[c])
        self.scoring_cards: frozenset[int] = frozenset(c for c in range(52) if unit[c])
        self.hearts_restricted = bool(mask & KH) and o.hearts_lead_rule != "free"  # TX-23
        self.ends_early = bool(o.end_early) and not mask & TK  # TX-25
        self.mode: str = o.doubled_self_capture

    def capture(self, scores: list[int], card: int, capturer: int, leader: int, doubler: int) -> None:
        """Charge ``capturer`` for ``card`` taken in a trick led by ``leader``;
        ``doubler`` is the seat that doubled it, or -1 (TX-16)."""
        if doubler < 0:
            scores[capturer] -= self.unit[card]
            return
        v = self.dvalue[card]
        scores[capturer] -= self.unit[card] - v  # the undoubled part (Q♦'s diamond in Complex)
        if capturer != doubler:
            scores[capturer] -= 2 * v
            scores[doubler] += v
        elif self.mode == "single":
            scores[doubler] -= v
        elif self.mode == "forced_bonus":
            if leader != doubler:
                scores[doubler] -= 2 * v
                scores[leader] += v
            else:
                scores[doubler] -= v
        else:  # "quadruple": breaks the zero sum (§2.7)
            scores[doubler] -= 4 * v
