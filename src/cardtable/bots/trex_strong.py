"""The ``strong`` Trex policy: a rule-based player with card counting, void tracking and
per-contract play (docs/bots.md, "Trex: the strong policy").

Like :func:`cardtable.bots.trex_expert.policy` it works on a TrexState but reads only
what the seat to move knows: its own hand, the cards played (the trick, captured
cards, the layout), the doubled cards, and, per other seat, the voids it has shown.
A card is *out* when it is neither in the seat's hand nor played; which other hand
holds it is never read. Voids come from a :class:`~cardtable.bots.worlds.TrexMemory`
(``voids``) when the bot plays from its view; a search's rollouts pass ``voids=None``
and then every seat sees the voids of the sampled world (a determinized rollout).

The same function is the rollout policy of ``expert`` (:mod:`cardtable.bots.trex_search`),
so it is written for speed: plain loops over card ids, no allocation beyond a few lists.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final

from ..core.cards import ACE_HEARTS, HEARTS, KING_HEARTS, QUEENS
from ..core.game import Action, PlayerView
from ..games.trex.actions import A_CONTRACT, A_DONE, A_KEEP, A_PLAY, A_REDEAL, DI, KH, QN, TK, TR
from ..games.trex.state import LAYOUT_RANK, NEXT, STRENGTH, SUIT, Phase, TrexState
from ..games.trex.view import TrexView
from .base import Budget
from .trex_expert import BASELINE, RELEASED, ExpertTrexBot, fallback, hand_value
from .worlds import trex_dealer

TRICK: Final = Phase.TRICK
TREX: Final = Phase.TREX
"""The queen's id per suit."""


def strong_policy(st: TrexState, voids: list[set[int]] | None = None) -> Any:
    """The strong move of the seat to move in ``st`` (any phase)."""
    phase = st.phase
    if phase is TRICK:
        return _trick(st, voids)
    if phase is TREX:
        return _trex(st)
    if phase is Phase.CHOOSE:
        return choose_contract(st.hand(st.to_move), st.contracts_left())
    if phase is Phase.DOUBLE:
        if st.game.options.doubled_self_capture == "single":
            return double_unless_bare(st.hand(st.to_move), st.legal_actions())
        return double_guarded_or_long(st.hand(st.to_move), st.legal_actions(), st.contract)
    if phase is Phase.REDEAL:
        return redeal_choice(st)
    return st.legal_actions()[0]


# ------------------------------------------------------------------ counting
def _out_split(owner: list[int], p: int, c: int) -> tuple[int, int]:
    """How many out cards of ``c``'s suit rank below and above ``c``."""
    s = SUIT[c]
    sc = STRENGTH[c]
    below = above = 0
    for d in range(13 * s, 13 * s + 13):
        o = owner[d]
        if o >= 0 and o != p:
            if STRENGTH[d] > sc:
                above += 1
            else:
                below += 1
    return below, above


def _void(st: TrexState, voids: list[set[int]] | None, q: int, s: int) -> bool:
    """Is seat ``q`` known to be void in suit ``s``?"""
    if voids is None:
        return not st.hands_by_suit[q][s]
    return 13 * s in voids[q]


def _cost(st: TrexState, c: int, p: int) -> int:
    """What capturing card ``c`` costs seat ``p`` (a card doubled by another seat costs twice)."""
    u = st.trick_contract.unit[c]  # type: ignore[union-attr]
    if u and st.doubler[c] >= 0 and st.doubler[c] != p:
        return 2 * u
    return u


# -------------------------------------------------------------------- tricks
def _trick(st: TrexState, voids: list[set[int]] | None) -> Any:
    p = st.to_move
    h = st.hands_by_suit[p]
    trick = st.trick
    if trick:
        follow = h[SUIT[trick[0]]]
        if follow:
            return follow[0] if len(follow) == 1 else _follow(st, voids, p, follow)
        return _discard(st, p)
    return _lead(st, voids, p, st._lawful())


def _follow(st: TrexState, voids: list[set[int]] | None, p: int, follow: list[Any]) -> Any:
    trick = st.trick
    led = SUIT[trick[0]]
    w = 0
    for c in trick:
        if SUIT[c] == led and STRENGTH[c] > w:
            w = STRENGTH[c]
    tc = st.trick_contract
    assert tc is not None
    unit = tc.unit
    under = [a for a in follow if STRENGTH[a.arg] < w]
    costly = [a for a in under if unit[a.arg]]
    if costly:  # a penalty card of ours goes under the winning card
        return max(costly, key=lambda a: (unit[a.arg], STRENGTH[a.arg]))
    if not st.contract & TK and not any(unit[c] for c in trick) and _clean(st, p, len(trick)):
        # nobody after us can put a penalty card on this trick (we are last, or every penalty
        # card still out is doubled by a seat that has played to it): taking it costs nothing, so
        # shed the highest card that costs nothing (a high card that could catch one later)
        free = [a for a in follow if unit[a.arg] == 0]
        if free:
            return max(free, key=lambda a: STRENGTH[a.arg])
    if under:  # duck as high as possible
        return max(under, key=lambda a: STRENGTH[a.arg])
    owner = st.owner
    left = 3 - len(trick)
    later = [NEXT[p]] if left == 1 else [NEXT[p], NEXT[NEXT[p]]] if left == 2 else []
    low = min(follow, key=lambda a: STRENGTH[a.arg])
    _, lo_above = _out_split(owner, p, low.arg)
    can_cover = lo_above > 0 and any(not _void(st, voids, q, led) for q in later)
    if not can_cover:  # the trick is ours anyway: shed the highest card that costs nothing
        return max(follow, key=lambda a: (unit[a.arg] == 0, STRENGTH[a.arg]))
    return min(follow, key=lambda a: (unit[a.arg] > 0, STRENGTH[a.arg]))


def _clean(st: TrexState, p: int, played: int) -> bool:
    """Can no seat after ``p`` in the current trick (``played`` cards on it) hold a penalty card?
    True when ``p`` is last, or when every penalty card out is doubled (TX-15: it stays in its
    doubler's hand, so its place is public) by a seat that is not still to play."""
    if played == 3:
        return True
    unit = st.trick_contract.unit  # type: ignore[union-attr]
    owner = st.owner
    doubler = st.doubler
    later = (NEXT[p], NEXT[NEXT[p]], NEXT[NEXT[NEXT[p]]])[: 3 - played]
    for c in range(52):
        if unit[c] and owner[c] >= 0 and owner[c] != p:
            q = doubler[c]
            if q < 0 or q in later:
                return False
    return True


DANGER_WEIGHTS: Final = (3.0, 2.5, 1.5)
"""A discard's danger multipliers: a high heart while the K♥ is out, an A or K above a queen
still out, a diamond in Diamonds."""


def _danger(st: TrexState, p: int, c: int, suit_len: int) -> float:
    """How likely card ``c`` is to win a costly trick later (keep it low to discard it first)."""
    owner = st.owner
    below, above = _out_split(owner, p, c)
    if below == 0:
        return 0.0  # it can never win a trick someone else follows; a lead of it may be covered
    d = below / (above + 1.0)
    mask = st.contract
    s = SUIT[c]
    w = DANGER_WEIGHTS
    if mask & KH and s == HEARTS and owner[KING_HEARTS] >= 0 and owner[KING_HEARTS] != p:
        d *= w[0]  # a high heart may catch the K♥
    if mask & QN:
        q = QUEENS[s]
        if owner[q] >= 0 and owner[q] != p and STRENGTH[c] > STRENGTH[q]:
            d *= w[1]  # A or K above a queen still out
    if mask & DI and s == 1:
        d *= w[2]
    if mask & TK:  # Slaps: every trick costs the same; dump the high cards, short suits first
        return STRENGTH[c] - suit_len + 0.0
    return d


def _discard(st: TrexState, p: int) -> Any:
    """Void in the led suit: the costliest card, then the most dangerous one, short suits first."""
    h = st.hands_by_suit[p]
    best = None
    key: tuple[float, float, int] = (-1.0, 0.0, 0)
    for suit in h:
        n = len(suit)
        for a in suit:
            c = a.arg
            k = (float(_cost(st, c, p) + (1 if st.doubler[c] == p else 0)), _danger(st, p, c, n), -n)
            if k > key:
                key, best = k, a
    return best


LEAD_WEIGHTS: Final = (0.5, 0.8, 18.0, 8.0, 3.0, 4.5, 5.0, 10.0)
"""A lead's weights: the suit's points out, what void seats may unload, flushing the K♥,
flushing a queen (on top, below others), shortening a suit, leading a penalty card, a heart
led by the K♥'s holder."""


def _lead(st: TrexState, voids: list[set[int]] | None, p: int, legal: Sequence[Any]) -> Any:
    """A lead likely to lose, or to win a cheap trick; flush the penalty cards others hold."""
    owner = st.owner
    tc = st.trick_contract
    assert tc is not None
    unit = tc.unit
    mask = st.contract
    h = st.hands_by_suit[p]
    others = [NEXT[p], NEXT[NEXT[p]], NEXT[NEXT[NEXT[p]]]]
    # the points out, per suit: what a void seat could unload, what a suit could hold
    out_pts = 0
    for c in range(52):
        if unit[c] and owner[c] >= 0 and owner[c] != p:
            out_pts += unit[c]
    trick_cost = tc.trick_penalty
    kh_mine = bool(mask & KH) and owner[KING_HEARTS] == p
    best = None
    key: tuple[float, int] = (-1e9, 0)
    seen: set[int] = set()
    for a in legal:
        c = a.arg
        s = SUIT[c]
        below, above = _out_split(owner, p, c)
        nout = below + above
        suit_pts = 0
        for d in range(13 * s, 13 * s + 13):
            if unit[d] and owner[d] >= 0 and owner[d] != p:
                suit_pts += unit[d]
        # a seat follows only while it may hold the suit: fewer cards out than seats means voids
        followers = min(nout, sum(1 for q in others if not _void(st, voids, q, s)))
        voids_here = 3 - followers
        # the chance this lead wins the trick
        if above == 0 or followers == 0:
            p_win = 1.0
        elif below == 0:
            p_win = 0.0
        else:
            p_win = (below / nout) ** min(above, followers)
        # what the trick would cost its winner: the suit's points that fall, a void seat's unloads
        w = LEAD_WEIGHTS
        cost = trick_cost + _cost(st, c, p) + min(suit_pts, 75) * w[0] + voids_here * min(out_pts - suit_pts, 75) * w[1]
        score = -p_win * cost
        # flushing: a low lead in a suit whose penalty card is out and now unguarded on top
        k_out = owner[KING_HEARTS] >= 0 and owner[KING_HEARTS] != p
        if mask & KH and s == HEARTS and k_out and STRENGTH[c] < STRENGTH[KING_HEARTS] and (
            owner[ACE_HEARTS] < 0 or owner[ACE_HEARTS] == p
        ):
            score += w[2] * (1.0 - p_win)
        if mask & QN and c != QUEENS[s]:
            q = QUEENS[s]
            if owner[q] >= 0 and owner[q] != p and STRENGTH[c] < STRENGTH[q]:
                higher_out = sum(1 for d in (13 * s, 13 * s + 12) if owner[d] >= 0 and owner[d] != p)
                mine_high = sum(1 for d in (13 * s, 13 * s + 12) if owner[d] == p)
                if mine_high == 0:
                    score += (w[3] if higher_out == 0 else w[4]) * (1.0 - p_win)
        if unit[c]:
            score -= w[6] + unit[c] * 0.3
        if kh_mine and s == HEARTS:
            score -= w[7]  # a heart led by the K♥'s holder strips its guards
        # a short suit led becomes a void sooner (to unload on), all the more with the K♥ to unload
        score += (w[5] * (2.0 if kh_mine else 1.0)) / len(h[s]) if s not in seen else 0.0
        seen.add(s)
        k = (score, -STRENGTH[c])
        if k > key:
            key, best = k, a
    return best


# ---------------------------------------------------------------------- Trex
def _run(st: TrexState, p: int, c: int, step: int) -> tuple[int, int, int]:
    """From ``c`` outwards in direction ``step`` (+1 up, -1 down): how many of our cards
    follow it unbroken, and how many of ours and of others lie beyond ``c`` in all."""
    owner = st.owner
    s = SUIT[c]
    r = LAYOUT_RANK[c] + step
    chain = 0
    broken = False
    mine = theirs = 0
    while 2 <= r <= 14:
        d = 13 * s + (0 if r == 14 else r - 1)
        o = owner[d]
        if o == p:
            mine += 1
            if not broken:
                chain += 1
        elif o >= 0:
            theirs += 1
            broken = True
        r += step
    return chain, mine, theirs


TREX_WEIGHTS: Final = (-1.0, -5.0, 6.0, 0.45, -2.2, 3.325)
"""The layout score of a play: a first card of ours released, each further one, our cards
behind it, theirs behind it, their cards it releases now, a pure blocker. Tuned to a deep
search's choices (``bench/trex_teacher.py tune``; docs/bots.md, "Trex layout")."""


def _trex(st: TrexState) -> Any:
    """The layout race: release our own cards, keep others blocked, open the jack we need."""
    p = st.to_move
    owner = st.owner
    mine_total = st.count[p]
    best = None
    key: tuple[float, int] = (-1e9, 0)
    for c in st.frontier:
        if owner[c] != p:
            continue
        gift = 0
        for d in RELEASED[c]:
            o = owner[d]
            if o >= 0 and o != p:
                gift += 1
        r = LAYOUT_RANK[c]
        if r == 11:
            up = _run(st, p, c, 1)
            down = _run(st, p, c, -1)
            chain = up[0] + down[0]
            mine = up[1] + down[1]
            theirs = up[2] + down[2]
        else:
            chain, mine, theirs = _run(st, p, c, 1 if r > 11 else -1)
        # our cards behind it need it played; their cards behind it stay blocked while we hold it
        w = TREX_WEIGHTS
        score = w[0] * min(chain, 1) + w[1] * chain + w[2] * mine - w[3] * theirs - w[4] * gift
        if mine == 0 and theirs and mine_total > 1:
            score -= w[5]  # a pure blocker: play it last
        k = (score, -c)
        if k > key:
            key, best = k, c
    assert best is not None
    return A_PLAY[best]


# ------------------------------------------------------- the kingdom's choices
def choose_contract(hand: list[int], left: list[int]) -> Any:
    """The contract whose estimate beats a random hand's by most (hand shape)."""
    return A_CONTRACT[max(left, key=lambda m: (contract_value(hand, m) - BASELINE.get(m, 0.0), -m))]


def contract_value(hand: list[int], mask: int) -> float:
    """The expected score of ``hand`` as holder under ``mask``: the rule-based estimate of
    :func:`~cardtable.bots.trex_expert.hand_value`, with the hand's shape (voids and short
    suits unload penalty cards; long low suits keep them) and Trex connectedness."""
    v = hand_value(hand, mask)
    suits: list[list[int]] = [[], [], [], []]
    for c in hand:
        suits[SUIT[c]].append(STRENGTH[c])
    if mask == TR:
        for rs in ([LAYOUT_RANK[c] for c in hand if SUIT[c] == s] for s in range(4)):
            if 11 in rs:  # a jack with its neighbours runs
                v += 4 * sum(1 for r in rs if 8 <= r <= 13)
            else:
                v -= 3 * sum(1 for r in rs if r <= 4 or r == 14)  # far cards behind someone else's jack
        return v
    shortness = sum(max(0, 3 - len(x)) for x in suits)
    if mask & (KH | QN | DI):
        v += 2.0 * shortness
    if mask & TK:
        low = sum(1 for x in suits for r in x if r <= 5)
        v += 2.0 * low - 3.0 * sum(1 for x in suits if len(x) >= 5 and max(x) >= 11)
    return v


def double_guarded_or_long(hand: list[int], legal: Sequence[Any], mask: int) -> Any:
    """Double K♥ with four small hearts and no A♥; a queen with three small cards of its suit
    and neither its A nor K, or with five cards of the suit."""
    for a in legal:
        if a is A_DONE:
            continue
        c = a.arg
        s = SUIT[c]
        suit = [STRENGTH[d] for d in hand if SUIT[d] == s and d != c]
        small = sum(1 for x in suit if x < 9)
        if c == KING_HEARTS:
            if small >= 4 and 13 not in suit:
                return a
            continue
        if (small >= 3 and not {12, 13} & set(suit)) or (small >= 4 and len(suit) >= 5):
            return a
    return A_DONE


def double_unless_bare(hand: list[int], legal: Sequence[Any]) -> Any:
    """Double the first K♥ or queen that has a lower card of its suit to duck with. When the
    doubler who takes its own card pays only the plain value (TX-16, ``doubled_self_capture =
    "single"``), doubling costs nothing but the card's secret and earns +v and −2v to the others
    whenever another seat takes it."""
    for a in legal:
        if a is A_DONE:
            continue
        c = a.arg
        s = SUIT[c]
        for d in hand:
            if SUIT[d] == s and STRENGTH[d] < STRENGTH[c]:
                return a
    return A_DONE


def redeal_choice(st: TrexState) -> Any:
    """Ask for a redeal only when the hand is bad for the contract the trigger protects:
    a K♥ guarded by four small hearts is a good KH hand and is kept."""
    legal = st.legal_actions()
    if A_REDEAL not in legal:
        return A_KEEP
    hand = st.hand(st.to_move)
    hearts = [STRENGTH[c] for c in hand if SUIT[c] == HEARTS]
    kh_only = st.relevant[0] and not st.relevant[1]
    if kh_only and KING_HEARTS in hand and sum(1 for x in hearts if x < 9) >= 4 and 13 not in hearts:
        return A_KEEP
    return A_REDEAL




class StrongTrexBot(ExpertTrexBot):
    """The strong policy played from the view: one world dealt from the view and the
    seat's memory (every quantity the policy reads is the same in every such world),
    voids from the memory."""

    name = "strong"

    def act(self, view: PlayerView, rng: random.Random, budget: Budget | None = None) -> Action:
        forced = self.observe(view)
        if forced is not None:
            return forced
        assert isinstance(view, TrexView)
        world = trex_dealer(view, self.game, self.memory).deal(rng)
        action: Action = strong_policy(world, self.memory.cannot)
        return action if action in view.legal_actions else fallback(view)

__all__ = [
    "StrongTrexBot", "choose_contract", "contract_value", "double_guarded_or_long", "double_unless_bare",
    "redeal_choice", "strong_policy",
]
