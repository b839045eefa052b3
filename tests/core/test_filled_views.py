"""The engines fill their frozen views directly
(core.view.filled_view) and build events on first use (EventsOnFirstUse); such a view must be
the same value as the one its dataclass ``__init__`` makes, field for field."""

from __future__ import annotations

import pickle
import random
from dataclasses import fields

import pytest

import cardtable
from cardtable.core.seats import SIMULTANEOUS


def positions(name: str, moves: int = 120) -> list[tuple[cardtable.core.State, int | None]]:
    game = cardtable.load(name)
    state = game.new_state(seed=3)
    rng = random.Random(5)
    out: list[tuple[cardtable.core.State, int | None]] = []
    for _ in range(moves):
        if state.is_terminal():
            break
        seat = state.current_player()
        if seat == SIMULTANEOUS:
            seat = rng.randrange(game.num_players)
        legal = state.legal_actions(seat)
        out += [(state.clone(), s) for s in (seat, None)]
        if legal:
            state.apply(legal[rng.randrange(len(legal))])
    return out


@pytest.mark.parametrize("name", ["trash", "trex", "spit"])
def test_filled_view_equals_the_dataclass_view(name: str) -> None:
    for state, seat in positions(name):
        view = state.view(seat)
        names = [f.name for f in fields(view)]
        assert set(view.__dict__) <= {*names, "_events"}  # nothing but fields (and pending events)
        made = type(view)(**{n: getattr(view, n) for n in names})  # reads events too
        assert made == view and repr(made) == repr(view)
        assert set(view.__dict__) == set(names)  # the events, once read, are a plain field
        assert view.events is view.events
        assert pickle.loads(pickle.dumps(view)) == view  # to the bot pool and back, on both builds
        assert view.to_json() == made.to_json()


@pytest.mark.parametrize("name", ["trash", "trex"])
def test_pending_events_are_those_of_the_view_time(name: str) -> None:
    """A view's events are the last action's, even when read after further actions."""
    state = cardtable.load(name).new_state(seed=8)
    rng = random.Random(1)
    for _ in range(40):
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
        early = state.view(state.current_player())
        expected = state.view(state.current_player()).events
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
        assert early.events == expected
