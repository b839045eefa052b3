"""AEC steps per second with random masked actions, our envs beside PettingZoo's
``texas_holdem_v4`` and ``leduc_holdem_v4`` and RLCard's own env loop, in the same run; and the
vector env.

    python bench/envs.py [--steps 20000] [--seed 0] [--ours-only]

Every loop is the same: read the acting agent's observation and mask, pick a legal action
uniformly (``rng.choice(np.flatnonzero(mask))``), step; reset when the game ends. A step is one
agent's action (Spit: one tick of the AEC conversion, i.e. one agent's submission). Time is the
CPU time of this thread (time the machine gives to other processes does not count). Needs the
peers: ``pip install rlcard pygame`` (PettingZoo's classic card envs are built on RLCard).
Target: our AEC step at least 2x as fast as texas_holdem_v4's.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import numpy as np

TARGET = 2.0


def aec_rate(make: Callable[[], Any], steps: int, seed: int) -> float:
    """AEC steps per CPU second of random masked play."""
    env = make()
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    done = 0
    t = time.thread_time()
    while done < steps:
        for _agent in env.agent_iter():
            obs, _, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
                continue
            mask = obs["action_mask"] if isinstance(obs, dict) and "action_mask" in obs else info["action_mask"]
            env.step(int(rng.choice(np.flatnonzero(mask))))
            done += 1
            if done >= steps:
                break
        else:
            env.reset()
    return steps / (time.thread_time() - t)


def rlcard_rate(name: str, steps: int, seed: int) -> float:
    """RLCard's own loop: ``env.step(action)`` with a random legal action, reset at the end."""
    import rlcard  # type: ignore[import-not-found]

    env = rlcard.make(name, config={"seed": seed})
    rng = np.random.default_rng(seed)
    state, _ = env.reset()
    done = 0
    t = time.thread_time()
    while done < steps:
        legal = list(state["legal_actions"])
        state, _ = env.step(legal[rng.integers(len(legal))])
        done += 1
        if env.is_over():
            state, _ = env.reset()
    return steps / (time.thread_time() - t)


def vector_rate(env_id: str, n: int, steps: int, seed: int, **kwargs: Any) -> float:
    """Learner steps per CPU second of the vector env (each of its ``n`` games counts)."""
    from cardtable.envs.vector import CardtableVectorEnv

    vec = CardtableVectorEnv(env_id, n, **kwargs)
    vec.reset(seed=seed)
    rng = np.random.default_rng(seed)
    done = 0
    t = time.thread_time()
    while done < steps:
        masks = vec.action_masks()
        vec.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
        done += n
    return done / (time.thread_time() - t)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=20_000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--ours-only", action="store_true",
                   help="only cardtable's envs, no comparison (the peers: pip install rlcard pygame)")
    a = p.parse_args(argv)
    from cardtable.envs import spit_v0, trash_v0, trex_v0

    rows: list[tuple[str, float]] = []
    if not a.ours_only:
        try:
            import pygame  # type: ignore[import-not-found]  # noqa: F401  (PettingZoo's classic card envs import it)
            import rlcard  # noqa: F401
            from pettingzoo.classic import leduc_holdem_v4, texas_holdem_v4  # type: ignore[import-untyped]
        except ImportError as exc:
            print(f"bench/envs.py: the peers are not installed ({exc}): pip install rlcard pygame "
                  "(or --ours-only)")
            return 1
        rows += [
            ("pettingzoo texas_holdem_v4", aec_rate(texas_holdem_v4.env, a.steps, a.seed)),
            ("pettingzoo leduc_holdem_v4", aec_rate(leduc_holdem_v4.env, a.steps, a.seed)),
            ("rlcard leduc-holdem loop", rlcard_rate("leduc-holdem", a.steps, a.seed)),
            ("rlcard limit-holdem loop", rlcard_rate("limit-holdem", a.steps, a.seed)),
        ]
    rows += [
        ("cardtable trash_v0", aec_rate(trash_v0.env, a.steps, a.seed)),
        ("cardtable trash_v0 (4 players)", aec_rate(lambda: trash_v0.env(players=4), a.steps, a.seed)),
        ("cardtable trex_v0", aec_rate(trex_v0.env, a.steps, a.seed)),
        ("cardtable spit_v0 (AEC conversion)", aec_rate(spit_v0.env, a.steps, a.seed)),
        ("vector Trash-v0 x16 vs random", vector_rate("cardtable/Trash-v0", 16, a.steps, a.seed)),
        ("vector Trex-v0 x16 vs random", vector_rate("cardtable/Trex-v0", 16, a.steps // 2, a.seed)),
        ("vector Spit-v0 x16 vs random", vector_rate("cardtable/Spit-v0", 16, a.steps, a.seed, opponents="random")),
    ]
    if a.ours_only:
        print(f"{'env':40} {'steps/s (CPU)':>14}")
        for name, rate in rows:
            print(f"{name:40} {rate:14,.0f}")
        print("no comparison: the peers were not measured (--ours-only)")
        return 0
    texas = rows[0][1]
    print(f"{'env':40} {'steps/s (CPU)':>14} {'vs texas_holdem_v4':>19}")
    for name, rate in rows:
        print(f"{name:40} {rate:14,.0f} {rate / texas:18.2f}x")
    ours = [r for n, r in rows if n.startswith("cardtable")]
    worst = min(ours) / texas
    print(f"slowest cardtable AEC env: {worst:.2f}x texas_holdem_v4 (target {TARGET:.1f}x): "
          f"{'met' if worst >= TARGET else 'NOT met'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
