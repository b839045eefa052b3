"""Spit in ticks (SP-13): the discretisation the Spit envs share.

Time runs in ticks of ``tick_ms`` milliseconds; tick ``k`` is the virtual
instant ``k * tick_ms / 1000`` s. An observation is taken at a tick; every
learning seat then submits one action or the no-op, and the actions arrive at
that same instant. Everything is fed through the project's real-time host
(:class:`~cardtable.host.realtime.RealtimeHost` on a virtual clock), so SP-13
is applied exactly as in live play:

* actions with the same timestamp (both seats in one tick, or a bot's or a
  timer's due at that instant) are ordered by the engine's ``tie_rank`` (SP-20:
  the seat that emptied its stock wins a slap tie; timers after players), then
  by the host's seeded RNG (``derive(seed, "host", "ties")``);
* each action is checked when it is applied: a play that lost the race or went
  stale is rejected without penalty (the env reports it in ``info["rejected"]``);
* bots (reaction-time models) and the timers (``spit_delay``, ``slap_timeout``)
  act at their own virtual times between ticks; events due exactly at the next
  tick are processed with that tick's actions.

Actions are local to a seat: seat ``s``'s action ``i < NOOP`` is the ``i``-th
of its own Spit actions in index order (:data:`SEAT_ACTIONS`), and ``NOOP``
(the last) submits nothing. A mask is therefore the same length for both seats.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..core.chance import derive
from ..core.errors import ConfigError, IllegalActionError
from ..core.registry import load
from ..games.spit import SpitGame
from ..games.spit.actions import ALL_ACTIONS, SpitAction
from ..host.clock import VirtualClock
from ..host.factory import realtime_host
from ..host.realtime import RealtimeBot
from .encode_spit import SpitEncoder
from .session import check_illegal_mode, number

SEAT_ACTIONS: tuple[tuple[SpitAction, ...], ...] = tuple(
    tuple(a for a in ALL_ACTIONS if a.seat == s) for s in (0, 1)
)
"""``SEAT_ACTIONS[s][i]``: seat ``s``'s local action ``i`` (its actions in global index order)."""
NOOP = len(SEAT_ACTIONS[0])
"""The local index of "do nothing this tick"; the action space has ``NOOP + 1`` actions."""
NUM_LOCAL = NOOP + 1
_LOCAL = tuple({a.index: i for i, a in enumerate(SEAT_ACTIONS[s])} for s in (0, 1))
assert len(SEAT_ACTIONS[1]) == NOOP


def local_index(action: SpitAction) -> int:
    """The local index of a seat's action."""
    assert action.seat is not None
    return _LOCAL[action.seat][action.index]


def spit_session(preset: str | None, options: Mapping[str, Any], *, tick_ms: int, reward_scale: float,
                 render_mode: str | None, illegal: str, illegal_penalty: float, max_ticks: int | None
                 ) -> SpitSession:
    """The session of a Spit env, every argument checked (what ``spit_v0`` and ``Spit-v0`` share)."""
    if render_mode not in (None, "ansi"):
        raise ConfigError(f"render_mode must be None or 'ansi', not {render_mode!r}")
    check_illegal_mode(illegal, illegal_penalty)
    if max_ticks is not None and (isinstance(max_ticks, bool) or not isinstance(max_ticks, int) or max_ticks < 1):
        raise ConfigError(f"max_ticks must be a positive whole number, not {max_ticks!r}")
    game = load("spit", preset, **options)
    assert isinstance(game, SpitGame)
    return SpitSession(game, tick_ms=tick_ms, reward_scale=reward_scale)


class SpitSession:
    """One Spit game stepped in ticks (see the module docstring)."""

    def __init__(self, game: SpitGame, *, tick_ms: int = 100, reward_scale: float = 1.0) -> None:
        if not isinstance(tick_ms, int) or isinstance(tick_ms, bool) or not 1 <= tick_ms <= 10_000:
            raise ConfigError(f"tick_ms must be a whole number of milliseconds from 1 to 10000, not {tick_ms!r}")
        self.game = game
        self.encoder = SpitEncoder()
        self.tick_ms = tick_ms
        self.reward_scale = number("reward_scale", reward_scale)
        self.bots: dict[int, RealtimeBot] = {}
        self.reset(0)

    def reset(self, seed: int, bots: Mapping[int, RealtimeBot] | None = None) -> None:
        self.bots = dict(bots or {})
        self.state = self.game.new_state(seed=seed)
        self.clock = VirtualClock(0.0)
        self.tick = 0
        self.host = realtime_host(self.game, self.state, self.clock, bots=self.bots,
                                  seed=derive(seed, "env").getrandbits(63))
        self._views: dict[int, Any] = {}
        self._masks: dict[int, np.ndarray] = {}  # per tick, like the views: a step checks and shows each

    @property
    def now(self) -> float:
        return self.tick * self.tick_ms / 1000.0

    @property
    def terminal(self) -> bool:
        return self.state.is_terminal()

    def view(self, seat: int) -> Any:
        v = self._views.get(seat)
        if v is None:
            v = self._views[seat] = self.state.view(seat)
        return v

    def mask(self, seat: int) -> np.ndarray:
        """``seat``'s action mask at this tick (a copy: the caller may keep or change it)."""
        return self._mask(seat).copy()

    def _mask(self, seat: int) -> np.ndarray:
        out = self._masks.get(seat)
        if out is not None:
            return out
        out = self._masks[seat] = np.zeros(NUM_LOCAL, dtype=np.int8)
        if self.terminal:
            return out
        local = _LOCAL[seat]
        legal = [local[a.index] for a in self.view(seat).legal_actions]
        if legal:
            out[legal] = 1
        out[NOOP] = 1
        return out

    def observation(self, seat: int) -> dict[str, np.ndarray]:
        return {"observation": self.encoder.encode(self.view(seat)), "action_mask": self.mask(seat)}

    def is_legal(self, seat: int, action: Any) -> bool:
        if isinstance(action, (bool, np.bool_)):
            return False
        try:
            i = int(action)
        except (TypeError, ValueError):
            return False
        return i == action and 0 <= i < NUM_LOCAL and bool(self._mask(seat)[i])

    def illegal_message(self, seat: int, action: Any) -> str:
        legal = [i for i in np.flatnonzero(self.mask(seat)).tolist()]
        shown = ", ".join(f"{i} ({'no-op' if i == NOOP else SEAT_ACTIONS[seat][i]})" for i in legal[:10])
        what = str(action)
        if isinstance(action, (float, np.floating)) and not float(action).is_integer():
            what = f"{action!r} (not a whole number)"
        elif isinstance(action, (int, np.integer)) and 0 <= int(action) < NOOP:
            what = f"{action} ({SEAT_ACTIONS[seat][int(action)]})"
        return f"seat {seat} may not take action {what} at tick {self.tick}; legal: {shown or 'none'}"

    def step(self, actions: Mapping[int, Any]) -> dict[int, str]:
        """Submit each seat's local action at this tick, run the host to the next tick.

        Returns the reasons of the seats' actions the engine rejected (lost races,
        SP-13). Raises :class:`IllegalActionError` (nothing submitted) if an action is
        not in its seat's mask."""
        for seat, a in actions.items():
            if not self.is_legal(seat, a):
                raise IllegalActionError(self.illegal_message(seat, a))
        now = self.now
        host = self.host
        start = len(host.log)
        for seat, a in actions.items():
            if int(a) != NOOP:
                host.submit(SEAT_ACTIONS[seat][int(a)], at=now)
        self.tick += 1
        host.run(self.clock, until=self.now - 1e-9)
        if not self.terminal:
            self.clock.set(max(self.clock.now(), self.now))
        self._views = {}
        self._masks = {}
        return {
            arrival.seat: arrival.reason or "rejected"
            for arrival in host.log[start:]
            if arrival.source == "player" and not arrival.accepted and arrival.seat is not None
        }

    def rewards(self) -> list[float]:
        outcome = self.state.outcome()
        if outcome is None:
            return [0.0, 0.0]
        return [r * self.reward_scale for r in outcome.returns]


class EveryTick:
    """A turn-style bot (``act(view, rng)``, e.g. ``random``) as a real-time bot: it acts
    once every tick, at the tick's instant."""

    def __init__(self, bot: Any, tick_s: float) -> None:
        self.bot = bot
        self.name = getattr(bot, "name", "bot")
        self.tick_s = tick_s

    def react(self, view: Any, now: float, rng: random.Random) -> tuple[Any, float] | None:
        if not view.legal_actions:
            return None
        return (self.bot.act(view, rng), now + self.tick_s)

    def sent(self, action: Any, when: float) -> None:
        pass

    def sticky(self, action: Any) -> bool:
        return False
