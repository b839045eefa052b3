"""A PettingZoo AEC env over a turn-based cardtable game (Trash, Trex).

Agents are ``player_0`` … ``player_{n-1}`` (agent ``player_i`` is seat ``i``).
Each observation is ``{"observation": float32 tensor, "action_mask": int8}``
built from the seat's view alone; the mask has one cell per action index
(``game.num_distinct_actions``) and is also ``infos[agent]["action_mask"]``.
Agents not on turn have an all-zero mask: they may not act. Rewards are the
game's returns at the end (see :class:`~cardtable.envs.session.TurnSession`
for per-deal Trex rewards). ``reset(seed=s)`` fixes every later episode too.

An illegal action raises :class:`~cardtable.core.errors.IllegalActionError`
naming the legal ones, and the env is unchanged; with ``illegal="penalty"`` it
ends the episode instead: the offender is paid ``illegal_penalty``, the other
seats 0, and ``infos[agent]["illegal_action"]`` is true.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from ..core.errors import ConfigError
from ..core.game import Game
from .render import spectator_text
from .session import OBS_BOUND, Encoder, TurnSession, check_illegal_mode, seed_stream


def observation_space(size: int, num_actions: int) -> spaces.Dict:
    """The Dict space of one agent's observation."""
    return spaces.Dict({
        "observation": spaces.Box(-OBS_BOUND, OBS_BOUND, (size,), np.float32),
        "action_mask": spaces.Box(0, 1, (num_actions,), np.int8),
    })


class CardtableAECEnv(AECEnv):  # type: ignore[misc]
    """A turn-based cardtable game as a PettingZoo AEC env (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "cardtable", "is_parallelizable": False}

    def __init__(
        self,
        game: Game,
        encoder: Encoder,
        name: str,
        *,
        render_mode: str | None = None,
        illegal: str = "raise",
        illegal_penalty: float = -1.0,
        reward_scale: float = 1.0,
        per_deal_rewards: bool = False,
        per_trick_rewards: bool = False,
        seconds_per_action: float = 1.0,
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ConfigError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        check_illegal_mode(illegal, illegal_penalty)
        self.metadata = {**type(self).metadata, "name": name}  # type: ignore[misc]
        self.render_mode = render_mode
        self.illegal = illegal
        self.illegal_penalty = float(illegal_penalty)
        self.session = TurnSession(
            game, encoder, reward_scale=reward_scale, per_deal_rewards=per_deal_rewards,
            per_trick_rewards=per_trick_rewards, seconds_per_action=seconds_per_action,
        )
        self.game = game
        n = game.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        space = observation_space(encoder.size, game.num_distinct_actions)
        self.observation_spaces = {a: space for a in self.possible_agents}
        action = spaces.Discrete(game.num_distinct_actions)
        self.action_spaces = {a: action for a in self.possible_agents}
        self._seeds = seed_stream(None)
        self.agents: list[str] = []
        self._started = False

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ---------------------------------------------------------------- API
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = seed_stream(seed)
        self.session.reset(self._seeds.getrandbits(64))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._started = True
        self._refresh()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if not self._started:
            raise ConfigError("call reset() before observe()")
        return self.session.observation(self._seat[agent])

    def step(self, action: Any) -> None:
        if not self._started:
            raise ConfigError("call reset() before step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seat[agent]
        session = self.session
        if self.illegal == "penalty" and not session.is_legal(seat, action):
            self._cumulative_rewards[agent] = 0.0
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.rewards[agent] = self.illegal_penalty
            self.terminations = dict.fromkeys(self.agents, True)
            self._refresh(illegal_by=agent)
            self._accumulate_rewards()
            return
        rewards = session.apply(seat, action)  # raises IllegalActionError, env unchanged
        self._cumulative_rewards[agent] = 0.0  # only once the action is taken: a refused one keeps the pending reward
        self.rewards = {a: rewards[self._seat[a]] for a in self.agents}
        if session.terminal:
            self.terminations = dict.fromkeys(self.agents, True)
        self._refresh()
        self._accumulate_rewards()

    def _refresh(self, illegal_by: str | None = None) -> None:
        """Agent selection and infos (with each agent's mask) after a change."""
        session = self.session
        to_act = session.to_act
        if to_act >= 0 and illegal_by is None:
            self.agent_selection = self.possible_agents[to_act]
        elif illegal_by is not None:
            self.agent_selection = illegal_by
        else:
            self.agent_selection = self.agents[0]
        for a in self.agents:
            seat = self._seat[a]
            info: dict[str, Any] = {
                "action_mask": session.mask(seat) if seat == to_act and illegal_by is None
                else np.zeros(session.num_actions, dtype=np.int8),
            }
            if illegal_by is not None:
                info["illegal_action"] = a == illegal_by
            outcome = session.state.outcome()
            if outcome is not None:
                info["returns"] = outcome.returns[seat]
                info["winner"] = seat in outcome.winners
            self.infos[a] = info

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        if not self._started:
            raise ConfigError("call reset() before render()")
        return spectator_text(self.session.view(None), f"{self.metadata['name']}: {self.game!r}")

    def close(self) -> None:
        pass

    @property
    def state_obj(self) -> Any:
        """The underlying engine state (for tests and tools; agents see views only)."""
        return self.session.state
