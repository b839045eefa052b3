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
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from ..core.errors import ConfigError
from ..core.game import PlayerView, State
from ..games.trash import Phase, TrashGame, TrashState, TrashView
from ..games.trash.actions import A_DISCARD

Sampler = Callable[[Any, random.Random], State]
_SAMPLERS: dict[str, Sampler] = {}


def register_sampler(game: str, sampler: Sampler) -> None:
    """Make :func:`sample_world` use ``sampler`` for views of ``game``."""
    _SAMPLERS[game] = sampler


def sample_world(view: PlayerView, rng: random.Random) -> State:
    """A state drawn at random among those that give ``view.seat`` this view."""
    sampler = _SAMPLERS.get(view.game)
    if sampler is None:
        raise ConfigError(f"no world sampler for {view.game}")
    return sampler(view, rng)


# ---------------------------------------------------------------------- Trash
_TRASH_GAMES: dict[tuple[Any, ...], TrashGame] = {}


def trash_game_for(view: TrashView) -> TrashGame:
    """The Trash rules a view implies: players, decks and Jokers from the card
    count, ``wild_mode`` from the view, and whether an unplayable discard may be
    taken from the legal actions. Options that only matter between hands keep
    their defaults: a search looks no further than the current hand."""
    total = len(view.discard) + view.stock_count + (view.card_in_hand is not None)
    total += sum(len(layout) for layout in view.layouts)  # one card per slot, face-up or face-down
    decks, jokers = next(
        ((d, j) for d in range(1, 9) for j in (False, True) if d * (54 if j else 52) == total), (None, None)
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
    n = view.num_players
    st = TrashState(game, blank=True)  # every field set below (a compiled state has no other way)
    st.game = game
    st.deals = None  # a world's later shuffles come from its own fresh seed
    st.n = n
    st.role = game.role
    st.seed = rng.getrandbits(64)  # later shuffles (stock rebuilds, next hands) are unknown: fresh
    st.history = []
    st.sizes = list(view.sizes)
    st.hands_won = list(view.hands_won)
    st.hands_played = view.hand_number - 1
    st.deal_count = 1
    st.rebuilds = 0
    st.time_up = view.time_up
    st.starter = view.starter
    st.phase = Phase(view.phase)
    st.turn = view.current_player if view.current_player >= 0 else view.starter
    st.hand = -1 if view.card_in_hand is None else view.card_in_hand.id
    st.forced_displace = False
    st.changed_since_rebuild = True
    st.stalls = 0
    st.free_draws_left = view.free_draws_left
    st.hand_winner = -1
    st.outcome_ = view.outcome
    st.events = [
        (e.kind, -1 if e.seat is None else e.seat, -1 if e.card is None else e.card.id,
         (e.slot if e.slot is not None else e.value) or 0)
        for e in view.events
    ]
    st.event_seq = view.events[0].seq if view.events else 0
    st.stacked_deck = None
    pos = 0
    st.down, st.up, st.ndown = [], [], []
    for p in range(n):
        down = [-1] * (len(view.layouts[p]) + 1)  # the sizes shrink before a finished match's layouts go
        up = [-1] * (len(view.layouts[p]) + 1)
        for k, card in enumerate(view.layouts[p], start=1):
            if card is None:
                down[k] = unseen[pos]
                pos += 1
            else:
                up[k] = card.id
        st.down.append(down)
        st.up.append(up)
        st.ndown.append(sum(1 for c in down[1:] if c != -1))
    if view.free_draws_left:
        st.hand_winner = next((p for p in range(n) if st.ndown[p] == 0), -1)
    st.stock = unseen[pos:]
    st.discard = [c.id for c in view.discard]
    if len(st.stock) != view.stock_count:
        raise ConfigError("the view's card counts do not add up")
    return st


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
                    self.cannot[e.seat].update(trex_frontier(tuple(layout)))
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


def trex_frontier(layout: tuple[tuple[int, int] | None, ...]) -> list[int]:
    """The cards playable next on a Trex layout (TX-32), as card ids."""
    out = []
    for s, row in enumerate(layout):
        if row is None:
            out.append(s * 13 + 10)
            continue
        lo, hi = row
        if lo > 2:
            out.append(s * 13 + lo - 2)
        if hi < 14:
            out.append(s * 13 + (0 if hi + 1 == 14 else hi))
    return out


def trex_layout_cards(layout: tuple[tuple[int, int] | None, ...]) -> list[int]:
    """Every card on a Trex layout."""
    out = []
    for s, row in enumerate(layout):
        if row is not None:
            lo, hi = row
            out += [s * 13 + (0 if r == 14 else r - 1) for r in range(lo, hi + 1)]
    return out


_TREX_GAMES: dict[tuple[Any, ...], Any] = {}


def trex_game_for(view: Any) -> Any:
    """The Trex rules a view implies, for a bot that was not told the game's options:
    Complex from the number of deals, partnership and open hands from the view, and
    the hearts lead rule (TX-23) when the legal leads show it. Other options keep
    their defaults; a bot that knows the game (``attach``) uses it instead."""
    from ..games.trex import TrexGame

    opts: dict[str, Any] = {}
    if view.num_deals == 8:
        opts["complex_mode"] = True
    if view.partnership:
        opts["partnership"] = True
    if all(h is not None for h in view.hands):
        opts["open_hands"] = True
    if view.phase == "trick" and not view.trick and view.contract and ("KH" in view.contract or view.contract == "CX"):
        hearts = any(c.id // 13 == 2 for c in view.hand)
        others = any(c.id // 13 != 2 for c in view.hand)
        led_hearts = any(getattr(a, "arg", -1) // 13 == 2 for a in view.legal_actions)
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
    public field set; :meth:`deal` then re-deals only the unknown cards among
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
        public |= {c.id for _, c in view.last_trick} | set(trex_layout_cards(view.layout))
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
        self.base = self._base()

    def assign(self, rng: random.Random) -> list[list[int]]:
        """The hidden cards per bucket (seats 0-3, 4 = played unseen).

        Constrained cards (not every bucket allowed) go first, each to an allowed
        bucket drawn in proportion to its room; the others are shuffled into the
        room that is left, which is uniform given the constrained ones."""
        full = len(self.loose[self.unknown[0]]) if self.unknown else 0
        allowed = self.allowed
        for _ in range(10):
            tight = [c for c in self.unknown if len(allowed[c]) < full]
            free = [c for c in self.unknown if len(allowed[c]) >= full]
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
                x = rng.random() * sum(cap[b] for b in choices)
                for b in choices:
                    x -= cap[b]
                    if x < 0:
                        break
                cap[b] -= 1
                out[b].append(c)
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
            x = rng.random() * sum(cap[b] for b in choices)
            for b in choices:
                x -= cap[b]
                if x < 0:
                    break
            cap[b] -= 1
            out[b].append(c)
        return out

    def deal(self, rng: random.Random) -> Any:
        """A TrexState consistent with the view."""
        from ..games.trex.actions import A_PLAY

        buckets = self.assign(rng)
        st = self.base.clone()
        owner = st.owner
        hs = st.hs
        for q in range(4):
            cards = self.known[q] + buckets[q]
            if q == self.seat:
                cards = [c.id for c in self.view.hand]
            cards.sort()
            row: list[list[Any]] = [[], [], [], []]
            for c in cards:
                owner[c] = q
                row[c // 13].append(A_PLAY[c])
            hs[q] = row
        if buckets[4]:
            st.taken[max(st.last_winner, 0)] += buckets[4]
        st.seed = rng.getrandbits(64)  # the deals after this one are unknown: fresh shuffles
        return st

    def _base(self) -> Any:
        from ..games.trex.actions import parse_contract
        from ..games.trex.state import Phase, TrexState

        v = self.view
        game = self.game
        o = game.options
        st = game.new_state(seed=0)  # every attribute the engine keeps, then set from the view
        assert isinstance(st, TrexState)
        st.game = game
        st.n = 4
        st.seed = 0
        st.history = []
        st.events = [
            (e.kind, -1 if e.seat is None else e.seat, -1 if e.card is None else e.card.id,
             (e.slot if e.kind == "open" else e.value) or 0)
            for e in v.events
        ]
        st.event_seq = v.events[0].seq if v.events else 0
        st.shuffles = v.deal_number + len(v.redeal_shown)
        st.phase = Phase(v.phase)
        over = st.phase is Phase.OVER
        st.deal_index = v.deal_number - (0 if over else 1)
        st.kingdom = v.kingdom
        records = [(d, k, h, parse_contract(code), tuple(deltas)) for d, k, h, code, deltas in v.deal_scores]
        st.records = records
        st.deal_in_kingdom = sum(1 for r in records if r[1] == v.kingdom)
        used = 0
        for r in records:
            if r[1] == v.kingdom:
                used |= r[3]
        st.used = used
        st.holder = v.kingdom_holder
        st.first_holder = next((r[2] for r in records if r[1] == 0), v.kingdom_holder if v.kingdom == 0 else -1)
        st.dealer = v.dealer
        st.leader = v.leader
        st.turn = v.current_player
        st.contract = parse_contract(v.contract) if v.contract else 0
        st.trick_contract = game.trick_contracts.get(st.contract)
        st.totals = list(v.totals)
        st.trex_firsts = list(v.trex_firsts)
        st.tiebreak = v.tiebreak
        st.tied = ()
        if v.tiebreak:
            best = max(st.side_totals()) if not o.reverse_scores else min(st.side_totals())
            tied = [q for q in range(4) if st.side_totals()[q] == best]
            most = max(v.trex_firsts[q] for q in tied)
            st.tied = tuple(q for q in tied if v.trex_firsts[q] == most)
        st.tiebreak_scores = ()
        st.outcome_ = v.outcome
        st.redeal_shown = [(q, tuple(c.id for c in cards)) for q, cards in v.redeal_shown]
        st.unchecked = bool(o.accept_unchecked_plays)
        st.forced_discard = bool(o.forced_penalty_discard)
        st.expose_twos = bool(o.partnership and o.partnership_expose_twos)
        # the deal
        st.hs = [[[], [], [], []] for _ in range(4)]
        st.count = list(v.hand_sizes)
        st.owner = [-1] * 52
        st.trick = [c.id for _, c in v.trick]
        if v.trick:
            st.trick_leader = v.trick[0][0]
        else:
            st.trick_leader = v.current_player if st.phase is Phase.TRICK else -1
        st.last_trick = [c.id for _, c in v.last_trick]
        st.last_leader = v.last_trick[0][0] if v.last_trick else -1
        st.last_winner = -1 if v.last_trick_winner is None else v.last_trick_winner
        st.tricks_done = sum(v.tricks_taken)
        st.tricks_taken = list(v.tricks_taken)
        st.captured = [[c.id for c in cap] for cap in v.captured]
        taken: list[list[int]] = [list(cap) for cap in st.captured]
        capt = {c for cap in st.captured for c in cap}
        rest = [c for c in sorted(self.played) if c not in capt and c not in st.trick]
        layout = set(trex_layout_cards(v.layout))
        rest = [c for c in rest if c not in layout]
        taken[max(st.last_winner, 0)] += rest
        st.taken = taken
        st.doubler = [-1] * 52
        for card, q in v.doubled:
            st.doubler[card.id] = q
        st.doubled = [(card.id, q) for card, q in v.doubled]
        st.hearts_broken = v.hearts_broken
        tc = st.trick_contract
        st.remaining = len(tc.scoring_cards) - len(capt) if tc is not None else 0
        st.deal_scores = list(v.deal_scores_now)
        st.lo = [row[0] if row else 0 for row in v.layout]
        st.hi = [row[1] if row else 0 for row in v.layout]
        st.frontier = set(trex_frontier(v.layout)) if st.phase is Phase.TREX else set()
        st.layout_cards = sorted(layout)
        st.out = list(v.finishing)
        st.twos_exposed = any(v.exposed_twos)
        st.turns = len(layout) + (4 if st.twos_exposed else 0)
        st.hearts_rule = 0
        if tc is not None and st.phase is Phase.TRICK and tc.hearts_restricted:
            st.hearts_rule = 1 if o.hearts_lead_rule == "broken" else 2
        if st.phase is Phase.REDEAL:
            st.asked = (v.current_player - v.kingdom_holder) % 4
        elif st.phase is Phase.DOUBLE:
            st.asked = (v.current_player - v.leader) % 4
        else:
            st.asked = 0
        st.relevant = st._redeal_relevant()
        return st


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
    return TrexDealer(view, game, memory).deal(rng)  # type: ignore[no-any-return]


register_sampler("trex", sample_trex)
