"""spit_v0 (Parallel, its AEC conversion) and cardtable/Spit-v0: PettingZoo's parallel_api_test,
the SP-13 tick discretisation (ties, rejections without penalty, timers), seeding, masks."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import parallel_api_test, parallel_seed_test

import cardtable
from cardtable.core.errors import ConfigError, IllegalActionError
from cardtable.envs import spit_v0
from cardtable.envs.spit_session import NOOP, NUM_LOCAL, SEAT_ACTIONS, local_index

SPIT_PRESETS = list(cardtable.load("spit").PRESETS)


def random_ticks(env, seed, ticks=100_000):
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    trace = []
    while env.agents and ticks:
        ticks -= 1
        actions = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in env.agents}
        obs, rewards, _terms, _truncs, infos = env.step(actions)
        trace.append((actions, rewards, {a: i.get("rejected") for a, i in infos.items()}))
    return trace


@pytest.mark.parametrize("preset", SPIT_PRESETS)
def test_spit_v0_parallel_api_test(preset):
    parallel_api_test(spit_v0.parallel_env(preset=preset, max_ticks=400), num_cycles=400)


def test_spit_v0_parallel_seed_test_with_unmasked_actions_under_the_penalty_option():
    parallel_seed_test(lambda: spit_v0.parallel_env(illegal="penalty", max_ticks=200), num_cycles=100)


@pytest.mark.parametrize(
    "options", [{"auto_flip": False}, {"allow_same_rank_stacking": True}, {"scoring": "points", "points_limit": 20},
                {"allow_mutual_spit": False, "max_rounds": 3}],
    ids=lambda o: ",".join(o),
)
def test_spit_v0_options_play_to_the_end_with_returns_as_rewards(options):
    env = spit_v0.parallel_env(tick_ms=200, **options)
    trace = random_ticks(env, seed=3)
    assert not env.agents
    final = trace[-1][1]
    assert sum(final.values()) == pytest.approx(1.0)


def test_sp13_reset_seed_reproduces_ticks_ties_and_rejections():
    a = random_ticks(spit_v0.parallel_env(), seed=8)
    b = random_ticks(spit_v0.parallel_env(), seed=8)
    assert a == b
    assert any(r for _, _, rej in a for r in rej.values()), "random play loses some races (SP-13)"


def test_sp13_a_race_lost_in_one_tick_is_rejected_without_penalty():
    """Both seats play onto the same spit pile at the same instant; when both cards fit the pile's top
    but not each other, the seeded tie order applies one and rejects the other, which stays put."""
    env = spit_v0.parallel_env()
    for seed in range(200):
        _obs, _ = env.reset(seed=seed)
        state = env.session.state
        plays = {}
        for seat in (0, 1):
            for a in state.legal_actions(seat):
                if a.kind == "play" and a.target == 0:
                    plays[seat] = a
                    break
        if len(plays) == 2 and not cardtable.games.spit.adjacent(plays[0].card, plays[1].card):
            break
    else:
        pytest.skip("no race position in 200 seeds")
    held = [state.cards_held(s) for s in (0, 1)]
    _, rewards, _, _, infos = env.step({f"player_{s}": local_index(plays[s]) for s in (0, 1)})
    losers = [a for a in infos if "rejected" in infos[a]]
    assert len(losers) == 1 and "not adjacent" in infos[losers[0]]["rejected"]
    assert rewards == {"player_0": 0.0, "player_1": 0.0}
    loser = int(losers[0][-1])
    assert state.cards_held(loser) == held[loser]


def test_sp16_spit_delay_runs_in_ticks():
    env = spit_v0.parallel_env(tick_ms=250, spit_delay=1.0)
    obs, _ = env.reset(seed=0)
    while env.session.state.phase.value != "spit_pending":
        obs, *_ = env.step({a: NOOP for a in env.agents} if env.session.state.blocked() else
                           {a: int(np.flatnonzero(obs[a]["action_mask"])[0]) for a in env.agents})
    waited = 0
    while env.session.state.phase.value == "spit_pending":
        env.step({a: NOOP for a in env.agents})
        waited += 1
    assert waited == 4, "a 1 s spit_delay is four 250 ms ticks"


def test_local_actions_cover_each_seat_and_the_noop():
    assert NUM_LOCAL == NOOP + 1 == len(SEAT_ACTIONS[0]) + 1
    assert all(a.seat == s for s in (0, 1) for a in SEAT_ACTIONS[s])
    assert [local_index(a) for a in SEAT_ACTIONS[1][:5]] == [0, 1, 2, 3, 4]


def test_spit_illegal_actions_raise_or_end_with_a_penalty():
    env = spit_v0.parallel_env()
    obs, _ = env.reset(seed=1)
    bad = int(np.flatnonzero(obs["player_0"]["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match="seat 0 may not take action"):
        env.step({"player_0": bad, "player_1": NOOP})
    with pytest.raises(ConfigError, match="missing: player_1"):
        env.step({"player_0": NOOP})
    env = spit_v0.parallel_env(illegal="penalty", illegal_penalty=-2)
    env.reset(seed=1)
    _, rewards, terms, _, _infos = env.step({"player_0": bad, "player_1": NOOP})
    assert rewards == {"player_0": -2, "player_1": 0.0} and all(terms.values()) and not env.agents
    with pytest.raises(ConfigError, match="tick_ms"):
        spit_v0.parallel_env(tick_ms=0)


def test_spit_v0_aec_conversion_plays_a_whole_game():
    env = spit_v0.env(tick_ms=200)
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    for _agent in env.agent_iter(100_000):
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert not env.agents


def test_spit_gym_env_check_env_and_real_time_bot_opponent():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(gymnasium.make("cardtable/Spit-v0", opponents="medium", illegal="penalty",
                                 render_mode="ansi").unwrapped)
    env = gymnasium.make("cardtable/Spit-v0", opponents="expert", tick_ms=100)
    env.reset(seed=4)
    state = env.unwrapped.session.state
    held = [state.cards_held(0), state.cards_held(1)]
    for _ in range(100):  # ten virtual seconds in which seat 0 does nothing
        env.step(NOOP)
    assert not [a for a in state.history if a.seat == 0]
    assert [a for a in state.history if a.seat == 1 and a.kind == "play"], "the bot plays in the same virtual time"
    assert state.cards_held(1) < held[1]
    assert env.unwrapped.session.now == pytest.approx(10.0)


def test_spit_v0_render_ansi_is_the_spectator_view():
    env = spit_v0.parallel_env(render_mode="ansi")
    env.reset(seed=5)
    text = env.render()
    assert text.startswith("spit_v0: ") and "spit_sizes" in text
    assert spit_v0.parallel_env().render() is None
