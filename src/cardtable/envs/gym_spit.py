"""``gymnasium.make("cardtable/Spit-v0", opponents="medium", tick_ms=100)``: one Spit seat
in ticks against one of our real-time bots.

The opponent is a reaction-time bot run by the real-time host in the same virtual
time (:mod:`cardtable.envs.spit_session`); a turn-style bot such as ``random``
acts once per tick. Each step is one tick: the seat's local action or the no-op.
``action_masks()`` for MaskablePPO; ``max_ticks`` truncates.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from ..bots import Bot, make_bot
from ..bots.base import attach, reacts
from ..core.errors import ConfigError, IllegalActionError
from ..core.seats import next_seat
from ..host.realtime import RealtimeBot
from .aec import observation_space
from .render import spectator_text
from .session import bot_or_name, seat_number, seed_stream
from .spit_session import NUM_LOCAL, EveryTick, spit_session


class SpitSeatEnv(gymnasium.Env):
    """One Spit seat against a bot (see the module docstring)."""

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 -- gymnasium's own class attribute

    def __init__(
        self,
        preset: str | None = None,
        *,
        opponents: str | Bot | RealtimeBot = "medium",
        seat: int = 0,
        tick_ms: int = 100,
        render_mode: str | None = None,
        illegal: str = "raise",
        illegal_penalty: float = -1.0,
        reward_scale: float = 1.0,
        max_ticks: int | None = None,
        **options: Any,
    ) -> None:
        seat = seat_number(seat, 2)
        if isinstance(opponents, (list, tuple)):
            if len(opponents) != 1:
                raise ConfigError(f"opponents: Spit has one other seat, got {len(opponents)} bots")
            opponents = opponents[0]
        self.session = spit_session(preset, options, tick_ms=tick_ms, reward_scale=reward_scale,
                                    render_mode=render_mode, illegal=illegal, illegal_penalty=illegal_penalty,
                                    max_ticks=max_ticks)
        self.game = self.session.game
        self.seat = seat
        self.other = next_seat(seat, 2)
        self.render_mode = render_mode
        self.illegal = illegal
        self.illegal_penalty = float(illegal_penalty)
        self.max_ticks = max_ticks
        self._opponent = bot_or_name(opponents)
        self._bot()  # a bot name that does not exist is refused now, not at the first reset
        self.observation_space = observation_space(self.session.encoder.size, NUM_LOCAL)
        self.action_space = spaces.Discrete(NUM_LOCAL)
        self._seeds = seed_stream(None)
        self._over = True

    def _bot(self) -> RealtimeBot:
        bot: Any = make_bot("spit", self._opponent) if isinstance(self._opponent, str) else self._opponent
        attach(bot, self.game)  # the game's rule options, as a Match tells its bots
        return bot if reacts(bot) else EveryTick(bot, self.session.tick_ms / 1000.0)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._seeds = seed_stream(seed)
        game_seed = self._seeds.getrandbits(64)
        self.session.reset(game_seed, bots={self.other: self._bot()})
        self._over = False
        return self.session.observation(self.seat), self._info({})

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if self._over:
            raise IllegalActionError("the episode is over: call reset()")
        session = self.session
        if not session.is_legal(self.seat, action):
            if self.illegal == "raise":
                raise IllegalActionError(session.illegal_message(self.seat, action))
            self._over = True
            info = self._info({})
            info["illegal_action"] = True
            return session.observation(self.seat), self.illegal_penalty, True, False, info
        rejected = session.step({self.seat: action})
        over = session.terminal
        truncated = not over and self.max_ticks is not None and session.tick >= self.max_ticks
        self._over = over or truncated
        reward = session.rewards()[self.seat]
        return session.observation(self.seat), reward, over, truncated, self._info(rejected)

    def action_masks(self) -> np.ndarray:
        return self.session.mask(self.seat).astype(bool)

    def is_legal(self, action: Any) -> bool:
        """May the seat take ``action`` (a whole number, legal now) in this tick?"""
        return not self._over and self.session.is_legal(self.seat, action)

    def illegal_message(self, action: Any) -> str:
        """Why ``action`` is refused, naming the legal ones."""
        if self._over:
            return "the episode is over: call reset()"
        return self.session.illegal_message(self.seat, action)

    def _info(self, rejected: dict[int, str]) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self.session.mask(self.seat), "tick": self.session.tick}
        if self.seat in rejected:
            info["rejected"] = rejected[self.seat]
        outcome = self.session.state.outcome()
        if outcome is not None:
            info["winner"] = self.seat in outcome.winners
        return info

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        head = f"{self.game!r}, seat {self.seat}, tick {self.session.tick}"
        return spectator_text(self.session.state.view(None), head)
