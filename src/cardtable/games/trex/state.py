"""The Trex engine (docs/rules/trex.md).

Inside the engine a card is its id (core.cards: ``suit * 13 + rank - 1``, suits
♣ ♦ ♥ ♠). ``STRENGTH[id]`` orders a suit A (high) … 2 for tricks; ``LAYOUT_RANK``
is the TX-32 rank (2..10, J 11, Q 12, K 13, A 14). Hands are lists sorted by
id; ``owner[id]`` is the seat holding a card or -1. The Trex layout is ``lo``/``hi``
per suit (0 while unopened) plus ``frontier``: the cards that may be played
next (TX-32), so legality is a lookup in ``owner``.

Phases (TX-11): ``REDEAL`` (requests, TX-13) → ``CHOOSE`` (TX-9) → ``DOUBLE``
(TX-15) → ``TRICK`` (TX-20…29) or ``TREX`` (TX-31…35) → the next deal, or
``OVER``. Each phase has its own legal-actions and apply methods.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from enum import Enum
from typing import TYPE_CHECKING, Final, NamedTuple, cast

from ...core.cards import (
    ACE_HEARTS,
    CARDS,
    HEARTS,
    JACKS,
    KING_HEARTS,
    SEVEN_HEARTS,
    THREES,
    TWOS,
    Card,
    cards_text,
)
from ...core.chance import DealSource, deal_shuffle, fresh_seed
from ...core.errors import ConfigError
from ...core.game import Action, Outcome, State
from ...core.seats import TERMINAL, next_seat, seats_from
from ...core.view import filled_view
from .actions import (
    A_CONTRACT,
    A_DONE,
    A_DOUBLE,
    A_KEEP,
    A_PLAY,
    A_REDEAL,
    CONTRACT_CODES,
    DOUBLE,
    KEEP,
    KH,
    REDEAL,
    TR,
    TrexAction,
    contract_code,
    parse_contract,
)
from .contracts import TrickContract
from .view import TrexView, built_events, layout_card_ids, layout_frontier

if TYPE_CHECKING:
    from . import TrexGame

N: Final = 4
NEXT: Final = tuple(next_seat(s, N) for s in range(N))
ORDER: Final = tuple(seats_from(s, N) for s in range(N))
SUIT: Final = tuple(c // 13 for c in range(52))
STRENGTH: Final = tuple(13 if c % 13 == 0 else c % 13 for c in range(52))
"""Trick strength within a suit: 2 → 1 … K → 12, A → 13 (TX-3)."""
LAYOUT_RANK: Final = tuple(14 if c % 13 == 0 else c % 13 + 1 for c in range(52))
"""TX-32 rank: 2..10, J 11, Q 12, K 13, A 14."""
NO_CARD: Final = -1


def layout_card(suit: int, rank: int) -> int:
    """The card id of TX-32 rank ``rank`` (2..14) in ``suit``."""
    return suit * 13 + (0 if rank == 14 else rank - 1)


BELOW: Final = tuple(
    layout_card(c // 13, LAYOUT_RANK[c] - 1) if LAYOUT_RANK[c] > 2 else NO_CARD for c in range(52)
)
"""``BELOW[c]``: the card one TX-32 rank below ``c`` in its suit, or -1 under a 2."""
ABOVE: Final = tuple(
    layout_card(c // 13, LAYOUT_RANK[c] + 1) if LAYOUT_RANK[c] < 14 else NO_CARD for c in range(52)
)
"""``ABOVE[c]``: the card one TX-32 rank above ``c`` in its suit, or -1 over an Ace."""


TWOS_AND_THREES: Final = TWOS + THREES
_DEALT_TO: Final = tuple(i // 13 for i in range(52))
"""``_DEALT_TO[i]``: the seat that receives the ``i``-th card of a deck (TX-4, §0.5)."""
_CARDS: Final = tuple(zip(range(52), SUIT, A_PLAY, strict=True))
"""``(card, suit, play action)`` for every card, in id order."""
_PLAY_EVENT: Final = tuple(tuple(("play", p, c, 0) for c in range(52)) for p in range(N))
"""``_PLAY_EVENT[p][c]``: the event of seat ``p`` playing card ``c`` (built once)."""


def kh_trigger(hand: Collection[int]) -> bool:
    """TX-13, KH clause: hearts exactly {K♥}, {A♥} or {A♥, K♥}; or ≥ 5 hearts with K♥.
    ``hand`` may hold only the hearts (the other cards do not matter)."""
    hearts = [c for c in hand if SUIT[c] == HEARTS]
    if len(hearts) >= 5:
        return KING_HEARTS in hearts
    return sorted(hearts) in ([KING_HEARTS], [ACE_HEARTS], [ACE_HEARTS, KING_HEARTS])


def tr_trigger(hand: Collection[int]) -> bool:
    """TX-13, TR clause (TX-A12): all four 2s, or three 2s and the 3 of the missing suit.
    ``hand`` may hold only the 2s and 3s."""
    missing = [s for s in range(4) if TWOS[s] not in hand]
    if not missing:
        return True
    return len(missing) == 1 and THREES[missing[0]] in hand


class Phase(Enum):
    """What the current player decides next (TX-11)."""

    REDEAL = "redeal"  # redeal requests, one seat at a time (TX-13)
    CHOOSE = "choose"  # the kingdom holder announces a contract (TX-9)
    DOUBLE = "double"  # doubling declarations (TX-15)
    TRICK = "trick"  # a trick contract (TX-20…29)
    TREX = "trex"  # the Trex layout (TX-31…35)
    OVER = "over"


_TRICK: Final = Phase.TRICK
_TREX: Final = Phase.TREX


class TrexFacts(NamedTuple):
    """Where a Trex game stands, for simulations' metrics (``TrexState.facts()``)."""

    totals: tuple[int, ...]
    """Each seat's official total."""
    trex_firsts: tuple[int, ...]
    """Trex deals each seat finished first in (TX-40)."""
    deals: tuple[tuple[int, int, int, int, tuple[int, ...]], ...]
    """Per finished official deal: (deal number, kingdom, holder, contract mask, per-seat deltas)."""
    tiebreak: bool
    """An extra Trex deal broke a tie (TX-40.2)."""


RawEvent = tuple[str, int, int, int]
"""An engine event: (kind, seat or -1, card id or -1, value); the view turns it into an Event."""


class TrexState(State):
    """A Trex game in progress. Create one with ``TrexGame.new_state``."""

    stop_at_deal_end: bool = False
    """For a search's own world: when its deal is over, the state notes it in :attr:`deal_ended`
    and stops there (the deal's scores in ``deal_scores``, nothing added to the totals, no next
    deal) instead of scoring it and dealing the next one. Never set on a game being played."""
    deal_ended: bool = False

    def __init__(
        self,
        game: TrexGame,
        seed: int | None = None,
        deck: Sequence[Card | str | int] | None = None,
        deals: DealSource | None = None,
        *,
        blank: bool = False,
    ) -> None:
        """A new game (see ``TrexGame.new_state``); ``blank`` leaves every field unset for
        :meth:`clone` to fill (a compiled class cannot be made without ``__init__``)."""
        if blank:
            return
        self._start(game, fresh_seed() if seed is None else seed, deals)
        stacked = game._check_deck(deck, range(52)) if deck is not None else None
        self._new_deal(stacked)

    def _start(self, game: TrexGame, seed: int, deals: DealSource | None) -> None:
        """Every field of a game before its first deal (the fields of one deal are in
        :meth:`_reset_deal_state`; :meth:`clone` copies both)."""
        o = self.opts = game.option_values  # read-only, shared with the game
        self.game = game
        # the game's tables, kept here typed (State.game is a Game: mypyc allows no narrower re-declaration)
        self.kingdom_contracts: tuple[int, ...] = game.kingdom_contracts
        self.trick_contracts: dict[int, TrickContract] = game.trick_contracts
        self.num_deals: int = game.num_deals
        self.deals_per_kingdom: int = game.deals_per_kingdom
        self.n = N
        self.seed = seed
        self.deals = deals  # the fair scheme's source of every shuffle, else the seed's
        self.history: list[Action] = []
        self.events: list[tuple[str, int, int, int]] = []
        self.event_seq = 0
        self.shuffles = 0  # labels the shuffles (redeals included)
        self.deal_index = 0  # official deals finished
        self.kingdom = 0
        self.deal_in_kingdom = 0
        self.used_contracts = 0  # contract masks used in this kingdom
        self.holder = -1
        self.first_holder = -1
        self.dealer: int = o["first_dealer"]
        self.leader = -1
        self.phase = Phase.CHOOSE
        self.to_move = 0  # the seat to act, or TERMINAL (current_player())
        self.answered = 0  # seats that have answered in a redeal or doubling round (TX-13, TX-15)
        self.contract = 0
        self.trick_contract: TrickContract | None = None
        self.totals = [0, 0, 0, 0]
        self.records: list[tuple[int, int, int, int, tuple[int, ...]]] = []
        self.trex_firsts = [0, 0, 0, 0]
        self.tiebreak = False
        self.tied: tuple[int, ...] = ()
        self.tiebreak_scores: tuple[int, ...] = ()
        self.outcome_: Outcome | None = None
        self.redeal_shown: list[tuple[int, tuple[int, ...]]] = []
        self.relevant: tuple[bool, bool] = (False, False)  # which TX-13 clauses count now
        # option values read on the hot path, as plain attributes
        self.unchecked = bool(o["accept_unchecked_plays"])
        self.forced_discard = bool(o["forced_penalty_discard"])
        self.expose_twos = bool(o["partnership"] and o["partnership_expose_twos"])

    def _reset_deal_state(self) -> None:
        self.hands_by_suit: list[list[list[TrexAction]]] = [[[], [], [], []] for _ in range(N)]
        """``hands_by_suit[p][s]``: seat ``p``'s cards of suit ``s`` as play actions, sorted."""
        self.count = [0, 0, 0, 0]
        self.owner = [NO_CARD] * 52
        self.trick: list[int] = []
        self.trick_leader = -1
        self.last_trick: list[int] = []
        self.last_leader = -1
        self.last_winner = -1
        self.tricks_done = 0
        self.tricks_taken = [0, 0, 0, 0]
        self.taken: list[list[int]] = [[], [], [], []]
        self.captured: list[list[int]] = [[], [], [], []]
        self.doubler = [NO_CARD] * 52
        self.doubled: list[tuple[int, int]] = []
        self.hearts_broken = False
        self.hearts_rule = 0  # TX-23 in this deal's tricks: 0 no restriction, 1 "broken", 2 "only_if_no_choice"
        self.scoring_left = 0  # the contract's scoring cards not captured yet (TX-25 ends a deal at 0)
        self.deal_scores = [0, 0, 0, 0]
        self.lo = [0, 0, 0, 0]
        self.hi = [0, 0, 0, 0]
        self.frontier: set[int] = set()
        self.layout_cards: list[int] = []
        self.finishing: list[int] = []  # the seats out of the Trex layout, in order (TX-34)
        self.layout_turns = 0  # plays and passes in the Trex layout, until the 2s are exposed (TX-V2)
        self.answered = 0  # a redeal ends its round half-way: the new deal starts with no answer counted
        self.twos_exposed = False

    # ----------------------------------------------------------------- dealing
    def _new_deal(self, stacked: list[int] | None = None, redeal: bool = False) -> None:
        """Deal 13 cards to each seat (TX-4; §0.5 order for a stacked deck)."""
        if stacked is not None:
            cards = stacked
        else:
            cards = list(range(52))
            deal_shuffle(cards, self.seed, self.deals, ("deal", self.shuffles), keyed=True)
        self.shuffles += 1
        self._reset_deal_state()
        owner = self.owner
        for c, p in zip(cards, _DEALT_TO, strict=True):
            owner[c] = p
        hs = self.hands_by_suit
        for c, suit, a in _CARDS:  # in id order, so every suit of every hand comes out sorted
            hs[owner[c]][suit].append(a)
        self.count = [13, 13, 13, 13]
        self.contract = 0
        self.trick_contract = None
        ev = self.events
        if self.tiebreak:
            ev.append(("tiebreak_deal", self.dealer, NO_CARD, 0))
        elif redeal:
            ev.append(("redeal_deal", self.dealer, NO_CARD, self.deal_index + 1))
        else:
            self.redeal_shown = []
            ev.append(("deal", self.dealer, NO_CARD, self.deal_index + 1))
        if self.holder < 0:  # TX-6: 7♥ in the first deal names the first kingdom holder
            self.holder = self.first_holder = owner[SEVEN_HEARTS]
            ev.append(("kingdom", self.holder, NO_CARD, 0))
        self.leader = self._first_leader()
        self.relevant = self._redeal_relevant()
        if self.opts["redeal_timing"] == "before_choice" and any(self.relevant):
            self._ask(Phase.REDEAL, self.holder)
        else:
            self._to_choose()

    def _redeal_relevant(self) -> tuple[bool, bool]:
        """Which TX-13 triggers count now: (KH clause, TR clause)."""
        if self.tiebreak:
            return (False, False)
        req = self.opts["redeal_requests"]
        if req is False:
            return (False, False)
        kh_on = req is True or req == "kh_only"
        tr_on = req is True or req == "trex_only"
        if self.contract:  # after_announcement: only the announced contract's clause
            return (kh_on and bool(self.contract & KH), tr_on and self.contract == TR)
        left = [m for m in self.kingdom_contracts if not self.used_contracts & m]
        return (kh_on and any(m & KH for m in left), tr_on and TR in left)

    def _eligible(self, p: int) -> bool:
        """Does seat ``p`` meet a TX-13 trigger that counts now?"""
        kh, tr = self.relevant
        owner = self.owner
        # each clause needs a card the seat may not hold: K♥ or A♥ (KH), three 2s (TR)
        if kh and (owner[KING_HEARTS] == p or owner[ACE_HEARTS] == p) and kh_trigger(
            [a.arg for a in self.hands_by_suit[p][HEARTS]]
        ):
            return True
        if not tr or (owner[TWOS[0]] == p) + (owner[TWOS[1]] == p) + (owner[TWOS[2]] == p) + (owner[TWOS[3]] == p) < 3:
            return False
        return tr_trigger([c for c in TWOS_AND_THREES if owner[c] == p])

    def hand(self, p: int) -> list[int]:
        """Seat ``p``'s cards as ids, sorted."""
        return [a.arg for suit in self.hands_by_suit[p] for a in suit]

    def contracts_left(self) -> list[int]:
        """The contract masks the holder may still announce (TX-9)."""
        if self.tiebreak:
            return [TR]
        return [m for m in self.kingdom_contracts if not self.used_contracts & m]

    def _to_choose(self) -> None:
        left = self.contracts_left()
        if len(left) == 1:  # the 5th deal's choice is forced: not a decision
            self._announce(left[0])
            return
        self.phase = Phase.CHOOSE
        self.to_move = self.holder

    def _announce(self, mask: int) -> None:
        self.contract = mask
        self.trick_contract = self.trick_contracts.get(mask)
        self.events.append(("contract", self.holder, NO_CARD, mask))
        self.relevant = self._redeal_relevant()
        if self.opts["redeal_timing"] == "after_announcement" and any(self.relevant):
            self._ask(Phase.REDEAL, self.holder)
            return
        self._to_doubling()

    def _ask(self, phase: Phase, first: int) -> None:
        """Open a round in which every seat answers once, in play order from ``first``
        (TX-13, TX-15). Every seat is asked, so being asked reveals nothing (§0.3)."""
        self.phase = phase
        self.to_move = first
        self.answered = 0

    def _first_leader(self) -> int:
        """TX-20/TX-31: the holder, or the eldest hand; the tie-break dealer leads (TX-40)."""
        if self.tiebreak:
            return self.dealer
        if self.opts["first_leader"] == "holder":
            return self.holder
        return NEXT[self.dealer]

    def _to_doubling(self) -> None:
        self.leader = self._first_leader()
        tc = self.trick_contract
        if tc is not None and tc.doublable:
            self._ask(Phase.DOUBLE, self.leader)
            return
        self._to_play()

    def _to_play(self) -> None:
        leader = self.leader
        tc = self.trick_contract
        if tc is None:  # TR
            self.phase = Phase.TREX
            self.frontier = set(JACKS)
            self._trex_next(leader)
            return
        self.phase = Phase.TRICK
        self.to_move = self.trick_leader = leader
        # TX-23: 0 no restriction, 1 "broken", 2 "only_if_no_choice"
        rule = self.opts["hearts_lead_rule"]
        self.hearts_rule = 0 if not tc.hearts_restricted else (1 if rule == "broken" else 2)
        self.scoring_left = len(tc.scoring_cards)

    # --------------------------------------------------------------- protocol
    def current_player(self) -> int:
        return self.to_move

    def is_terminal(self) -> bool:
        return self.to_move == TERMINAL

    def legal_actions(self, seat: int | None = None) -> Sequence[TrexAction]:
        if seat is not None and seat != self.to_move:
            return ()
        phase = self.phase
        if phase is _TRICK:  # the hot path: following suit, inlined; the rest in _lawful
            h = self.hands_by_suit[self.to_move]
            if self.unchecked:  # TX-37: revokes are accepted, then penalised
                return h[0] + h[1] + h[2] + h[3]
            trick = self.trick
            if trick:
                follow = h[SUIT[trick[0]]]
                if follow:
                    return follow.copy()  # TX-22
                if not self.forced_discard:  # void: any card (TX-22)
                    return h[0] + h[1] + h[2] + h[3]
            elif not self.hearts_rule:  # a lead with no hearts restriction (TX-23)
                return h[0] + h[1] + h[2] + h[3]
            return self._lawful()
        if phase is _TREX:
            return self._legal_trex()
        if phase is Phase.CHOOSE:
            return self._legal_choose()
        if phase is Phase.DOUBLE:
            return self._legal_double()
        if phase is Phase.REDEAL:
            return self._legal_redeal()
        return ()

    def _legal_trex(self) -> list[TrexAction]:
        """TX-32/TX-33: the current player's cards among the playable ones (never empty)."""
        owner = self.owner
        p = self.to_move
        return [A_PLAY[c] for c in sorted(self.frontier) if owner[c] == p]

    def _legal_choose(self) -> list[TrexAction]:
        """TX-9: the contracts unused in the kingdom."""
        return [A_CONTRACT[m] for m in sorted(self.contracts_left())]  # type: ignore[misc]

    def _legal_double(self) -> list[TrexAction]:
        """TX-15: each undoubled doublable card in the hand, and ``done``."""
        owner = self.owner
        doubler = self.doubler
        p = self.to_move
        tc = self.trick_contract
        assert tc is not None
        return [A_DOUBLE[c] for c in tc.doublable if owner[c] == p and doubler[c] < 0] + [A_DONE]

    def _legal_redeal(self) -> list[TrexAction]:
        """TX-13: ``redeal`` for a qualifying hand, and always ``keep``."""
        return [A_REDEAL, A_KEEP] if self._eligible(self.to_move) else [A_KEEP]

    def _lawful(self) -> list[TrexAction]:
        """The plays the rules allow the current player in a trick (TX-21…23, TX-V9)."""
        h = self.hands_by_suit[self.to_move]
        trick = self.trick
        if trick:
            follow = h[SUIT[trick[0]]]
            if follow:
                return follow.copy()  # TX-22
            if self.forced_discard:  # TX-V9
                tc = self.trick_contract
                assert tc is not None
                unit = tc.unit
                penalty = [a for suit in h for a in suit if unit[a.arg]]
                if penalty:
                    return penalty
            return h[0] + h[1] + h[2] + h[3]
        if self.hearts_rule and not (self.hearts_broken and self.hearts_rule == 1):
            others = h[0] + h[1] + h[3]  # TX-23
            if others:
                return others
        return h[0] + h[1] + h[2] + h[3]

    def apply(self, action: Action) -> None:
        a: TrexAction = action  # type: ignore[assignment]  # unchecked: a TrexAction, legal now
        events = self.events
        if events:
            self.event_seq += len(events)
            self.events = events = []
        self.history.append(a)
        phase = self.phase
        if phase is _TRICK:
            # Phase.TRICK's apply, inlined as the hot path: a play to a trick (TX-22, TX-24)
            p = self.to_move
            if self.unchecked and a not in self._lawful():
                self._revoke(p, a)
                return
            c = a.arg
            suit = SUIT[c]
            self.hands_by_suit[p][suit].remove(a)
            self.count[p] -= 1
            self.owner[c] = NO_CARD
            trick = self.trick
            trick.append(c)
            if suit == HEARTS:
                self.hearts_broken = True
            events.append(_PLAY_EVENT[p][c])
            if len(trick) < 4:
                self.to_move = NEXT[p]
            else:
                self._close_trick()
        elif phase is _TREX:
            self._apply_trex(a)
        elif phase is Phase.CHOOSE:
            self._announce(a.arg)
        elif phase is Phase.DOUBLE:
            self._apply_double(a)
        elif phase is Phase.REDEAL:
            self._apply_redeal(a)

    # ------------------------------------------------------------ the phases
    def _apply_redeal(self, action: TrexAction) -> None:
        p = self.to_move
        if action.kind == REDEAL:  # TX-13: the hand becomes public; same dealer, new shuffle
            self.redeal_shown.append((p, tuple(self.hand(p))))
            self.events.append(("redeal", p, NO_CARD, 0))
            self._new_deal(redeal=True)
            return
        assert action.kind == KEEP
        self.events.append(("keep", p, NO_CARD, 0))
        self.answered += 1
        if self.answered < N:
            self.to_move = NEXT[p]
            return
        self.answered = 0  # the round is over
        if self.contract:
            self._to_doubling()
        else:
            self._to_choose()

    def _apply_double(self, action: TrexAction) -> None:
        p = self.to_move
        if action.kind == DOUBLE:  # TX-15: exposed, stays in the hand
            c = action.arg
            self.doubler[c] = p
            self.doubled.append((c, p))
            self.events.append(("double", p, c, 0))
            tc = self.trick_contract
            assert tc is not None
            # The seat keeps the turn (and ends it with ``done``) while any doublable card
            # is still undoubled, whoever holds it: moving on only when the seat itself
            # has nothing left would tell the table whether it holds another queen (§0.3).
            if any(self.doubler[d] < 0 for d in tc.doublable):
                return
        else:
            self.events.append(("no_double", p, NO_CARD, 0))
        self.answered += 1
        if self.answered < N:
            self.to_move = NEXT[p]
        else:
            self.answered = 0  # the round is over
            self._to_play()

    def _close_trick(self) -> None:
        """TX-24: the highest card of the led suit wins; the contract scores the trick."""
        trick = self.trick
        c0, c1, c2, c3 = trick
        led = SUIT[c0]
        best = 0
        top = STRENGTH[c0]
        if SUIT[c1] == led and STRENGTH[c1] > top:
            top = STRENGTH[c1]
            best = 1
        if SUIT[c2] == led and STRENGTH[c2] > top:
            top = STRENGTH[c2]
            best = 2
        if SUIT[c3] == led and STRENGTH[c3] > top:
            best = 3
        leader = self.trick_leader
        winner = ORDER[leader][best]
        tc = self.trick_contract
        assert tc is not None
        unit = tc.unit
        events = self.events
        if unit[c0] or unit[c1] or unit[c2] or unit[c3]:
            scores = self.deal_scores
            captured = self.captured[winner]
            for d in trick:
                if unit[d]:
                    captured.append(d)
                    self.scoring_left -= 1
                    tc.capture(scores, d, winner, leader, self.doubler[d])
                    events.append(("capture", winner, d, 0))
        if tc.trick_penalty:
            self.deal_scores[winner] -= tc.trick_penalty
        self.tricks_taken[winner] += 1
        self.tricks_done = done = self.tricks_done + 1
        self.taken[winner] += trick
        self.last_trick = trick
        self.last_leader = leader
        self.last_winner = winner
        self.trick = []
        self.trick_leader = self.to_move = winner
        events.append(("trick", winner, NO_CARD, done))
        if done == 13 or (self.scoring_left == 0 and tc.ends_early):  # TX-25
            self._end_deal()

    def _revoke(self, p: int, action: TrexAction) -> None:
        """TX-37 with accept_unchecked_plays: ``p`` takes every unit not yet captured."""
        c = action.arg
        self.hands_by_suit[p][SUIT[c]].remove(action)
        self.count[p] -= 1
        self.owner[c] = NO_CARD
        self.trick.append(c)
        self.events.append(("revoke", p, c, 0))
        tc = self.trick_contract
        assert tc is not None
        captured = {d for hand in self.captured for d in hand}
        for d in sorted(tc.scoring_cards - captured):
            tc.capture(self.deal_scores, d, p, self.trick_leader, self.doubler[d])
        self.deal_scores[p] -= tc.trick_penalty * (13 - self.tricks_done)
        self._end_deal()

    def _apply_trex(self, action: TrexAction) -> None:
        p = self.to_move
        c = action.arg
        self.hands_by_suit[p][SUIT[c]].remove(action)
        self.count[p] -= 1
        self.owner[c] = NO_CARD
        self.layout_cards.append(c)
        frontier = self.frontier
        frontier.discard(c)
        s = SUIT[c]
        r = LAYOUT_RANK[c]
        if r == 11:  # TX-32: a Jack opens its row
            self.lo[s] = self.hi[s] = 11
            frontier.add(BELOW[c])
            frontier.add(ABOVE[c])
            self.events.append(("open", p, c, s))
        else:
            self.events.append(("play", p, c, 0))
            if r < 11:
                self.lo[s] = r
                if r > 2:
                    frontier.add(BELOW[c])
            else:
                self.hi[s] = r
                if r < 14:
                    frontier.add(ABOVE[c])
        self.layout_turns += 1
        if not self.count[p]:  # TX-34
            out = self.finishing
            self.events.append(("out", p, NO_CARD, len(out)))
            out.append(p)
            if len(out) == 3:
                last = next(q for q in range(N) if q not in out)
                self.events.append(("out", last, NO_CARD, 3))
                out.append(last)
                self._end_deal()
                return
        self._trex_next(NEXT[p])

    def _trex_next(self, q: int) -> None:
        """TX-33: the next seat still in with a legal play; the others pass at once."""
        owner = self.owner
        frontier = self.frontier
        out = self.finishing
        while True:
            if self.expose_twos and not self.twos_exposed and self.layout_turns >= N:
                self.twos_exposed = True  # TX-V2
                self.events.append(("twos_exposed", -1, NO_CARD, 0))
            if q not in out:
                for c in frontier:
                    if owner[c] == q:
                        self.to_move = q
                        return
                self.events.append(("pass", q, NO_CARD, 0))
                self.layout_turns += 1
            q = NEXT[q]

    # ------------------------------------------------------------- scoring
    def _end_deal(self) -> None:
        if self.stop_at_deal_end:
            self.deal_ended = True
            return
        o = self.opts
        scores = self.deal_scores
        if self.contract == TR:  # TX-35
            payouts = o["trex_payouts"]
            for place, q in enumerate(self.finishing):
                scores[q] += payouts[place]
        sign = -1 if o["reverse_scores"] else 1  # TX-V7
        deltas = tuple(sign * x for x in scores)
        if self.tiebreak:
            self.tiebreak_scores = deltas
            self._finish_tiebreak()
            return
        self.events.append(("deal_over", -1, NO_CARD, self.deal_index + 1))
        for q in range(N):
            if deltas[q]:
                self.events.append(("score", q, NO_CARD, deltas[q]))
            self.totals[q] += deltas[q]
        self.records.append((self.deal_index + 1, self.kingdom, self.holder, self.contract, deltas))
        if self.contract == TR:
            self.trex_firsts[self.finishing[0]] += 1
        self.used_contracts |= self.contract
        self.deal_index += 1
        self.deal_in_kingdom += 1
        if self.deal_index == self.num_deals:
            self._end_game()
            return
        if self.deal_in_kingdom == self.deals_per_kingdom:  # TX-8
            self.kingdom += 1
            self.deal_in_kingdom = 0
            self.used_contracts = 0
            self.holder = NEXT[self.holder]
            self.events.append(("kingdom", self.holder, NO_CARD, self.kingdom))
        self.dealer = self.holder if o["dealer"] == "holder" else NEXT[self.dealer]  # TX-7
        self._new_deal()

    def side_totals(self) -> list[int]:
        """Each seat's result: its total, or its team's total in partnership (TX-V2)."""
        t = self.totals
        if self.opts["partnership"]:
            return [t[q] + t[NEXT[NEXT[q]]] for q in range(N)]
        return list(t)

    def _end_game(self) -> None:
        """TX-39/TX-40: the best total wins; ties by Trex firsts, then an extra Trex deal."""
        o = self.game.options
        sides = self.side_totals()
        key = [-x for x in sides] if o.reverse_scores else sides  # TX-V7: the lowest total wins
        best = max(key)
        tied = tuple(q for q in range(N) if key[q] == best)
        if len(self._teams(tied)) == 1:
            self._finish(tied, "best_total")
            return
        if not o.tiebreak:
            self._finish(tied, "shared_win")
            return
        firsts = self.trex_firsts
        if o.partnership:
            firsts = [firsts[q] + firsts[NEXT[NEXT[q]]] for q in range(N)]
        most = max(firsts[q] for q in tied)
        tied = tuple(q for q in tied if firsts[q] == most)
        if len(self._teams(tied)) == 1:
            self._finish(tied, "tiebreak_trex_firsts")
            return
        # TX-40.2: an extra TR deal outside the totals, dealt and led by the tied
        # player whose kingdom came earliest
        self.tied = tied
        self.tiebreak = True
        self.dealer = next(q for q in seats_from(self.first_holder, N) if q in tied)
        self.events.append(("tiebreak", self.dealer, NO_CARD, 0))
        self._new_deal()

    def _teams(self, seats: tuple[int, ...]) -> set[int]:
        if self.game.options.partnership:
            return {min(q, NEXT[NEXT[q]]) for q in seats}
        return set(seats)

    def _finish_tiebreak(self) -> None:
        """The first tied player (or team) out wins the tie-break deal."""
        first = next(q for q in self.finishing if q in self.tied)
        if self.game.options.partnership:
            winners = tuple(q for q in self.tied if q in (first, NEXT[NEXT[first]]))
        else:
            winners = (first,)
        self._finish(winners, "tiebreak_deal")

    def _finish(self, winners: tuple[int, ...], reason: str) -> None:
        self.phase = Phase.OVER
        self.to_move = TERMINAL  # current_player()
        returns = tuple(float(x) for x in self.side_totals())
        self.outcome_ = Outcome(returns, winners, reason)
        self.events.append(("game_over", winners[0] if len(self._teams(winners)) == 1 else -1, NO_CARD, 0))

    # ------------------------------------------------------------ reporting
    def facts(self) -> TrexFacts:
        """Where the game stands, for metrics."""
        return TrexFacts(tuple(self.totals), tuple(self.trex_firsts), tuple(self.records), bool(self.tiebreak_scores))

    def last_events(self) -> list[RawEvent]:
        """The events of the last action (of the deal before the first), as the engine keeps them;
        the kinds are those of :class:`TrexView`'s events. Read it, do not change it."""
        return self.events

    def outcome(self) -> Outcome | None:
        return self.outcome_

    def view(self, seat: int | None) -> TrexView:
        if seat is not None and not 0 <= seat < N:
            raise ConfigError(f"no seat {seat} in a 4-player game")
        o = self.opts
        card = CARDS
        code = CONTRACT_CODES
        open_hands = bool(o["open_hands"])
        partnership = bool(o["partnership"])
        hands: list[tuple[Card, ...] | None] = []
        for q in range(N):
            hands.append(tuple([card[c] for c in self.hand(q)]) if open_hands or q == seat else None)
        trick_order = ORDER[self.trick_leader]
        last_order = ORDER[self.last_leader]
        kingdom_scores = [[0] * N for _ in range(4)]
        for _, k, _, _, deltas in self.records:
            row = kingdom_scores[k]
            for q in range(N):
                row[q] += deltas[q]
        twos: tuple[tuple[Card, ...], ...] = ((), (), (), ())
        if self.twos_exposed:
            owner = self.owner
            twos = tuple([tuple([card[c] for c in TWOS if owner[c] == q]) for q in range(N)])
        lo, hi = self.lo, self.hi
        # filled directly (the frozen dataclass's __init__ is the larger part of a view's cost);
        # the events are built when first read (core.view.EventsOnFirstUse)
        return filled_view(TrexView, {
            "game": "trex",
            "seat": seat,
            "num_players": N,
            "current_player": self.to_move,
            "legal_actions": tuple(self.legal_actions(seat)) if seat is not None else (),
            "_events": (built_events, (tuple(self.events), self.event_seq)),
            "outcome": self.outcome_,
            "phase": self.phase._value_,
            "deal_number": self.deal_index + (0 if self.phase is Phase.OVER else 1),
            "num_deals": self.num_deals,
            "kingdom": self.kingdom,
            "kingdom_holder": self.holder,
            "dealer": self.dealer,
            "leader": self.leader,
            "contract": code[self.contract] if self.contract else None,
            "contracts_left": tuple([code[m] for m in self.contracts_left()]),
            "hand": hands[seat] if seat is not None else (),
            "hands": tuple(hands),
            "hand_sizes": tuple(self.count),
            "trick": tuple([(trick_order[i], card[c]) for i, c in enumerate(self.trick)]),
            "last_trick": tuple([(last_order[i], card[c]) for i, c in enumerate(self.last_trick)]),
            "last_trick_winner": self.last_winner if self.last_winner >= 0 else None,
            "tricks_taken": tuple(self.tricks_taken),
            "captured": tuple([tuple([card[c] for c in cap]) for cap in self.captured]),
            "doubled": tuple([(card[c], q) for c, q in self.doubled]),
            "hearts_broken": self.hearts_broken,
            "redeal_shown": tuple([(q, tuple([card[c] for c in h])) for q, h in self.redeal_shown]),
            "layout": tuple([(lo[s], hi[s]) if hi[s] else None for s in range(4)]),
            "finishing": tuple(self.finishing),
            "exposed_twos": twos,
            "deal_scores_now": tuple(self.deal_scores),
            "totals": tuple(self.totals),
            "team_totals": tuple(self.side_totals()) if partnership else None,
            "deal_scores": tuple([(d, k, h, code[m], deltas) for d, k, h, m, deltas in self.records]),
            "kingdom_scores": tuple([tuple(row) for row in kingdom_scores]),
            "trex_firsts": tuple(self.trex_firsts),
            "tiebreak": self.tiebreak,
            "partnership": partnership,
        })

    # ------------------------------------------------------------- worlds
    @staticmethod
    def from_view(game: TrexGame, view: TrexView, played: Collection[int] = ()) -> TrexState:
        """The public part of a world consistent with ``view``: every field set from what the
        view shows, the hidden hands left empty for :meth:`with_hands` (what OpenSpiel calls
        resampling from an information state, in two steps so that a search builds this
        part once per decision). ``played``: cards the seat knows were played this deal,
        beyond those the view shows (a bot's memory of earlier tricks); the ones not on
        the table count as taken by the last trick's winner. ``game`` carries the options
        the view does not show. The seed is 0: :meth:`with_hands` gives one."""
        st = TrexState(game, blank=True)
        st._start(game, 0, None)
        st._reset_deal_state()
        o = game.options
        v = view
        st.events = [
            (e.kind, -1 if e.seat is None else e.seat, -1 if e.card is None else e.card.id,
             (e.slot if e.kind == "open" else e.value) or 0)
            for e in v.events
        ]
        st.event_seq = v.events[0].seq if v.events else 0
        st.shuffles = v.deal_number + len(v.redeal_shown)
        st.phase = phase = Phase(v.phase)
        st.deal_index = v.deal_number - (0 if phase is Phase.OVER else 1)
        st.kingdom = v.kingdom
        records = [(d, k, h, parse_contract(code), tuple(deltas)) for d, k, h, code, deltas in v.deal_scores]
        st.records = records
        st.deal_in_kingdom = sum(1 for r in records if r[1] == v.kingdom)
        used = 0
        for r in records:
            if r[1] == v.kingdom:
                used |= r[3]
        st.used_contracts = used
        st.holder = v.kingdom_holder
        st.first_holder = next((r[2] for r in records if r[1] == 0), v.kingdom_holder if v.kingdom == 0 else -1)
        st.dealer = v.dealer
        st.leader = v.leader
        st.to_move = v.current_player
        st.contract = parse_contract(v.contract) if v.contract else 0
        tc = st.trick_contract = st.trick_contracts.get(st.contract)
        st.totals = list(v.totals)
        st.trex_firsts = list(v.trex_firsts)
        st.tiebreak = v.tiebreak
        if v.tiebreak:
            sides = st.side_totals()
            best = max(sides) if not o.reverse_scores else min(sides)
            tied = [q for q in range(N) if sides[q] == best]
            most = max(v.trex_firsts[q] for q in tied)
            st.tied = tuple(q for q in tied if v.trex_firsts[q] == most)
        st.outcome_ = v.outcome
        st.redeal_shown = [(q, tuple(c.id for c in cards)) for q, cards in v.redeal_shown]
        # the deal
        st.count = list(v.hand_sizes)
        st.trick = [c.id for _, c in v.trick]
        if v.trick:
            st.trick_leader = v.trick[0][0]
        else:
            st.trick_leader = v.current_player if phase is Phase.TRICK else -1
        st.last_trick = [c.id for _, c in v.last_trick]
        st.last_leader = v.last_trick[0][0] if v.last_trick else -1
        st.last_winner = -1 if v.last_trick_winner is None else v.last_trick_winner
        st.tricks_done = sum(v.tricks_taken)
        st.tricks_taken = list(v.tricks_taken)
        st.captured = [[c.id for c in cap] for cap in v.captured]
        taken: list[list[int]] = [list(cap) for cap in st.captured]
        capt = {c for cap in st.captured for c in cap}
        layout = set(layout_card_ids(v.layout))
        trick = set(st.trick)
        taken[max(st.last_winner, 0)] += [
            c for c in sorted(played) if c not in capt and c not in trick and c not in layout
        ]
        st.taken = taken
        for card, q in v.doubled:
            st.doubler[card.id] = q
        st.doubled = [(card.id, q) for card, q in v.doubled]
        st.hearts_broken = v.hearts_broken
        if tc is not None and phase is not Phase.DOUBLE and phase is not Phase.REDEAL:  # set once play starts
            st.scoring_left = len(tc.scoring_cards) - len(capt)
        st.deal_scores = list(v.deal_scores_now)
        st.lo = [row[0] if row else 0 for row in v.layout]
        st.hi = [row[1] if row else 0 for row in v.layout]
        st.frontier = set(layout_frontier(v.layout)) if phase is Phase.TREX else set()
        st.layout_cards = sorted(layout)
        st.finishing = list(v.finishing)
        st.twos_exposed = any(v.exposed_twos)
        st.layout_turns = len(layout) + (N if st.twos_exposed else 0)
        if tc is not None and phase is Phase.TRICK and tc.hearts_restricted:
            st.hearts_rule = 1 if o.hearts_lead_rule == "broken" else 2
        if phase is Phase.REDEAL:
            st.answered = (v.current_player - v.kingdom_holder) % N
        elif phase is Phase.DOUBLE:
            st.answered = (v.current_player - v.leader) % N
        st.relevant = st._redeal_relevant()
        return st

    def with_hands(self, hands: Sequence[Sequence[int]], played_unseen: Sequence[int], seed: int) -> TrexState:
        """A copy of this state (one from :meth:`from_view`) with seat ``q`` holding the cards
        ``hands[q]`` (ids, every hand in full), the cards ``played_unseen`` (played where the
        seat did not see them) among the last trick winner's taken cards, and ``seed`` for
        the shuffles of the deals after this one."""
        st = self.clone()
        owner = st.owner
        hs = st.hands_by_suit
        for q in range(N):
            row: list[list[TrexAction]] = [[], [], [], []]
            for c in sorted(hands[q]):
                owner[c] = q
                row[SUIT[c]].append(A_PLAY[c])
            hs[q] = row
        st.count = [len(h) for h in hands]
        if played_unseen:
            st.taken[max(st.last_winner, 0)] += played_unseen
        st.seed = seed
        return st

    def clone(self) -> TrexState:
        """An independent copy: every field assigned here (compiled states have no ``__dict__``)."""
        other = TrexState(cast("TrexGame", self.game), blank=True)
        other.opts = self.opts
        other.game = self.game
        other.kingdom_contracts = self.kingdom_contracts
        other.trick_contracts = self.trick_contracts
        other.num_deals = self.num_deals
        other.deals_per_kingdom = self.deals_per_kingdom
        other.n = self.n
        other.seed = self.seed
        other.deals = self.deals
        other.history = self.history.copy()
        other.events = self.events.copy()
        other.event_seq = self.event_seq
        other.shuffles = self.shuffles
        other.deal_index = self.deal_index
        other.kingdom = self.kingdom
        other.deal_in_kingdom = self.deal_in_kingdom
        other.used_contracts = self.used_contracts
        other.holder = self.holder
        other.first_holder = self.first_holder
        other.dealer = self.dealer
        other.leader = self.leader
        other.phase = self.phase
        other.to_move = self.to_move
        other.answered = self.answered
        other.contract = self.contract
        other.trick_contract = self.trick_contract
        other.totals = self.totals.copy()
        other.records = self.records.copy()
        other.trex_firsts = self.trex_firsts.copy()
        other.tiebreak = self.tiebreak
        other.tied = self.tied
        other.tiebreak_scores = self.tiebreak_scores
        other.outcome_ = self.outcome_
        other.redeal_shown = self.redeal_shown.copy()
        other.relevant = self.relevant
        other.unchecked = self.unchecked
        other.forced_discard = self.forced_discard
        other.hearts_rule = self.hearts_rule
        other.expose_twos = self.expose_twos
        other.hands_by_suit = [[x.copy() for x in h] for h in self.hands_by_suit]
        other.count = self.count.copy()
        other.owner = self.owner.copy()
        other.trick = self.trick.copy()
        other.trick_leader = self.trick_leader
        other.last_trick = self.last_trick.copy()
        other.last_leader = self.last_leader
        other.last_winner = self.last_winner
        other.tricks_done = self.tricks_done
        other.tricks_taken = self.tricks_taken.copy()
        other.taken = [t.copy() for t in self.taken]
        other.captured = [t.copy() for t in self.captured]
        other.doubler = self.doubler.copy()
        other.doubled = self.doubled.copy()
        other.hearts_broken = self.hearts_broken
        other.scoring_left = self.scoring_left
        other.deal_scores = self.deal_scores.copy()
        other.lo = self.lo.copy()
        other.hi = self.hi.copy()
        other.frontier = self.frontier.copy()
        other.layout_cards = self.layout_cards.copy()
        other.finishing = self.finishing.copy()
        other.layout_turns = self.layout_turns
        other.twos_exposed = self.twos_exposed
        other.stop_at_deal_end = self.stop_at_deal_end
        other.deal_ended = self.deal_ended
        return other

    def all_cards(self) -> list[int]:
        """Every card id wherever it is: hands, the trick, taken tricks, the layout."""
        cards: list[int] = []
        for p in range(N):
            cards += self.hand(p)
        cards += self.trick
        for t in self.taken:
            cards += t
        cards += self.layout_cards
        return cards

    def __str__(self) -> str:
        o = self.game.options
        contract = contract_code(self.contract) if self.contract else "-"
        lines = [
            f"deal {self.deal_index + 1}/{self.num_deals}{' (tie-break)' if self.tiebreak else ''}, "
            f"kingdom {self.kingdom + 1} held by seat {self.holder}, dealer {self.dealer}, "
            f"contract {contract}, phase {self.phase.value}, turn {int(self.to_move)}",
        ]
        for q in range(N):
            lines.append(
                f"seat {q}: {cards_text(self.hand(q))} | tricks {self.tricks_taken[q]} "
                f"captured {cards_text(self.captured[q])} | deal {self.deal_scores[q]:+d} total {self.totals[q]:+d}"
            )
        if self.trick:
            lines.append(f"trick (led by {self.trick_leader}): {cards_text(self.trick)}")
        if self.doubled:
            lines.append("doubled: " + ", ".join(f"{Card.from_id(c)} by {q}" for c, q in self.doubled))
        if self.contract == TR:
            rows = [
                f"{'CDHS'[s]} {self.lo[s]}-{self.hi[s]}" if self.hi[s] else f"{'CDHS'[s]} -" for s in range(4)
            ]
            lines.append("layout: " + "  ".join(rows) + f"  out: {self.finishing}")
        lines.append(f"seed {self.seed}, shuffles {self.shuffles}, options {self.game.changed_options() or o.preset}")
        return "\n".join(lines)

