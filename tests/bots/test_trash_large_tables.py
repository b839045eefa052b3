"""What plays Trash without drawing a table takes more than eight players (TR-1): the bots
(their sampled worlds too), the host's play-out and its record, the simulations and the arena."""

from __future__ import annotations

import random

import pytest

import cardtable
from cardtable.arena.run import run_arena
from cardtable.bots import make_bot
from cardtable.bots.worlds import sample_trash, trash_game_for
from cardtable.host import play_out
from cardtable.records import Record
from cardtable.records.record import record_of
from cardtable.sim import SimSpec, simulate

from ..walk import random_state, walk


@pytest.mark.parametrize(("options", "decks", "jokers"), [
    ({"players": 10}, 5, False),
    ({"players": 52, "jokers": True}, 26, True),  # 1,404 cards: as many as 27 decks of 52 would be
    ({"players": 2, "decks": 26}, 26, False),
    ({"players": 16, "decks": 9, "jokers": True}, 9, True),
])
def test_tr1_tr2_a_world_of_a_large_table_has_its_decks_and_jokers(options, decks, jokers):
    state = random_state("trash", 7, 150, **options)
    view = state.view(state.current_player() if state.current_player() >= 0 else 0)
    game = trash_game_for(view)
    assert (game.num_players, game.options.decks, game.options.jokers) == (options["players"], decks, jokers)
    world = sample_trash(view, random.Random(1))
    assert sorted(world.all_cards()) == sorted(state.all_cards())
    assert world.view(view.seat).layouts == view.layouts


def test_tr1_bots_play_a_twelve_player_match_to_the_end_and_its_record_replays(tmp_path):
    game = cardtable.load("trash", players=12)
    names = ["sensible", "casual", "forgetful", "stock"] * 3
    state = play_out(game, [make_bot("trash", n) for n in names], seed=4, bot_seed=5)
    outcome = state.outcome()
    assert outcome is not None and outcome.reason == "target_size"
    record = record_of(state)
    path = tmp_path / "twelve.json"
    record.save(path)
    again = Record.load(path).replay()
    assert again.outcome() == outcome and again.view(11).to_json() == state.view(11).to_json()


def test_tr1_the_search_bot_decides_at_a_ten_player_table():
    state = cardtable.load("trash", players=10).new_state(seed=3)
    rng = random.Random(3)
    for _ in walk(state, rng, until=lambda st: st.phase.value == "place_wild" or len(st.legal_actions()) > 1):
        pass
    assert len(state.legal_actions()) > 1  # a decision: a search, not the only action
    bot = make_bot("trash", "search-all")
    seat = state.current_player()
    action = bot.act(state.view(seat), random.Random(2))
    assert action in state.legal_actions()


def test_tr1_simulations_and_the_arena_seat_ten_players(tmp_path):
    spec = SimSpec.build("trash", None, {}, ["sensible"] * 5 + ["casual"] * 5, seed=3)
    result = simulate(spec, 2, tmp_path / "sim", progress=False)
    assert result is not None
    arena = run_arena("trash", ["sensible", "casual", "stock", "forgetful", "random"] * 2, 1, seed=1)
    assert arena.seats == 10 and len(arena.results) == 10  # one deal in each of ten seatings

