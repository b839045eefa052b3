"""The server's fast view encoder equals ``PlayerView.to_json`` (the definition)."""

from __future__ import annotations

import random

import cardtable
from cardtable.core.registry import game_names
from cardtable.server.encode import view_json


def test_view_json_equals_to_json_for_every_game_over_random_states():
    rng = random.Random(3)
    for name in game_names():
        for seed in range(20):
            game = cardtable.load(name)
            state = game.new_state(seed=seed)
            for _ in range(200):
                for seat in [None, *range(game.num_players)]:
                    view = state.view(seat)
                    assert view_json(view) == view.to_json()
                if state.is_terminal():
                    break
                player = state.current_player()
                legal = state.legal_actions(player if player >= 0 else None)
                if not legal:
                    break
                state.play(rng.choice(list(legal)))
