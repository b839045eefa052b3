"""Many single-seat games stepped in one process, with batched numpy observations and masks.

``CardtableVectorEnv("cardtable/Trash-v0", 16, opponents="random")`` is a
:class:`gymnasium.vector.VectorEnv`: observations are ``{"observation": (N, size)
float32, "action_mask": (N, A) int8}``, rewards, terminations and truncations are
``(N,)`` arrays, and :meth:`action_masks` is the ``(N, A)`` boolean mask
(MaskablePPO). Autoreset is ``SAME_STEP``: a game that ends is reset at once; its
last observation and info are in ``infos["final_obs"]`` / ``infos["final_info"]``
(with ``infos["_final_obs"]`` marking which). ``reset(seed=s)`` seeds game ``i``
with ``s + i``, so a vector env replays the same games as its single envs.

:meth:`CardtableVectorEnv.step` checks every action before it steps any game: with
``illegal="raise"`` (the default) an action that is not a whole number legal for its
env raises :class:`~cardtable.core.errors.IllegalActionError` naming the env, and no
env changes; with ``illegal="penalty"`` each such action ends its own env's episode
with the penalty, as in the single env.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..core.errors import ConfigError, IllegalActionError


class CardtableVectorEnv(VectorEnv):
    """``num_envs`` copies of a cardtable Gymnasium env (see the module docstring)."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012 -- gymnasium's own class attribute

    def __init__(self, env_id: str, num_envs: int, **kwargs: Any) -> None:
        if not isinstance(num_envs, int) or num_envs < 1:
            raise ConfigError(f"num_envs must be a positive whole number, not {num_envs!r}")
        self.envs: list[Any] = [gymnasium.make(env_id, **kwargs).unwrapped for _ in range(num_envs)]
        self.num_envs = num_envs
        first: Any = self.envs[0]
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._size = first.observation_space["observation"].shape[0]
        self._actions = first.action_space.n

    def reset(self, *, seed: int | list[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        if seed is None or isinstance(seed, int):
            seeds: list[int | None] = [None if seed is None else seed + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise ConfigError(f"reset: {self.num_envs} envs need {self.num_envs} seeds, got {len(seeds)}")
        results = [env.reset(seed=s) for env, s in zip(self.envs, seeds, strict=True)]
        return self._batch([r[0] for r in results]), {}

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,):
            raise ConfigError(f"step: expected {self.num_envs} actions, got shape {actions.shape}")
        n = self.num_envs
        # numpy scalars as Python numbers, unrounded: 0.5 is refused as the single env refuses it
        chosen = [a.item() if isinstance(a, np.generic) else a for a in actions]
        bad = [i for i, (env, a) in enumerate(zip(self.envs, chosen, strict=True))
               if env.illegal == "raise" and not env.is_legal(a)]
        if bad:  # before any env is stepped, so that none changes
            raise IllegalActionError("; ".join(f"env {i}: {self.envs[i].illegal_message(chosen[i])}" for i in bad))
        obs: list[dict[str, np.ndarray]] = []
        rewards = np.zeros(n, dtype=np.float64)
        terms = np.zeros(n, dtype=bool)
        truncs = np.zeros(n, dtype=bool)
        final_obs = np.full(n, None, dtype=object)
        final_info = np.full(n, None, dtype=object)
        for i, (env, a) in enumerate(zip(self.envs, chosen, strict=True)):
            o, r, term, trunc, info = env.step(a)
            rewards[i], terms[i], truncs[i] = r, term, trunc
            if term or trunc:
                final_obs[i], final_info[i] = o, info
                o, _ = env.reset()
            obs.append(o)
        done = terms | truncs
        infos: dict[str, Any] = {}
        if done.any():
            infos = {"final_obs": final_obs, "_final_obs": done, "final_info": final_info, "_final_info": done}
        return self._batch(obs), rewards, terms, truncs, infos

    def action_masks(self) -> np.ndarray:
        """The ``(num_envs, num_actions)`` boolean masks of the seats to act."""
        return np.stack([env.action_masks() for env in self.envs])

    def _batch(self, obs: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
        tensors = np.empty((self.num_envs, self._size), dtype=np.float32)
        masks = np.empty((self.num_envs, self._actions), dtype=np.int8)
        for i, o in enumerate(obs):
            tensors[i] = o["observation"]
            masks[i] = o["action_mask"]
        return {"observation": tensors, "action_mask": masks}

    def render(self) -> tuple[Any, ...] | None:
        return tuple(env.render() for env in self.envs)

    def close_extras(self, **kwargs: Any) -> None:
        for env in self.envs:
            env.close()
