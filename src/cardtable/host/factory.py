"""The one place that decides how a game is hosted.

A turn-based game is driven by its :class:`~cardtable.host.match.Match` alone; a real-time game
(``Game.realtime``: Spit) needs a :class:`~cardtable.host.realtime.RealtimeHost` over the
match's state and a clock that can stand still (:class:`~cardtable.host.clock.PausableClock`).
Every front end asks here instead of working it out.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ..core.game import Game
from .clock import Clock, PausableClock
from .match import Match
from .realtime import Arrival, RealtimeBot, RealtimeHost


def match_clock(game: Game) -> Clock | None:
    """The clock a server-side match of ``game`` runs on (``None``: the match's own)."""
    return PausableClock() if game.realtime else None


def realtime_host(match: Match, *, bots: Mapping[int, RealtimeBot], seed: int,
                  on_arrival: Callable[[Arrival], None] | None = None) -> RealtimeHost | None:
    """The real-time host over ``match``, or ``None`` when its game is turn-based (the match is its host)."""
    if not match.game.realtime:
        return None
    return RealtimeHost(match.state, match.clock, bots=bots, seed=seed, on_arrival=on_arrival)
