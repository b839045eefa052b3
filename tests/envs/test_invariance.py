"""View invariance carried to tensors (docs/rules/index.md §0.3, docs/architecture.md "The one view
chokepoint"): re-dealing every card a seat cannot see leaves its observation tensor unchanged, for
all three games and every preset; and the check does catch a hidden card planted into an encoding."""

from __future__ import annotations

import random

import numpy as np
import pytest

import cardtable
from cardtable.bots.worlds import sample_world
from cardtable.envs.encode_spit import SpitEncoder
from cardtable.envs.encode_trash import TrashEncoder
from cardtable.envs.encode_trex import TrexEncoder
from tests.spit.test_invariants import _shuffle_hidden
from tests.walk import walk

GAMES = [("trash", p) for p in cardtable.load("trash").PRESETS] + [
    ("trash", "standard", {"players": 4, "jokers": True}),
    *[("trex", p) for p in cardtable.load("trex").PRESETS],
    *[("spit", p) for p in cardtable.load("spit").PRESETS],
    ("spit", "standard", {"auto_flip": False}),
]


def encoder_for(game):
    return {"trash": lambda: TrashEncoder(game), "trex": TrexEncoder, "spit": SpitEncoder}[game.name]()


def redeal(state, seat, rng):
    """The same position with the cards ``seat`` cannot see dealt anew (a world sampled from its
    view for Trash and Trex; every face-down stock card and spit card shuffled for Spit)."""
    if state.game.name == "spit":
        return _shuffle_hidden(state, rng)
    return sample_world(state.view(seat), rng)


def positions(game, seeds=2, steps=300, every=11):
    """States along random games."""
    for seed in range(seeds):
        state = game.new_state(seed=seed)
        for step, _ in enumerate(walk(state, random.Random(seed), steps)):  # Spit: every seat's actions and the timer
            if step % every == 0:
                yield state.clone()


def invariance_failures(game, observe, redeals=2):
    """How many (position, seat, redeal) triples change ``observe(state, seat)``; and how many were checked."""
    rng = random.Random(1)
    failures = checked = 0
    for state in positions(game):
        for seat in range(game.num_players):
            mine = observe(state, seat)
            for _ in range(redeals):
                other = redeal(state, seat, rng)
                checked += 1
                failures += not np.array_equal(mine, observe(other, seat))
    return failures, checked


def case_id(case):
    return "-".join([case[0], case[1], *(f"{k}={v}" for k, v in (case[2] if len(case) > 2 else {}).items())])


@pytest.mark.parametrize("case", GAMES, ids=case_id)
def test_observation_tensor_is_invariant_under_redealing_hidden_cards(case):
    game = cardtable.load(case[0], case[1], **(case[2] if len(case) > 2 else {}))
    encoder = encoder_for(game)
    failures, checked = invariance_failures(game, lambda state, seat: encoder.encode(state.view(seat)))
    assert checked > 20
    assert failures == 0


def hidden_card(state, seat):
    """A card ``seat`` cannot see: the top of the Trash stock, the next seat's lowest Trex card,
    the first face-down Spit card (or spit card)."""
    name = state.game.name
    if name == "trash":
        return state.stock[-1] if state.stock else -1
    if name == "trex":
        hand = state.hand((seat + 1) % 4)
        return min(hand) if hand else -1
    for p in (0, 1):
        for j, pile in enumerate(state.stock[p]):
            if len(pile) > state.up[p][j]:
                return pile[0]
        if state.spitcards[p]:
            return state.spitcards[p][0]
    return -1


@pytest.mark.parametrize("name", ["trash", "trex", "spit"])
def test_the_invariance_check_fails_when_a_hidden_card_is_planted(name):
    game = cardtable.load(name)
    encoder = encoder_for(game)

    def leaky(state, seat):
        out = encoder.encode(state.view(seat))
        out[0] = hidden_card(state, seat) / 52.0  # the leak: one cell read from the state, not the view
        return out

    failures, checked = invariance_failures(game, leaky)
    assert checked > 20
    assert failures > checked // 4
