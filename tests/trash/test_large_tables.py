"""Trash with more than eight players (TR-1, TR-2, TR-6): the engine takes 2 to MAX_PLAYERS (52)
and plays every such table to the end by the rules. Runs on both builds (the rule suite)."""

from __future__ import annotations

import random

import pytest

import cardtable
from cardtable.core.errors import ConfigError
from cardtable.games.trash import TrashState
from cardtable.games.trash.options import MAX_DECKS, MAX_PLAYERS
from cardtable.games.trash.state import NO_CARD

from .. import walk
from .test_properties import check_slot_invariant

ACTIONS = 200_000
"""More actions than a random 52-player match takes (10,000 to 25,000 on seeds 0 to 5)."""


def test_tr1_the_bound_is_52_players_and_26_decks():
    assert (MAX_PLAYERS, MAX_DECKS) == (52, 26)
    assert cardtable.load("trash", players=MAX_PLAYERS).num_players == 52
    with pytest.raises(ConfigError, match=r"^option players: 53 is above 52$"):
        cardtable.load("trash", players=53)
    with pytest.raises(ConfigError, match=r"^option players: 1 is below 2$"):
        cardtable.load("trash", players=1)


@pytest.mark.parametrize(("players", "decks"), [(9, 5), (10, 5), (12, 6), (16, 8), (17, 9), (51, 26), (52, 26)])
def test_tr2_decks_keep_scaling_past_eight_players(players, decks):
    game = cardtable.load("trash", players=players)
    assert len(game.cards) == 52 * decks
    assert len(cardtable.load("trash", players=players, jokers=True).cards) == 54 * decks


def test_tr2_the_decks_option_scales_to_26_and_still_needs_room_for_the_layouts():
    assert len(cardtable.load("trash", players=2, decks=MAX_DECKS).cards) == 52 * 26
    assert len(cardtable.load("trash", players=12, decks=3).cards) == 156  # 122 cards needed
    with pytest.raises(ConfigError, match=r"^option decks: 27 is above 26$"):
        cardtable.load("trash", players=52, decks=27)
    with pytest.raises(ConfigError, match=r"520 cards are too few for 52 layouts of 10 \(TR-2\)"):
        cardtable.load("trash", players=52, decks=10)


@pytest.mark.parametrize("players", [9, 12, 51])
def test_tr6_first_player_is_checked_against_the_players(players):
    last = players - 1
    assert cardtable.load("trash", players=players, first_player=last).new_state(seed=1).current_player() == last
    with pytest.raises(ConfigError, match=rf"^option first_player: seat {players} does not exist with "
                                          rf"{players} players \(seats 0 to {last}\)$"):
        cardtable.load("trash", players=players, first_player=players)
    with pytest.raises(ConfigError, match=r"^option first_player: 52 is above 51$"):
        cardtable.load("trash", players=players, first_player=52)


def test_tr6_play_goes_round_all_ten_seats():
    state = cardtable.load("trash", players=10, first_player=7).new_state(seed=2)
    seen = []
    for _ in range(100):  # bounded: ten turns are well within it
        if len(seen) == 10:
            break
        if not seen or state.current_player() != seen[-1]:
            seen.append(state.current_player())
        state.apply(state.legal_actions()[0])
    assert seen == [7, 8, 9, 0, 1, 2, 3, 4, 5, 6]


@pytest.mark.parametrize(("players", "options"), [
    (9, {}), (10, {"jokers": True}), (12, {"wild_mode": "kings"}), (16, {}), (16, {"rotate_first_player": True}),
    (20, {"wild_mode": "all_faces", "first_player": 19}), (52, {}),
])
def test_tr1_tr5_tr11_tr22_large_tables_play_to_the_end(players, options):
    """A seeded random match to the end: the cards are conserved, every slot is face-down or
    shows its number or a wild, every hand ends with one winner whose layout shrinks (TR-11,
    TR-22) and the match ends with the target size reached."""
    game = cardtable.load("trash", players=players, **options)
    state = game.new_state(seed=players)
    assert isinstance(state, TrashState)
    cards = sorted(game.cards)
    rng = random.Random(players)
    hands = 0
    deals = 1
    for st, _ in walk.played(state, rng, ACTIONS):
        if st.deal_count != deals:  # a new deal: the last hand was won, or voided (TR-26)
            deals = st.deal_count
            assert sorted(st.all_cards()) == cards
            assert st.ndown == st.sizes and all(len(st.down[p]) == st.sizes[p] + 1 for p in range(players))
        if st.hands_played != hands:
            assert st.hands_played == hands + 1 and sum(st.hands_won) == st.hands_played
            hands = st.hands_played
            assert sum(st.sizes) == 10 * players - hands  # no loser reveal: only the winner shrinks
        if st.history and len(st.history) % 97 == 0:
            assert sorted(st.all_cards()) == cards
            check_slot_invariant(st)
    assert state.is_terminal(), f"not over after {ACTIONS} actions"
    outcome = state.outcome()
    assert outcome is not None and outcome.reason == "target_size" and len(outcome.winners) == 1
    assert state.sizes[outcome.winners[0]] == 0 and sum(outcome.returns) == 1.0
    assert sorted(state.all_cards()) == cards
    view = state.view(players - 1)
    assert view.num_players == players and len(view.layouts) == players


def test_tr14_a_large_tables_views_hide_the_face_down_cards():
    state = cardtable.load("trash", players=16).new_state(seed=3)
    for _ in walk.played(state, random.Random(3), 300):
        pass
    for seat in (0, 9, 15, None):
        view = state.view(seat)
        assert len(view.layouts) == 16
        shown = sum(1 for layout in view.layouts for c in layout if c is not None)
        assert shown == sum(sum(1 for c in up[1:] if c != NO_CARD) for up in state.up)
    with pytest.raises(ConfigError, match="no seat 16 in a 16-player game"):
        state.view(16)
