"""Worlds consistent with a view: determinization for search bots.

A search bot never receives a State. It builds states of its own from its view:
every card the seat cannot know is re-dealt among the places it could be, and
the result is a state whose view *for that seat* is the view the bot was given
(tests/bots/test_worlds.py checks exactly that with Hypothesis). The bot then
plays its candidate actions out in many such worlds.

Per game a sampler ``(view, rng) -> State`` is registered with
:func:`register_sampler`; :func:`sample_world` dispatches on ``view.game``.

* **Trex** (:func:`sample_trex`, :class:`TrexDealer`): the cards of the other
  hands are re-dealt among them, honouring what the seat knows: open hands,
  doubled cards (still in the doubler's hand until played), exposed 2s, voids
  revealed by not following suit and Trex passes (kept by a :class:`TrexMemory`).
* **Trash** (:func:`sample_trash`): the unseen cards (the game's cards minus every
  face-up layout card, the discard pile and the card in hand) are dealt at random
  into all face-down slots, the seat's own included (TR-5: nobody sees them), and
  the rest form the stock in a random order.

This module decides where the hidden cards go; the engine builds the state from
the view and that assignment (``TrashState.from_view``, ``TrexState.from_view``
and ``with_hands``), so no field of an engine is set here.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from ..core.cards import HEARTS
from ..core.errors import ConfigError
from ..core.game import Game, PlayerView, State
from ..games.trash import TrashGame, TrashState, TrashView
from ..games.trash.actions import A_DISCARD
from ..games.trash.options import MAX_DECKS
from ..games.trex import TrexAction, TrexGame, TrexState
from ..games.trex.view import layout_card_ids, layout_frontier

Sampler = Callable[..., State]
"""``(view, rng)`` or ``(view, rng, game)``: a world for the view, under ``game``'s rules when given."""
_SAMPLERS: dict[str, Sampler] = {}


def register_sampler(game: str, sampler: Sampler) -> None:
    """Make :func:`sample_world` use ``sampler`` for views of ``game``."""
    _SAMPLERS[game] = sampler


def sample_world(view: PlayerView, rng: random.Random, game: Game | None = None) -> State:
    """A state drawn at random among those that give ``view.seat`` this view. ``game``: the
    rules the view is of (a view does not carry the rule options); without it the sampler works
    out what rules it can from the view and keeps the defaults for the rest."""
    sampler = _SAMPLERS.get(view.game)
    if sampler is None:
        raise ConfigError(f"no world sampler for {view.game}")
    if game is None:
        return sampler(view, rng)
    if game.name != view.game:
        raise ConfigError(f"a {view.game} view cannot be dealt under {game.name} rules")
    return sampler(view, rng, game)


# ---------------------------------------------------------------------- Trash
_TRASH_GAMES: dict[tuple[Any, ...], TrashGame] = {}


def trash_game_for(view: TrashView) -> TrashGame:
    """The Trash rules a view implies: players, decks and Jokers from the card
    count, ``wild_mode`` from the view, and whether an unplayable discard may be
    taken from the legal actions. Options that only matter between hands keep
    their defaults: a search looks no further than the current hand. Up to
    ``MAX_DECKS`` decks a card count is 52 × decks or 54 × decks for one pair only."""
    total = len(view.discard) + view.stock_count + (view.card_in_hand is not None)
    total += sum(len(layout) for layout in view.layouts)  # one card per slot, face-up or face-down
    decks, jokers = next(
        ((d, j) for d in range(1, MAX_DECKS + 1) for j in (False, True) if d * (54 if j else 52) == total), (None, None)
    )
    if decks is None:
        raise ConfigError(f"no Trash deck has {total} cards")
    loose = False
    top = view.top_discard
    if view.phase == "draw" and view.seat is not None and top is not None and A_DISCARD in view.legal_actions:
        loose = not view.placeable(top, view.seat)
    key = (view.num_players, decks, jokers, view.wild_mode, loose)
    game = _TRASH_GAMES.get(key)
    if game is None:
        game = TrashGame.load(
            players=view.num_players, decks=decks, jokers=bool(jokers), wild_mode=view.wild_mode,
            discard_take_requires_playable=not loose,
        )
        _TRASH_GAMES[key] = game
    return game


def trash_unseen(view: TrashView, game: TrashGame) -> list[int]:
    """The card ids a Trash seat cannot see: face-down slots and the stock."""
    left = Counter(game.cards)
    for layout in view.layouts:
        for card in layout:
            if card is not None:
                left[card.id] -= 1
    for card in view.discard:
        left[card.id] -= 1
    if view.card_in_hand is not None:
        left[view.card_in_hand.id] -= 1
    if any(v < 0 for v in left.values()):
        raise ConfigError("the view shows more copies of a card than the game has")
    return sorted(left.elements())


def sample_trash(view: TrashView, rng: random.Random, game: TrashGame | None = None) -> TrashState:
    """A TrashState consistent with ``view`` (see the module docstring)."""
    game = game or trash_game_for(view)
    unseen = trash_unseen(view, game)
    rng.shuffle(unseen)
    # the later shuffles (stock rebuilds, next hands) are unknown: the world makes them from a fresh seed
    return TrashState.from_view(game, view, unseen, rng.getrandbits(64))


register_sampler("trash", sample_trash)


# ----------------------------------------------------------------------- Trex
class TrexMemory:
    """What a Trex seat has seen during the current deal, across its views.

    A view shows the current and the last trick, so a seat that looks at each of
    its own views sees every card played to a trick. The memory keeps the cards
    seen played and the cards each seat cannot hold: a seat that did not follow
    suit is void in the led suit (TX-22), and a seat that passed in the Trex
    layout holds none of the cards playable then (TX-33). A search bot keeps one
    and calls :meth:`observe` with every view it gets; without it, the sampler
    still gives worlds consistent with the view, only vaguer ones.
    """

    def __init__(self) -> None:
        self.key: tuple[int, bool, int] | None = None
        self.played: set[int] = set()
        self.cannot: list[set[int]] = [set(), set(), set(), set()]

    def observe(self, view: Any) -> None:
        key = (view.deal_number, view.tiebreak, len(view.redeal_shown))
        if key != self.key:
            self.key = key
            self.played = set()
            self.cannot = [set(), set(), set(), set()]
        for trick in (view.last_trick, view.trick):
            if not trick:
                continue
            led = trick[0][1].id // 13
            for seat, card in trick:
                self.played.add(card.id)
                if card.id // 13 != led:  # TX-22: a seat that does not follow is void
                    self.cannot[seat].update(range(13 * led, 13 * led + 13))
        for cards in view.captured:
            self.played.update(c.id for c in cards)
        if view.phase == "trex":
            # One action's events may hold several plays and automatic passes: a pass
            # tells only what was playable at that moment, so walk back from the final
            # layout, taking off the cards played after each pass.
            layout = list(view.layout)
            for e in reversed(view.events):
                if e.kind == "pass" and e.seat is not None:
                    self.cannot[e.seat].update(layout_frontier(tuple(layout)))
                elif e.kind in ("play", "open") and e.card is not None:
                    _unplay(layout, e.card.id)


def _unplay(layout: list[tuple[int, int] | None], card: int) -> None:
    """Take ``card`` (an id) off a Trex layout of (low, high) strengths, A = 14."""
    suit, strength = divmod(card, 13)
    strength = 14 if strength == 0 else strength + 1
    row = layout[suit]
    if row is None:
        return
    lo, hi = row
    if lo == hi == strength:
        layout[suit] = None
    elif lo == strength:
        layout[suit] = (lo + 1, hi)
    elif hi == strength:
        layout[suit] = (lo, hi - 1)


_TREX_GAMES: dict[tuple[Any, ...], Any] = {}


def trex_game_for(view: Any) -> Any:
    """The Trex rules a view implies, for a bot that was not told the game's options:
    Complex from the number of deals and the contracts, a set number of deals (TX-V10),
    partnership and open hands from the view, and the hearts lead rule (TX-23) when the
    legal leads show it. Other options keep their defaults; a bot that knows the game
    (``attach``) uses it instead."""
    opts: dict[str, Any] = {}
    codes = {view.contract, *view.contracts_left, *(d[3] for d in view.deal_scores)}
    if view.num_deals == 8 and not codes & {"KH", "QN", "DI", "TK"}:
        opts["complex_mode"] = True
    if view.num_deals not in (8, 20):  # TX-V10: a game of a set number of deals
        opts["deals"] = view.num_deals
    if view.partnership:
        opts["partnership"] = True
    if all(h is not None for h in view.hands):
        opts["open_hands"] = True
    if view.phase == "trick" and not view.trick and view.contract and ("KH" in view.contract or view.contract == "CX"):
        hearts = any(c.id // 13 == HEARTS for c in view.hand)
        others = any(c.id // 13 != HEARTS for c in view.hand)
        led_hearts = any(isinstance(a, TrexAction) and a.arg // 13 == HEARTS for a in view.legal_actions)
        if hearts and others:
            if led_hearts and not view.hearts_broken:
                opts["hearts_lead_rule"] = "free"
            elif not led_hearts and view.hearts_broken:
                opts["hearts_lead_rule"] = "only_if_no_choice"
    key = tuple(sorted(opts.items()))
    game = _TREX_GAMES.get(key)
    if game is None:
        game = _TREX_GAMES[key] = TrexGame.load(**opts)
    return game


class TrexDealer:
    """Deals worlds consistent with a Trex view, fast enough to call per iteration.

    Built once per decision: it works out what the seat knows (its hand, every
    open hand, doubled cards still in their doubler's hand, exposed 2s, the cards
    played, the voids and passes in ``memory``) and a base state with every
    public field set (``TrexState.from_view``); :meth:`deal` then re-deals only the unknown cards among
    the other hands (and, without a full memory, among the cards played unseen).
    Cards shown for a redeal say nothing about the hands dealt after it.
    """

    def __init__(self, view: Any, game: Any = None, memory: TrexMemory | None = None) -> None:
        self.game = game or trex_game_for(view)
        self.seat = seat = view.seat
        self.view = view
        known: list[list[int]] = [[], [], [], []]
        for q in range(4):
            hand = view.hands[q]
            if hand is not None:
                known[q] = [c.id for c in hand]
        public = {c.id for _, c in view.trick} | {c.id for cap in view.captured for c in cap}
        public |= {c.id for _, c in view.last_trick} | set(layout_card_ids(view.layout))
        played = public | (memory.played if memory else set())
        placed = {c for h in known for c in h}
        for card, q in view.doubled:  # a doubled card stays in its doubler's hand until played (TX-15)
            if card.id not in placed and card.id not in played and view.hands[q] is None:
                known[q].append(card.id)
                placed.add(card.id)
        for q, twos in enumerate(view.exposed_twos):
            for card in twos:
                if card.id not in placed:
                    known[q].append(card.id)
                    placed.add(card.id)
        played -= placed
        self.played = played
        self.known = known
        self.unknown = [c for c in range(52) if c not in placed and c not in played]
        self.need = [0 if q == seat or view.hands[q] is not None else view.hand_sizes[q] - len(known[q])
                     for q in range(4)]
        self.gone = len(self.unknown) - sum(self.need)
        if self.gone < 0 or min(self.need) < 0:
            raise ConfigError("the Trex view's card counts do not add up")
        cannot = memory.cannot if memory else [set(), set(), set(), set()]
        self.allowed = {
            c: [q for q in range(4) if self.need[q] and c not in cannot[q]] + ([4] if self.gone else [])
            for c in self.unknown
        }
        self.loose = {c: [q for q in range(4) if self.need[q]] + ([4] if self.gone else []) for c in self.unknown}
        full = len(self.loose[self.unknown[0]]) if self.unknown else 0
        self.tight = [c for c in self.unknown if len(self.allowed[c]) < full]
        """The hidden cards some bucket is closed to (a void, a pass), in a fixed order."""
        self.free = [c for c in self.unknown if len(self.allowed[c]) >= full]
        """The hidden cards every bucket with room may take."""
        self.base = TrexState.from_view(self.game, view, played)

    def assign(self, rng: random.Random) -> list[list[int]]:
        """The hidden cards per bucket (seats 0-3, 4 = played unseen).

        Constrained cards (not every bucket allowed) go first, each to an allowed
        bucket drawn in proportion to its room; the others are shuffled into the
        room that is left, which is uniform given the constrained ones."""
        allowed = self.allowed
        for _ in range(10):
            tight = self.tight.copy()
            free = self.free.copy()
            rng.shuffle(tight)
            tight.sort(key=lambda c: len(allowed[c]))
            cap = [*self.need, max(self.gone, 0)]
            out: list[list[int]] = [[], [], [], [], []]
            ok = True
            for c in tight:
                choices = [b for b in allowed[c] if cap[b]]
                if not choices:
                    ok = False
                    break
                out[_draw_bucket(rng, choices, cap)].append(c)
            if not ok:
                continue
            rng.shuffle(free)
            pos = 0
            for b in range(5):
                out[b] += free[pos:pos + cap[b]]
                pos += cap[b]
            return out
        return self._assign_exact(rng)

    def _assign_exact(self, rng: random.Random) -> list[list[int]]:
        """The same draw, never failing: before a card goes to a bucket, check by
        Hall's condition (for every set of buckets, the cards that may only go there
        fit in their room) that the cards left still fit. Slower, so used only when
        the quick draw failed ten times."""
        cap = [*self.need, max(self.gone, 0)]
        masks = {c: sum(1 << b for b in self.allowed[c]) for c in self.unknown}
        left: dict[int, int] = {}
        for c in self.unknown:
            left[masks[c]] = left.get(masks[c], 0) + 1

        def fits() -> bool:
            for subset in range(1, 32):
                room = sum(cap[b] for b in range(5) if subset >> b & 1)
                if sum(n for m, n in left.items() if m & ~subset == 0) > room:
                    return False
            return True

        if not fits():
            raise ConfigError("no world fits the Trex view and what this seat remembers")
        order = sorted(self.unknown, key=lambda c: (bin(masks[c]).count("1"), rng.random()))
        out: list[list[int]] = [[], [], [], [], []]
        for c in order:
            left[masks[c]] -= 1
            choices = []
            for b in self.allowed[c]:
                if cap[b]:
                    cap[b] -= 1
                    if fits():
                        choices.append(b)
                    cap[b] += 1
            out[_draw_bucket(rng, choices, cap)].append(c)
        return out

    def deal(self, rng: random.Random) -> TrexState:
        """A TrexState consistent with the view."""
        buckets = self.assign(rng)
        hands = [self.known[q] + buckets[q] for q in range(4)]
        # the deals after this one are unknown: the world shuffles them from a fresh seed
        return self.base.with_hands(hands, buckets[4], rng.getrandbits(64))


def _draw_bucket(rng: random.Random, choices: list[int], cap: list[int]) -> int:
    """One of ``choices`` drawn in proportion to its room left in ``cap``, which it takes one of."""
    x = rng.random() * sum(cap[b] for b in choices)
    for b in choices:
        x -= cap[b]
        if x < 0:
            break
    cap[b] -= 1
    return b


def trex_dealer(view: Any, game: Any = None, memory: TrexMemory | None = None) -> TrexDealer:
    """A :class:`TrexDealer`; if the memory does not fit the view (a bot that missed
    some of its views), one from the view alone."""
    try:
        return TrexDealer(view, game, memory)
    except ConfigError:
        if memory is None:
            raise
        return TrexDealer(view, game, None)


def sample_trex(view: Any, rng: random.Random, game: Any = None, memory: TrexMemory | None = None) -> State:
    """A TrexState consistent with ``view`` (see :class:`TrexDealer`). ``game``
    carries the rule options (the view does not); the defaults otherwise."""
    return TrexDealer(view, game, memory).deal(rng)


register_sampler("trex", sample_trex)
