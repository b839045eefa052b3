"""``spar-pro``: a Trex sparring partner that plays the way strong Trix players describe their game.

It reads only its :class:`~cardtable.games.trex.view.TrexView` and its own memory of the deal
(:class:`~cardtable.bots.worlds.TrexMemory`: cards seen played, voids shown), and shares no
decision code with the level bots. Card ids: ``suit * 13 + index``, index 0 the ace; a card's
*strength* is 2 … 14 (ace high).

* **Contract order** (TX-9) by hand shape and kingdom position: every contract left gets the
  hand's estimated score minus what an average hand scores under it, so the holder plays the
  contract its hand suits best now; the last deals of a kingdom weigh the contract that would
  otherwise fall on a worse hand (the costliest left) a little more.
* **Doubling** only when protected. Under the default scoring of a doubled card (TX-16: the doubler
  who takes it back pays the plain value) a K♥ or queen is protected by any lower card of its suit
  to duck with, since doubling then risks nothing but the card's secret; when the doubler forced to
  take its card pays double (``doubled_self_capture = "forced_bonus"``), only a K♥ behind four
  hearts under the 9 without the A♥, or a queen behind three cards under the 10 without the A or K
  of its suit.
* **King of Hearts.** Holding the K♥: never lead hearts, duck every heart trick under the winner
  (the K♥ itself goes under the A♥), lead singletons to become void and discard the K♥ at the first
  chance, then the A♥ and high hearts. Without it: flush it by leading low hearts once the A♥ is
  gone or ours; the A♥ goes at the first discard while the K♥ is out.
* **Queens, Diamonds**: the same ducking and protecting, the queen dropped under a higher card,
  low leads in a suit whose queen is out when we hold neither its A nor its K.
* **Slaps** (every trick costs the same) **and Collections**: dump high cards early: duck with the
  highest card that loses, take a trick we cannot lose with the highest card, discard the highest
  cards of the shortest suits first.
* **Trex**: open the jack of the longest suit, play the card that frees most of our own cards and
  fewest of the others', keep pure blockers to the end.
"""

from __future__ import annotations

import random
from typing import Any

from ...core.cards import ACE_HEARTS, DIAMONDS, HEARTS, KING_HEARTS, QUEENS
from ...core.game import Action, PlayerView
from ...games.trex.actions import (
    A_DONE,
    A_KEEP,
    A_PLAY,
    A_REDEAL,
    CONTRACT,
    DI,
    DOUBLE,
    KH,
    QN,
    TK,
    TR,
    TrexAction,
    parse_contract,
)
from ...games.trex.view import TrexView, layout_card_ids
from ..base import Budget, register_bot
from ..worlds import TrexMemory

AVERAGE = {KH: -13.4, QN: -26.1, DI: -32.7, TK: -45.8, TR: 127.9}
"""What the kingdom holder scored under each contract, four ``spar-pro`` at the table (3,000
deals per contract, redeals off): a hand suits a contract when its estimate beats this."""


def strength(c: int) -> int:
    """2 … 14 (ace high)."""
    i = c % 13
    return 14 if i == 0 else i + 1


def suit(c: int) -> int:
    return c // 13


def unit_costs(mask: int) -> list[int]:
    """What capturing each card costs under contract ``mask`` (TX-26…28)."""
    out = [0] * 52
    if mask & KH:
        out[KING_HEARTS] += 75
    if mask & QN:
        for q in QUEENS:
            out[q] += 25
    if mask & DI:
        for c in range(13, 26):
            out[c] += 10
    return out


# ------------------------------------------------------------------ contract choice
def features(hand: list[int], mask: int) -> list[float]:
    """The hand-shape features of the estimate of a single contract ``mask``."""
    suits: list[list[int]] = [sorted(strength(c) for c in hand if suit(c) == s) for s in range(4)]
    voids = sum(1 for x in suits if not x)
    singles = sum(1 for x in suits if len(x) == 1)
    if mask == KH:
        h = suits[HEARTS]
        k = 13 in h
        ace = 14 in h and not k
        low = min(5, sum(1 for r in h if r < 9))
        return [1, k, k * low, k * voids, k * singles, ace, ace * len(h), len(h)]
    if mask == QN:
        bare = guarded = tops = naked = 0
        for x in suits:
            if 12 in x:
                if sum(1 for r in x if r < 10) >= 3 and not {13, 14} & set(x):
                    guarded += 1
                else:
                    bare += 1
                if not any(r < 12 for r in x):
                    naked += 1  # no lower card: it cannot duck, it is not doubled
            elif {13, 14} & set(x) and len(x) <= 3:
                tops += 1
        return [1, bare, guarded, tops, voids, singles, naked]
    if mask == DI:
        d = suits[DIAMONDS]
        return [1, len(d), sum(1 for r in d if r >= 10), sum(1 for r in d if r <= 5), voids, singles]
    if mask == TK:
        high = sum(1 for x in suits for r in x if r >= 12)
        mid = sum(1 for x in suits for r in x if 9 <= r <= 11)
        low = sum(1 for x in suits for r in x if r <= 5)
        long_high = sum(1 for x in suits if len(x) >= 5 and max(x) >= 12)
        return [1, high, mid, low, voids, singles, long_high]
    jacks = sum(1 for x in suits if 11 in x)  # TR
    near = sum(1 for x in suits if 11 in x for r in x if 8 <= r <= 14)
    far = sum(1 for x in suits if 11 not in x for r in x if r <= 4 or r >= 13)
    middle = sum(1 for x in suits if 11 not in x for r in x if 5 <= r <= 10 or r == 12)
    return [1, jacks, near, far, middle, voids]


WEIGHTS: dict[int, tuple[float, ...]] = {
    KH: (-50.9, 56.2, 10.7, -26.7, -0.1, -7.8, 0.4, 5.5),
    QN: (-16.9, -1.9, 17.5, -18.4, 5.0, 8.7, -26.8),
    DI: (-47.7, 2.7, -8.5, 15.3, 10.9, 6.4),
    TK: (-22.3, -13.3, -5.7, 6.1, 10.0, 8.0, 7.9),
    TR: (70.9, -3.9, 10.0, -3.1, 9.0, -8.6),
}
"""Least-squares weights of :func:`features` against the holder's score in the deals that
gave :data:`AVERAGE`. King of Hearts and Queens were fitted with the doubling rule of
:func:`double` (a K♥ or queen with a lower card of its suit is doubled, so holding one scores:
another seat that takes it pays double and the doubler gains its value, TX-16)."""


def hand_estimate(hand: list[int], mask: int) -> float:
    """The hand's expected score as holder under ``mask`` (Complex: the sum of its four parts)."""
    if mask in WEIGHTS:
        return sum(w * f for w, f in zip(WEIGHTS[mask], features(hand, mask), strict=True))
    return sum(hand_estimate(hand, m) for m in (KH, QN, DI, TK) if mask & m)


def advantage(hand: list[int], mask: int) -> float:
    """How much better than an average hand this one does under ``mask``."""
    average = AVERAGE.get(mask)
    if average is None:
        average = sum(AVERAGE[m] for m in (KH, QN, DI, TK) if mask & m)
    return hand_estimate(hand, mask) - average


def choose(view: TrexView, legal: tuple[Action, ...]) -> Action:
    """The contract this hand beats an average hand by most: every contract of the kingdom is
    played once, so the holder places each hand where it is relatively best."""
    hand = [c.id for c in view.hand]
    options = [a for a in legal if isinstance(a, TrexAction) and a.kind == CONTRACT]
    return max(options, key=lambda a: (advantage(hand, a.arg), -a.arg))


def double(view: TrexView, legal: tuple[Action, ...], self_capture: str = "single") -> Action:
    """Double only a protected card (see the module docstring)."""
    hand = [c.id for c in view.hand]
    for a in legal:
        if not isinstance(a, TrexAction) or a.kind != DOUBLE:
            continue
        c = a.arg
        same = [strength(d) for d in hand if suit(d) == suit(c) and d != c]
        if self_capture == "single":
            if any(r < strength(c) for r in same):
                return a  # a card with a lower one to duck with: taking it back costs the plain value
        elif c == KING_HEARTS:
            if sum(1 for r in same if r < 9) >= 4 and 14 not in same:
                return a
        elif sum(1 for r in same if r < 10) >= 3 and not {13, 14} & set(same):
            return a
    return A_DONE


TREX_WEIGHTS = [3.0, 2.0, 2.0, 0.3, 1.5, 3.0]
"""A Trex play's score: our cards it frees at once, ours behind it, others' cards it frees at
once, others' behind it, the jack's suit length, a pure blocker."""


class ProTrexBot:
    """The ``spar-pro`` player (module docstring)."""

    name = "spar-pro"

    def __init__(self) -> None:
        self.memory = TrexMemory()
        self.self_capture = "single"

    def attach(self, game: Any) -> None:
        """The one rule the view does not show that the player uses: how a doubled card taken
        back by its doubler scores (TX-16)."""
        self.self_capture = str(game.options.doubled_self_capture)

    def act(self, view: PlayerView, rng: random.Random, budget: Budget | None = None) -> Action:
        assert isinstance(view, TrexView)
        self.memory.observe(view)
        legal = view.legal_actions
        if not legal:
            raise ValueError("the bot has no legal action in this view")
        if len(legal) == 1:
            return legal[0]
        if view.phase == "redeal":
            return A_REDEAL if A_REDEAL in legal else A_KEEP
        if view.phase == "choose":
            return choose(view, legal)
        if view.phase == "double":
            return double(view, legal, self.self_capture)
        cards = [a.arg for a in legal if isinstance(a, TrexAction) and a.kind == 0]
        if view.phase == "trex":
            return A_PLAY[self._trex(view, cards)]
        return A_PLAY[ProTrick(view, self.memory).play(cards)]

    def _trex(self, view: TrexView, cards: list[int]) -> int:
        mine = {c.id for c in view.hand}
        layout = set(layout_card_ids(view.layout))
        longest = {s: sum(1 for c in mine if suit(c) == s) for s in range(4)}

        def cell(s: int, r: int) -> int:
            return 13 * s + (0 if r == 14 else r - 1)

        def value(c: int) -> tuple[float, int]:
            s, r = suit(c), strength(c)
            directions = (1, -1) if r == 11 else ((1,) if r > 11 else (-1,))
            freed = gift = behind_mine = behind_theirs = 0
            for step in directions:
                nxt = r + step
                run = True
                while 2 <= nxt <= 14:
                    d = cell(s, nxt)
                    if d in mine:
                        behind_mine += 1
                        if run:
                            freed += 1
                    elif d not in layout:
                        behind_theirs += 1
                        if nxt == r + step:
                            gift += 1
                        run = False
                    nxt += step
            w = TREX_WEIGHTS
            score = w[0] * freed + w[1] * behind_mine - w[2] * gift - w[3] * behind_theirs
            if r == 11:
                score += w[4] * longest[s]  # open the jack of the longest suit
            if behind_mine == 0 and behind_theirs and len(mine) > 1:
                score -= w[5]  # a pure blocker: keep it to the end
            return (score, -c)

        return max(cards, key=value)


class ProTrick:
    """One trick decision: what the seat knows of the deal, and the play."""

    def __init__(self, view: TrexView, memory: TrexMemory) -> None:
        self.view = view
        self.seat = seat = view.seat if view.seat is not None else 0
        self.mask = parse_contract(view.contract) if view.contract else TK
        self.unit = unit_costs(self.mask)
        self.hand = sorted(c.id for c in view.hand)
        gone = set(memory.played) | {c.id for _, c in view.trick} | {c.id for cap in view.captured for c in cap}
        gone |= {c.id for _, c in view.last_trick}
        self.gone = gone
        mine = set(self.hand)
        self.out = {c for c in range(52) if c not in mine and c not in gone}
        self.voids = [{s for s in range(4) if 13 * s in memory.cannot[q]} for q in range(4)]
        self.doubler = {c.id: q for c, q in view.doubled}
        self.order = [(seat + k) % 4 for k in range(1, 4)]

    # ---------------------------------------------------------------- counting
    def cost(self, c: int) -> int:
        """What capturing ``c`` costs us (a card doubled by another costs twice)."""
        u = self.unit[c]
        q = self.doubler.get(c)
        return 2 * u if u and q is not None and q != self.seat else u

    def above(self, c: int) -> int:
        return sum(1 for d in self.out if suit(d) == suit(c) and strength(d) > strength(c))

    def below(self, c: int) -> int:
        return sum(1 for d in self.out if suit(d) == suit(c) and strength(d) < strength(c))

    def mine_in(self, s: int) -> list[int]:
        return [c for c in self.hand if suit(c) == s]

    def out_in(self, s: int) -> list[int]:
        return [c for c in self.out if suit(c) == s]

    # ------------------------------------------------------------------ playing
    def play(self, cards: list[int]) -> int:
        trick = self.view.trick
        if not trick:
            return self.lead(cards)
        led = suit(trick[0][1].id)
        follow = [c for c in cards if suit(c) == led]
        if follow:
            return self.follow(follow, led)
        return self.discard(cards)

    def follow(self, follow: list[int], led: int) -> int:
        trick = self.view.trick
        top = max(strength(c.id) for _, c in trick if suit(c.id) == led)
        on_table = sum(self.cost(c.id) for _, c in trick) + (15 if self.mask & TK else 0)
        later = self.order[: 3 - len(trick)]
        costly_under = [c for c in follow if strength(c) < top and self.cost(c)]
        if costly_under:  # a penalty card of ours can go under the winner: it goes
            return max(costly_under, key=lambda c: (self.cost(c), strength(c)))
        clean = not self.mask & TK and on_table == 0 and all(self.cost(c) == 0 or self.doubler.get(c) not in later
                                                             for c in self.out)
        if clean and (not later or self.all_doubled_out()):
            # nobody after us can put a penalty card on this trick: win it with the highest card
            # that costs nothing, shedding a card that could catch a penalty later
            return max(follow, key=lambda c: (self.cost(c) == 0, strength(c)))
        under = [c for c in follow if strength(c) < top]
        if under:  # duck: a penalty card first (it lands on the winner), else the highest that loses
            return max(under, key=lambda c: (self.cost(c), strength(c)))
        followers = [q for q in later if led not in self.voids[q]]
        low = min(follow, key=strength)
        covered = followers and self.above(low) > 0
        if not covered:  # the trick is ours: win it with the highest card that costs nothing
            return max(follow, key=lambda c: (self.cost(c) == 0, strength(c)))
        # someone may still cover: the lowest, unless the trick already costs little and
        # a dangerous high card can go cheaply now
        if on_table == 0 and not self.mask & TK:
            danger = [c for c in follow if self.cost(c) == 0 and self.risky(c)]
            if danger and self.unit_out_in(led) == 0 and not any(led in self.voids[q] for q in self.order):
                return max(danger, key=strength)
        return min(follow, key=lambda c: (self.cost(c) > 0, strength(c)))

    def all_doubled_out(self) -> bool:
        """Is every penalty card still out doubled (so that its holder is known)?"""
        return all(c in self.doubler for c in self.out if self.unit[c])

    def unit_out_in(self, s: int) -> int:
        return sum(self.cost(c) for c in self.out_in(s))

    def risky(self, c: int) -> bool:
        """Could ``c`` later win a trick that costs? (a high card above a penalty card out)"""
        s = suit(c)
        if self.mask & KH and s == HEARTS and KING_HEARTS in self.out and strength(c) == 14:
            return True
        return bool(self.mask & QN and QUEENS[s] in self.out and strength(c) > 12)

    def discard(self, cards: list[int]) -> int:
        """Void: the costliest card (one we doubled first), then the most dangerous."""
        lengths = [len(self.mine_in(s)) for s in range(4)]

        def key(c: int) -> tuple[float, float]:
            s = suit(c)
            own_doubled = self.doubler.get(c) == self.seat and self.unit[c] > 0
            first = self.cost(c) + (200 if own_doubled else 0)
            danger = 0.0
            if self.mask & KH and s == HEARTS and KING_HEARTS in self.out:
                danger += 6.0 * (strength(c) - 8) if strength(c) > 8 else 0.0
            if self.mask & QN and QUEENS[s] in self.out and strength(c) > 12:
                danger += 8.0
            if self.mask & DI and s == DIAMONDS:
                danger += 2.0 + 0.5 * strength(c)
            below = self.below(c)
            danger += strength(c) * (1.0 if below else 0.2) - 1.5 * lengths[s]
            if self.mask & TK:
                danger += strength(c) - 2.0 * lengths[s]
            return (first, danger)

        return max(cards, key=key)

    def lead(self, cards: list[int]) -> int:
        """A card likely to lose a trick that costs, flushing the penalty cards others hold."""
        mask = self.mask
        kh_mine = KING_HEARTS in self.hand
        scores: dict[int, float] = {}
        seen: set[int] = set()
        for c in sorted(cards, key=strength):
            s = suit(c)
            ours = self.mine_in(s)
            above, below = self.above(c), self.below(c)
            followers = [q for q in self.order if s not in self.voids[q]]
            voided = 3 - len(followers)
            if not followers or above == 0:
                p_win = 1.0
            elif below == 0:
                p_win = 0.0
            else:
                p_win = (below / (above + below)) ** min(above, len(followers))
            suit_pts = self.unit_out_in(s)
            unload = 0 if mask & TK else min(75, sum(self.cost(d) for d in self.out) - suit_pts)
            risk = (15 if mask & TK else 0) + 0.6 * min(suit_pts, 75) + 0.8 * voided * unload + self.cost(c)
            score = -p_win * risk
            if self.cost(c) >= 25:
                score -= 20 + self.cost(c)  # K♥ and queens are led only when nothing else is legal
            if mask & KH and s == HEARTS:
                if kh_mine:
                    score -= 40  # never lead a heart holding the K♥
                elif KING_HEARTS in self.out and strength(c) < 13:
                    score += 12 * (1 - p_win)  # flush the K♥: whoever catches it, not us
            if mask & QN and QUEENS[s] in self.out and strength(c) < 12 and not any(strength(d) > 12 for d in ours):
                score += 6 * (1 - p_win)  # flush a queen we cannot catch
            if s not in seen:
                score += 4.5 / len(ours)  # a short suit becomes a void to unload on
                seen.add(s)
            if len(ours) == 1 and (mask & (KH | QN | DI)) and self.holds_penalty():
                score += 3  # a singleton with a penalty card to unload
            if mask & TK:
                score += 0.3 * (strength(c) if p_win < 1 else 0)  # shed high cards while they can lose
            scores[c] = score
        return max(cards, key=lambda c: (scores[c], -strength(c)))

    def holds_penalty(self) -> bool:
        if any(self.unit[c] for c in self.hand):
            return True
        return bool(self.mask & KH) and ACE_HEARTS in self.hand and KING_HEARTS in self.out


register_bot("trex", "spar-pro", ProTrexBot,
             "sparring partner (not a level): strong Trix play by the book, from the view only")

__all__ = ["ProTrexBot", "choose", "double", "hand_estimate"]
