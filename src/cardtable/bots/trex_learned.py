"""A learned model of how a Trex searcher chooses its card in a trick deal.

The reading of ``expert`` (:mod:`cardtable.bots.trex_infer`) weighs its worlds by how well each
explains the other seats' plays. A rule player plays the card its rules name, so the strong
policy or the card-sense policy predicts it and a world where it would have played otherwise is
unlikely. A searcher plays the card its rollouts value best, which neither policy names much more
than half the time; read with them, its plays tell the reading almost nothing. This module gives
a probability to every legal card instead, a conditional logit over features of the card and of
what the seat to move knows (:func:`features`), one weight vector per trick contract and
situation (lead, follow suit, discard). The weights below are its fit to the decisions of
``spar-search`` in 20 games against ``expert`` (``python bench/trex_learned.py fit
bench/data/trex-searcher-games.jsonl.gz`` prints them). The features read the seat's own hand,
the cards played, the doubled cards and the voids shown, never another hand
(``tests/bots/test_trex_learned.py``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Final

from ..games.trex.actions import DI, KH, QN, TK
from ..games.trex.state import NEXT, STRENGTH, SUIT
from .trex_expert import policy as card_sense_policy
from .trex_strong import strong_policy

FEATURES: Final = (
    "strong", "sense", "rank", "top", "bottom", "length", "above", "below", "boss", "lowest",
    "penalty", "doubled", "suit-points", "singleton",
    "wins", "wins-last", "wins-points", "duck-high",
    "own-penalty", "may-follow", "equal-above",
)
"""The features of a legal card, in the order of every weight vector."""

KINDS: Final = {KH: 0, QN: 1, DI: 2, TK: 3}
"""A trick contract's row of :data:`WEIGHTS`; another trick contract (a variant's) is read by the
strong policy's feature alone (:data:`STRONG_ONLY`)."""
SITUATIONS: Final = ("lead", "follow", "discard")


BY_STRENGTH: Final = tuple(tuple(sorted(range(13 * s, 13 * s + 13), key=lambda c: STRENGTH[c])) for s in range(4))
"""Each suit's cards, weakest first (``STRENGTH[c]`` runs from 1, so ``c`` is at ``STRENGTH[c] - 1``)."""


def _void(st: Any, voids: list[set[int]] | None, q: int, s: int) -> bool:
    """Is seat ``q`` known to be void in suit ``s`` (``voids`` ``None``: in the world itself)?"""
    if voids is None:
        return not st.hands_by_suit[q][s]
    return 13 * s in voids[q]


def situation(st: Any) -> int:
    """0 when the seat to move leads, 1 when it follows suit, 2 when it is void in the led suit."""
    trick = st.trick
    if not trick:
        return 0
    return 1 if st.hands_by_suit[st.to_move][SUIT[trick[0]]] else 2


def features(st: Any, voids: list[set[int]] | None, legal: Sequence[Any]) -> list[list[float]]:
    """One feature vector (:data:`FEATURES`) per card of ``legal`` for the seat to move in ``st``
    (a trick phase), given the voids it has seen shown (``None``: the world's own)."""
    p = st.to_move
    owner = st.owner
    unit = st.trick_contract.unit
    doubler = st.doubler
    h = st.hands_by_suit[p]
    strong = strong_policy(st, voids).arg
    sense = card_sense_policy(st, smart=True, voids=voids).arg
    trick = st.trick
    where = situation(st)
    later = (NEXT[p], NEXT[NEXT[p]], NEXT[NEXT[NEXT[p]]])[: 3 - len(trick)]
    win = -1
    last = len(trick) == 3
    points = False
    if trick:
        led = SUIT[trick[0]]
        for c in trick:
            if SUIT[c] == led and STRENGTH[c] > win:
                win = STRENGTH[c]
            points = points or unit[c] > 0
    duck = -1
    if where == 1:
        under = [a.arg for a in legal if STRENGTH[a.arg] < win]
        if under:
            duck = max(under, key=lambda c: STRENGTH[c])
    suit_points = [0.0, 0.0, 0.0, 0.0]
    for d in range(52):
        if unit[d] and owner[d] >= 0 and owner[d] != p:
            suit_points[SUIT[d]] = 1.0
    # per suit of a legal card: the strengths out (neither the seat's nor played), the seat's
    # weakest and strongest, its penalty cards, the later seats that may follow it
    suits: dict[int, tuple[list[int], int, int, int, float]] = {}
    for a in legal:
        s = SUIT[a.arg]
        if s not in suits:
            out = [STRENGTH[d] for d in range(13 * s, 13 * s + 13) if owner[d] >= 0 and owner[d] != p]
            strengths = [STRENGTH[b.arg] for b in h[s]]
            penalties = sum(1 for b in h[s] if unit[b.arg])
            followers = sum(1 for q in later if not _void(st, voids, q, s)) / 3.0
            suits[s] = (out, min(strengths), max(strengths), penalties, followers)
    rows: list[list[float]] = []
    for a in legal:
        c = a.arg
        s = SUIT[c]
        sc = STRENGTH[c]
        n = len(h[s])
        out, weakest, strongest, penalties, followers = suits[s]
        above = 0
        for x in out:
            if x > sc:
                above += 1
        below = len(out) - above
        wins = where == 1 and sc > win
        # the seat's next card up in the suit, when only played cards lie between: the two are
        # equal to play
        equal_above = False
        for d in BY_STRENGTH[s][sc:]:
            if owner[d] >= 0:
                equal_above = owner[d] == p
                break
        rows.append([
            1.0 if c == strong else 0.0,
            1.0 if c == sense else 0.0,
            (sc - 1) / 12.0,
            1.0 if sc == strongest else 0.0,
            1.0 if sc == weakest else 0.0,
            n / 13.0,
            above / 12.0,
            below / 12.0,
            1.0 if above == 0 else 0.0,
            1.0 if below == 0 else 0.0,
            1.0 if unit[c] else 0.0,
            1.0 if doubler[c] == p else 0.0,
            suit_points[s],
            1.0 if n == 1 else 0.0,
            1.0 if wins else 0.0,
            1.0 if wins and last else 0.0,
            1.0 if wins and points else 0.0,
            1.0 if c == duck else 0.0,
            1.0 if penalties > (1 if unit[c] else 0) else 0.0,
            followers,
            1.0 if equal_above else 0.0,
        ])
    return rows


def probabilities(st: Any, voids: list[set[int]] | None, legal: Sequence[Any]) -> list[float]:
    """The model's chance of each card of ``legal`` (a trick phase, more than one card)."""
    kind = KINDS.get(st.contract)
    rows = features(st, voids, legal)
    w = STRONG_ONLY if kind is None else WEIGHTS[kind][situation(st)]
    logits = [sum(x * y for x, y in zip(row, w, strict=True)) for row in rows]
    top = max(logits)
    exps = [math.exp(x - top) for x in logits]
    total = sum(exps)
    return [e / total for e in exps]


class LearnedModel:
    """The model as an opponent model of the reading: called like a policy it names the card it
    finds likeliest; :meth:`chance` gives the chance of any card."""

    def __call__(self, st: Any, voids: list[set[int]] | None) -> Any:
        legal = st.legal_actions()
        if len(legal) == 1:
            return legal[0]
        chances = probabilities(st, voids, legal)
        return legal[max(range(len(legal)), key=chances.__getitem__)]

    def chance(self, st: Any, voids: list[set[int]] | None, legal: Sequence[Any], card: int) -> float:
        """The chance the seat to move plays ``card`` of ``legal`` (more than one card)."""
        chances = probabilities(st, voids, legal)
        for a, x in zip(legal, chances, strict=True):
            if a.arg == card:
                return x
        return 0.0


STRONG_ONLY: Final = (2.0,) + (0.0,) * (len(FEATURES) - 1)

WEIGHTS: tuple[tuple[tuple[float, ...], ...], ...] = (
    (  # King of Hearts: lead, follow, discard
        (0.339, 0.448, -0.373, 0.660, 0.971, -2.374, 0.244, 3.525, -0.736, 0.383, -0.744,
         -0.744, 1.029, 0.044, 0.000, 0.000, 0.000, 0.000, -0.474, -0.736, 0.660),
        (0.323, 0.432, -0.226, 0.411, 1.087, -0.000, -3.193, 3.193, -0.010, -0.211, -1.145,
         -1.145, 0.000, 0.000, -0.761, 0.953, -1.435, -0.354, 1.145, -0.000, 0.971),
        (0.289, -0.206, 0.314, 0.857, 2.102, -2.040, -0.799, 2.336, 0.530, -0.516, 0.898,
         0.898, -0.539, 0.326, 0.000, 0.000, 0.000, 0.000, 0.007, 0.402, 0.744),
    ),
    (  # Queens: lead, follow, discard
        (0.558, -0.029, -0.304, 0.518, 0.774, -2.792, 0.196, 1.783, -1.533, 0.219, -0.381,
         -0.381, 0.475, 0.616, 0.000, 0.000, 0.000, 0.000, 0.087, -0.389, 0.859),
        (1.141, 0.002, 0.128, 0.519, 1.120, 0.000, -2.304, 2.304, -0.126, -0.354, -0.487,
         -0.487, 0.000, 0.000, -0.913, 0.510, -2.117, -0.386, 0.487, 0.000, 1.024),
        (1.096, -0.146, 0.073, 1.035, 1.959, -2.981, -0.847, 3.190, 0.286, -0.294, 0.408,
         0.408, -0.585, 0.018, 0.000, 0.000, 0.000, 0.000, -0.049, -0.041, 0.843),
    ),
    (  # Diamonds: lead, follow, discard
        (0.511, -0.314, -0.306, 1.060, 1.174, -2.301, 0.928, 2.426, -0.375, 0.073, -0.758,
         0.000, 0.300, -0.270, 0.000, 0.000, 0.000, 0.000, 0.585, -0.255, 0.946),
        (0.704, 1.157, 0.882, 0.724, 1.311, 0.000, -2.902, 2.902, 0.295, -0.628, 0.000,
         0.000, 0.000, 0.000, -0.988, 0.247, -4.396, -1.265, 0.000, 0.000, 1.816),
        (1.242, -0.363, 0.604, 0.747, 1.537, -3.534, -1.244, 2.575, 0.561, -0.083, 0.656,
         0.000, -0.034, 0.338, 0.000, 0.000, 0.000, 0.000, -0.596, 0.390, 0.713),
    ),
    (  # Slaps: lead, follow, discard
        (0.366, 0.013, -0.245, 0.708, 2.297, -4.475, 0.984, 2.220, -0.803, -0.128, 0.000,
         0.000, 0.000, -0.198, 0.000, 0.000, 0.000, 0.000, 0.000, -0.074, 0.293),
        (0.859, 0.859, -0.643, 1.218, 0.983, -0.000, -3.027, 3.027, 0.368, -0.518, 0.000,
         0.000, 0.000, 0.000, -3.984, 0.762, 0.000, -0.797, 0.000, -0.000, 2.052),
        (1.380, -0.473, 0.986, 0.919, 1.554, -3.323, -0.977, 4.117, 0.288, -0.291, 0.000,
         0.000, 0.000, 0.565, 0.000, 0.000, 0.000, 0.000, 0.000, 0.700, 1.387),
    ),
)
"""Per trick contract (:data:`KINDS`) and situation (:data:`SITUATIONS`), the weight of each
feature."""

__all__ = ["FEATURES", "WEIGHTS", "LearnedModel", "features", "probabilities", "situation"]

