"""The Trash engine (docs/rules/trash.md).

Inside the engine a card is its id (core.cards); ``ROLE[id]`` is its number
1..10, ``WILDCARD`` or ``STOP`` under the game's ``wild_mode``. A layout is two
lists indexed by slot 1..L (index 0 unused): ``down`` holds the face-down card
(or -1) and ``up`` the face-up card (or -1). The stock is a list whose *end* is
its top, so a draw is ``pop()``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from enum import Enum
from typing import TYPE_CHECKING, Final, NamedTuple, cast

from ...core.cards import CARDS, Card, standard_deck
from ...core.chance import DealSource, deal_shuffle, fresh_seed
from ...core.errors import ConfigError, IllegalActionError
from ...core.game import Action, Outcome, State
from ...core.seats import TERMINAL, next_seat
from ...core.view import filled_view
from .actions import (
    A_DECLINE,
    A_DISCARD,
    A_DISPLACE,
    A_STOCK,
    A_TIME_UP,
    A_WILD,
    DECLINE,
    DISCARD,
    DISPLACE,
    STOCK,
    TIME_UP,
    WILD,
    TrashAction,
)
from .roles import STOP, WILDCARD
from .view import TrashView, built_events

if TYPE_CHECKING:
    from . import TrashGame

NO_CARD: Final = -1
START_SIZE: Final = 10


def deck_for(players: int, decks: int | None, jokers: bool) -> list[int]:
    """The unshuffled cards of a game (TR-2, TR-V5)."""
    count = decks if decks is not None else math.ceil(players / 2)
    return standard_deck(count, 2 if jokers else 0)


class Phase(Enum):
    """What the current player decides next."""

    DRAW = "draw"  # stock or discard (TR-7)
    PLACE_WILD = "place_wild"  # the slot of the wild in hand (TR-10.3, TR-12a)
    DISPLACE = "displace"  # displace the wild on the number's slot, or decline (TR-12)
    OVER = "over"


# the phases as module constants: a compiled module reads them directly, not through the Enum class
_DRAW: Final = Phase.DRAW
_PLACE_WILD: Final = Phase.PLACE_WILD
_DISPLACE: Final = Phase.DISPLACE
_OVER: Final = Phase.OVER
_STOCK_ONLY: Final = (A_STOCK,)
_STOCK_OR_DISCARD: Final = (A_STOCK, A_DISCARD)


def shared_outcome(players: int, winners: tuple[int, ...], reason: str) -> Outcome:
    """The outcome of a match the ``winners`` share (one or more): 1/k each for k winners."""
    share = 1.0 / len(winners)
    return Outcome(tuple([share if s in winners else 0.0 for s in range(players)]), winners, reason)


class TrashFacts(NamedTuple):
    """Where a Trash match stands, for simulations' metrics (``TrashState.facts()``)."""

    hands_played: int
    """Hands won so far (void deals not counted, TR-26)."""
    deal_count: int
    """Deals so far, void ones included."""
    starter: int
    """The seat that starts the current hand."""
    sizes: tuple[int, ...]
    """Each seat's layout size (TR-22)."""
    hands_won: tuple[int, ...]
    """Hands won per seat."""


class TrashState(State):
    """A Trash match in progress. Create one with ``TrashGame.new_state``."""


    def __init__(
        self,
        game: TrashGame,
        seed: int | None = None,
        deck: Sequence[Card | str | int] | None = None,
        deals: DealSource | None = None,
        *,
        blank: bool = False,
    ) -> None:
        """A new game (see ``TrashGame.new_state``); ``blank`` leaves every field unset for
        :meth:`clone` to fill (a compiled class cannot be made without ``__init__``)."""
        if blank:
            return
        self._start(game, fresh_seed() if seed is None else seed, deals)
        if deck is not None:
            self.stacked_deck = tuple(game._check_deck(deck, game.cards))
        self._deal(list(self.stacked_deck) if self.stacked_deck is not None else None)

    def _start(self, game: TrashGame, seed: int, deals: DealSource | None) -> None:
        """Every field of a match before its first deal (:meth:`clone` copies them all)."""
        self.game = game
        self.n: int = game.players
        n = self.n
        self.role = game.role
        self.seed = seed
        self.deals = deals  # the fair scheme's source of every shuffle, else the seed's
        self.history: list[Action] = []
        self.sizes = [START_SIZE] * n
        self.hands_won = [0] * n
        self.hands_played = 0
        self.deal_count = 0  # deals including void ones; labels the shuffles
        self.rebuilds = 0  # stock rebuilds in this deal; labels the shuffles
        self.time_up = False
        self.starter: int = game.first_player
        self.turn = self.starter
        self.phase = _DRAW
        self.hand = NO_CARD
        self.forced_displace = False  # the card in hand was taken from the discard pile (TR-7)
        self.changed_since_rebuild = True
        self.stalls = 0
        self.passes = 0  # TR-26: passes in a row (TR-7, an unplayable discard taken and put back)
        self.free_draws_left = 0  # TR-V8: extra turns left to the loser
        self.hand_winner = -1  # set while the loser takes free draws
        self.outcome_: Outcome | None = None
        self.events: list[tuple[str, int, int, int]] = []
        self.event_seq = 0  # seq of events[0]
        self.down: list[list[int]] = []
        self.up: list[list[int]] = []
        self.ndown: list[int] = []
        self.stock: list[int] = []
        self.discard: list[int] = []
        self.stacked_deck = None

    # ----------------------------------------------------------------- dealing
    def _deal(self, stacked: list[int] | None = None) -> None:
        """Gather, shuffle and deal a hand (TR-5); §0.5 order for a stacked deck."""
        if stacked is not None:
            cards = stacked
        else:
            cards = list(cast("TrashGame", self.game).cards)
            deal_shuffle(cards, self.seed, self.deals, ("deal", self.deal_count))
        self.deal_count += 1
        self.rebuilds = 0
        self.stalls = 0
        self.passes = 0
        self.changed_since_rebuild = True
        pos = 0
        self.down = []
        self.up = []
        for p in range(self.n):
            size = self.sizes[p]
            self.down.append([NO_CARD, *cards[pos:pos + size]])
            self.up.append([NO_CARD] * (size + 1))
            pos += size
        self.ndown = list(self.sizes)
        rest = cards[pos:]
        rest.reverse()  # the first remaining card is the top of the stock
        self.stock = rest
        self.discard = []
        self.hand = NO_CARD
        self.forced_displace = False
        self.turn = self.starter
        self.phase = _DRAW
        self._event("deal", self.starter, NO_CARD, self.hands_played + 1)

    def _event(self, kind: str, seat: int, card: int = NO_CARD, slot: int = 0) -> None:
        self.events.append((kind, seat, card, slot))

    # --------------------------------------------------------------- protocol
    def current_player(self) -> int:
        return TERMINAL if self.phase is _OVER else self.turn

    def is_terminal(self) -> bool:
        return self.phase is _OVER

    def legal_actions(self, seat: int | None = None) -> Sequence[TrashAction]:
        phase = self.phase
        if phase is _OVER or (seat is not None and seat != self.turn):
            return ()
        if phase is _DRAW:
            if self.discard and (
                not cast("TrashGame", self.game).take_needs_playable or self.placeable(self.turn, self.discard[-1])
            ):
                return _STOCK_OR_DISCARD
            return _STOCK_ONLY
        if phase is _PLACE_WILD:
            down = self.down[self.turn]
            return tuple([A_WILD[k] for k in range(1, len(down)) if down[k] != NO_CARD])
        return (A_DISPLACE, A_DECLINE)

    def placeable(self, seat: int, card: int) -> bool:
        """TR-9: may ``seat`` place ``card`` (an id) now?"""
        r = self.role[card]
        if r == WILDCARD:
            return self.ndown[seat] > 0
        if r == STOP or r > self.sizes[seat]:
            return False
        up = self.up[seat][r]
        return up == NO_CARD or self.role[up] == WILDCARD

    def play(self, action: Action | str | object) -> None:  # object: anything else is illegal, not a TypeError
        if isinstance(action, str):
            action = self.game.parse_action(action)
        if action == A_TIME_UP:
            if not cast("TrashGame", self.game).has_time_limit:
                raise IllegalActionError("time-up: this match has no time_limit")
            if self.phase is _OVER or self.time_up:
                raise IllegalActionError("time-up: the time is already up or the match is over")
            self.apply(action)
            return
        super().play(action)

    def apply(self, action: Action) -> None:
        action = cast(TrashAction, action)  # unchecked: a TrashAction, legal now
        self.event_seq += len(self.events)
        self.events = []
        self.history.append(action)
        kind = action.kind
        p = self.turn
        if kind == STOCK:
            self.passes = 0
            if not self.stock and not self._rebuild():
                return
            card = self.stock.pop()
            self._event("draw", p, card)
            self.hand = card
            self._chain()
        elif kind == DISCARD:
            card = self.discard.pop()
            self._event("take", p, card)
            self.hand = card
            if not self.placeable(p, card):  # a pass: only with discard_take_requires_playable off
                free_draw = self.hand_winner >= 0  # TR-V8's free draws are few: they are not counted
                self._end_turn()
                if not free_draw:
                    self.passes += 1
                    if self.passes >= self.n * cast("TrashGame", self.game).stall_reshuffles:
                        self._void()  # TR-26: every player passed stall_reshuffles times in a row
                return
            self.passes = 0
            self.forced_displace = True
            self._chain()
        elif kind == WILD:
            self._place(p, action.slot)
        elif kind == DISPLACE:
            self._displace(p)
        elif kind == DECLINE:
            self._event("decline", p, self.hand, self.role[self.hand])
            self._end_turn()
        elif kind == TIME_UP:
            self.time_up = True
            self._event("time_up", -1)

    # ------------------------------------------------------------- the chain
    def _chain(self) -> None:
        """TR-10: follow the card in hand until a decision or the end of the turn."""
        p = self.turn
        role = self.role
        up = self.up[p]
        while True:
            card = self.hand
            r = role[card]
            if r == WILDCARD:
                if self.ndown[p] == 1:  # only one slot to choose: not a decision
                    down = self.down[p]
                    k = 1
                    while down[k] == NO_CARD:
                        k += 1
                    self._place(p, k)
                    return
                self.phase = _PLACE_WILD
                return
            if r == STOP or r > self.sizes[p]:
                self._end_turn()
                return
            shown = up[r]
            if shown == NO_CARD:
                if self._turn_over(p, r):
                    return
                continue
            if role[shown] != WILDCARD:  # the slot already shows this number
                self._end_turn()
                return
            if self.forced_displace:  # a card taken from the discard pile must be placed (TR-7)
                self._displace(p)
                return
            self.phase = _DISPLACE
            return

    def _turn_over(self, p: int, slot: int) -> bool:
        """Put the card in hand face-up on face-down ``slot``; the card there becomes
        the card in hand. True if that completed the layout (the hand is over)."""
        self.forced_displace = False
        placed = self.hand
        self.up[p][slot] = placed
        turned = self.down[p][slot]
        self.down[p][slot] = NO_CARD
        self.ndown[p] = self.ndown[p] - 1  # not -=, which mypyc compiles as a generic operation on objects
        self.changed_since_rebuild = True
        self._event("place", p, placed, slot)
        self.hand = turned
        if self.ndown[p] == 0:
            self._complete(p)
            return True
        self._event("turn_up", p, turned, slot)
        return False

    def _place(self, p: int, slot: int) -> None:
        """Place the wild in hand on face-down ``slot`` and carry on (TR-10.3)."""
        self.phase = _DRAW
        if not self._turn_over(p, slot):
            self._chain()

    def _displace(self, p: int) -> None:
        """TR-12a: the number goes to its slot, the wild there comes back to hand."""
        self.forced_displace = False
        k = self.role[self.hand]
        wild = self.up[p][k]
        self.up[p][k] = self.hand
        self.changed_since_rebuild = True
        self._event("displace", p, self.hand, k)
        self.hand = wild
        self.phase = _DRAW
        self._chain()

    def _end_turn(self) -> None:
        """TR-10.4: the card in hand goes face-up on the discard pile."""
        p = self.turn
        self.discard.append(self.hand)
        self._event("discard", p, self.hand)
        self.hand = NO_CARD
        self.forced_displace = False
        self.phase = _DRAW
        if self.hand_winner >= 0:  # the loser's free draws (TR-V8)
            self.free_draws_left -= 1
            if self.free_draws_left == 0:
                self._finish_hand()
                return
            self._event("free_draw", p, NO_CARD, self.free_draws_left)
            return
        self.turn = (p + 1) % self.n  # core.seats.next_seat, inlined (seats is interpreted)

    def _rebuild(self) -> bool:
        """TR-8 and TR-26: rebuild the stock from the discards below the top one.
        False if the hand was voided instead."""
        if self.changed_since_rebuild or self.rebuilds == 0:
            self.stalls = 0
        else:
            self.stalls += 1
        self.changed_since_rebuild = False
        if self.stalls >= cast("TrashGame", self.game).stall_reshuffles or len(self.discard) < 2:
            self._void()
            return False
        top = self.discard.pop()
        cards = self.discard
        deal_shuffle(cards, self.seed, self.deals, ("rebuild", self.deal_count, self.rebuilds))
        self.rebuilds += 1
        self.stock = cards
        self.discard = [top]
        self._event("rebuild", self.turn, NO_CARD, len(cards))
        return True

    def _void(self) -> None:
        """TR-26: nobody wins; redeal with the same sizes and the same first player."""
        self._event("void", -1)
        if self.hand_winner >= 0:  # a stall during free draws ends them (see docs/trash.md)
            self._finish_hand()
            return
        self._deal()

    # -------------------------------------------------------- end of a hand
    def _complete(self, p: int) -> None:
        """TR-11/TR-19: ``p`` has no face-down slot left."""
        self._event("complete", p)
        if self.hand != NO_CARD:  # TR-11: the card in hand can no longer be placed
            self.discard.append(self.hand)
            self._event("discard", p, self.hand)
            self.hand = NO_CARD
        self.phase = _DRAW
        free_draws = cast("TrashGame", self.game).loser_free_draws
        if self.hand_winner >= 0:  # the loser completed during free draws (TR-V8)
            self._finish_hand(loser_completed=p)
            return
        if free_draws and self.n == 2:
            self.hand_winner = p
            self.free_draws_left = free_draws
            self.turn = next_seat(p, self.n)
            self._event("free_draw", self.turn, NO_CARD, self.free_draws_left)
            return
        self.hand_winner = p
        self._finish_hand()

    def _shrink_loser(self, q: int) -> None:
        """TR-V7/TR-A9: a loser shrinks, never below target_size + 1."""
        if self.sizes[q] - 1 >= cast("TrashGame", self.game).target_size + 1:
            self.sizes[q] -= 1
            self._event("shrink", q, NO_CARD, self.sizes[q])

    def _finish_hand(self, loser_completed: int = -1) -> None:
        rules = cast("TrashGame", self.game)
        winner = self.hand_winner
        self.hand_winner = -1
        self.free_draws_left = 0
        self.hands_played += 1
        self.hands_won[winner] += 1
        self.sizes[winner] -= 1
        self._event("shrink", winner, NO_CARD, self.sizes[winner])
        if loser_completed >= 0:
            self._shrink_loser(loser_completed)
        elif rules.loser_reveal or rules.loser_free_draws:
            for q in range(self.n):
                if q != winner:
                    self._reveal(q)
        if self.sizes[winner] <= rules.target_size:
            self._end_match((winner,), "target_size")
            return
        limit_hit = (rules.max_hands >= 0 and self.hands_played >= rules.max_hands) or self.time_up
        if limit_hit:
            smallest = min(self.sizes)
            leaders = tuple([s for s in range(self.n) if self.sizes[s] == smallest])
            if len(leaders) == 1 or not rules.tiebreak_extra_hands:
                self._end_match(leaders, "time_limit" if self.time_up else "max_hands")
                return
        if rules.rotate_first_player:
            self.starter = (rules.first_player + self.hands_played) % self.n
        else:
            self.starter = winner
        self._deal()

    def _reveal(self, q: int) -> None:
        """TR-V7: turn up every face-down card; all correct (TR-A8) shrinks the layout."""
        role = self.role
        correct = True
        for k, card in enumerate(self.down[q]):
            if card == NO_CARD:
                continue
            self._event("reveal", q, card, k)
            if role[card] != k and role[card] != WILDCARD:
                correct = False
        if correct:
            self._shrink_loser(q)

    def _end_match(self, winners: tuple[int, ...], reason: str) -> None:
        self.phase = _OVER
        if len(winners) == 1:
            self.outcome_ = cast("TrashGame", self.game).sole_winner_outcome(winners[0], reason)
        else:
            self.outcome_ = shared_outcome(self.n, winners, reason)
        self._event("match_over", winners[0] if len(winners) == 1 else -1)

    # ------------------------------------------------------------ reporting
    def facts(self) -> TrashFacts:
        """Where the match stands, for metrics (read after every action: kept cheap)."""
        return TrashFacts(self.hands_played, self.deal_count, self.starter, tuple(self.sizes), tuple(self.hands_won))

    def outcome(self) -> Outcome | None:
        return self.outcome_

    def view(self, seat: int | None) -> TrashView:
        if seat is not None and not 0 <= seat < self.n:
            raise ConfigError(f"no seat {seat} in a {self.n}-player game")
        card = CARDS
        hand = self.hand
        # filled directly (the frozen dataclass's __init__ is the larger part of a view's cost);
        # the events are built when first read (core.view.EventsOnFirstUse)
        return filled_view(TrashView, {
            "game": "trash",
            "seat": seat,
            "num_players": self.n,
            "current_player": self.current_player(),
            "legal_actions": tuple(self.legal_actions(seat)) if seat is not None else (),
            "_events": (built_events, (tuple(self.events), self.event_seq, seat)),
            "outcome": self.outcome_,
            "phase": self.phase._value_,
            "sizes": tuple(self.sizes),
            "layouts": tuple([tuple([None if c == NO_CARD else card[c] for c in up[1:]]) for up in self.up]),
            "stock_count": len(self.stock),
            "discard": tuple([card[c] for c in self.discard]),
            "card_in_hand": None if hand == NO_CARD else card[hand],
            "hand_number": self.hands_played + 1,
            "hands_won": tuple(self.hands_won),
            "starter": self.starter,
            "free_draws_left": self.free_draws_left,
            "time_up": self.time_up,
            "wild_mode": cast("TrashGame", self.game).wild_mode,
            "passes": self.passes,
        })

    @staticmethod
    def from_view(game: TrashGame, view: TrashView, hidden: Sequence[int], seed: int) -> TrashState:
        """A state consistent with ``view`` (what OpenSpiel calls resampling from an information
        state): the cards the view does not show, ``hidden``, fill the face-down slots in
        order (seat by seat, slot by slot; the seat's own included, TR-5) and the rest is the
        stock, its top last. ``game`` carries the options the view does not show; ``seed``
        makes the shuffles after this position (stock rebuilds, the next hands)."""
        st = TrashState(game, blank=True)
        st._start(game, seed, None)
        n = st.n
        st.sizes = list(view.sizes)
        st.hands_won = list(view.hands_won)
        st.hands_played = view.hand_number - 1
        st.deal_count = 1
        st.time_up = view.time_up
        st.starter = view.starter
        st.phase = Phase(view.phase)
        st.turn = view.current_player if view.current_player >= 0 else view.starter
        st.hand = NO_CARD if view.card_in_hand is None else view.card_in_hand.id
        st.free_draws_left = view.free_draws_left
        st.passes = view.passes
        st.outcome_ = view.outcome
        st.events = [
            (e.kind, -1 if e.seat is None else e.seat, -1 if e.card is None else e.card.id,
             (e.slot if e.slot is not None else e.value) or 0)
            for e in view.events
        ]
        st.event_seq = view.events[0].seq if view.events else 0
        # a wild just taken from the discard pile, waiting to be placed, is a forced card (TR-7)
        last = view.events[-1] if view.events else None
        st.forced_displace = last is not None and last.kind == "take" and last.seat == st.turn
        pos = 0
        for p in range(n):
            down = [NO_CARD] * (len(view.layouts[p]) + 1)  # the sizes shrink before a finished match's layouts go
            up = [NO_CARD] * (len(view.layouts[p]) + 1)
            for k, card in enumerate(view.layouts[p], start=1):
                if card is None:
                    down[k] = hidden[pos]
                    pos += 1
                else:
                    up[k] = card.id
            st.down.append(down)
            st.up.append(up)
            st.ndown.append(sum(1 for c in down[1:] if c != NO_CARD))
        if view.free_draws_left:
            st.hand_winner = next((p for p in range(n) if st.ndown[p] == 0), -1)
        st.stock = list(hidden[pos:])
        st.discard = [c.id for c in view.discard]
        if len(st.stock) != view.stock_count:
            raise ConfigError("the view's card counts do not add up")
        return st

    def clone(self) -> TrashState:
        """An independent copy: every field assigned here (compiled states have no ``__dict__``)."""
        other = TrashState(cast("TrashGame", self.game), blank=True)
        other.game = self.game
        other.n = self.n
        other.role = self.role
        other.seed = self.seed
        other.deals = self.deals
        other.history = self.history.copy()
        other.sizes = self.sizes.copy()
        other.hands_won = self.hands_won.copy()
        other.hands_played = self.hands_played
        other.deal_count = self.deal_count
        other.rebuilds = self.rebuilds
        other.time_up = self.time_up
        other.starter = self.starter
        other.turn = self.turn
        other.phase = self.phase
        other.hand = self.hand
        other.forced_displace = self.forced_displace
        other.changed_since_rebuild = self.changed_since_rebuild
        other.stalls = self.stalls
        other.passes = self.passes
        other.free_draws_left = self.free_draws_left
        other.hand_winner = self.hand_winner
        other.outcome_ = self.outcome_
        other.events = self.events.copy()
        other.event_seq = self.event_seq
        other.down = [x.copy() for x in self.down]
        other.up = [x.copy() for x in self.up]
        other.ndown = self.ndown.copy()
        other.stock = self.stock.copy()
        other.discard = self.discard.copy()
        other.stacked_deck = self.stacked_deck
        return other

    def all_cards(self) -> list[int]:
        """Every card id in the game wherever it is (for conservation checks)."""
        cards = list(self.stock) + list(self.discard)
        for p in range(self.n):
            cards += [c for c in self.down[p][1:] if c != NO_CARD]
            cards += [c for c in self.up[p][1:] if c != NO_CARD]
        if self.hand != NO_CARD:
            cards.append(self.hand)
        return cards

    def __str__(self) -> str:
        from ...core.cards import cards_text

        lines = [f"hand {self.hands_played + 1}, sizes {self.sizes}, turn {self.turn}, phase {self.phase.value}"]
        for p in range(self.n):
            slots = []
            for k in range(1, self.sizes[p] + 1):
                u = self.up[p][k]
                slots.append(f"{k}:{Card.from_id(u)}" if u != NO_CARD else f"{k}:[{Card.from_id(self.down[p][k])}]")
            lines.append(f"seat {p}: " + " ".join(slots))
        lines.append(f"discard: {cards_text(self.discard)}")
        lines.append(f"stock (top first): {cards_text(reversed(self.stock))}")
        if self.hand != NO_CARD:
            lines.append(f"in hand: {Card.from_id(self.hand)}")
        return "\n".join(lines)

