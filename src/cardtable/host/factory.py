"""The one place that decides how a game is hosted.

A turn-based game is driven by its :class:`~cardtable.host.match.Match` alone; a real-time game
(``Game.realtime``: Spit) needs a :class:`~cardtable.host.realtime.RealtimeHost` over its state
and a clock (on the server one that can stand still, :class:`~cardtable.host.clock.PausableClock`;
in simulations and environments a virtual one). Every front end asks here instead of working it
out: :func:`play_out` plays a game between bots to its end whichever kind it is,
:func:`realtime_host` makes the host of a real-time state, :func:`match_realtime_host` the one
of a server's match.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from ..bots.base import Bot, PlainBot
from ..core.errors import ConfigError
from ..core.game import Game, Outcome, State
from .clock import Clock, PausableClock, VirtualClock
from .match import Match
from .realtime import Arrival, RealtimeBot, RealtimeHost


def match_clock(game: Game) -> Clock | None:
    """The clock a server-side match of ``game`` runs on (``None``: the match's own)."""
    return PausableClock() if game.realtime else None


def realtime_host(game: Game, state: State, clock: Clock, *, bots: Mapping[int, RealtimeBot], seed: int,
                  on_arrival: Callable[[Arrival], None] | None = None) -> RealtimeHost:
    """The host that runs ``state`` of the real-time ``game`` on ``clock`` (a turn-based game has
    none: its :class:`Match` is its host, and asking is a :class:`ConfigError`)."""
    if not game.realtime:
        raise ConfigError(f"{game.name} is turn-based: a Match hosts it, not a real-time host")
    return RealtimeHost(state, clock, bots=bots, seed=seed, on_arrival=on_arrival)


def match_realtime_host(match: Match, *, bots: Mapping[int, RealtimeBot], seed: int,
                        on_arrival: Callable[[Arrival], None] | None = None) -> RealtimeHost | None:
    """The real-time host over ``match``, or ``None`` when its game is turn-based (the match is its host)."""
    if not match.game.realtime:
        return None
    return realtime_host(match.game, match.state, match.clock, bots=bots, seed=seed, on_arrival=on_arrival)


def play_out(game: Game, bots: Sequence[Bot | PlainBot], *, seed: int, bot_seed: int) -> Outcome | None:
    """A game of ``game`` dealt from ``seed`` between ``bots`` (one per seat) played to its end:
    turn by turn through a :class:`Match`, or in virtual time on a real-time host. Its outcome
    (``None``: it did not end)."""
    if game.realtime:
        state = game.new_state(seed=seed)
        realtime = {seat: bot for seat, bot in enumerate(bots)}
        return realtime_host(game, state, VirtualClock(), bots=realtime, seed=bot_seed).run()  # type: ignore[arg-type]
    match = Match(game, seed=seed, bots=dict(enumerate(bots)), bot_seed=bot_seed)
    match.run_bots()
    return match.state.outcome()
