"""Trex bots. They read only the seat's :class:`TrexView`.

* ``rules``: a simple rule-based player.

  * Redeal requests: asks for a redeal whenever its hand qualifies (TX-13 hands are bad ones).
  * Contract choice: estimates its score under each unused contract from the hand
    (K♥ and its guards, queens, diamonds, high cards, Jacks) and announces the best.
  * Doubling: doubles K♥ with at least four other hearts, a queen with at least three
    lower cards of its suit and neither the Ace nor the King (TX-15).
  * Tricks: ducks under the winning card when it can; when it must win, wins high
    (last to play) or low; when void, dumps its worst penalty card (K♥, queens, high
    diamonds) or else its highest card; leads its lowest card outside the penalty suits.
  * Trex: prefers cards that open or extend its own long suits, and holds back plays
    that only help the others.

``make_bot("trex", "rules")``; ``random`` works for every game.
"""

from __future__ import annotations

import random

from ..core.cards import DIAMONDS, HEARTS, Card
from ..core.game import Action, PlayerView
from ..games.trex.actions import (
    A_DONE,
    A_KEEP,
    A_PLAY,
    A_REDEAL,
    CONTRACT,
    DI,
    DOUBLE,
    KH,
    PLAY,
    QN,
    TK,
    TR,
    TrexAction,
    parse_contract,
)
from ..games.trex.view import TrexView
from .base import register_bot


def strength(card: Card) -> int:
    """2 → 2 … K → 13, A → 14."""
    r = int(card.rank)
    return 14 if r == 1 else r


def _penalty(card: Card, mask: int) -> int:
    """How much capturing ``card`` costs under contract ``mask`` (before doubling)."""
    cost = 0
    if mask & KH and card.suit == HEARTS and strength(card) == 13:
        cost += 75
    if mask & QN and strength(card) == 12:
        cost += 25
    if mask & DI and card.suit == DIAMONDS:
        cost += 10
    return cost


def estimate(hand: tuple[Card, ...], mask: int) -> float:
    """A rough expected score of the holder under contract ``mask``."""
    by_suit: dict[int, list[int]] = {s: [] for s in range(4)}
    for c in hand:
        by_suit[int(c.suit)].append(strength(c))
    high = sum(1 for c in hand if strength(c) >= 12)
    if mask == TR:
        jacks = sum(1 for c in hand if strength(c) == 11)
        ends = sum(1 for c in hand if strength(c) in (2, 3, 14))
        return 125 + 30 * (jacks - 1) - 8 * ends
    score = 0.0
    if mask & KH:
        hearts = by_suit[HEARTS]
        if 13 in hearts:
            low = sum(1 for h in hearts if h < 10)
            score -= 60 if low < 3 else 35
        elif 14 in hearts and len(hearts) <= 2:
            score -= 30
        else:
            score -= 12
    if mask & QN:
        for cards in by_suit.values():
            if 12 in cards:
                guards = sum(1 for x in cards if x < 12)
                score -= 22 if guards < 3 else 12
            elif 13 in cards or 14 in cards:
                score -= 10
        score -= 5
    if mask & DI:
        diamonds = by_suit[DIAMONDS]
        score -= 3 * sum(1 for d in diamonds if d >= 10) + 2 * len(diamonds) + 10
    if mask & TK:
        score -= 12 * high + 10
    return score


class RulesTrexBot:
    """The ``rules`` bot (see the module docstring)."""

    name = "rules"

    def act(self, view: PlayerView, rng: random.Random) -> Action:
        assert isinstance(view, TrexView)
        legal = view.legal_actions
        if not legal:
            raise ValueError("the bot has no legal action in this view")
        if len(legal) == 1:
            return legal[0]
        if view.phase == "redeal":
            return A_REDEAL if A_REDEAL in legal else A_KEEP
        if view.phase == "choose":
            return self._choose(view, legal)
        if view.phase == "double":
            return self._double(view, legal)
        if view.phase == "trex":
            return self._trex(view, legal)
        return self._trick(view, legal)

    # ------------------------------------------------------------ decisions
    def _choose(self, view: TrexView, legal: tuple[Action, ...]) -> Action:
        options = [a for a in legal if isinstance(a, TrexAction) and a.kind == CONTRACT]
        return max(options, key=lambda a: (estimate(view.hand, a.arg), -a.index))

    def _double(self, view: TrexView, legal: tuple[Action, ...]) -> Action:
        for a in legal:
            if not isinstance(a, TrexAction) or a.kind != DOUBLE:
                continue
            card = Card.from_id(a.arg)
            suit = [strength(c) for c in view.hand if c.suit == card.suit and c != card]
            if strength(card) == 13 and sum(1 for x in suit if x < 13) >= 4 and 14 not in suit:
                return a
            if strength(card) == 12 and sum(1 for x in suit if x < 12) >= 3 and not {13, 14} & set(suit):
                return a
        return A_DONE

    def _trick(self, view: TrexView, legal: tuple[Action, ...]) -> Action:
        mask = parse_contract(view.contract) if view.contract else TK
        cards = [Card.from_id(a.arg) for a in legal if isinstance(a, TrexAction) and a.kind == PLAY]
        trick = view.trick
        if trick:  # never revoke, even when accept_unchecked_plays would take it
            led = trick[0][1].suit
            follow = [c for c in cards if c.suit == led]
            if follow:
                cards = follow
        elif mask & KH and not view.hearts_broken:
            others = [c for c in cards if c.suit != HEARTS]
            cards = others or cards
        doubled = {c for c, _ in view.doubled}

        def cost(c: Card) -> int:
            return _penalty(c, mask) * (2 if c in doubled else 1)

        if not trick:  # lead low, away from own penalty cards
            return _play(min(cards, key=lambda c: (cost(c) > 0, c.suit == HEARTS and bool(mask & KH),
                                                   strength(c), int(c.suit))))
        led = trick[0][1].suit
        winning = max(strength(c) for _, c in trick if c.suit == led)
        following = [c for c in cards if c.suit == led]
        if following:
            under = [c for c in following if strength(c) < winning]
            if under:  # duck under the winning card with the highest such card
                return _play(max(under, key=lambda c: (strength(c) - cost(c) // 5, -int(c.suit))))
            last = len(trick) == 3
            safe = [c for c in following if cost(c) == 0]
            pool = safe or following
            if last and not mask & TK:
                return _play(max(pool, key=strength))
            return _play(min(pool, key=strength))
        # void: dump the worst penalty card, else the highest card
        return _play(max(cards, key=lambda c: (cost(c), strength(c), int(c.suit))))

    def _trex(self, view: TrexView, legal: tuple[Action, ...]) -> Action:
        hand = view.hand
        mine: dict[int, set[int]] = {s: set() for s in range(4)}
        for c in hand:
            mine[int(c.suit)].add(strength(c))

        def value(a: Action) -> tuple[float, int]:
            assert isinstance(a, TrexAction)
            card = Card.from_id(a.arg)
            s, r = int(card.suit), strength(card)
            own = mine[s]
            if r == 11:  # opening a row: good when the suit is long for us
                return (len(own) * 2 - 3, a.index)
            step = 1 if r > 11 else -1
            follow = r + step
            chain = 0
            while follow in own:
                chain += 1
                follow += step
            helps_others = 0 if (r + step in own or r in (2, 14)) else 1
            return (chain * 2 + 1 - helps_others * 2 + (1 if r in (2, 14) else 0), a.index)

        return max(legal, key=value)


def _play(card: Card) -> Action:
    return A_PLAY[card.id]


register_bot("trex", "rules", RulesTrexBot)

__all__ = ["RulesTrexBot", "estimate"]
