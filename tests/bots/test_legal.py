"""Every registered bot plays only legal actions, over seeded games of every preset."""

from __future__ import annotations

import pytest

import cardtable
from cardtable.bots import Budget, bot_names, make_bot
from cardtable.host import Match


def run(game, names: list[str], seed: int) -> None:
    bots = {s: make_bot(game.name, n) for s, n in enumerate(names)}
    match = Match(game, seed=seed, bots=bots, bot_seed=seed)
    match.run_bots()  # Match.submit raises IllegalActionError on an illegal action
    assert match.is_over


TRASH_CASES = [(p, {}) for p in sorted(cardtable.game_class("trash").PRESETS)] + [
    ("standard", {"jokers": True}),
    ("standard", {"wild_mode": "all_faces"}),
    ("standard", {"players": 3, "decks": 2}),
    ("standard", {"loser_free_draws": 3}),
]


@pytest.mark.parametrize(("preset", "extra"), TRASH_CASES)
def test_trash_bots_play_legally(preset, extra):
    game = cardtable.load("trash", preset, max_hands=2, **extra)
    names = bot_names("trash")
    for i, name in enumerate(names):
        others = names[(i + 1) % len(names)]
        seats = [name] + [others] * (game.num_players - 1)
        run(game, seats, seed=i)


def test_budget_is_honoured():
    from cardtable.bots.trash import SearchTrashBot

    game = cardtable.load("trash")
    state = game.new_state(seed=1)
    import random

    rng = random.Random(0)
    bot = SearchTrashBot()
    while not state.is_terminal():
        view = state.view(state.current_player())
        state.apply(bot.act(view, rng, Budget(iterations=2)))
        if len(state.history) > 60:
            break
    with pytest.raises(cardtable.ConfigError):
        Budget(iterations=0)
