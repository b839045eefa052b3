"""The Spit engine (docs/rules/spit.md).

Real time without a clock (docs/architecture.md): the engine is a state machine fed one
action at a time by the host, which orders actions by arrival (SP-13). Every
action carries its seat and is checked against the state when it is applied,
so a play that lost a race is rejected without penalty. Timer expiries
(``spit_delay``, ``slap_timeout``) are the host's actions ``timer spit`` and
``timer slap``; :meth:`SpitState.timers` says which timer runs now.

Inside the engine a card is its id (core.cards). ``stock[p][j]`` is seat
``p``'s stock pile ``j + 1`` as a list from bottom to top, of which the top
``up[p][j]`` cards are face-up. ``spitcards[p]`` is seat ``p``'s face-down
spit cards, the top (spat next) at the end. ``spit[k]`` is spit pile ``S{k}``
from bottom to top; ``live[k]`` says whether it is in use this round.

Phases (SP-14): ``PLAY``, ``SPIT_PENDING`` (blocked, waiting for ``timer
spit``), ``SLAP`` (waiting for a slap or ``timer slap``), ``OVER``. The
``SETUP`` step of SP-14 (collect, shuffle, lay out, opening spit) takes no
input and happens inside the action that ends a round.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from operator import attrgetter
from typing import TYPE_CHECKING, Final, cast

from ...core.cards import Card, cards_text
from ...core.chance import DealSource, deal_shuffle, derive, fresh_seed
from ...core.errors import ConfigError, IllegalActionError
from ...core.game import Action, Outcome, State
from ...core.seats import SIMULTANEOUS, TERMINAL, next_seat
from .actions import (
    ALL_ACTIONS,
    CHOOSE,
    CHOOSE_BASE,
    FILL,
    FILL_BASE,
    FLIP,
    FLIP_BASE,
    PLAY,
    PLAY_BASE,
    SLAP,
    SLAP_BASE,
    SPIT,
    SPIT_BASE,
    STACK,
    STACK_BASE,
    TIMER_BASE,
    TIMER_SLAP,
    TIMER_SPIT,
    UNSPIT,
    UNSPIT_BASE,
    SpitAction,
)
from .view import SpitView

_INDEX: Final = attrgetter("index")
_OwnPart = tuple[tuple[tuple[tuple[bool, ...], "SpitAction", "SpitAction"], ...], tuple["SpitAction", ...], bool]
_Shown = tuple[tuple[tuple[Card, ...], ...], tuple[int, ...], int]
"""A seat's stock piles as views show them: face-up cards, face-down counts, cards in all."""
_ONE_CARD: Final = frozenset((PLAY, FILL, STACK, FLIP))
"""The kinds of action that move a card, which SP-10's one-hand interval paces."""
_CANONICAL: Final = frozenset(map(id, ALL_ACTIONS))
"""The ids of the action table's objects (they live as long as the module): an action whose id is
here is well-formed and canonical, so legality is a matter of identity."""

if TYPE_CHECKING:
    from . import SpitGame

N: Final = 2
PILES: Final = 5
FULL_LAYOUT: Final = 15  # 1 + 2 + 3 + 4 + 5 (SP-4)
DEAL: Final = 26  # SP-3
SEATS: Final = (0, 1)
_NEXT: Final = tuple(next_seat(p, N) for p in SEATS)
OTHER_PILE: Final = (1, 0)
"""``OTHER_PILE[k]``: the spit pile that is not ``S{k}``."""

RANK: Final = tuple(c % 13 for c in range(52))
ADJ: Final = tuple(tuple((RANK[a] - RANK[b]) % 13 in (1, 12) for b in range(52)) for a in range(52))
"""``ADJ[a][b]``: card ``a`` may be played on card ``b`` (SP-2: neighbours in the cycle A-2-…-K-A)."""
_CARD: Final = tuple(Card.from_id(c) for c in range(52))
_SHOWN1: Final = tuple((card,) for card in _CARD)
"""``_SHOWN1[c]``: the face-up part of a stock pile showing only card ``c`` (shared by every view)."""


def adjacent(a: Card | int, b: Card | int) -> bool:
    """SP-2: may ``a`` be played on ``b``?

    >>> adjacent(Card.parse("KS"), Card.parse("AH")), adjacent(Card.parse("5C"), Card.parse("5D"))
    (True, False)
    """
    return ADJ[a if isinstance(a, int) else a.id][b if isinstance(b, int) else b.id]


_PLAY_AT: Final = tuple(
    tuple(
        tuple(
            (ADJ[c], ALL_ACTIONS[PLAY_BASE + ((p * PILES + j) * 52 + c) * 2],
             ALL_ACTIONS[PLAY_BASE + ((p * PILES + j) * 52 + c) * 2 + 1])
            for c in range(52)
        )
        for j in range(PILES)
    )
    for p in SEATS
)
"""``_PLAY_AT[p][j][c]``: card ``c`` on top of seat ``p``'s pile ``j`` (0-based) as ``(ADJ row,
its play onto S0, its play onto S1)``."""
_FILL_AT: Final = tuple(
    tuple(
        tuple(
            tuple(ALL_ACTIONS[FILL_BASE + ((p * PILES + j) * 52 + c) * PILES + e] for e in range(PILES))
            for c in range(52)
        )
        for j in range(PILES)
    )
    for p in SEATS
)
"""``_FILL_AT[p][j][c][e]``: seat ``p`` moves card ``c`` from pile ``j`` into space ``e`` (0-based)."""
_FLIP_AT: Final = tuple(tuple(ALL_ACTIONS[FLIP_BASE + p * PILES + j] for j in range(PILES)) for p in SEATS)
"""``_FLIP_AT[p][j]``: seat ``p`` turns up the top of pile ``j`` (0-based)."""


ROW_ORDER: Final = tuple(j for row in range(PILES) for j in range(row, PILES))
"""SP-4: the stock pile (0-based) that receives each dealt card: row 1 on piles 1–5, row 2 on 2–5, …"""


def layout_sizes(m: int) -> list[int]:
    """SP-4/SP-5: the sizes of the five stock piles for ``m`` cards.

    >>> layout_sizes(26), layout_sizes(12), layout_sizes(8), layout_sizes(3)
    ([1, 2, 3, 4, 5], [1, 2, 3, 3, 3], [1, 2, 2, 2, 1], [1, 1, 1, 0, 0])
    """
    sizes = [0] * PILES
    for j in ROW_ORDER[:m]:
        sizes[j] += 1
    return sizes


class Phase(Enum):
    """SP-14 (``SETUP`` is instantaneous, see the module docstring)."""

    PLAY = "play"
    SPIT_PENDING = "spit_pending"
    SLAP = "slap"
    OVER = "over"


class _ChangeCache:
    """What is computed at most once per change (``apply`` drops it): the view fields every
    reader shares, each seat's legal actions, and each reader's view."""

    __slots__ = ("fields", "legal0", "legal1", "spectator", "view0", "view1")

    def __init__(self) -> None:
        self.fields: dict[str, object] | None = None
        self.legal0: tuple[SpitAction, ...] | None = None
        self.legal1: tuple[SpitAction, ...] | None = None
        self.view0: SpitView | None = None
        self.view1: SpitView | None = None
        self.spectator: SpitView | None = None


class _PileCache:
    """One seat's, kept while its stock piles do not change: ``shown``, the piles as views show
    them (:meth:`SpitState._piles_shown`), and ``own``, the part of its legal actions that depends
    on them alone (:meth:`SpitState._own_part`). Kept across changes: ``shown_piles`` and
    ``down``, each pile's view entries, and ``changed``, the piles changed since they were shown."""

    __slots__ = ("changed", "down", "own", "shown", "shown_piles")

    def __init__(self) -> None:
        self.shown: _Shown | None = None
        self.own: _OwnPart | None = None
        self.shown_piles: list[tuple[Card, ...]] | None = None
        self.down: list[int] | None = None
        self.changed: list[int] = []


class SpitState(State):
    """A Spit game in progress. Create one with ``SpitGame.new_state``."""

    def __init__(
        self,
        game: SpitGame,
        seed: int | None = None,
        deck: Sequence[Card | str | int] | None = None,
        deals: DealSource | None = None,
        *,
        blank: bool = False,
    ) -> None:
        """A new game (see ``SpitGame.new_state``); ``blank`` leaves every field unset for
        :meth:`clone` to fill (a compiled class cannot be made without ``__init__``)."""
        if blank:
            return
        o = game.options
        self.game = game
        self.auto_flip: bool = o.auto_flip
        self.stacking: bool = o.allow_same_rank_stacking
        self.mutual: bool = o.allow_mutual_spit
        self.points: bool = o.scoring == "points"
        self.fresh: bool = self.points and o.points_round_mode == "fresh_deal"
        self.scoring: str = o.scoring
        self.seed = fresh_seed() if seed is None else seed
        self.deals = deals  # the fair scheme's source of every shuffle, else the seed's
        self.history: list[Action] = []
        self.stock: list[list[list[int]]] = [[[] for _ in range(PILES)] for _ in SEATS]
        self.up: list[list[int]] = [[0] * PILES for _ in SEATS]
        self.spitcards: list[list[int]] = [[], []]
        self.spit: list[list[int]] = [[], []]
        self.live = [False, False]
        self.phase = Phase.PLAY
        self.round = 0
        self.requests = [False, False]
        self.choice = [-1, -1]  # a lone spitter's pending pile choice (SP-16)
        self.lone_target = -1  # the pile a lone spitter is bound to this round
        self.finisher = -1  # the seat that emptied its stock, in the slap phase
        self.scores = [0, 0]
        self.outcome_: Outcome | None = None
        self.events: list[tuple[str, int, int, int, int]] = []
        self.event_seq = 0
        self._changes: _ChangeCache | None = None  # what is computed once per change
        self._piles: list[_PileCache | None] = [None, None]  # per seat, what depends on its stock piles
        if deck is not None:
            cards = game._check_deck(deck, range(52))
        else:
            cards = list(range(52))
            deal_shuffle(cards, self.seed, self.deals, ("deal", 0))
        self._start_round([cards[:DEAL], cards[DEAL:]])

    # ------------------------------------------------------------- set-up
    def _start_round(self, hands: list[list[int]]) -> None:
        """SP-4/SP-5 layouts from ``hands`` in dealing order, then the opening spit (SP-6)."""
        self.round += 1
        self._event("round", -1, value=self.round)
        for p in SEATS:
            self._layout(p, hands[p])
        self.requests = [False, False]
        self.choice = [-1, -1]
        self.lone_target = -1
        self.finisher = -1
        self.spit = [[], []]
        self.live = [bool(self.spitcards[0]), bool(self.spitcards[1])]
        for p in SEATS:
            if self.spitcards[p]:
                self._spit_one(p, p)
        self.phase = Phase.PLAY
        self._after_change()

    def _layout(self, p: int, cards: list[int]) -> None:
        """Deal ``cards`` in patience row order (SP-4); the rest are spit cards, first on top."""
        piles: list[list[int]] = [[] for _ in range(PILES)]
        for j, card in zip(ROW_ORDER, cards, strict=False):
            piles[j].append(card)
        rest = cards[FULL_LAYOUT:]
        rest.reverse()
        m = len(cards)
        self.stock[p] = piles
        self.up[p] = [1 if pile else 0 for pile in piles]
        self._piles[p] = None
        self.spitcards[p] = rest
        self._event("deal", p, slot=len(rest), value=m)

    def _event(self, kind: str, seat: int, card: int = -1, slot: int = 0, value: int = 0) -> None:
        self.events.append((kind, seat, card, slot, value))

    # ------------------------------------------------------------ protocol
    def current_player(self) -> int:
        return TERMINAL if self.phase is Phase.OVER else SIMULTANEOUS

    def is_terminal(self) -> bool:
        return self.phase is Phase.OVER

    def legal_actions(self, seat: int | None = None) -> Sequence[SpitAction]:
        """``seat``'s actions now; with no seat, every seat's actions and the timer now running."""
        if self.phase is Phase.OVER:
            return ()
        if seat is None:
            out = [*self._legal_tuple(0), *self._legal_tuple(1)]
            if self.phase is Phase.SPIT_PENDING:
                out.append(ALL_ACTIONS[TIMER_BASE])
            elif self.phase is Phase.SLAP:
                out.append(ALL_ACTIONS[TIMER_BASE + 1])
            out.sort(key=_INDEX)
            return out
        if seat in SEATS:
            return list(self._legal_tuple(seat))
        return []

    def _legal_tuple(self, seat: int) -> tuple[SpitAction, ...]:
        """``seat``'s legal actions, sorted by index, computed once per change."""
        c = self._changes
        if c is None:
            c = self._changes = _ChangeCache()
        if seat == 0:
            legal = c.legal0
            if legal is None:
                legal = c.legal0 = self._seat_legal(0)
        else:
            legal = c.legal1
            if legal is None:
                legal = c.legal1 = self._seat_legal(1)
        return legal

    def _seat_legal(self, p: int) -> tuple[SpitAction, ...]:
        """Seat ``p``'s legal actions. Each kind is generated in index order and the kinds'
        index blocks are in the order play < fill < stack < flip < spit < unspit < choose
        < slap, so the result is sorted without a sort."""
        phase = self.phase
        acts = ALL_ACTIONS
        if phase is Phase.PLAY:
            tops, rest, _ = self._own_part(p)
            live0, live1 = self.live
            t0 = self.spit[0][-1] if live0 else 0
            t1 = self.spit[1][-1] if live1 else 0
            out: list[SpitAction] = []
            for row, onto0, onto1 in tops:  # plays, in index order
                if live0 and row[t0]:
                    out.append(onto0)
                if live1 and row[t1]:
                    out.append(onto1)
            if rest:
                out += rest
            if self.mutual and (self.spitcards[0] or self.spitcards[1]):
                out.append(acts[(UNSPIT_BASE if self.requests[p] else SPIT_BASE) + p])
            if (  # _may_choose, inlined
                live0 and live1 and self.lone_target < 0 and self.choice[p] < 0
                and self.spitcards[p] and not self.spitcards[_NEXT[p]]
            ):
                out.append(acts[CHOOSE_BASE + p * 2])
                out.append(acts[CHOOSE_BASE + p * 2 + 1])
            return tuple(out)
        if phase is Phase.SPIT_PENDING:
            if self._may_choose(p):
                return (acts[CHOOSE_BASE + p * 2], acts[CHOOSE_BASE + p * 2 + 1])
            return ()
        if phase is Phase.SLAP:
            return tuple([acts[SLAP_BASE + p * 2 + k] for k in (0, 1) if self.live[k]])
        return ()

    def _own_part(self, p: int) -> _OwnPart:
        """What of seat ``p``'s PLAY-phase actions depends on its stock piles alone, computed once
        while they do not change: each face-up top as ``(ADJ row, its plays onto S0 and S1)``,
        its fills, stacks and flips in index order, and whether one of them is productive
        (SP-15: a flip, a fill, a stack that uncovers a face-down card)."""
        c = self._piles[p]
        if c is None:
            c = self._piles[p] = _PileCache()
        part = c.own
        if part is None:
            stock = self.stock[p]
            up = self.up[p]
            if not self.stacking and all(stock) and 0 not in up:  # no space, no face-down top: plays only
                part = c.own = (tuple([at[pile[-1]] for pile, at in zip(stock, _PLAY_AT[p], strict=False)]), (), False)
                return part
            tops: list[tuple[tuple[bool, ...], SpitAction, SpitAction]] = []
            fills: list[SpitAction] = []
            stacks: list[SpitAction] = []
            flips: list[SpitAction] = []
            uncovers = False
            empties = [e for e in range(PILES) if not stock[e]] if not all(stock) else None
            stacking = self.stacking
            j = -1
            for pile, u, play_at, fill_at, flip in zip(stock, up, _PLAY_AT[p], _FILL_AT[p], _FLIP_AT[p], strict=False):
                j += 1
                if not pile:
                    continue
                if u == 0:
                    flips.append(flip)
                    continue
                card = pile[-1]
                tops.append(play_at[card])
                if empties and u == 1 and len(pile) >= 2:  # SP-9: the card beneath is face-down
                    into = fill_at[card]
                    for e in empties:
                        fills.append(into[e])
                if stacking:
                    r = RANK[card]
                    sb = STACK_BASE + ((p * PILES + j) * 52 + card) * PILES
                    for e in range(PILES):
                        if e != j and up[e] > 0 and RANK[stock[e][-1]] == r:
                            stacks.append(ALL_ACTIONS[sb + e])
                            if u == 1 and len(pile) >= 2:
                                uncovers = True
            part = c.own = (tuple(tops), (*fills, *stacks, *flips), bool(flips or fills or uncovers))
        return part

    def _may_choose(self, p: int) -> bool:
        """SP-16: a lone spitter in a two-pile round may pick its pile once, before its first lone spit."""
        return bool(
            self.lone_target < 0 and self.live[0] and self.live[1] and self.choice[p] < 0
            and self.spitcards[p] and not self.spitcards[_NEXT[p]]
        )

    def _productive(self, p: int) -> bool:
        """SP-15: does seat ``p`` have a productive move? A flip, a fill, a same-rank stack that
        uncovers a face-down card (all known from its stock piles alone), or a play."""
        tops, _, productive = self._own_part(p)
        if productive:
            return True
        live0, live1 = self.live
        t0 = self.spit[0][-1] if live0 else 0
        t1 = self.spit[1][-1] if live1 else 0
        for row, _, _ in tops:  # noqa: SIM110 -- a plain loop: no generator on the hot path
            if (live0 and row[t0]) or (live1 and row[t1]):
                return True
        return False

    def blocked(self) -> bool:
        """SP-15: neither seat has a productive move."""
        return not (self._productive(0) or self._productive(1))

    def timers(self) -> tuple[tuple[SpitAction, float], ...]:
        """The timer running now, as ``(action, seconds)`` for the host to feed in when it expires."""
        if self.phase is Phase.SPIT_PENDING:
            return ((ALL_ACTIONS[TIMER_BASE], float(self.game.options.spit_delay)),)
        if self.phase is Phase.SLAP:
            return ((ALL_ACTIONS[TIMER_BASE + 1], float(self.game.options.slap_timeout)),)
        return ()

    def one_handed(self, action: Action) -> bool:
        """SP-10's interval holds back the actions that move one card (a play, a fill, a stack,
        a flip); a spit request or its withdrawal, a choice of pile and a slap move none."""
        return not isinstance(action, SpitAction) or action.kind in _ONE_CARD

    def tie_rank(self, action: Action) -> int:
        """How the host orders actions with identical timestamps, before its seeded RNG:
        SP-20 gives a tie between slaps after an SP-18(a) ending to the player who emptied
        their stock; a timer goes after the players' actions."""
        if not isinstance(action, SpitAction) or action.seat is None:
            return 2
        if action.kind == SLAP and self.phase is Phase.SLAP and action.seat == self.finisher:
            return 0
        return 1

    # -------------------------------------------------------------- checking
    def play(self, action: Action | str | object) -> None:  # object: anything else is illegal, not a TypeError
        """Apply ``action`` if it is legal for its seat now (SP-13); otherwise raise
        :class:`IllegalActionError` and leave the state unchanged (a lost race costs nothing)."""
        if isinstance(action, str):
            action = self.game.parse_action(action)
        if not isinstance(action, Action):
            raise IllegalActionError(f"{action!r} is not an action (play an action or its text)")
        why = self.illegal_reason(action)
        if why is not None:
            raise IllegalActionError(f"{action}: {why}")
        self.apply(action)

    def illegal_reason(self, action: Action) -> str | None:
        """``None`` if ``action`` is legal now, else why not."""
        if id(action) not in _CANONICAL:  # not one of the table's own objects: find it there
            if not isinstance(action, SpitAction):
                return "not a Spit action"
            try:
                idx = action.index
                if not 0 <= idx < len(ALL_ACTIONS) or (ALL_ACTIONS[idx] is not action and ALL_ACTIONS[idx] != action):
                    return "not a well-formed Spit action"
            except (TypeError, ValueError):
                return "not a well-formed Spit action"
            action = ALL_ACTIONS[idx]
        a: SpitAction = action  # type: ignore[assignment]  # canonical now
        action = a
        if self.phase is Phase.OVER:
            return "the game is over"
        if action.seat is None:
            if any(t is action for t, _ in self.timers()):
                return None
            return f"no such timer runs in phase {self.phase.value}"
        if action.kind == PLAY and self.phase is Phase.PLAY:  # the hot path: a direct check
            p, j = action.seat, action.pile - 1
            pile = self.stock[p][j]
            if (
                pile and pile[-1] == action.card and self.up[p][j] > 0
                and self.live[action.target] and ADJ[action.card][self.spit[action.target][-1]]
            ):
                return None
            return self._reason(action)
        for legal in self._legal_tuple(action.seat):  # canonical objects: found by identity
            if legal is action:
                return None
        return self._reason(action)

    def _reason(self, a: SpitAction) -> str:
        k, p = a.kind, a.seat
        assert p is not None
        phase = self.phase
        if k in (PLAY, FILL, STACK, FLIP, SPIT, UNSPIT) and phase is not Phase.PLAY:
            return f"play actions are rejected in phase {phase.value} (SP-14, SP-18)"
        if k == SLAP and phase is not Phase.SLAP:
            return "there is nothing to slap now (SP-20)"
        if k in (PLAY, FILL, STACK, FLIP):
            pile = self.stock[p][a.pile - 1]
            if k == FLIP:
                return "FLIP needs auto_flip off and a face-down top (SP-8)"
            if not pile or self.up[p][a.pile - 1] == 0 or pile[-1] != a.card:
                return f"stale: {_CARD[a.card]} is not the face-up top of pile {a.pile} (SP-13)"
            if k == PLAY:
                if not self.live[a.target]:
                    return f"S{a.target} is not in use this round (SP-6)"
                top = self.spit[a.target][-1]
                return (
                    f"{_CARD[a.card]} is not adjacent to {_CARD[top]} on S{a.target}; "
                    "rejected without penalty (SP-13)"
                )
            if k == FILL:
                if self.stock[p][a.target - 1]:
                    return f"space {a.target} is not empty (SP-9)"
                return f"pile {a.pile} holds a single card, or no face-down card under its top (SP-9, SP-A6)"
            return "stacking needs allow_same_rank_stacking and a pile showing the same rank (SP-12)"
        if k in (SPIT, UNSPIT):
            if not self.mutual:
                return "allow_mutual_spit is off (SP-17)"
            if not (self.spitcards[0] or self.spitcards[1]):
                return "nobody has spit cards (SP-17)"
            return "the request already stands (SP-17)" if k == SPIT else "there is no request to withdraw (SP-17)"
        if k == CHOOSE:
            return "only a lone spitter chooses, once, before the first lone spit (SP-16)"
        return f"S{a.target} is not in use this round"

    # ------------------------------------------------------------- applying
    def apply(self, action: Action) -> None:
        a: SpitAction = action  # type: ignore[assignment]  # unchecked: a SpitAction, legal now
        events = self.events
        self.event_seq += len(events)
        self.events = events = []
        self._changes = None
        self.history.append(a)
        k = a.kind
        p = a.seat if a.seat is not None else -1
        if k == PLAY:  # the hot path
            j = a.pile - 1
            pc = self._piles[p]
            if pc is not None:  # the seat's piles change: drop what depends on them, note which pile
                pc.shown = pc.own = None
                pc.changed.append(j)
            stock = self.stock[p]
            pile = stock[j]
            c = pile.pop()
            up = self.up[p]
            up[j] -= 1
            self.spit[a.target].append(c)
            events.append(("play", p, c, a.target, a.pile))
            if self.auto_flip and up[j] == 0 and pile:  # SP-8 (_uncover, inlined)
                up[j] = 1
                events.append(("flip", p, pile[-1], a.pile, 0))
            if not any(stock):
                self._round_end(p)  # SP-18 (a)
                return
            self._after_change()
            return
        action = a
        if k in _PILE_KINDS:  # the seat's piles change: drop what depends on them, note which piles
            pc = self._piles[p]
            if pc is not None:
                pc.shown = pc.own = None
                pc.changed.append(action.pile - 1)
                if k in (FILL, STACK):
                    pc.changed.append(action.target - 1)
        if k in (FILL, STACK):
            j, t = action.pile - 1, action.target - 1
            c = self.stock[p][j].pop()
            self.up[p][j] -= 1
            self.stock[p][t].append(c)
            self.up[p][t] += 1
            self.events.append((k, p, c, action.target, action.pile))
            self._uncover(p, j)
        elif k == FLIP:
            j = action.pile - 1
            self.up[p][j] = 1
            self._event("flip", p, self.stock[p][j][-1], action.pile)
        elif k == SPIT:
            self.requests[p] = True
            self._event("request", p)
            if self.requests[0] and self.requests[1]:
                self._spit()  # SP-17
                return
        elif k == UNSPIT:
            self.requests[p] = False
            self._event("withdraw", p)
            return
        elif k == CHOOSE:
            self.choice[p] = action.target
            self._event("choose", p, slot=action.target)
            return
        elif k == SLAP:
            self._slap(p, action.target)
            return
        elif k == TIMER_SPIT:
            self._spit()
            return
        elif k == TIMER_SLAP:
            self._slap_timeout()
            return
        self._after_change()

    def _uncover(self, p: int, j: int) -> None:
        """SP-8: with auto_flip, a face-down top is turned up as soon as the card above leaves."""
        if self.auto_flip and self.up[p][j] == 0 and self.stock[p][j]:
            self.up[p][j] = 1
            self._event("flip", p, self.stock[p][j][-1], j + 1)

    def _after_change(self) -> None:
        """SP-15/SP-16/SP-18(b): re-check for a blocked position."""
        if self.phase is not Phase.PLAY or self._productive(0) or self._productive(1):
            return
        if self.spitcards[0] or self.spitcards[1]:
            self.phase = Phase.SPIT_PENDING
            self._event("blocked", -1)
        else:
            self._round_end(-1)

    def _spit_one(self, p: int, k: int) -> None:
        c = self.spitcards[p].pop()
        self.spit[k].append(c)
        self._event("spit", p, c, k)

    def _spit(self) -> None:
        """SP-16: everyone with spit cards spits at the same instant."""
        self.requests = [False, False]
        have = [p for p in SEATS if self.spitcards[p]]
        if len(have) == N:
            for p in have:
                self._spit_one(p, p)  # each onto the pile they started
        elif have:
            q = have[0]
            if self.live[0] and self.live[1]:  # a lone spitter in a two-pile round
                if self.lone_target < 0:
                    self.lone_target = self.choice[q] if self.choice[q] >= 0 else q
                self._spit_one(q, self.lone_target)
            else:  # a one-pile round (SP-22)
                self._spit_one(q, 0 if self.live[0] else 1)
        self.phase = Phase.PLAY
        self._after_change()

    # ------------------------------------------------------- end of a round
    def _round_end(self, f: int) -> None:
        """SP-18: ``f`` emptied their stock (a), or ``f < 0``: blocked with no spit cards (b)."""
        self._event("round_end", f)
        if self.points:  # SP-V1: a point per card still held
            for p in SEATS:
                pts = self.cards_held(p)
                self.scores[p] += pts
                self._event("score", p, slot=pts, value=self.scores[p])
        if self.fresh:
            self.phase = Phase.PLAY
            if not self._limits_reached(None):
                cards = list(range(52))
                deal_shuffle(cards, self.seed, self.deals, ("deal", self.round))
                self._start_round([cards[:DEAL], cards[DEAL:]])
            return
        if f >= 0 and not self.spitcards[f]:  # f has no cards left at all (SP-25)
            if self.points:
                # SP-V1 with carry-over: no round can be dealt to f, so the game ends with this
                # round scored, and the lowest total still wins (a tie is a draw).
                s = self.scores
                self._game_over((0, 1) if s[0] == s[1] else ((0,) if s[0] < s[1] else (1,)), "SP-V1")
            else:
                self._game_over((f,), "SP-19")
            return
        if f >= 0 and not (self.live[0] and self.live[1]):
            # SP-22: in a one-pile round the spitter emptied their stock first: no slap; they
            # take nothing and the other takes the pile with their own stock.
            self._collect(self._takes(next_seat(f, N), 0 if self.live[0] else 1, None))
            return
        self.finisher = f
        self.phase = Phase.SLAP

    @staticmethod
    def _takes(p: int, k: int, other_k: int | None) -> list[list[int]]:
        """Seat ``p`` takes pile ``k``; the other seat takes ``other_k`` (or nothing)."""
        takes: list[list[int]] = [[], []]
        takes[p] = [k]
        if other_k is not None:
            takes[next_seat(p, N)] = [other_k]
        return takes

    def _slap(self, p: int, k: int) -> None:
        """SP-20/SP-22: the first slap applied settles the race."""
        self._event("slap", p, slot=k)
        if self.live[0] and self.live[1]:
            self._collect(self._takes(p, k, OTHER_PILE[k]))
        else:  # SP-22 (b): the first slap avoids the only pile
            self._event("avoid", p)
            self._collect(self._takes(next_seat(p, N), k, None))

    def _slap_timeout(self) -> None:
        """SP-20/SP-22: nobody slapped within ``slap_timeout``."""
        f = self.finisher
        if self.live[0] and self.live[1]:
            if f >= 0:  # the finisher takes the smaller pile; ties: their own
                own, other = len(self.spit[f]), len(self.spit[OTHER_PILE[f]])
                k = f if own <= other else OTHER_PILE[f]
                self._collect(self._takes(f, k, OTHER_PILE[k]))
            else:  # each takes the pile they started
                self._collect(self._takes(0, 0, 1))
            return
        k = 0 if self.live[0] else 1
        held = [sum(map(len, self.stock[p])) for p in SEATS]
        if held[0] != held[1]:
            avoider = 0 if held[0] < held[1] else 1
        elif self.deals is None:
            avoider = derive(self.seed, "slap", self.round).randrange(N)
        else:
            avoider = self.deals.below(N, "slap", self.round)
        self._event("avoid", avoider)
        self._collect(self._takes(next_seat(avoider, N), k, None))

    def _collect(self, takes: list[list[int]]) -> None:
        """SP-21: each seat adds its stock and spit cards to what it took, shuffles and lays out."""
        hands: list[list[int]] = []
        for p in SEATS:
            cards: list[int] = []
            for k in takes[p]:
                cards += self.spit[k]
                self._event("take", p, slot=k, value=len(self.spit[k]))
            for pile in self.stock[p]:
                cards += pile
            cards += self.spitcards[p]
            hands.append(cards)
        for p in SEATS:
            self._event("collect", p, value=len(hands[p]))
        self.phase = Phase.PLAY
        if self._limits_reached([len(h) for h in hands]):
            return  # the cards stay where the round left them
        for p in SEATS:
            deal_shuffle(hands[p], self.seed, self.deals, ("collect", self.round, p))
        self._start_round(hands)

    def _limits_reached(self, held: list[int] | None) -> bool:
        """SP-V1's points limit and SP-26's ``max_rounds``: end the game if one is reached."""
        o = self.game.options
        s = self.scores
        if self.points and max(s) >= o.points_limit and s[0] != s[1]:
            self._game_over((0,) if s[0] < s[1] else (1,), "SP-V1")
            return True
        if o.max_rounds is not None and self.round >= o.max_rounds:
            key = s if self.points or held is None else held
            winners = (0, 1) if key[0] == key[1] else ((0,) if key[0] < key[1] else (1,))
            self._game_over(winners, "SP-26")
            return True
        return False

    def _game_over(self, winners: tuple[int, ...], reason: str) -> None:
        self.phase = Phase.OVER
        share = 1.0 / len(winners)
        self.outcome_ = Outcome(tuple(share if s in winners else 0.0 for s in SEATS), winners, reason)
        self._event("game_over", winners[0] if len(winners) == 1 else -1)

    # ------------------------------------------------------------ reporting
    def rounds(self) -> int:
        """The rounds played so far, the current one included (SP-26), for metrics."""
        return self.round

    def outcome(self) -> Outcome | None:
        return self.outcome_

    def cards_held(self, p: int) -> int:
        """Seat ``p``'s stock and spit cards."""
        return sum(map(len, self.stock[p])) + len(self.spitcards[p])

    def view(self, seat: int | None) -> SpitView:
        if seat is not None and seat not in SEATS:
            raise ConfigError(f"no seat {seat} in a 2-player game")
        # Hot path (bots in real time read a view after every change): a view is immutable,
        # so each seat's view is built at most once per change; the fields every seat shares
        # are built once per change and the frozen view is filled directly.
        c = self._changes
        if c is None:
            c = self._changes = _ChangeCache()
        v = c.spectator if seat is None else c.view0 if seat == 0 else c.view1
        if v is None:
            fields = c.fields
            if fields is None:
                fields = c.fields = self._shared_view_fields()
            d = dict(fields)
            d["seat"] = seat
            d["legal_actions"] = () if seat is None else self._legal_tuple(seat)
            v = object.__new__(SpitView)
            object.__setattr__(v, "__dict__", d)
            if seat is None:
                c.spectator = v
            elif seat == 0:
                c.view0 = v
            else:
                c.view1 = v
        return v

    def _shared_view_fields(self) -> dict[str, object]:
        piles = self._piles
        seat0 = piles[0]
        if seat0 is None:
            seat0 = piles[0] = _PileCache()
        seat1 = piles[1]
        if seat1 is None:
            seat1 = piles[1] = _PileCache()
        part0 = seat0.shown
        if part0 is None:
            part0 = seat0.shown = self._piles_shown(0, seat0)
        part1 = seat1.shown
        if part1 is None:
            part1 = seat1.shown = self._piles_shown(1, seat1)
        shown0, down0, held0 = part0
        shown1, down1, held1 = part1
        card = _CARD
        spit0, spit1 = self.spit
        spitcards0, spitcards1 = self.spitcards
        n0, n1 = len(spitcards0), len(spitcards1)
        phase = self.phase
        lone, finisher = self.lone_target, self.finisher
        return {
            "game": "spit",
            "num_players": N,
            "current_player": TERMINAL if phase is Phase.OVER else SIMULTANEOUS,
            "_events": [tuple(self.events), self.event_seq],  # SpitView.events on first use (view.built_events)
            "outcome": self.outcome_,
            "phase": phase._value_,
            "round": self.round,
            "stock": (shown0, shown1),
            "face_down": (down0, down1),
            "spit_cards": (n0, n1),
            "spit_tops": (card[spit0[-1]] if spit0 else None, card[spit1[-1]] if spit1 else None),
            "spit_sizes": (len(spit0), len(spit1)),
            "spit_requests": tuple(self.requests),
            "lone_pile": lone if lone >= 0 else None,
            "finisher": finisher if finisher >= 0 else None,
            "scores": tuple(self.scores),
            "cards_held": (held0 + n0, held1 + n1),
            "scoring": self.scoring,
        }

    def _piles_shown(self, p: int, c: _PileCache) -> _Shown:
        """Seat ``p``'s stock piles as views show them: face-up cards, face-down counts, cards;
        only the piles changed since the last time (``c.changed``) are looked at again."""
        card = _CARD
        one = _SHOWN1
        stock = self.stock[p]
        up = self.up[p]
        shown = c.shown_piles
        down = c.down  # None until first built, like shown
        if shown is None or down is None:
            shown = c.shown_piles = [
                one[pile[-1]] if u == 1 else () if u == 0 else tuple([card[x] for x in pile[len(pile) - u:]])
                for pile, u in zip(stock, up, strict=False)
            ]
            down = c.down = [len(pile) - u for pile, u in zip(stock, up, strict=False)]
        else:
            for j in c.changed:
                pile, u = stock[j], up[j]
                shown[j] = one[pile[-1]] if u == 1 else () if u == 0 else tuple([card[x] for x in pile[len(pile) - u:]])
                down[j] = len(pile) - u
        c.changed = []
        return (tuple(shown), tuple(down), sum(map(len, stock)))

    def clone(self) -> SpitState:
        """An independent copy: every field assigned here (compiled states have no ``__dict__``)."""
        other = SpitState(cast("SpitGame", self.game), blank=True)
        other.game = self.game
        other.auto_flip = self.auto_flip
        other.stacking = self.stacking
        other.mutual = self.mutual
        other.points = self.points
        other.fresh = self.fresh
        other.scoring = self.scoring
        other.seed = self.seed
        other.deals = self.deals
        other.history = list(self.history)
        other.stock = [[list(pile) for pile in piles] for piles in self.stock]
        other.up = [list(u) for u in self.up]
        other.spitcards = [list(s) for s in self.spitcards]
        other.spit = [list(s) for s in self.spit]
        other.live = list(self.live)
        other.phase = self.phase
        other.round = self.round
        other.requests = list(self.requests)
        other.choice = list(self.choice)
        other.lone_target = self.lone_target
        other.finisher = self.finisher
        other.scores = list(self.scores)
        other.outcome_ = self.outcome_
        other.events = list(self.events)
        other.event_seq = self.event_seq
        other._changes = None
        other._piles = [None, None]
        return other

    def all_cards(self) -> list[int]:
        """Every card id in the game wherever it is (always the 52, for conservation checks)."""
        cards: list[int] = []
        for p in SEATS:
            for pile in self.stock[p]:
                cards += pile
            cards += self.spitcards[p]
        for k in (0, 1):
            cards += self.spit[k]
        return cards

    def __str__(self) -> str:
        lines = [
            f"round {self.round}, phase {self.phase.value}, scores {self.scores}, "
            f"requests {self.requests}, lone pile {self.lone_target}, finisher {self.finisher}"
        ]
        for p in SEATS:
            piles = []
            for j in range(PILES):
                pile, u = self.stock[p][j], self.up[p][j]
                down = cards_text(pile[: len(pile) - u])
                shown = cards_text(pile[len(pile) - u:])
                piles.append(f"{j + 1}:[{down}]{shown}" if pile else f"{j + 1}:-")
            lines.append(f"seat {p} stock: " + " ".join(piles))
            lines.append(f"seat {p} spit cards (top last): {cards_text(self.spitcards[p])}")
        for k in (0, 1):
            if self.live[k]:
                lines.append(f"S{k} (top last): {cards_text(self.spit[k])}")
        return "\n".join(lines)


_PILE_KINDS: Final = frozenset({PLAY, FILL, STACK, FLIP})
"""Actions that change their seat's stock piles."""
