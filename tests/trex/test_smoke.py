"""Whole random games under every preset end, conserve cards and add up (TX-5, §2.7)."""

from __future__ import annotations

import random

import pytest

from cardtable.games.trex.options import PRESETS

from .conftest import load, random_game


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_random_games_end_with_every_deal_recorded(preset: str) -> None:
    game = load(preset)
    for seed in range(3):
        state = random_game(game.new_state(seed=seed), random.Random(seed))
        assert len(state.records) == game.num_deals
        assert sorted(state.all_cards()) == list(range(52))
        assert state.outcome() is not None
