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
from typing import Final

from ..games.trex.actions import DI, KH, QN, TK, TrexAction
from ..games.trex.state import NEXT, STRENGTH, SUIT, TrexState
from .trex_strong import _void, strong_policy

FEATURES: Final = (
    "strong", "rank", "top", "bottom", "length", "above", "below", "boss", "lowest",
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


def situation(st: TrexState) -> int:
    """0 when the seat to move leads, 1 when it follows suit, 2 when it is void in the led suit."""
    trick = st.trick
    if not trick:
        return 0
    return 1 if st.hands_by_suit[st.to_move][SUIT[trick[0]]] else 2


def features(st: TrexState, voids: list[set[int]] | None, legal: Sequence[TrexAction]) -> list[list[float]]:
    """One feature vector (:data:`FEATURES`) per card of ``legal`` for the seat to move in ``st``
    (a trick phase), given the voids it has seen shown (``None``: the world's own)."""
    p = st.to_move
    owner = st.owner
    tc = st.trick_contract
    assert tc is not None
    unit = tc.unit
    doubler = st.doubler
    h = st.hands_by_suit[p]
    strong = strong_policy(st, voids).arg
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


def probabilities(st: TrexState, voids: list[set[int]] | None, legal: Sequence[TrexAction]) -> list[float]:
    """The model's chance of each card of ``legal`` (a trick phase, more than one card)."""
    kind = KINDS.get(st.contract)
    rows = features(st, voids, legal)
    w = STRONG_ONLY if kind is None else WEIGHTS[kind][situation(st)]
    logits: list[float] = []
    for row in rows:
        z = 0.0
        for i in range(len(row)):
            z += row[i] * w[i]
        logits.append(z)
    top = max(logits)
    exps = [math.exp(x - top) for x in logits]
    total = sum(exps)
    return [e / total for e in exps]


class LearnedModel:
    """The model as an opponent model of the reading: called like a policy it names the card it
    finds likeliest; :meth:`chance` gives the chance of any card."""

    def __call__(self, st: TrexState, voids: list[set[int]] | None) -> TrexAction:
        legal = st.legal_actions()
        if len(legal) == 1:
            return legal[0]
        chances = probabilities(st, voids, legal)
        return legal[max(range(len(legal)), key=chances.__getitem__)]

    def chance(self, st: TrexState, voids: list[set[int]] | None, legal: Sequence[TrexAction], card: int) -> float:
        """The chance the seat to move plays ``card`` of ``legal`` (more than one card)."""
        chances = probabilities(st, voids, legal)
        for a, x in zip(legal, chances, strict=True):
            if a.arg == card:
                return x
        return 0.0


STRONG_ONLY: Final = (2.0,) + (0.0,) * (len(FEATURES) - 1)

WEIGHTS: tuple[tuple[tuple[float, ...], ...], ...] = (
    (  # King of Hearts: lead, follow, discard
        (0.464, -0.492, 0.701, 1.035, -2.330, 0.308, 3.483, -0.787, 0.532, -0.774, -0.774,
         1.147, 0.019, 0.000, 0.000, 0.000, 0.000, -0.439, -0.813, 0.656),
        (0.401, -0.282, 0.350, 1.113, 0.000, -3.181, 3.181, -0.022, -0.234, -1.131, -1.131,
         0.000, 0.000, -0.689, 0.921, -1.383, 0.078, 1.131, 0.000, 0.960),
        (0.281, 0.188, 0.810, 2.084, -2.012, -0.831, 2.339, 0.504, -0.532, 0.827, 0.827,
         -0.526, 0.341, 0.000, 0.000, 0.000, 0.000, -0.002, 0.399, 0.767),
    ),
    (  # Queens: lead, follow, discard
        (0.551, -0.295, 0.516, 0.771, -2.787, 0.192, 1.780, -1.529, 0.211, -0.380, -0.380,
         0.475, 0.617, 0.000, 0.000, 0.000, 0.000, 0.086, -0.373, 0.859),
        (1.142, 0.128, 0.519, 1.120, -0.000, -2.304, 2.304, -0.126, -0.355, -0.487, -0.487,
         0.000, 0.000, -0.912, 0.510, -2.116, -0.385, 0.487, -0.000, 1.024),
        (1.065, -0.020, 1.005, 1.950, -2.961, -0.851, 3.223, 0.286, -0.294, 0.370, 0.370,
         -0.585, 0.036, 0.000, 0.000, 0.000, 0.000, -0.064, -0.026, 0.855),
    ),
    (  # Diamonds: lead, follow, discard
        (0.405, -0.182, 1.030, 1.153, -2.313, 0.894, 2.363, -0.357, 0.003, -0.682, 0.000,
         0.255, -0.263, 0.000, 0.000, 0.000, 0.000, 0.587, -0.098, 0.932),
        (1.488, 0.958, 0.602, 1.305, -0.000, -2.783, 2.783, 0.323, -0.598, 0.000, 0.000,
         0.000, 0.000, -0.882, -0.711, -4.130, -0.777, 0.000, 0.000, 1.774),
        (1.206, 0.436, 0.557, 1.511, -3.514, -1.300, 2.671, 0.549, -0.079, 0.510, 0.000,
         -0.100, 0.444, 0.000, 0.000, 0.000, 0.000, -0.498, 0.435, 0.753),
    ),
    (  # Slaps: lead, follow, discard
        (0.371, -0.246, 0.708, 2.298, -4.477, 0.984, 2.217, -0.806, -0.126, 0.000, 0.000,
         0.000, -0.199, 0.000, 0.000, 0.000, 0.000, 0.000, -0.083, 0.292),
        (1.697, -0.642, 1.215, 0.985, 0.000, -3.017, 3.017, 0.365, -0.519, 0.000, 0.000,
         0.000, 0.000, -3.973, 0.760, 0.000, -0.776, 0.000, 0.000, 2.046),
        (1.198, 0.685, 0.826, 1.541, -3.159, -0.975, 4.303, 0.205, -0.354, 0.000, 0.000,
         0.000, 0.590, 0.000, 0.000, 0.000, 0.000, 0.000, 0.665, 1.454),
    ),
)
"""Per trick contract (:data:`KINDS`) and situation (:data:`SITUATIONS`), the weight of each
feature."""

__all__ = ["FEATURES", "WEIGHTS", "LearnedModel", "features", "probabilities", "situation"]

