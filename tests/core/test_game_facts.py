"""What a game declares about itself, so that no client works it out from a state: ``realtime``
is true exactly for the games whose first state has every seat acting at once (SP-13: Spit is
played by both players at the same time)."""

from __future__ import annotations

import pytest

from cardtable.core.registry import game_class, game_names, load
from cardtable.core.seats import SIMULTANEOUS


@pytest.mark.parametrize("name", game_names())
def test_sp13_realtime_is_declared_by_the_game(name: str):
    game = load(name)
    assert game_class(name).realtime is game.realtime
    assert game.realtime == (game.new_state(seed=1).current_player() == SIMULTANEOUS)


def test_sp13_only_spit_is_realtime():
    assert [n for n in game_names() if game_class(n).realtime] == ["spit"]


@pytest.mark.parametrize("name", game_names())
def test_sp13_every_state_answers_what_the_protocol_declares(name: str):
    """What a client may ask of any state is declared by the State protocol, with defaults: the
    record's seed, deal source and stacked deck, why an action would be refused, and the real-time
    hooks (SP-13: only a real-time game runs timers)."""
    game = load(name)
    state = game.new_state(seed=1)
    assert state.seed == 1 and state.deals is None and state.stacked_deck is None
    seat = 0 if game.realtime else None
    for action in state.legal_actions(seat):
        assert state.illegal_reason(action) is None
        assert isinstance(state.tie_rank(action), int)
    seats = range(game.num_players) if game.realtime else (None,)
    allowed = {a for s in seats for a in state.legal_actions(s)}
    other = next(a for a in map(game.action_from_index, range(game.num_distinct_actions)) if a not in allowed)
    assert state.illegal_reason(other) is not None
    if not game.realtime:
        assert tuple(state.timers()) == ()


@pytest.mark.parametrize("name", game_names())
def test_sp13_an_action_names_its_seat_only_in_a_realtime_game(name: str):
    """``Action.seat`` is part of the protocol: in a real-time game (SP-13: both players act at any
    time) each player's action names the seat that plays it, and a timer's names none; a
    turn-based game's actions name none (the seat to move plays them)."""
    game = load(name)
    for index in range(game.num_distinct_actions):
        seat = game.action_from_index(index).seat
        assert seat is None or (game.realtime and 0 <= seat < game.num_players)
    state = game.new_state(seed=1)
    if game.realtime:
        for s in range(game.num_players):
            assert state.legal_actions(s) and all(a.seat == s for a in state.legal_actions(s))
    else:
        assert all(a.seat is None for a in state.legal_actions())
