"""PettingZoo's stock checkers on trash_v0 and trex_v0 over every preset, and the env contract
(fixed masks, masks in info, the same spaces, seeding, illegal actions, rewards from returns)."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import cardtable
import cardtable.envs
from cardtable.core.errors import ConfigError, IllegalActionError
from cardtable.envs import trash_v0, trex_v0
from cardtable.envs.encode_trash import TrashEncoder
from cardtable.envs.session import TurnSession

TRASH_PRESETS = list(cardtable.load("trash").PRESETS)
TREX_PRESETS = list(cardtable.load("trex").PRESETS)


def play_out(env, seed, rng=None, limit=100_000):
    """Play masked random actions to the end; return the (agent, reward) pairs seen by last()."""
    rng = rng or np.random.default_rng(seed)
    env.reset(seed=seed)
    seen = []
    for agent in env.agent_iter(limit):
        obs, reward, term, trunc, info = env.last()
        seen.append((agent, reward))
        if term or trunc:
            env.step(None)
            continue
        assert obs["action_mask"].any(), "the agent to act always has a legal action"
        assert np.array_equal(obs["action_mask"], info["action_mask"])
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return seen


@pytest.mark.parametrize("preset", TRASH_PRESETS)
def test_trash_v0_api_and_seed_tests(preset):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the Dict observation space is PettingZoo's own recommendation
        api_test(trash_v0.env(preset=preset), num_cycles=200)
        seed_test(lambda: trash_v0.env(preset=preset), num_cycles=200)


@pytest.mark.parametrize("preset", TREX_PRESETS)
def test_trex_v0_api_and_seed_tests(preset):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(trex_v0.env(preset=preset), num_cycles=60)
        seed_test(lambda: trex_v0.env(preset=preset), num_cycles=60)


@pytest.mark.parametrize(
    "options",
    [
        {"players": 3, "jokers": True},
        {"players": 5, "wild_mode": "all_faces", "max_hands": 2},
        {"wild_mode": "kings", "discard_take_requires_playable": False, "target_size": 6},
        {"players": 2, "loser_free_draws": 3, "rotate_first_player": True, "max_hands": 3},
        {"time_limit": 40.0, "tiebreak_extra_hands": True},
        {"players": 10},  # TR-1: tables above eight
        {"players": 12, "jokers": True, "max_hands": 3},
    ],
    ids=lambda o: ",".join(o),
)
def test_trash_v0_options_play_whole_matches(options):
    env = trash_v0.env(**options)
    seen = play_out(env, seed=5)
    assert not env.agents
    assert abs(sum(r for _, r in seen) - 1.0) < 1e-9, "Trash returns: the match win is worth 1"


def test_tr_v2_time_limit_is_fed_by_the_env_clock():
    env = trash_v0.raw_env(time_limit=30.0, seconds_per_action=1.0)
    env.reset(seed=2)
    for _ in range(31):
        if env.session.terminal:
            break
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(np.flatnonzero(mask)[0]))
    assert env.session.view(None).time_up


@pytest.mark.parametrize("preset", TREX_PRESETS)
def test_trex_v0_rewards_are_the_returns_and_per_deal_rewards_sum_to_them(preset):
    env = trex_v0.raw_env(preset=preset, per_deal_rewards=True)
    env.reset(seed=11)
    rng = np.random.default_rng(11)
    paid = dict.fromkeys(env.possible_agents, 0.0)
    deals_paid = 0
    while not env.session.terminal:
        a = env.agent_selection
        mask = env.observe(a)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
        if any(env.rewards.values()):
            deals_paid += 1
        for agent, r in env.rewards.items():
            paid[agent] += r
        if preset != "complex" and deals_paid >= 3:
            break
    if env.session.terminal:
        returns = env.session.state.outcome().returns
        assert [paid[a] for a in env.possible_agents] == list(returns)
    else:
        totals = env.session.side_totals()
        assert [paid[a] for a in env.possible_agents] == totals


@pytest.mark.parametrize("options", [{"preset": p} for p in TREX_PRESETS] + [{"reverse_scores": True}],
                         ids=[*TREX_PRESETS, "reverse_scores"])
def test_trex_v0_per_trick_rewards_come_with_the_tricks_and_sum_to_the_returns(options):
    """Trex rewards: ``per_trick_rewards`` pays a deal's points as they fall,
    a trick's penalty on the step that ends the trick, and sums over the game to the returns."""
    env = trex_v0.raw_env(per_trick_rewards=True, **options)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    paid = dict.fromkeys(env.possible_agents, 0.0)
    paid_steps = deals = 0
    penalty_seen = slaps = False
    while not env.session.terminal:
        before = env.session.view(None)
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
        after = env.session.view(None)
        deals += after.deal_number != before.deal_number
        paid_steps += any(env.rewards.values())
        for agent, r in env.rewards.items():
            paid[agent] += r
        won = [q for q in range(4) if after.tricks_taken[q] > before.tricks_taken[q]]
        slaps |= before.contract == "TK"
        if before.contract == "TK" and won and after.deal_number == before.deal_number:
            sign = -1 if env.game.options.get("reverse_scores") else 1
            winner = won[0]
            side = [winner, (winner + 2) % 4] if after.partnership else [winner]  # TX-V2: team totals
            assert all(env.rewards[f"player_{q}"] == sign * -15 for q in side)
            penalty_seen = True
    assert penalty_seen or not slaps  # the complex preset has no Slaps deal of its own
    assert paid_steps > deals  # paid within deals, not once a deal
    assert [paid[a] for a in env.possible_agents] == list(env.session.state.outcome().returns)


def test_per_trick_rewards_are_a_trex_option():
    with pytest.raises(ConfigError, match="per_trick_rewards is a Trex option"):
        TurnSession(cardtable.load("trash"), TrashEncoder(cardtable.load("trash")), per_trick_rewards=True)
    with pytest.raises(ConfigError, match="no option 'per_trick_rewards'"):
        trash_v0.env(per_trick_rewards=True)


def test_fixed_mask_length_and_same_space_objects():
    for env, n in ((trash_v0.env(players=4), 15), (trex_v0.env(), 76)):
        env.reset(seed=0)
        for agent in env.possible_agents:
            assert env.observation_space(agent) is env.observation_space(agent)
            assert env.action_space(agent) is env.action_space(agent)
            obs = env.observe(agent)
            assert obs["action_mask"].shape == (n,) and obs["action_mask"].dtype == np.int8
            assert env.observation_space(agent).contains(obs)
            assert env.action_space(agent).n == n


def test_reset_seed_reproduces_an_episode_exactly_and_later_resets_too():
    def run():
        env = trex_v0.env(preset="complex")
        env.reset(seed=99)
        first = [int(x) for x in np.flatnonzero(env.observe(env.agent_selection)["observation"])]
        env.reset()
        second = env.unwrapped.session.state.history, env.observe(env.agent_selection)["observation"].tolist()
        return first, second

    assert run() == run()
    a = play_out(trash_v0.env(), seed=4)
    b = play_out(trash_v0.env(), seed=4)
    assert a == b


def test_illegal_action_raises_a_clear_error_and_changes_nothing():
    env = trash_v0.raw_env()
    env.reset(seed=1)
    agent = env.agent_selection
    before = env.observe(agent)
    history = list(env.session.state.history)
    illegal = int(np.flatnonzero(before["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match=r"seat 0 may not take action .* legal: 0 \(stock\)"):
        env.step(illegal)
    assert env.session.state.history == history and env.agent_selection == agent
    with pytest.raises(IllegalActionError):
        env.step("stock")
    with pytest.raises(IllegalActionError):
        env.step(99)


def test_illegal_action_keeps_the_agents_pending_reward():
    """RL-illegal-unchanged: a refused action leaves ``last()``'s reward (``_cumulative_rewards``) as it
    was, so an agent that retries after an illegal action is still paid; with a retry after every
    decision the rewards seen still sum to the returns."""
    env = trex_v0.raw_env(per_trick_rewards=True, deals=2)
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    seen = dict.fromkeys(env.possible_agents, 0.0)
    retried_while_paid = 0
    for agent in env.agent_iter(100_000):
        obs, reward, term, trunc, _ = env.last()
        if term or trunc:
            seen[agent] += reward
            env.step(None)
            continue
        bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
        with pytest.raises(IllegalActionError):
            env.step(bad)
        obs2, reward2, term2, trunc2, _ = env.last()
        assert (reward2, term2, trunc2) == (reward, term, trunc)
        assert np.array_equal(obs2["observation"], obs["observation"])
        retried_while_paid += reward != 0
        seen[agent] += reward2
        env.step(int(rng.choice(np.flatnonzero(obs2["action_mask"]))))
    assert retried_while_paid > 0
    assert [seen[a] for a in env.possible_agents] == list(env.session.state.outcome().returns)


def test_illegal_action_penalty_option_ends_the_episode():
    env = trex_v0.raw_env(illegal="penalty", illegal_penalty=-5)
    env.reset(seed=1)
    agent = env.agent_selection
    illegal = int(np.flatnonzero(env.observe(agent)["action_mask"] == 0)[0])
    env.step(illegal)
    assert all(env.terminations.values())
    assert env.rewards[agent] == -5 and sum(env.rewards.values()) == -5
    assert env.infos[agent]["illegal_action"] is True
    with pytest.raises(ConfigError):
        trex_v0.raw_env(illegal="ignore")


def test_bad_options_get_config_errors():
    with pytest.raises(ConfigError, match="no option"):
        trash_v0.env(colour="red")
    with pytest.raises(ConfigError, match="no preset"):
        trex_v0.env(preset="nonsense")
    with pytest.raises(ConfigError, match="render_mode"):
        trash_v0.env(render_mode="human")
    with pytest.raises(ConfigError, match="no option 'per_deal_rewards'"):
        trash_v0.env(per_deal_rewards=True)


@pytest.mark.parametrize("make", [
    lambda: trex_v0.env(per_deal_rewards=True, per_trick_rewards=True),
    lambda: gymnasium.make("cardtable/Trex-v0", per_deal_rewards=True, per_trick_rewards=True),
])
def test_per_deal_and_per_trick_rewards_together_are_refused(make):
    """RL-reward-modes: per_deal_rewards and per_trick_rewards are exclusive ways of paying the totals;
    asking for both is a ConfigError (per_trick_rewards used to win silently)."""
    with pytest.raises(ConfigError, match=r"per_deal_rewards and per_trick_rewards .* choose one"):
        make()


def test_render_ansi_is_the_spectator_view_as_text():
    env = trash_v0.env(render_mode="ansi")
    env.reset(seed=3)
    text = env.render()
    view = env.unwrapped.session.state.view(None)
    assert f"stock_count: {view.stock_count}" in text
    assert "card_in_hand" not in text or view.card_in_hand is not None
    quiet = trash_v0.env()
    quiet.reset(seed=3)
    assert quiet.render() is None


def test_the_env_is_its_own_order_checker():
    env = trex_v0.env()
    with pytest.raises(ConfigError, match="call reset"):
        env.step(0)
    with pytest.raises(ConfigError, match="call reset"):
        env.observe("player_0")


@pytest.mark.parametrize(("make", "says"), [
    (lambda: trash_v0.env(reward_scale="abc"), "reward_scale"),
    (lambda: trash_v0.env(reward_scale=float("nan")), "reward_scale"),
    (lambda: trash_v0.env(seconds_per_action="1"), "seconds_per_action"),
    (lambda: trash_v0.env(seconds_per_action=float("inf")), "seconds_per_action"),
    (lambda: trex_v0.env(per_trick_rewards="yes"), "per_trick_rewards"),
    (lambda: trash_v0.env(illegal_penalty=True), "illegal_penalty"),
])
def test_every_env_keyword_is_checked_at_construction(make, says):
    """Bad input gets a clear error: a keyword of the wrong type or a number that is not finite is
    a ConfigError when the env is made (not a raw ValueError, nor rewards that are all NaN)."""
    with pytest.raises(ConfigError, match=says):
        make()
