"""The RL wrappers of Trash with more than eight players (TR-1): PettingZoo's and Gymnasium's
checkers, OpenSpiel's random simulation test and its game type, and the encoding's size."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pyspiel
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

import cardtable
import cardtable.envs  # registers the ids
import cardtable.envs.openspiel as osm
from cardtable.core.errors import ConfigError
from cardtable.envs import trash_v0
from cardtable.envs.encode_trash import RANKS, TrashEncoder
from cardtable.games.trash.actions import MAX_SLOTS
from cardtable.games.trash.options import MAX_PLAYERS


@pytest.mark.parametrize("players", [9, 10, 16, 52])
def test_tr1_the_encoding_has_one_block_per_seat(players):
    encoder = TrashEncoder(cardtable.load("trash", players=players))
    per_seat = 2 + MAX_SLOTS * 3 + MAX_SLOTS * RANKS
    assert encoder.size == 3 * RANKS + 3 + 2 * players + 4 + players * per_seat
    state = cardtable.load("trash", players=players).new_state(seed=1)
    out = encoder.encode(state.view(players - 1))
    assert out.shape == (encoder.size,) and np.isfinite(out).all()


def test_tr2_discard_ranks_are_counted_per_deck_with_26_decks_and_jokers():
    """A rank's share of the discards is its count over the copies of the game (TR-2, TR-V5): with 26
    decks and Jokers the game has 104 of each number and 52 Jokers."""
    game = cardtable.load("trash", players=52, jokers=True)
    encoder = TrashEncoder(game)
    assert np.allclose(encoder._rank_norm, [1 / 104] * 13 + [1 / 52])


def test_tr1_pettingzoo_api_and_seed_tests_with_ten_players():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the Dict observation space is PettingZoo's own recommendation
        api_test(trash_v0.env(players=10), num_cycles=200)
        seed_test(lambda: trash_v0.env(players=10), num_cycles=200)


def test_tr1_gymnasium_check_env_with_ten_players():
    env = gymnasium.make("cardtable/Trash-v0", opponents="sensible", players=10, seat=9, illegal="penalty",
                         render_mode="ansi")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # render_fps: text rendering has no frame rate
        check_env(env.unwrapped)
    obs, _ = env.reset(seed=1)
    assert obs["observation"].shape == (TrashEncoder(cardtable.load("trash", players=10)).size,)


def test_tr1_openspiel_game_type_takes_2_to_max_players():
    gt = osm.TRASH_TYPE
    assert (gt.min_num_players, gt.max_num_players) == (2, MAX_PLAYERS) == (2, 52)
    assert pyspiel.load_game("python_trash", {"players": 52}).num_players() == 52
    with pytest.raises(ConfigError, match="option players: 53 is above 52"):
        pyspiel.load_game("python_trash", {"players": 53})


@pytest.mark.parametrize("params", [{"players": 10, "max_hands": 1}, {"players": 16, "max_hands": 1}])
def test_tr1_openspiel_random_sim_test_with_large_tables(params):
    pyspiel.random_sim_test(pyspiel.load_game("python_trash", params), num_sims=1, serialize=True, verbose=False)
