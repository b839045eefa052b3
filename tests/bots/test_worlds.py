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


TREX_PRESETS = sorted(cardtable.game_class("trex").PRESETS)


def random_trex(preset: str, seed: int, steps: int, extra: dict | None = None):
    from cardtable.bots.worlds import TrexMemory

    game = cardtable.load("trex", preset, **(extra or {}))
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    memories = [TrexMemory() for _ in range(4)]
    for _ in range(steps):
        if state.is_terminal():
            break
        p = state.current_player()
        memories[p].observe(state.view(p))
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
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
    rng = random.Random(2)
    while not world.is_terminal():
        legal = world.legal_actions()
        world.play(legal[rng.randrange(len(legal))])


def test_a_memory_that_does_not_fit_the_view_is_dropped():
    from cardtable.bots.worlds import TrexMemory, trex_dealer

    game, state, _ = random_trex("standard", 8, 60)
    seat = state.current_player()
    wrong = TrexMemory()
    wrong.observe(state.view(seat))
    wrong.played = set(range(52))  # claims every card was played
    world = trex_dealer(state.view(seat), game, wrong).deal(random.Random(0))
    assert world.view(seat) == state.view(seat)
