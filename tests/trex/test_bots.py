"""The Trex bots play only legal actions, from views alone."""

from __future__ import annotations

import random

import pytest

import cardtable.bots.trex  # noqa: F401  (registers the Trex bots)
from cardtable.bots import make_bot

from .conftest import load


@pytest.mark.parametrize("preset", ["standard", "complex", "partnership", "seed"])
@pytest.mark.parametrize("name", ["rules", "random"])
def test_bots_play_only_legal_actions(preset: str, name: str) -> None:
    game = load(preset)
    bot = make_bot("trex", name)
    rng = random.Random(1)
    state = game.new_state(seed=5)
    while not state.is_terminal():
        seat = state.current_player()
        view = state.view(seat)
        action = bot.act(view, rng)
        assert action in view.legal_actions
        state.play(action)
    assert state.outcome() is not None


def test_rules_bot_with_accept_unchecked_plays_never_revokes() -> None:
    game = load(accept_unchecked_plays=True)
    bot = make_bot("trex", "rules")
    state = game.new_state(seed=9)
    rng = random.Random(2)
    while not state.is_terminal():
        state.play(bot.act(state.view(state.current_player()), rng))
        assert not any(kind == "revoke" for kind, *_ in state.events)
    assert all(sum(r[4]) in (-75, -100, -130, -195, 500) for r in state.records)


def test_rules_bot_beats_random_on_average() -> None:
    game = load()
    rules, rand = make_bot("trex", "rules"), make_bot("trex", "random")
    rng = random.Random(3)
    total = 0
    for seed in range(6):
        state = game.new_state(seed=seed)
        seat_bot = seed % 4
        while not state.is_terminal():
            seat = state.current_player()
            bot = rules if seat == seat_bot else rand
            state.apply(bot.act(state.view(seat), rng))
        total += state.totals[seat_bot]
    assert total > 0
