"""The host's Match: seats, sequence numbers, bots and the injectable clock."""

from __future__ import annotations

import pytest

import cardtable
from cardtable.bots import make_bot
from cardtable.core.errors import IllegalActionError
from cardtable.host import Match, VirtualClock, play_out


def test_trv2_time_limit_from_an_injected_clock():
    """TR-V2/TR-A11 with option time_limit: the host feeds time-up; the hand is finished first."""
    clock = VirtualClock()
    game = cardtable.load("trash", time_limit=600.0)
    match = Match(game, seed=8, bots={1: make_bot("trash", "sensible")}, clock=clock, bot_seed=2)
    match.submit(0, "stock")
    match.run_bots()
    assert not match.state.time_up
    clock.advance(601)
    match.run_bots()
    while match.human_to_move():
        match.submit(0, match.state.legal_actions()[0])
        match.run_bots()
    assert "time-up" in [str(a) for a in match.state.history]
    assert match.is_over and match.state.outcome().reason == "time_limit"
    assert match.state.hands_played >= 1
    again = match.record().replay()  # the time-up is in the record, so the replay is exact
    assert str(again) == str(match.state)


def test_seats_and_sequence_numbers():
    match = Match(cardtable.load("trash"), seed=1, bots={1: make_bot("trash", "random")}, bot_seed=0)
    with pytest.raises(IllegalActionError, match="seat 0's turn"):
        match.submit(1, "stock")
    with pytest.raises(IllegalActionError):
        match.submit(0, "discard")
    assert match.seq == 0 and match.state.history == []
    assert match.submit(0, "stock") == 1


def test_play_out_is_reproducible_from_seeds():
    game = cardtable.load("trash")
    bots = [make_bot("trash", "sensible"), make_bot("trash", "random")]
    a = play_out(game, bots, seed=3, bot_seed=4)
    b = play_out(game, bots, seed=3, bot_seed=4)
    assert a.history == b.history and a.outcome() == b.outcome()


def test_bots_receive_views_only():
    seen = []

    class Spy:
        name = "spy"

        def act(self, view, rng):
            seen.append(type(view).__name__)
            return view.legal_actions[0]

    play_out(cardtable.load("trash", max_hands=1), [Spy(), Spy()], seed=1)
    assert seen and set(seen) == {"TrashView"}


def test_match_from_record_goes_on_where_it_stopped():
    game = cardtable.load("trash")
    match = Match(game, seed=6, bots={1: make_bot("trash", "sensible")}, bot_seed=1)
    for _ in range(5):
        match.submit(0, match.state.legal_actions()[0])
        match.run_bots()
    again = Match.from_record(match.record(), bots={1: make_bot("trash", "sensible")})
    assert str(again.state) == str(match.state) and again.seq == len(match.state.history)
    again.submit(0, again.state.legal_actions()[0])
