"""Per-game metrics modules: what the simulator records per match and how the
report presents it. See :mod:`cardtable.sim.metrics.base`.

Every game has its module (each imports only ``cardtable.core`` at import
time and reads its game's state fields by name); a game registered later
without one gets the common columns only.
"""

from __future__ import annotations

import importlib

from .base import GameMetrics, NullRecorder, Recorder

MODULES: dict[str, str] = {
    "trash": "cardtable.sim.metrics.trash",
    "trex": "cardtable.sim.metrics.trex",
    "spit": "cardtable.sim.metrics.spit",
}

_GENERIC: dict[str, GameMetrics] = {}


def metrics_for(game: str) -> GameMetrics:
    """The metrics of ``game`` (a canonical name); a generic one (common columns
    only) for a registered game without its own module."""
    path = MODULES.get(game)
    if path is None:
        return _GENERIC.setdefault(game, GameMetrics(game))
    metrics = importlib.import_module(path).METRICS
    assert isinstance(metrics, GameMetrics)
    return metrics


__all__ = ["MODULES", "GameMetrics", "NullRecorder", "Recorder", "metrics_for"]
