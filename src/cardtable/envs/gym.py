"""Gymnasium single-seat envs: one seat learns, our bots play the others.

``gymnasium.make("cardtable/Trash-v0", opponents="sensible")`` (registered when
:mod:`cardtable.envs` is imported), ``cardtable/Trex-v0`` and
``cardtable/Spit-v0`` (:mod:`cardtable.envs.spit_v0`). ``opponents`` is a bot
name for every other seat, or a list with one name (or bot object) per other
seat; ``seat`` is the learning seat. Observations and masks are those of the
PettingZoo envs; :meth:`TurnSeatEnv.action_masks` gives sb3-contrib's
MaskablePPO the current mask. The reward of a step is what the learning seat is
paid from its action until its next decision (the opponents' moves included).

A game that ends before the learning seat's first decision is replaced by the
next game of the seed stream. Gymnasium's ``check_env`` steps with unmasked
random actions: it passes with ``illegal="penalty"``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from ..bots import Bot, make_bot
from ..bots.base import adapt, attach
from ..core.chance import derive
from ..core.errors import ConfigError, IllegalActionError
from ..core.game import Game
from ..core.registry import load
from .aec import observation_space
from .encode_trash import TrashEncoder
from .encode_trex import TrexEncoder
from .render import spectator_text
from .session import (
    Encoder,
    TurnSession,
    bot_or_name,
    check_illegal_mode,
    illegal_message,
    seat_number,
    seed_stream,
)

ENV_KEYS = ("illegal", "illegal_penalty", "reward_scale", "per_deal_rewards", "per_trick_rewards",
            "seconds_per_action")


def opponent_bots(game: Game, opponents: str | Bot | Sequence[str | Bot], seats: list[int]) -> dict[int, Bot]:
    """One bot per seat in ``seats``: ``opponents`` is a name or bot for all, or one per seat. Each is
    attached to ``game`` (:func:`cardtable.bots.base.attach`), as a Match attaches its bots: a
    search bot then deals its worlds under the game's rule options, which a view does not carry."""
    many = opponents if isinstance(opponents, (list, tuple)) else [opponents] * len(seats)
    if len(many) != len(seats):
        raise ConfigError(f"opponents: {len(seats)} other seats need {len(seats)} bots, got {len(many)}")
    out: dict[int, Bot] = {}
    for seat, bot in zip(seats, many, strict=True):
        out[seat] = adapt(make_bot(game.name, bot) if isinstance(bot_or_name(bot), str) else bot)
        attach(out[seat], game)
    return out


def encoder_for(game: Game) -> Encoder:
    if game.name == "trash":
        return TrashEncoder(game)  # type: ignore[arg-type]
    if game.name == "trex":
        return TrexEncoder()
    raise ConfigError(f"no turn-based env for {game.name}")


class TurnSeatEnv(gymnasium.Env):
    """One seat of Trash or Trex against bots (see the module docstring)."""

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 -- gymnasium's own class attribute

    def __init__(
        self,
        game: str = "trash",
        preset: str | None = None,
        *,
        opponents: str | Bot | Sequence[str | Bot] = "random",
        seat: int = 0,
        render_mode: str | None = None,
        **kwargs: Any,
    ) -> None:
        env_kw = {k: kwargs.pop(k) for k in list(kwargs) if k in ENV_KEYS}
        self.game = load(game, preset, **kwargs)
        seat = seat_number(seat, self.game.num_players)
        if render_mode not in (None, "ansi"):
            raise ConfigError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.illegal = env_kw.pop("illegal", "raise")
        penalty = env_kw.pop("illegal_penalty", -1.0)
        check_illegal_mode(self.illegal, penalty)
        self.illegal_penalty = float(penalty)
        self.render_mode = render_mode
        self.seat = seat
        self.session = TurnSession(self.game, encoder_for(self.game), **env_kw)
        others = [s for s in range(self.game.num_players) if s != seat]
        self.bots = opponent_bots(self.game, opponents, others)
        self.observation_space = observation_space(self.session.encoder.size, self.game.num_distinct_actions)
        self.action_space = spaces.Discrete(self.game.num_distinct_actions)
        self._seeds = seed_stream(None)
        self._rngs: dict[int, random.Random] = {}
        self._over = True
        self.illegal_actions = 0

    # -------------------------------------------------------------- API
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._seeds = seed_stream(seed)
        while True:
            game_seed = self._seeds.getrandbits(64)
            self.session.reset(game_seed)
            self._rngs = {s: derive(game_seed, "env", "bot", s) for s in self.bots}
            self._play_others()
            if not self.session.terminal:
                break
        self._over = False
        return self.session.observation(self.seat), self._info()

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if self._over:
            raise IllegalActionError("the episode is over: call reset()")
        session = self.session
        if not session.is_legal(self.seat, action):
            self.illegal_actions += 1
            if self.illegal == "raise":
                session.apply(self.seat, action)  # raises the clear error, state unchanged
            self._over = True
            info = self._info()
            info["illegal_action"] = True
            return session.observation(self.seat), self.illegal_penalty, True, False, info
        reward = session.apply(self.seat, action)[self.seat]
        reward += self._play_others()
        self._over = session.terminal
        return session.observation(self.seat), reward, self._over, False, self._info()

    def action_masks(self) -> np.ndarray:
        """The legal actions of the learning seat now, as booleans (sb3-contrib's MaskablePPO)."""
        return self.session.mask(self.seat).astype(bool)

    def is_legal(self, action: Any) -> bool:
        """May the learning seat take ``action`` (a whole number, legal now) in this step?"""
        return not self._over and self.session.is_legal(self.seat, action)

    def illegal_message(self, action: Any) -> str:
        """Why ``action`` is refused, naming the legal ones."""
        if self._over:
            return "the episode is over: call reset()"
        return illegal_message(self.game, self.seat, action, self.session.legal(self.seat))

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return spectator_text(self.session.view(None), f"{self.game!r}, seat {self.seat}")

    # --------------------------------------------------------- internals
    def _play_others(self) -> float:
        """Let the bots move until the learning seat's turn or the end; the seat's reward meanwhile."""
        session = self.session
        paid = 0.0
        while not session.terminal:
            seat = session.to_act
            if seat == self.seat:
                break
            action = self.bots[seat].act(session.view(seat), self._rngs[seat])
            paid += session.apply(seat, action.index)[self.seat]
        return paid

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self.session.mask(self.seat)}
        outcome = self.session.state.outcome()
        if outcome is not None:
            info["returns"] = outcome.returns[self.seat]
            info["winner"] = self.seat in outcome.winners
        return info


def register_envs() -> None:
    """Register ``cardtable/Trash-v0``, ``cardtable/Trex-v0`` and ``cardtable/Spit-v0``."""
    registry = gymnasium.envs.registration.registry
    if "cardtable/Trash-v0" not in registry:
        gymnasium.register("cardtable/Trash-v0", entry_point="cardtable.envs.gym:TurnSeatEnv", kwargs={"game": "trash"})
    if "cardtable/Trex-v0" not in registry:
        gymnasium.register("cardtable/Trex-v0", entry_point="cardtable.envs.gym:TurnSeatEnv", kwargs={"game": "trex"})
    if "cardtable/Spit-v0" not in registry:
        gymnasium.register("cardtable/Spit-v0", entry_point="cardtable.envs.gym_spit:SpitSeatEnv")
