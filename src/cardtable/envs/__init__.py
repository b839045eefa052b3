"""Reinforcement-learning environments (docs/rl.md): PettingZoo ``trash_v0``,
``trex_v0`` and ``spit_v0``, Gymnasium single-seat envs ``cardtable/Trash-v0``,
``cardtable/Trex-v0`` and ``cardtable/Spit-v0`` (registered on import), a vector
env, and (``import cardtable.envs.openspiel``) OpenSpiel games.

Needs the ``rl`` extra: ``pip install 'cardtable[rl]'``. Every observation is
built from ``state.view(seat)`` and nothing else.
"""

from __future__ import annotations

try:
    import gymnasium as _gymnasium  # noqa: F401
    import numpy as _numpy  # noqa: F401
    import pettingzoo as _pettingzoo  # type: ignore[import-untyped]  # noqa: F401
except ImportError as exc:  # pragma: no cover - only without the extra
    raise ImportError(
        f"cardtable.envs needs the rl extra (pettingzoo, gymnasium, numpy): pip install 'cardtable[rl]' ({exc})"
    ) from exc

from . import spit_v0, trash_v0, trex_v0
from .gym import register_envs

register_envs()

__all__ = ["spit_v0", "trash_v0", "trex_v0"]
