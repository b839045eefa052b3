"""Worlds consistent with a view: determinization for search bots.

A search bot never receives a State. It builds states of its own from its view:
every card the seat cannot know is re-dealt among the places it could be, and
the result is a state whose view *for that seat* is the view the bot was given
(tests/bots/test_worlds.py checks exactly that with Hypothesis). The bot then
plays its candidate actions out in many such worlds.

Per game a sampler ``(view, rng) -> State`` is registered with
:func:`register_sampler`; :func:`sample_world` dispatches on ``view.game``.

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
    st = object.__new__(TrashState)
    st.game = game
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
