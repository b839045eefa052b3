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
    "own-penalty", "may-follow", "equal-above", "equal-before",
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
        # another card of the seat's equal to this one and listed before it (of its suit, scoring
        # alike, only the seat's own cards and cards gone between them: a doublable card scores
        # unlike every other card of its suit, so neither can be doubled)
        equal_before = False
        for step in (-1, 1):
            k = sc - 1 + step
            while 0 <= k < 13:
                d = BY_STRENGTH[s][k]
                if owner[d] == p:
                    if d < c and unit[d] == unit[c]:
                        equal_before = True
                elif owner[d] >= 0 or d in trick:
                    break
                k += step
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
            1.0 if equal_before else 0.0,
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
        (0.351, -0.489, 0.641, 0.598, -2.190, 0.363, 3.124, -0.706, 0.562, -0.894, -0.894,
         1.165, 0.129, 0.000, 0.000, 0.000, 0.000, -0.423, -0.843, 0.588, -2.187),
        (0.403, -0.596, 0.345, 0.382, -0.000, -2.485, 2.485, 0.029, -0.058, -1.104, -1.104,
         0.000, 0.000, -0.492, 0.787, -1.324, 0.346, 1.104, 0.000, 0.700, -2.515),
        (-0.287, 0.272, 0.953, 1.559, -1.871, -0.842, 2.100, 0.484, -0.559, 0.856, 0.856,
         -0.473, 0.214, 0.000, 0.000, 0.000, 0.000, 0.067, 0.581, 0.723, -2.350),
    ),
    (  # Queens: lead, follow, discard
        (0.400, -0.299, 0.347, 0.209, -2.870, 0.302, 1.374, -1.443, 0.311, -0.506, -0.506,
         0.480, 0.821, 0.000, 0.000, 0.000, 0.000, 0.042, -0.298, 0.786, -2.647),
        (1.107, -0.137, 0.347, 0.424, 0.000, -1.900, 1.900, -0.057, -0.120, -0.529, -0.529,
         0.000, 0.000, -0.654, 0.381, -1.927, -0.058, 0.529, 0.000, 0.869, -2.364),
        (0.577, 0.000, 0.871, 1.424, -2.999, -0.983, 3.127, 0.360, -0.341, 0.419, 0.419,
         -0.581, 0.185, 0.000, 0.000, 0.000, 0.000, 0.010, 0.088, 0.901, -2.408),
    ),
    (  # Diamonds: lead, follow, discard
        (0.286, -0.119, 0.851, 0.548, -2.245, 0.944, 1.924, -0.350, 0.079, -0.815, 0.000,
         0.412, -0.070, 0.000, 0.000, 0.000, 0.000, 0.508, -0.096, 0.817, -2.996),
        (1.398, 0.424, 0.351, 0.611, 0.000, -2.184, 2.184, 0.471, -0.313, 0.000, 0.000,
         0.000, 0.000, -0.079, -0.962, -3.488, -0.028, 0.000, 0.000, 1.541, -3.423),
        (0.245, 0.603, 0.736, 0.829, -3.560, -1.360, 2.310, 0.585, -0.153, 1.172, 0.000,
         -0.027, 0.446, 0.000, 0.000, 0.000, 0.000, -0.684, 0.325, 0.900, -3.142),
    ),
    (  # Slaps: lead, follow, discard
        (0.299, -0.284, 0.667, 2.010, -4.516, 1.005, 2.005, -0.768, -0.139, 0.000, 0.000,
         0.000, -0.159, 0.000, 0.000, 0.000, 0.000, 0.000, -0.088, 0.267, -1.103),
        (1.652, -1.060, 1.096, 0.353, -0.000, -2.528, 2.528, 0.516, -0.194, 0.000, 0.000,
         0.000, 0.000, -3.075, 0.754, 0.000, -0.198, 0.000, -0.000, 1.882, -1.995),
        (0.862, 0.580, 0.949, 1.156, -2.943, -1.298, 3.813, 0.258, -0.422, 0.000, 0.000,
         0.000, 0.539, 0.000, 0.000, 0.000, 0.000, 0.000, 0.745, 1.493, -2.291),
    ),
)
"""Per trick contract (:data:`KINDS`) and situation (:data:`SITUATIONS`), the weight of each
feature."""

__all__ = ["FEATURES", "WEIGHTS", "LearnedModel", "features", "probabilities", "situation"]

