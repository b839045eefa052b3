"""Batch playouts play whole games from a position with one call."""

from __future__ import annotations

import random

import pytest

import cardtable
from cardtable.core import ConfigError, playouts


def manual(state: cardtable.core.State, rng: random.Random) -> cardtable.core.Outcome | None:
    game = state.clone()
    while not game.is_terminal():
        legal = game.legal_actions()
        game.apply(legal[int(rng.random() * len(legal))])
    return game.outcome()


@pytest.mark.parametrize(("name", "options"), [("trash", {"max_hands": 1}), ("trex", {}), ("spit", {})])
def test_playouts_are_the_seeded_random_games_and_leave_the_state(name: str, options: dict[str, object]) -> None:
    state = cardtable.load(name, **options).new_state(seed=5)
    before = str(state)
    got = playouts(state, 3, random.Random(9))
    rng = random.Random(9)
    assert got == [manual(state, rng) for _ in range(3)]
    assert str(state) == before and state.history == []
    assert all(o is not None and o.reason for o in got)


def test_playouts_from_a_position_in_play() -> None:
    state = cardtable.load("trex").new_state(seed=2)
    for _ in range(30):
        state.apply(state.legal_actions()[0])
    assert playouts(state, 2, random.Random(1)) == playouts(state, 2, random.Random(1))


def test_playouts_reject_an_unknown_policy_and_a_negative_count() -> None:
    state = cardtable.load("trash").new_state(seed=1)
    with pytest.raises(ConfigError, match="unknown playout policy"):
        playouts(state, 1, random.Random(1), policy="greedy")
    with pytest.raises(ConfigError, match="cannot play -1"):
        playouts(state, -1, random.Random(1))
