"""OpenSpiel: python_trash and python_trex registered with pyspiel, OpenSpiel's own random-simulation
consistency test, observers from views, the resampler, and OpenSpiel's IS-MCTS and MCTS bots playing
whole games."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts
from open_spiel.python.observation import make_observation

import cardtable.envs.openspiel as osm
from cardtable.core.errors import ConfigError
from cardtable.envs.encode_trex import TrexEncoder


def test_load_game_after_import_and_types_as_data():
    trex = pyspiel.load_game("python_trex")
    gt = trex.get_type()
    assert gt.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert gt.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert (trex.num_players(), trex.num_distinct_actions(), trex.max_chance_outcomes()) == (4, 76, osm.SEEDS)
    trash = pyspiel.load_game("python_trash", {"players": 3, "options": "wild_mode=kings,jokers=true"})
    assert trash.num_players() == 3 and trash.rules.options.wild_mode == "kings" and trash.rules.options.jokers
    assert trash.get_type().utility == pyspiel.GameType.Utility.CONSTANT_SUM and trash.utility_sum() == 1.0
    with pytest.raises(Exception, match="colour"):
        pyspiel.load_game("python_trash", {"options": "colour=red"})


def test_options_written_key_colon_value_survive_openspiels_game_strings():
    """A game loaded with ``options`` as ``key:value;key:value`` is written as an OpenSpiel game
    string and read back (``key=value,key=value`` clashes with that string's own ``=`` and ``,``)."""
    game = pyspiel.load_game("python_trash", {"players": 9, "options": "wild_mode:kings;jokers:true", "max_hands": 1})
    assert game.rules.options.wild_mode == "kings" and game.rules.options.jokers
    again = pyspiel.load_game(str(game))
    assert again.rules.options.wild_mode == "kings" and again.rules.options.jokers and again.num_players() == 9
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize(
    ("name", "params"),
    [("python_trash", {"max_hands": 1}), ("python_trash", {"players": 4, "max_hands": 1, "preset": "standard"}),
     ("python_trash", {"preset": "d2_kings", "max_hands": 2}), ("python_trex", {"preset": "complex"})],
)
def test_openspiel_random_sim_test_passes(name, params):
    pyspiel.random_sim_test(pyspiel.load_game(name, params), num_sims=1, serialize=True, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["standard", "partnership", "inverted", "open", "seed"])
def test_openspiel_random_sim_test_every_trex_preset(preset):
    pyspiel.random_sim_test(pyspiel.load_game("python_trex", {"preset": preset}), num_sims=1, serialize=True,
                            verbose=False)


def test_chance_node_draws_the_seed_and_histories_replay():
    game = pyspiel.load_game("python_trex", {"preset": "complex", "seeds": 10, "draws": 1})
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 10
    state.apply_action(4)
    rng = np.random.RandomState(0)
    for _ in range(30):
        state.apply_action(int(rng.choice(state.legal_actions())))
    again = game.new_initial_state()
    for a in state.history():
        again.apply_action(a)
    assert str(again) == str(state)
    assert again.information_state_string(2) == state.information_state_string(2)
    assert game.deserialize_state(state.serialize()).information_state_string(1) == state.information_state_string(1)


def test_h1_the_seed_has_64_bits_so_a_seats_own_hand_does_not_find_the_others():
    """With a seed among 65,536 a seat could try every seed against its own 13 cards and find
    the whole deal (1.2 s in a reviewer's run). By default four chance nodes draw the seed's
    digits, one of 2**64 seeds; it deals as the cardtable game with that seed does."""
    game = pyspiel.load_game("python_trex")
    assert (game.seeds, game.draws, game.max_chance_outcomes()) == (1 << 16, 4, 1 << 16)
    seed = 0x0123_4567_89AB_CDEF
    state = game.new_initial_state()
    for i, digit in enumerate(osm.seed_actions(game, seed)):
        assert state.is_chance_node(), f"digit {i} is drawn by a chance node"
        state.apply_action(digit)
    assert not state.is_chance_node()
    assert state.st.view(None) == game.rules.new_state(seed=seed).view(None)
    assert state.st.hand(0) == game.rules.new_state(seed=seed).hand(0)
    again = game.deserialize_state(state.serialize())
    assert again.history() == state.history() and again.st.hand(1) == state.st.hand(1)
    with pytest.raises(ConfigError):
        osm.seed_actions(game, 1 << 64)
    with pytest.raises(ConfigError):
        pyspiel.load_game("python_trash", {"draws": 0})


def test_observer_tensors_and_strings_come_from_the_view():
    game = pyspiel.load_game("python_trex")
    state = game.new_initial_state()
    for a in osm.seed_actions(game, 11):
        state.apply_action(a)
    view = state.st.view(2)
    assert np.array_equal(np.array(state.observation_tensor(2), np.float32), TrexEncoder().encode(view))
    obs = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    obs.set_from(state, 2)
    assert obs.dict["hand"].sum() == 13
    info = state.information_state_string(2)
    assert info.startswith("seat 2 history ") and info != state.information_state_string(3)
    assert str(view.hand[0]) in state.observation_string(2)
    assert str(view.hand[0]) not in state.observation_string(3)


def test_resampler_keeps_the_infostate_and_redeals_the_hidden_cards():
    game = pyspiel.load_game("python_trex")
    state = game.new_initial_state()
    for a in osm.seed_actions(game, 5):
        state.apply_action(a)
    rng = np.random.RandomState(1)
    for _ in range(9):
        state.apply_action(int(rng.choice(state.legal_actions())))
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    worlds = [state.resample_from_infostate(player, sampler) for _ in range(5)]
    for w in worlds:
        assert w.information_state_string(player) == state.information_state_string(player)
        assert w.observation_tensor(player) == state.observation_tensor(player)
        assert w.legal_actions() == state.legal_actions()
    others = {tuple(w.st.hand((player + 1) % 4)) for w in worlds}
    assert len(others) > 1, "the other hands are dealt anew"


def test_ismcts_plays_a_whole_trash_hand_against_mcts():
    game = pyspiel.load_game("python_trash", {"max_hands": 1})
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    search = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=10, random_state=np.random.RandomState(1),
                              allow_inconsistent_action_sets=True)
    plain = mcts.MCTSBot(game, 2.0, 10, evaluator, random_state=np.random.RandomState(2))
    state = game.new_initial_state()
    for a in osm.seed_actions(game, 3):
        state.apply_action(a)
    while not state.is_terminal():
        state.apply_action(search.step(state) if state.current_player() == 0 else plain.step(state))
    assert sorted(state.returns()) == [0.0, 1.0]


def test_ismcts_and_mcts_play_a_whole_trex_game():
    game = pyspiel.load_game("python_trex", {"preset": "complex"})
    evaluator = osm.TotalsRolloutEvaluator(max_length=30, random_state=np.random.RandomState(0))
    search = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=3, random_state=np.random.RandomState(1),
                              allow_inconsistent_action_sets=True)
    plain = mcts.MCTSBot(game, 2.0, 3, evaluator, random_state=np.random.RandomState(2))
    state = game.new_initial_state()
    for a in osm.seed_actions(game, 7):
        state.apply_action(a)
    rng = np.random.RandomState(3)
    moves = 0
    while not state.is_terminal():
        p = state.current_player()
        if p == 0:
            action = search.step(state)
        elif p == 2:
            action = plain.step(state)
        else:
            action = int(rng.choice(state.legal_actions()))
        state.apply_action(action)
        moves += 1
    assert moves > 8 * 13 * 4 and sum(state.returns()) == 0.0, "eight deals of a zero-sum preset"


@pytest.mark.parametrize(("name", "params"), [
    ("python_trex", {"preset": "inverted"}),
    ("python_trex", {"options": "doubled_self_capture:quadruple;swap_diamonds_tricks:true;reverse_scores:true;"
                                "end_early:false"}),
    ("python_trex", {"preset": "complex", "options": "deals:2"}),
    ("python_trash", {"max_hands": 1}),
    ("python_trash", {"options": "target_size:8;loser_reveal:true;discard_take_requires_playable:false"}),
])
def test_resampled_worlds_are_dealt_under_the_games_own_rules(name, params):
    """RL-resample-rules: ``resample_from_infostate`` deals its world under the loaded game's rules and
    options (not rules guessed from the view): the world's options are the game's, and its
    information-state string, observation string and tensor for the player are the real state's."""
    game = pyspiel.load_game(name, params)
    state = game.new_initial_state()
    for a in osm.seed_actions(game, 12345):
        state.apply_action(a)
    rng = np.random.RandomState(0)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    checked = 0
    for step in range(400):
        if state.is_terminal():
            break
        if step % 5 == 0:
            for p in range(game.num_players()):
                world = state.resample_from_infostate(p, sampler)
                assert dict(world.st.game.options) == dict(game.rules.options)
                assert world.information_state_string(p) == state.information_state_string(p)
                assert world.observation_string(p) == state.observation_string(p)
                assert world.observation_tensor(p) == state.observation_tensor(p)
                checked += 1
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert checked >= 4


@pytest.mark.parametrize(("params", "says"), [
    ({"options": "time_limit:1"}, "time_limit: an OpenSpiel game has no clock"),
    ({"options": "time_limit=30"}, "time_limit: an OpenSpiel game has no clock"),
    ({"max_hands": -1}, "max_hands must be 0 .* not -1"),
])
def test_trash_options_openspiel_cannot_honour_are_refused(params, says):
    """RL-os-options: python_trash refuses Trash's time_limit (TR-V2: the game has no clock, so it
    used to play on to target_size) and a negative max_hands (used to be read as no limit)."""
    with pytest.raises(ConfigError, match=says):
        pyspiel.load_game("python_trash", params)
    assert pyspiel.load_game("python_trash", {"max_hands": 0}).rules.options.max_hands is None
