"""Options, games and bots survive pickling: the server's bot pool sends bots to worker
processes (issue #12 item 3), and a recursion in ``__getattr__`` used to stop them."""

from __future__ import annotations

import pickle

import pytest

import cardtable
from cardtable.bots import make_bot
from cardtable.bots.base import adapt


@pytest.mark.parametrize("game", ["trash", "trex", "spit"])
def test_options_and_games_round_trip_through_pickle(game: str) -> None:
    g = cardtable.load(game)
    options = pickle.loads(pickle.dumps(g.options))
    assert options == g.options and options.preset == g.options.preset
    assert pickle.loads(pickle.dumps(g)).options == g.options


@pytest.mark.parametrize(("game", "bot"), [("trex", "medium"), ("trex", "hard"), ("trash", "hard"), ("spit", "medium")])
def test_bots_round_trip_through_pickle(game: str, bot: str) -> None:
    again = pickle.loads(pickle.dumps(adapt(make_bot(game, bot))))
    state = cardtable.load(game).new_state(seed=1)
    seat = state.current_player() if state.current_player() >= 0 else 0
    view = state.view(seat)
    if view.legal_actions:
        import random

        assert again.act(view, random.Random(0)) in view.legal_actions
