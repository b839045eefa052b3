"""Options, games and bots survive pickling: the server's bot pool sends bots to worker
processes (an object whose ``__getattr__`` recursed while being unpickled could not go)."""

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


@pytest.mark.parametrize("game", ["trash", "trex", "spit"])
def test_views_with_their_events_round_trip_through_pickle(game: str) -> None:
    """The bot pool sends a bot its view pickled; on the compiled build a view's
    frozen events could not be unpickled, so every bot thought in the server process instead."""
    import random

    state = cardtable.load(game).new_state(seed=3)
    rng = random.Random(3)
    for _ in range(12):
        if state.is_terminal():
            break
        seat = state.current_player()
        actions = state.legal_actions() if seat >= 0 else state.view(0).legal_actions
        if not actions:
            break
        state.apply(rng.choice(actions))
    for seat in range(state.game.num_players):
        view = state.view(seat)
        assert view.events, "the view carries events"
        again = pickle.loads(pickle.dumps(view))
        assert again == view and again.events == view.events


def test_a_search_bot_with_its_memory_round_trips_through_pickle() -> None:
    """``expert`` goes to the pool and comes back with its memory, on both builds."""
    import random

    from cardtable.bots.base import Budget

    state = cardtable.load("trex").new_state(seed=3)
    bot = adapt(make_bot("trex", "expert"))
    while not state.is_terminal() and state.view(state.current_player()).phase != "trick":
        state.apply(bot.act(state.view(state.current_player()), random.Random(1), Budget(iterations=4)))
    seat = state.current_player()
    again = pickle.loads(pickle.dumps((bot, state.view(seat))))
    assert again[0].act(again[1], random.Random(2), Budget(iterations=4)) in state.view(seat).legal_actions


@pytest.mark.parametrize("game", ["trash", "trex", "spit"])
def test_actions_and_outcomes_round_trip_through_pickle(game: str) -> None:
    """A simulation's workers send outcomes back; the pool sends actions (both builds)."""
    from cardtable.core.game import Outcome

    state = cardtable.load(game).new_state(seed=5)
    actions = state.legal_actions() if state.current_player() >= 0 else state.view(0).legal_actions
    assert actions
    for action in actions:
        assert pickle.loads(pickle.dumps(action)) == action
    outcome = Outcome((1.0, 0.0), (0,), "test")
    assert pickle.loads(pickle.dumps(outcome)) == outcome
