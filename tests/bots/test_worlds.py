"""Sampled worlds are consistent with the view they were drawn from."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

import cardtable
from cardtable.bots.worlds import sample_trash, sample_world
from cardtable.games.trash import TrashState

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
    state = cardtable.load("trash", **options).new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
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
    rng = random.Random(2)
    while not world.is_terminal():
        legal = world.legal_actions()
        world.play(legal[rng.randrange(len(legal))])
    assert world.outcome() is not None
