"""A rule-based Trex player with card sense, and the fast policy search bots roll out with.

The policy (:func:`policy`) works on a TrexState, but reads only what the seat
to move knows: its own hand, the trick, the captured cards, the layout and
which cards are *out* (neither in its hand nor played). On a world sampled from
the seat's view (:mod:`cardtable.bots.worlds`) those are the same in every
world, so the ``expert`` bot below deals one world from its view and asks the
policy; search bots use the same policy, for every seat, in their rollouts.

Trick contracts (KH, QN, DI, TK, Complex):

* **Ducking.** Following suit, play the highest card that still loses to the
  card winning the trick. When every card of the suit would win: last to play,
  shed the highest card that is not itself a penalty card; otherwise play the
  lowest, unless (card counting, ``smart``) no card that could beat it is out,
  or every seat still to play is void in the suit, in which case the trick is
  lost anyway and the highest card goes.
* **Unloading.** Void in the led suit, discard the card that costs most:
  penalty cards first (a doubled one first: +v to its doubler), then the
  highest card of the shortest suit (a "boss" card that would win later).
* **Leading.** Lead a low card that is sure or likely to lose: the suit where
  the most higher cards are out, short suits first (to become void); never a
  penalty card while another card is available. With ``smart``, prefer a suit
  in which a seat other than the likely winner is void (it unloads its
  penalties on someone else) and, in KH, flush hearts when the A♥ is gone and
  the K♥ is out.

Trex (layout race): play the card that releases the fewest cards others can
play and the most of its own; open a suit (a Jack) where the seat is long;
keep Jacks of suits where others would gain more than the seat.

Contract choice: the expected score of each contract left, estimated from the
hand (K♥ guards, queens and their guards, diamonds, high cards, Jacks and
sequence ends for Trex) relative to a random hand's. Doubling: K♥ with four or
more small hearts, a queen with three small cards and neither A nor K of its
suit. Redeal: always when the hand qualifies (TX-13 hands are bad hands).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final

from ..core.cards import ACE_HEARTS, HEARTS, KING_HEARTS
from ..core.game import Action, PlayerView
from ..games.trex.actions import A_CONTRACT, A_DONE, A_KEEP, A_REDEAL, CONTRACT, DI, KH, PLAY, QN, TK, TR, TrexAction
from ..games.trex.state import LAYOUT_RANK, NEXT, STRENGTH, SUIT, Phase, TrexState, layout_card
from ..games.trex.view import TrexView
from .base import Budget
from .worlds import TrexMemory, trex_dealer

TRICK: Final = Phase.TRICK
TREX: Final = Phase.TREX


def _released(c: int) -> tuple[int, ...]:
    s, r = SUIT[c], LAYOUT_RANK[c]
    if r == 11:
        return (layout_card(s, 10), layout_card(s, 12))
    if r < 11:
        return (layout_card(s, r - 1),) if r > 2 else ()
    return (layout_card(s, r + 1),) if r < 14 else ()


RELEASED: Final = tuple(_released(c) for c in range(52))
"""The cards a Trex play of ``c`` makes playable next (TX-32)."""

# What the kingdom holder scores on average under each contract with a random hand,
# every seat playing this policy: 2,000 deals (seeds 0-1999) per contract, redeals
# off; standard errors about 0.8 (1.3 for TR). Complex (CX, all four negatives): 1,000
# deals under the complex preset, standard error 3.4. Measured by bench/trex_baselines.py.
BASELINE: dict[int, float] = {KH: -15.8, QN: -23.6, DI: -32.2, TK: -48.3, TR: 131.4, KH | QN | DI | TK: -118.6}


def above_baseline(values: Sequence[float], legal: Sequence[Action]) -> list[float]:
    """When the choices are contracts (TX-9), each value less its contract's :data:`BASELINE`: the
    holder picks the contract this hand suits best, not the one that scores most on average."""
    masks = [a.arg for a in legal if isinstance(a, TrexAction) and a.kind == CONTRACT]
    if len(masks) != len(legal):
        return list(values)
    return [v - BASELINE.get(mask, 0.0) for v, mask in zip(values, masks, strict=True)]


def policy(st: TrexState, smart: bool = False, voids: list[set[int]] | None = None) -> Any:
    """The move of the seat to move in ``st`` (any phase), from what that seat knows."""
    phase = st.phase
    if phase is TRICK:
        return _trick(st, smart, voids)
    if phase is TREX:
        return _trex(st)
    if phase is Phase.CHOOSE:
        return choose_contract(st.hand(st.to_move), st.contracts_left())
    if phase is Phase.DOUBLE:
        return double_guarded_card(st.hand(st.to_move), st.legal_actions())
    if phase is Phase.REDEAL:
        legal = st.legal_actions()
        return A_REDEAL if A_REDEAL in legal else A_KEEP
    return st.legal_actions()[0]


def _out_above(st: TrexState, p: int, c: int) -> int:
    """How many cards of ``c``'s suit that beat ``c`` are out (not ours, not played)."""
    owner = st.owner
    s = SUIT[c]
    n = 0
    for d in range(13 * s, 13 * s + 13):
        if STRENGTH[d] > STRENGTH[c] and owner[d] >= 0 and owner[d] != p:
            n += 1
    return n


def _trick(st: TrexState, smart: bool, voids: list[set[int]] | None) -> Any:
    p = st.to_move
    h = st.hands_by_suit[p]
    trick = st.trick
    tc = st.trick_contract
    assert tc is not None
    unit = tc.unit
    if trick:
        led = SUIT[trick[0]]
        follow = h[led]
        if follow:
            if len(follow) == 1:
                return follow[0]
            w = 0
            for c in trick:
                if SUIT[c] == led and STRENGTH[c] > w:
                    w = STRENGTH[c]
            best = None
            bs = 0
            for a in follow:
                s = STRENGTH[a.arg]
                if bs < s < w:
                    best, bs = a, s
            if best is not None:
                return best  # duck as high as possible
            if len(trick) == 3:  # the trick is ours anyway: shed the highest card that costs nothing
                return max(follow, key=lambda a: (unit[a.arg] == 0, STRENGTH[a.arg]))
            low = min(follow, key=lambda a: STRENGTH[a.arg])
            if smart:
                later = [NEXT[p]] if len(trick) == 2 else [NEXT[p], NEXT[NEXT[p]]]
                all_void = voids is not None and all(led * 13 in voids[q] for q in later)
                if all_void or _out_above(st, p, low.arg) == 0:
                    return max(follow, key=lambda a: (unit[a.arg] == 0, STRENGTH[a.arg]))
            return low
        # void in the led suit: unload the costliest card
        best = None
        key: tuple[int, int, int] = (-1, 0, 0)
        doubler = st.doubler
        for suit in h:
            n = len(suit)
            for a in suit:
                c = a.arg
                cost = unit[c] * (2 if doubler[c] >= 0 else 1)
                k = (cost, STRENGTH[c] - (n if smart else 0), -n)
                if k > key:
                    key, best = k, a
        return best
    legal = st._lawful()
    if not smart:
        return min(legal, key=lambda a: (unit[a.arg] > 0, STRENGTH[a.arg]))
    return _lead(st, p, legal, unit, voids)


def _lead(st: TrexState, p: int, legal: list[Any], unit: tuple[int, ...], voids: list[set[int]] | None) -> Any:
    h = st.hands_by_suit[p]
    owner = st.owner
    mask = st.contract
    best = None
    key: tuple[float, ...] = ()
    for a in legal:
        c = a.arg
        s = SUIT[c]
        above = _out_above(st, p, c)
        below = sum(1 for d in range(13 * s, 13 * s + 13) if STRENGTH[d] < STRENGTH[c] and owner[d] not in (-1, p))
        safe = 1 if above else 0
        score = 3.0 * safe + 0.4 * min(above, 3) - 0.2 * below - 0.15 * len(h[s])
        if unit[c]:
            score -= 4 + unit[c] / 25
        if voids is not None and safe and any(s * 13 in voids[q] for q in range(4) if q != p):
            score += 0.8  # someone void unloads on whoever wins, and it will not be us
        if mask & KH and s == HEARTS and owner[ACE_HEARTS] == -1 and owner[KING_HEARTS] not in (-1, p) and safe:
            score += 1.5  # flush the K♥ once the A♥ is gone
        if mask & DI and s == 1:
            score -= 0.5 if not safe else 0.0
        k = (score, -STRENGTH[c])
        if not key or k > key:
            key, best = k, a
    return best


def _trex(st: TrexState) -> Any:
    p = st.to_move
    owner = st.owner
    best = None
    key: tuple[int, int, int] = (-99, 0, 0)
    counts = [len(x) for x in st.hands_by_suit[p]]
    for c in st.frontier:
        if owner[c] != p:
            continue
        gift = mine = 0
        for d in RELEASED[c]:
            o = owner[d]
            if o == p:
                mine += 1
            elif o >= 0:
                gift += 1
        k = (mine - 2 * gift, counts[SUIT[c]], -c)
        if k > key:
            key, best = k, c
    from ..games.trex.actions import A_PLAY

    assert best is not None
    return A_PLAY[best]


def hand_value(hand: list[int], mask: int) -> float:
    """A rough expected score of the holder of ``hand`` under contract ``mask``."""
    suits: list[list[int]] = [[], [], [], []]
    for c in hand:
        suits[SUIT[c]].append(STRENGTH[c])
    if mask == TR:
        jacks = sum(1 for c in hand if LAYOUT_RANK[c] == 11)
        ends = sum(1 for c in hand if LAYOUT_RANK[c] in (2, 3, 14, 13))
        near = sum(1 for c in hand if 9 <= LAYOUT_RANK[c] <= 12)
        return 125 + 22 * (jacks - 1) - 9 * ends + 4 * near
    v = 0.0
    if mask & KH:
        hearts = suits[HEARTS]
        if 12 in hearts:
            small = sum(1 for x in hearts if x < 9)
            v -= 55 if small < 2 else (38 if small < 4 else 22)
        elif 13 in hearts and len(hearts) <= 2:
            v -= 28
        else:
            v -= 10 + (6 if len(hearts) <= 1 else 0)
    if mask & QN:
        for cards in suits:
            if 11 in cards:
                small = sum(1 for x in cards if x < 11)
                v -= 30 if small < 2 else (20 if small < 4 else 11)
            elif 12 in cards or 13 in cards:
                v -= 9 if len(cards) < 4 else 5
    if mask & DI:
        d = suits[1]
        v -= 4 * sum(1 for x in d if x >= 9) + 2.5 * len(d) + 8
    if mask & TK:
        high = sum(1 for cards in suits for x in cards if x >= 11)
        v -= 14 * high + 8
        v += 6 * sum(1 for cards in suits if not cards)
    return v


def choose_contract(hand: list[int], left: list[int]) -> Any:
    """The contract whose estimate beats a random hand's by most."""
    return A_CONTRACT[max(left, key=lambda m: (hand_value(hand, m) - BASELINE.get(m, 0.0), -m))]


def double_guarded_card(hand: list[int], legal: Sequence[Any]) -> Any:
    """Double K♥ behind four small hearts; a queen behind three small cards without A or K."""
    for a in legal:
        if a is A_DONE:
            continue
        c = a.arg
        s = SUIT[c]
        suit = [STRENGTH[d] for d in hand if SUIT[d] == s and d != c]
        if c == KING_HEARTS and sum(1 for x in suit if x < 9) >= 4 and 13 not in suit:
            return a
        if c != KING_HEARTS and sum(1 for x in suit if x < 10) >= 3 and not {12, 13} & set(suit):
            return a
    return A_DONE


class ExpertTrexBot:
    """The rule-based ``expert`` policy (module docstring) played from the view."""

    name = "expert-rules"

    def __init__(self, game: Any = None) -> None:
        self.game = game
        self.memory = TrexMemory()

    def attach(self, game: Any) -> None:
        """The public rules (options) of the game this bot is seated at."""
        self.game = game

    def observe(self, view: PlayerView) -> Action | None:
        """Remember what ``view`` shows; the only legal action if there is no choice."""
        assert isinstance(view, TrexView)
        self.memory.observe(view)
        legal = view.legal_actions
        return legal[0] if len(legal) == 1 else None

    def act(self, view: PlayerView, rng: random.Random, budget: Budget | None = None) -> Action:
        forced = self.observe(view)
        if forced is not None:
            return forced
        assert isinstance(view, TrexView)
        legal = view.legal_actions
        world = trex_dealer(view, self.game, self.memory).deal(rng)
        action: Action = policy(world, smart=True, voids=self.memory.cannot)
        return action if action in legal else fallback(view)


class NoisyTrexBot(ExpertTrexBot):
    """The expert policy, but a random legal action with probability ``noise``."""

    name = "noisy"

    def __init__(self, noise: float = 0.35, smart: bool = False, game: Any = None) -> None:
        super().__init__(game)
        self.noise = noise
        self.smart = smart

    def act(self, view: PlayerView, rng: random.Random, budget: Budget | None = None) -> Action:
        assert isinstance(view, TrexView)
        self.memory.observe(view)
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        if rng.random() < self.noise:
            return legal[rng.randrange(len(legal))]
        world = trex_dealer(view, self.game, self.memory).deal(rng)
        action: Action = policy(world, smart=self.smart, voids=self.memory.cannot)
        return action if action in legal else fallback(view)


def fallback(view: TrexView) -> Action:
    """A legal move when the rules the bot assumed differ from the game's (it was not
    told an option that changes legality): the lowest card, else the first action."""
    plays = [a for a in view.legal_actions if isinstance(a, TrexAction) and a.kind == PLAY]
    if plays:
        return min(plays, key=lambda a: STRENGTH[a.arg])
    return view.legal_actions[0]


__all__ = [
    "BASELINE", "ExpertTrexBot", "NoisyTrexBot", "choose_contract", "double_guarded_card", "hand_value", "policy",
]
