"""How a rating's uncertainty grows while its player does not play (the idea of Glicko's rating
deviation): a sigma left alone for ``days`` is ``sqrt(sigma² + IDLE_VARIANCE_PER_DAY × days)``,
never above a newcomer's.

The stored sigma is the one after the player's last rated game of that game; the sigma shown on
the profile and the leaderboard, and the one the next rated game starts from, is that sigma grown
by the time since. So a player away for months comes back with a wider rating (a lower
conservative ``mu − 3σ``) that the next games settle quickly, instead of a stale one that ranks
them as sure as the day they left.
"""

from __future__ import annotations

import math

START_SIGMA = 25.0 / 3.0
"""openskill's sigma for a newcomer (mu 25); a sigma never grows past it."""

SETTLED_SIGMA = 1.0
"""About where an active player's sigma settles under openskill's per-game drift (tau 0.083)."""

IDLE_DAYS_TO_START = 730.0
"""Two years without a rated game take a settled sigma back to a newcomer's."""

IDLE_VARIANCE_PER_DAY = (START_SIGMA**2 - SETTLED_SIGMA**2) / IDLE_DAYS_TO_START
"""About 0.094: a settled sigma of 1 is 1.95 after 30 idle days, 3.2 after 100 and 5.9 after a year."""

DAY = 86_400.0


def idle_sigma(sigma: float, last: float, now: float) -> float:
    """``sigma`` as it stands at ``now`` (seconds since the epoch), its last rated game at
    ``last``: grown by the idle time, capped at :data:`START_SIGMA` (a sigma already above it,
    or a clock that went back, leaves it as it is)."""
    days = max(0.0, now - last) / DAY
    return max(sigma, min(START_SIGMA, math.sqrt(sigma * sigma + IDLE_VARIANCE_PER_DAY * days)))
