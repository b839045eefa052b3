"""The vector env: batched observations and masks, SAME_STEP autoreset, the same games as its single envs."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import cardtable.envs  # noqa: F401
from cardtable.core.errors import ConfigError, IllegalActionError
from cardtable.envs.vector import CardtableVectorEnv


@pytest.mark.parametrize(
    ("env_id", "kwargs"),
    [("cardtable/Trash-v0", {"max_hands": 1}), ("cardtable/Trex-v0", {"preset": "complex"}),
     ("cardtable/Spit-v0", {"opponents": "random"})],
)
def test_vector_env_batches_and_replays_its_single_envs(env_id, kwargs):
    n = 4
    vec = CardtableVectorEnv(env_id, n, **kwargs)
    singles = [gymnasium.make(env_id, **kwargs).unwrapped for _ in range(n)]
    obs, _ = vec.reset(seed=10)
    single_obs = [e.reset(seed=10 + i)[0] for i, e in enumerate(singles)]
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(150):
        assert vec.observation_space.contains(obs)
        masks = vec.action_masks()
        assert masks.shape == (n, vec.single_action_space.n) and masks.any(axis=1).all()
        assert np.array_equal(masks, obs["action_mask"].astype(bool))
        for i in range(n):
            assert np.array_equal(obs["observation"][i], single_obs[i]["observation"])
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, terms, truncs, infos = vec.step(actions)
        for i, e in enumerate(singles):
            o, r, te, tr, _ = e.step(int(actions[i]))
            assert r == rewards[i] and te == terms[i] and tr == truncs[i]
            if te or tr:
                assert np.array_equal(infos["final_obs"][i]["observation"], o["observation"])
                o, _ = e.reset()
                finished += 1
            single_obs[i] = o
    if env_id == "cardtable/Trash-v0":
        assert finished > 0, "one-hand games end within 150 steps and are reset in the same step"


def test_vector_env_rejects_bad_shapes():
    vec = CardtableVectorEnv("cardtable/Trash-v0", 2)
    vec.reset(seed=0)
    with pytest.raises(ConfigError, match="expected 2 actions"):
        vec.step(np.array([0]))
    with pytest.raises(ConfigError, match="num_envs"):
        CardtableVectorEnv("cardtable/Trash-v0", 0)


@pytest.mark.parametrize(
    ("env_id", "kwargs"),
    [("cardtable/Trash-v0", {"max_hands": 1}), ("cardtable/Trex-v0", {"preset": "complex"}),
     ("cardtable/Spit-v0", {"opponents": "random"})],
)
def test_vector_step_checks_every_action_before_stepping_any_env(env_id, kwargs):
    """RL-vector-atomic: one illegal action (or one that is not a whole number, such as 0.5) raises
    IllegalActionError naming its env, and no env is stepped, the legal ones' included."""
    vec = CardtableVectorEnv(env_id, 3, opponents="random", **{k: v for k, v in kwargs.items() if k != "opponents"})
    vec.reset(seed=1)
    masks = vec.action_masks()
    legal = [int(np.flatnonzero(m)[0]) for m in masks]
    illegal = int(np.flatnonzero(~masks[2])[0])

    def snapshot():
        return [(len(e.session.state.history), e.session.observation(e.seat)["observation"].tolist()) for e in vec.envs]

    before = snapshot()
    with pytest.raises(IllegalActionError, match=r"^env 2: seat 0 may not take action"):
        vec.step(np.array([legal[0], legal[1], illegal]))
    assert snapshot() == before
    halves = np.array(legal, dtype=np.float64)
    halves[1] += 0.5
    with pytest.raises(IllegalActionError, match=r"env 1: .*not a whole number"):
        vec.step(halves)
    assert snapshot() == before
    vec.step(np.array(legal, dtype=np.float64))  # whole floats are taken as the single env takes them
    assert snapshot() != before


def test_vector_step_with_penalty_ends_only_the_offending_envs_episode():
    """RL-vector-atomic: with ``illegal="penalty"`` a non-whole action is penalised in its own env, as in
    the single env, and the other envs step as usual."""
    vec = CardtableVectorEnv("cardtable/Trash-v0", 2, opponents="random", max_hands=1, illegal="penalty",
                             illegal_penalty=-3)
    vec.reset(seed=1)
    legal = [float(np.flatnonzero(m)[0]) for m in vec.action_masks()]
    _, rewards, terms, _, infos = vec.step(np.array([legal[0] + 0.5, legal[1]]))
    assert rewards[0] == -3 and terms[0] and infos["final_info"][0]["illegal_action"]
    assert not terms[1]
