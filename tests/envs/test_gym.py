"""Gymnasium single-seat envs: check_env, bots as opponents, action_masks(), seeding."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import cardtable.envs  # noqa: F401  (registers the ids)
from cardtable.core.errors import ConfigError, IllegalActionError


@pytest.mark.parametrize(
    ("env_id", "kwargs"),
    [
        ("cardtable/Trash-v0", {"opponents": "sensible"}),
        ("cardtable/Trash-v0", {"opponents": ["random", "casual"], "players": 3, "seat": 1}),
        ("cardtable/Trex-v0", {"opponents": "medium"}),
        ("cardtable/Trex-v0", {"opponents": "random", "preset": "partnership", "per_deal_rewards": True}),
    ],
)
def test_check_env_passes(env_id, kwargs):
    env = gymnasium.make(env_id, illegal="penalty", render_mode="ansi", **kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # render_fps: text rendering has no frame rate
        check_env(env.unwrapped)


def test_opponents_are_our_bots_and_the_seat_only_acts_on_its_turn():
    env = gymnasium.make("cardtable/Trex-v0", opponents=["medium", "hard", "random"], seat=2)
    _, info = env.reset(seed=5)
    base = env.unwrapped
    assert [b.name for b in base.bots.values()] == ["rules", "strong", "random"]
    rng = np.random.default_rng(0)
    for _ in range(60):
        assert base.session.to_act == 2
        mask = base.action_masks()
        assert mask.dtype == bool and mask.any() and np.array_equal(mask, info["action_mask"].astype(bool))
        _, _, term, _, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        if term:
            break


def test_one_hand_trash_episodes_pay_the_winner():
    env = gymnasium.make("cardtable/Trash-v0", opponents="random", max_hands=1)
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    results = []
    while len(results) < 20:
        mask = env.unwrapped.action_masks()
        _, reward, term, _, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        if term:
            results.append((reward, info["winner"]))
            env.reset()
    assert all(r == (1.0 if w else 0.0) for r, w in results)
    assert {w for _, w in results} == {True, False}


def test_reset_seed_reproduces_episodes_with_bots():
    def run(seed):
        env = gymnasium.make("cardtable/Trash-v0", opponents="casual", max_hands=1)
        obs, _ = env.reset(seed=seed)
        trace = [obs["observation"].tobytes()]
        rng = np.random.default_rng(seed)
        for _ in range(300):
            obs, r, term, _, _ = env.step(int(rng.choice(np.flatnonzero(env.unwrapped.action_masks()))))
            trace.append((obs["observation"].tobytes(), r))
            if term:
                obs, _ = env.reset()
        return trace

    assert run(3) == run(3)
    assert run(3) != run(4)


def test_illegal_action_raises_and_the_episode_goes_on():
    env = gymnasium.make("cardtable/Trash-v0", opponents="random")
    env.reset(seed=0)
    bad = int(np.flatnonzero(~env.unwrapped.action_masks())[0])
    with pytest.raises(IllegalActionError, match="may not take action"):
        env.step(bad)
    env.step(int(np.flatnonzero(env.unwrapped.action_masks())[0]))
    with pytest.raises(ConfigError, match="opponents"):
        gymnasium.make("cardtable/Trex-v0", opponents=["random"])
    with pytest.raises(ConfigError, match="no trash bot"):
        gymnasium.make("cardtable/Trash-v0", opponents="nobody")
    for bad in (0, -5, 2.5, "10"):  # the Spit seat env checks its arguments as spit_v0 does
        with pytest.raises(ConfigError, match="max_ticks"):
            gymnasium.make("cardtable/Spit-v0", max_ticks=bad)


@pytest.mark.parametrize(("env_id", "kwargs", "says"), [
    ("cardtable/Trash-v0", {"illegal_penalty": True}, "illegal_penalty"),
    ("cardtable/Trash-v0", {"illegal_penalty": "x"}, "illegal_penalty"),
    ("cardtable/Trex-v0", {"seat": True}, "seat"),
    ("cardtable/Spit-v0", {"seat": True}, "seat"),
    ("cardtable/Spit-v0", {"opponents": "nosuch"}, "no spit bot"),
    ("cardtable/Spit-v0", {"max_ticks": True}, "max_ticks"),
    ("cardtable/Spit-v0", {"reward_scale": "x"}, "reward_scale"),
])
def test_gym_keywords_are_checked_when_the_env_is_made(env_id, kwargs, says):
    """A bool is no seat, tick count or penalty, and an unknown opponent is refused when the env
    is made, not at its first reset."""
    with pytest.raises(ConfigError, match=says):
        gymnasium.make(env_id, **kwargs)


def test_a_spit_step_with_an_agent_that_is_not_in_the_episode_is_refused():
    from cardtable.envs import spit_v0

    env = spit_v0.parallel_env()
    env.reset(seed=1)
    with pytest.raises(ConfigError, match="no such agent"):  # refused before any action is looked at
        env.step({**dict.fromkeys(env.agents, 0), "player_7": 0})



@pytest.mark.parametrize("opponents", [1, 3.5, {"x": 1}])
def test_opponents_that_are_not_bots_are_refused_at_construction(opponents):
    """An ``opponents`` that is neither a bot's name nor a bot failed at the first reset with an
    AttributeError; it is a ConfigError when the env is made, for every env."""
    from cardtable.core.errors import ConfigError
    from cardtable.envs.gym import TurnSeatEnv
    from cardtable.envs.gym_spit import SpitSeatEnv

    for make in (lambda: TurnSeatEnv("trash", opponents=opponents), lambda: TurnSeatEnv("trex", opponents=opponents),
                 lambda: SpitSeatEnv(opponents=opponents)):
        with pytest.raises(ConfigError, match="neither a bot's name nor a bot"):
            make()


class _AttachSpy:
    """A random bot that records the game it is attached to."""

    name = "spy"

    def __init__(self) -> None:
        self.games: list = []

    def attach(self, game) -> None:
        self.games.append(game)

    def act(self, view, rng, budget=None):
        return view.legal_actions[rng.randrange(len(view.legal_actions))]


@pytest.mark.parametrize(("env_id", "kwargs", "others"), [
    ("cardtable/Trex-v0", {"preset": "complex", "deals": 2}, 3),
    ("cardtable/Trash-v0", {"players": 3, "max_hands": 1}, 2),
    ("cardtable/Spit-v0", {}, 1),
])
def test_opponents_are_attached_to_the_envs_game(env_id, kwargs, others):
    """RL-gym-attach: every opponent, given by name or as an object, is told the env's game
    (``attach(game)``), as Match and the arena tell their bots."""
    spies = [_AttachSpy() for _ in range(others)]
    env = gymnasium.make(env_id, opponents=spies, **kwargs).unwrapped
    env.reset(seed=0)
    for spy in spies:
        assert spy.games and all(g is env.game for g in spy.games)


def test_search_opponents_play_under_the_envs_options():
    """RL-gym-attach: ``opponents="hard"`` on complex Trex with ``deals=2`` plays a whole game (the
    search bots, not attached, guessed the rules from the view and failed an assertion at the first
    step)."""
    env = gymnasium.make("cardtable/Trex-v0", preset="complex", deals=2, opponents="hard")
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    done, steps = False, 0
    while not done:
        _, _, done, _, _ = env.step(int(rng.choice(np.flatnonzero(env.unwrapped.action_masks()))))
        steps += 1
    assert steps > 0 and env.unwrapped.session.state.outcome() is not None
    for bot in env.unwrapped.bots.values():
        assert bot.game is env.unwrapped.game
