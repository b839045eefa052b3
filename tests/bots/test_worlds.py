"""Sampled worlds are consistent with the view they were drawn from."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import cardtable
from cardtable.bots.worlds import sample_trash, sample_world
from cardtable.core.build import COMPILED
from cardtable.games.trash import TrashState

from ..walk import random_state, walk, walked

TRASH_VARIANTS = [
    {},
    {"wild_mode": "kings"},
    {"wild_mode": "all_faces"},
    {"jokers": True},
    {"players": 3},
    {"players": 5, "jokers": True},
    {"loser_free_draws": 3},
    {"discard_take_requires_playable": False},
    {"preset": "d2_kings"},
    {"decks": 2},
]


def random_trash(options: dict, seed: int, steps: int) -> TrashState:
    state = random_state("trash", seed, steps, **options)
    assert isinstance(state, TrashState)
    return state


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(TRASH_VARIANTS), st.integers(0, 2**32), st.integers(0, 400), st.integers(0, 2**32))
def test_trash_world_gives_the_same_view(options, seed, steps, world_seed):
    state = random_trash(options, seed, steps)
    for seat in range(state.n):
        view = state.view(seat)
        world = sample_world(view, random.Random(world_seed))
        assert world.view(seat) == view
        assert Counter(world.all_cards()) == Counter(state.all_cards())


def test_trash_world_redeals_the_hidden_cards():
    state = random_trash({}, 5, 20)
    view = state.view(state.current_player())
    downs = {tuple(tuple(d) for d in sample_trash(view, random.Random(i)).down) for i in range(20)}
    assert len(downs) > 15  # the face-down cards really are re-dealt


def test_trash_world_plays_on():
    state = random_trash({"players": 3}, 9, 50)
    world = sample_trash(state.view(0), random.Random(1))
    walked(world, random.Random(2), checked=True)
    assert world.outcome() is not None


TREX_PRESETS = sorted(cardtable.game_class("trex").PRESETS)


def random_trex(preset: str, seed: int, steps: int, extra: dict | None = None):
    from cardtable.bots.worlds import TrexMemory

    game = cardtable.load("trex", preset, **(extra or {}))
    state = game.new_state(seed=seed)
    memories = [TrexMemory() for _ in range(4)]
    for _ in walk(state, random.Random(seed), steps):
        p = state.current_player()
        memories[p].observe(state.view(p))
    for q in range(4):
        memories[q].observe(state.view(q))
    return game, state, memories


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(TREX_PRESETS), st.integers(0, 2**32), st.integers(0, 700), st.integers(0, 2**32),
    st.sampled_from([{}, {"hearts_lead_rule": "free"}, {"redeal_timing": "after_announcement"}]),
)
def test_trex_world_gives_the_same_view(preset, seed, steps, world_seed, extra):
    from cardtable.bots.worlds import sample_trex

    game, state, memories = random_trex(preset, seed, steps, extra)
    for seat in range(4):
        view = state.view(seat)
        # the memory's inferences hold in the real world
        for q in range(4):
            assert not memories[seat].cannot[q] & set(state.hand(q))
        assert not memories[seat].played & {c for q in range(4) for c in state.hand(q)}
        world = sample_trex(view, random.Random(world_seed), game, memories[seat])
        assert world.view(seat) == view
        assert sorted(world.all_cards()) == list(range(52))
        # and in the sampled world
        for q in range(4):
            if q != seat:
                assert not memories[seat].cannot[q] & set(world.hand(q))


def test_trex_world_redeals_other_hands_and_plays_on():
    from cardtable.bots.worlds import TrexDealer

    game, state, memories = random_trex("standard", 3, 40)
    seat = state.current_player()
    dealer = TrexDealer(state.view(seat), game, memories[seat])
    hands = {tuple(tuple(dealer.deal(random.Random(i)).hand(q)) for q in range(4)) for i in range(10)}
    assert len(hands) == 10
    world = dealer.deal(random.Random(1))
    assert world.hand(seat) == state.hand(seat)
    walked(world, random.Random(2), checked=True)
    assert world.is_terminal()


def test_a_memory_that_does_not_fit_the_view_is_dropped():
    from cardtable.bots.worlds import TrexMemory, trex_dealer

    game, state, _ = random_trex("standard", 8, 60)
    seat = state.current_player()
    wrong = TrexMemory()
    wrong.observe(state.view(seat))
    wrong.played = set(range(52))  # claims every card was played
    world = trex_dealer(state.view(seat), game, wrong).deal(random.Random(0))
    assert world.view(seat) == state.view(seat)


# Fields a world cannot take from a view, whatever the hidden cards: the seed and the deal source
# (the deals after this one are unknown), the actions that led here, the stacked deck, and the
# number of shuffles so far (a view shows the redeals of this deal only; the count only labels
# the world's own shuffles).
_UNKNOWABLE = {"seed", "deals", "history", "stacked_deck", "shuffles"}


# a compiled state has no ``__dict__``: these field-for-field comparisons run on the pure build
_pure_only = pytest.mark.skipif(COMPILED, reason="reads a state's fields with vars()")


def _fields(state) -> dict:
    """Every field of a state of the pure build, by name (flags the class sets included)."""
    flags = {k for k, v in vars(type(state)).items() if isinstance(v, bool)}
    return {k: getattr(state, k) for k in set(vars(state)) | flags if k not in _UNKNOWABLE}


@_pure_only
@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(TREX_PRESETS), st.integers(0, 2**32), st.integers(0, 700),
    st.sampled_from([{}, {"hearts_lead_rule": "free"}, {"redeal_timing": "after_announcement"}]),
)
@example("seed", 291, 268, {"redeal_timing": "after_announcement"})  # a redeal half-way through its round
def test_trex_world_with_the_true_hidden_cards_is_the_true_state(preset, seed, steps, extra):
    """A world dealt with the hidden cards where they really are is the state itself, field for field:
    the engine builds worlds from a view (no field is left to the bots), and none is missed."""
    from cardtable.bots.worlds import TrexDealer

    game, state, memories = random_trex(preset, seed, steps, extra)
    if state.is_terminal():
        return  # a finished game's world has nothing left to play (the last trick's leader is not kept)
    for seat in range(4):
        dealer = TrexDealer(state.view(seat), game, memories[seat])
        hidden = set(dealer.unknown)
        true = [[c for c in state.hand(q) if c in hidden] for q in range(4)]
        true.append(sorted(hidden - {c for hand in true for c in hand}))  # played where the seat did not see
        dealer.assign = lambda rng, true=true: [list(b) for b in true]  # type: ignore[method-assign]
        world = dealer.deal(random.Random(0))
        got, want = _fields(world), _fields(state)
        # cards played unseen go to the last trick's winner: only who took each is unknown
        assert sorted(c for t in got.pop("taken") for c in t) == sorted(c for t in want.pop("taken") for c in t)
        # the layout's turns matter until the 2s are exposed (TX-V2); the passes among them are not in a view
        assert min(got.pop("layout_turns"), 4) <= min(want.pop("layout_turns"), 4)
        assert sorted(got.pop("layout_cards")) == sorted(want.pop("layout_cards"))  # the order of play is unknown
        assert got == want


@_pure_only
@settings(max_examples=60, deadline=None)
@given(st.sampled_from(TRASH_VARIANTS), st.integers(0, 2**32), st.integers(0, 400))
@example({"loser_free_draws": 3}, 432, 227)  # a wild just taken from the discard pile, to be placed (TR-7)
def test_trash_world_with_the_true_hidden_cards_is_the_true_state(options, seed, steps):
    """A Trash world dealt with the face-down cards and the stock as they really are is the state itself."""
    state = random_trash(options, seed, steps)
    if state.is_terminal():
        return  # a finished match's world has nothing left to play
    for seat in range(state.n):
        view = state.view(seat)
        true = [c for p in range(state.n) for c in state.down[p][1:len(view.layouts[p]) + 1] if c != -1]
        true += state.stock
        world = sample_trash(view, _Stacked(true), state.game)
        got, want = _fields(world), _fields(state)
        for name in ("deal_count", "rebuilds"):  # they label the shuffles, which the world makes from its own seed
            got.pop(name), want.pop(name)
        assert got == want


class _Stacked:
    """A generator whose shuffle leaves the hidden cards in the given order."""

    def __init__(self, order: list[int]) -> None:
        self.order = order

    def shuffle(self, items: list[int]) -> None:
        assert sorted(items) == sorted(self.order)
        items[:] = self.order

    def getrandbits(self, k: int) -> int:
        return 0
