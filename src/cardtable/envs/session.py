"""One game played by seat indices: the shared core of the turn-based envs.

A :class:`TurnSession` holds a state, builds every observation from
``state.view(seat)`` (cached until the next action), checks an action index
against the seat's legal actions and turns the game's returns into rewards.
The PettingZoo, Gymnasium and vector envs are thin shells around it.
"""

from __future__ import annotations

import math
import random
from typing import Any, Protocol

import numpy as np

from ..core.chance import fresh_seed
from ..core.errors import ConfigError, IllegalActionError
from ..core.game import Game, PlayerView, State
from ..games.trash import TrashView


class Encoder(Protocol):
    @property
    def size(self) -> int: ...

    def encode(self, view: Any) -> np.ndarray: ...


ILLEGAL_MODES = ("raise", "penalty")
OBS_BOUND = 10.0
"""Every observation cell lies in ``[-OBS_BOUND, OBS_BOUND]`` (most in ``[0, 1]``)."""


def check_illegal_mode(illegal: str, penalty: float) -> None:
    if illegal not in ILLEGAL_MODES:
        raise ConfigError(f"illegal must be one of {', '.join(ILLEGAL_MODES)}, not {illegal!r}")
    number("illegal_penalty", penalty)


def number(name: str, value: Any, *, positive: bool = False) -> float:
    """``value`` as the finite number an env's keyword ``name`` takes (a bool or a text is no
    number); :class:`ConfigError` otherwise."""
    if (isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value)
            or (positive and value <= 0)):
        raise ConfigError(f"{name} must be a {'positive ' if positive else ''}finite number, not {value!r}")
    return float(value)


def flag(name: str, value: Any) -> bool:
    """``value`` as the bool an env's keyword ``name`` takes; :class:`ConfigError` otherwise."""
    if not isinstance(value, bool):
        raise ConfigError(f"{name} must be True or False, not {value!r}")
    return value


def seat_number(value: Any, seats: int) -> int:
    """``value`` as a seat of a game of ``seats`` (a bool is no seat); :class:`ConfigError` otherwise."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < seats:
        raise ConfigError(f"seat {value!r}: seats are 0 to {seats - 1}")
    return value


def bot_or_name(value: Any) -> Any:
    """An ``opponents`` entry: a bot's name (checked when the bot is made) or a bot, an object
    with ``act(view, rng)`` or ``react(view, now, rng)``; anything else is a :class:`ConfigError`
    now, not an ``AttributeError`` at the first reset."""
    if isinstance(value, str) or callable(getattr(value, "act", None)) or callable(getattr(value, "react", None)):
        return value
    raise ConfigError(f"opponents: {value!r:.80} is neither a bot's name nor a bot (an object with"
                      " act(view, rng))")


def seed_stream(seed: int | None) -> random.Random:
    """The generator an env draws its games' seeds from: fixed by ``reset(seed=...)``."""
    return random.Random(fresh_seed() if seed is None else seed)


def illegal_message(game: Game, seat: int, index: Any, legal: list[int]) -> str:
    """A clear sentence for an action index that ``seat`` may not take now."""
    try:
        whole = not isinstance(index, (bool, np.bool_)) and int(index) == index
        what = f"{index} ({game.action_from_index(int(index))})" if whole else f"{index!r} (not a whole number)"
    except Exception:  # any bad index is described, not re-raised
        what = repr(index)
    shown = ", ".join(f"{i} ({game.action_from_index(i)})" for i in legal[:12])
    more = f" and {len(legal) - 12} more" if len(legal) > 12 else ""
    return f"seat {seat} may not take action {what} now; legal: {shown or 'none'}{more}"


class TurnSession:
    """A turn-based game (Trash, Trex) as seats, masks, observations and rewards.

    ``per_deal_rewards`` (Trex): each seat is paid the change of its side's total
    whenever a deal is scored, instead of the whole return at the end; the two sum
    to the same. ``per_trick_rewards`` (Trex): each seat is paid its deal's points as
    they fall (a trick's penalty, a captured card, a doubled card's bonus, as the view's
    running deal score ``deal_scores_now`` shows them; a Trex layout's payouts when the
    deal is scored), and the deal's sum is its score, so this too sums to the return; a
    tie-break deal (outside the totals) pays nothing. The two are exclusive (a
    :class:`ConfigError` if both are set). ``reward_scale`` multiplies every
    reward. ``seconds_per_action``:
    under Trash's ``time_limit`` (TR-V2) the env is the host's clock: every action
    takes this much virtual time and the env feeds ``time-up`` when it runs out.
    """

    def __init__(
        self,
        game: Game,
        encoder: Encoder,
        *,
        reward_scale: float = 1.0,
        per_deal_rewards: bool = False,
        per_trick_rewards: bool = False,
        seconds_per_action: float = 1.0,
    ) -> None:
        for name, on in (("per_deal_rewards", per_deal_rewards), ("per_trick_rewards", per_trick_rewards)):
            if flag(name, on) and game.name != "trex":
                raise ConfigError(f"{name} is a Trex option")
        if per_deal_rewards and per_trick_rewards:
            raise ConfigError("per_deal_rewards and per_trick_rewards are two ways of paying the same totals:"
                              " choose one")
        seconds_per_action = number("seconds_per_action", seconds_per_action, positive=True)
        self.game = game
        self.encoder = encoder
        self.n = game.num_players
        self.num_actions = game.num_distinct_actions
        self.reward_scale = number("reward_scale", reward_scale)
        self.per_deal = per_deal_rewards or per_trick_rewards
        self.per_trick = per_trick_rewards
        self.reverse = bool(per_trick_rewards and game.options.get("reverse_scores"))  # TX-V7
        self.seconds_per_action = seconds_per_action
        self.time_limit = game.options.get("time_limit")
        self.state: State = game.new_state(seed=0)
        self._views: dict[int | None, PlayerView] = {}
        self._legal: dict[int, list[int]] = {}
        self._sides = [0.0] * self.n
        self.clock = 0.0

    # ------------------------------------------------------------ state
    def reset(self, seed: int) -> None:
        self.state = self.game.new_state(seed=seed)
        self._views = {}
        self._legal = {}
        self._sides = [0.0] * self.n
        self.clock = 0.0

    def view(self, seat: int | None) -> PlayerView:
        v = self._views.get(seat)
        if v is None:
            v = self._views[seat] = self.state.view(seat)
        return v

    @property
    def to_act(self) -> int:
        """The seat to act, or a negative value once the game is over."""
        return self.state.current_player()

    @property
    def terminal(self) -> bool:
        return self.state.is_terminal()

    def legal(self, seat: int) -> list[int]:
        """``seat``'s legal action indices now (computed once per change)."""
        legal = self._legal.get(seat)
        if legal is None:
            legal = self._legal[seat] = [a.index for a in self.view(seat).legal_actions]
        return legal

    def mask(self, seat: int) -> np.ndarray:
        out = np.zeros(self.num_actions, dtype=np.int8)
        legal = self.legal(seat)
        if legal:
            out[legal] = 1
        return out

    def observation(self, seat: int) -> dict[str, np.ndarray]:
        """``{"observation", "action_mask"}`` of ``seat``, from its view alone."""
        return {"observation": self.encoder.encode(self.view(seat)), "action_mask": self.mask(seat)}

    # ------------------------------------------------------------ acting
    def is_legal(self, seat: int, index: Any) -> bool:
        if isinstance(index, (bool, np.bool_)):
            return False
        try:
            i = int(index)
        except (TypeError, ValueError):
            return False
        if i != index:
            return False
        return i in self.legal(seat)

    def apply(self, seat: int, index: Any) -> list[float]:
        """Apply ``seat``'s action ``index`` (checked); return each seat's reward for it.

        Raises :class:`IllegalActionError` (state unchanged) for an index the seat
        may not take now."""
        if not self.is_legal(seat, index):
            raise IllegalActionError(illegal_message(self.game, seat, index, self.legal(seat)))
        self.state.apply(self.game.action_from_index(int(index)))
        self._views = {}
        self._legal = {}
        if self.time_limit is not None and not self.state.is_terminal():
            self.clock += self.seconds_per_action
            public = self.view(None)
            if self.clock >= self.time_limit and isinstance(public, TrashView) and not public.time_up:
                self.state.play(self.game.parse_action("time-up"))  # the host's clock (TR-V2)
                self._views = {}
                self._legal = {}
        return self.rewards()

    def rewards(self) -> list[float]:
        scale = self.reward_scale
        if self.per_deal:
            sides = self.side_totals()
            out = [(s - old) * scale for s, old in zip(sides, self._sides, strict=True)]
            self._sides = sides
            return out
        outcome = self.state.outcome()
        if outcome is None:
            return [0.0] * self.n
        return [r * scale for r in outcome.returns]

    def side_totals(self) -> list[float]:
        """Each seat's side total (team total in partnership) from the public view; with
        ``per_trick_rewards`` the running score of the deal in play is counted in."""
        v: Any = self.view(None)
        if not self.per_trick:
            totals = v.team_totals if v.team_totals is not None else v.totals
            return [float(t) for t in totals]
        sign = 0 if v.tiebreak or self.state.is_terminal() else -1 if self.reverse else 1  # a deal in play
        running = [t + sign * d for t, d in zip(v.totals, v.deal_scores_now, strict=True)]
        if v.partnership:  # TX-V2: a side is a seat and the seat across
            running = [running[q] + running[(q + 2) % self.n] for q in range(self.n)]
        return [float(t) for t in running]
