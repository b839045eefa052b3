"""PettingZoo env for Spit: ``spit_v0.parallel_env(tick_ms=100, preset=..., **options)`` and its
AEC conversion ``spit_v0.env(...)``.

Spit is real time (no turns): each tick both agents submit an action or the no-op
at once; :mod:`cardtable.envs.spit_session` documents the tick discretisation and
the SP-13 tie order. Agents ``player_0`` and ``player_1`` are seats 0 and 1; the
action space is ``Discrete(NUM_LOCAL)`` (a seat's own actions, then the no-op),
the mask is also ``infos[agent]["action_mask"]`` and always allows the no-op
until the game is over. A masked action that loses a race is rejected without
penalty (SP-13) and named in ``infos[agent]["rejected"]``. Rewards are the
game's returns (1 to the winner, shared on a draw). ``max_ticks`` truncates.

>>> from cardtable.envs import spit_v0
>>> env = spit_v0.parallel_env(tick_ms=50)
>>> obs, infos = env.reset(seed=7)
>>> obs["player_0"]["action_mask"][-1]
np.int8(1)
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv  # type: ignore[import-untyped]
from pettingzoo.utils.conversions import parallel_to_aec  # type: ignore[import-untyped]

from ..core.errors import ConfigError
from .aec import observation_space
from .render import spectator_text
from .session import seed_stream
from .spit_session import NUM_LOCAL, spit_session

AGENTS = ("player_0", "player_1")


class SpitParallelEnv(ParallelEnv):  # type: ignore[misc]
    """Spit as a PettingZoo Parallel env (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "spit_v0", "is_parallelizable": True}

    def __init__(
        self,
        preset: str | None = None,
        *,
        tick_ms: int = 100,
        render_mode: str | None = None,
        illegal: str = "raise",
        illegal_penalty: float = -1.0,
        reward_scale: float = 1.0,
        max_ticks: int | None = None,
        **options: Any,
    ) -> None:
        self.session = spit_session(preset, options, tick_ms=tick_ms, reward_scale=reward_scale,
                                    render_mode=render_mode, illegal=illegal, illegal_penalty=illegal_penalty,
                                    max_ticks=max_ticks)
        self.game = self.session.game
        self.render_mode = render_mode
        self.illegal = illegal
        self.illegal_penalty = float(illegal_penalty)
        self.max_ticks = max_ticks
        self.possible_agents = list(AGENTS)
        space = observation_space(self.session.encoder.size, NUM_LOCAL)
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        action = spaces.Discrete(NUM_LOCAL)
        self.action_spaces = dict.fromkeys(self.possible_agents, action)
        self._seeds = seed_stream(None)
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict[str, Any], ...]:
        if seed is not None:
            self._seeds = seed_stream(seed)
        self.session.reset(self._seeds.getrandbits(64))
        self.agents = self.possible_agents[:]
        return self._observations(), self._infos({})

    def step(self, actions: dict[str, Any]) -> tuple[dict[str, Any], ...]:
        session = self.session
        if not self.agents:
            raise ConfigError("the episode is over: call reset()")
        missing = [a for a in self.agents if a not in actions]
        if missing:
            raise ConfigError(f"every agent submits an action or the no-op each tick; missing: {', '.join(missing)}")
        unknown = [str(a) for a in actions if a not in self.agents]
        if unknown:
            raise ConfigError(f"no such agent in this episode: {', '.join(unknown)} (agents: {', '.join(self.agents)})")
        seats = {AGENTS.index(a): actions[a] for a in self.agents}
        bad = [s for s, a in seats.items() if not session.is_legal(s, a)]
        if bad and self.illegal == "penalty":
            obs = self._observations()
            rewards = {a: (self.illegal_penalty if AGENTS.index(a) in bad else 0.0) for a in self.agents}
            infos = self._infos({})
            for a in self.agents:
                infos[a]["illegal_action"] = AGENTS.index(a) in bad
            terms = dict.fromkeys(self.agents, True)
            truncs = dict.fromkeys(self.agents, False)
            self.agents = []
            return obs, rewards, terms, truncs, infos
        rejected = session.step(seats)  # raises IllegalActionError for an unmasked action
        obs = self._observations()
        returns = session.rewards()
        rewards = {a: returns[AGENTS.index(a)] for a in self.agents}
        over = session.terminal
        truncated = not over and self.max_ticks is not None and session.tick >= self.max_ticks
        terms = dict.fromkeys(self.agents, over)
        truncs = dict.fromkeys(self.agents, truncated)
        infos = self._infos(rejected)
        if over or truncated:
            self.agents = []
        return obs, rewards, terms, truncs, infos

    def _observations(self) -> dict[str, Any]:
        return {a: self.session.observation(AGENTS.index(a)) for a in self.agents}

    def _infos(self, rejected: dict[int, str]) -> dict[str, dict[str, Any]]:
        out: dict[str, dict[str, Any]] = {}
        outcome = self.session.state.outcome()
        for a in self.agents:
            seat = AGENTS.index(a)
            info: dict[str, Any] = {"action_mask": self.session.mask(seat), "tick": self.session.tick}
            if seat in rejected:
                info["rejected"] = rejected[seat]
            if outcome is not None:
                info["winner"] = seat in outcome.winners
            out[a] = info
        return out

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        head = f"spit_v0: {self.game!r}, tick {self.session.tick} ({self.session.now:.2f} s)"
        return spectator_text(self.session.state.view(None), head)

    def close(self) -> None:
        pass

    def state(self) -> np.ndarray:
        """PettingZoo's global state: the public (spectator) tensor is not defined; use observations."""
        raise NotImplementedError("spit_v0 has no global state tensor: every observation comes from a seat's view")


def parallel_env(preset: str | None = None, **kwargs: Any) -> SpitParallelEnv:
    """The Parallel env (see the module docstring)."""
    return SpitParallelEnv(preset, **kwargs)


raw_env = parallel_env


def env(preset: str | None = None, **kwargs: Any) -> Any:
    """The AEC conversion of the Parallel env (each tick's actions are collected, then applied at once)."""
    return parallel_to_aec(parallel_env(preset, **kwargs))
