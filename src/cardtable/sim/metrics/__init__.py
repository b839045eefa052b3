"""Per-game metrics modules: what the simulator records per match and how the
report presents it. See :mod:`cardtable.sim.metrics.base`.

Every game has its module, which reads what its engine exports for metrics
(``facts()`` and the like on the game's state); a game registered later without
one gets the common columns only.
"""

from __future__ import annotations

from . import spit, trash, trex
from .base import GameMetrics, NullRecorder, Recorder

METRICS: dict[str, GameMetrics] = {m.game: m for m in (trash.METRICS, trex.METRICS, spit.METRICS)}
"""Each game's metrics, by the game's canonical name."""

_GENERIC: dict[str, GameMetrics] = {}


def metrics_for(game: str) -> GameMetrics:
    """The metrics of ``game`` (a canonical name); a generic one (common columns
    only) for a registered game without its own module."""
    metrics = METRICS.get(game)
    if metrics is None:
        return _GENERIC.setdefault(game, GameMetrics(game))
    return metrics


__all__ = ["METRICS", "GameMetrics", "NullRecorder", "Recorder", "metrics_for"]
