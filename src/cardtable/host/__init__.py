"""cardtable.host: the single authority that drives a game.

It orders actions, stamps sequence numbers, runs timers from an injectable
clock and asks bots for their moves. Terminal play, the web server and
simulations all drive games through it.
"""

from .clock import Clock, SystemClock, VirtualClock
from .match import Match, play_out
from .realtime import Arrival, RealtimeBot, RealtimeHost

__all__ = [
    "Arrival", "Clock", "Match", "RealtimeBot", "RealtimeHost", "SystemClock", "VirtualClock", "play_out",
]
