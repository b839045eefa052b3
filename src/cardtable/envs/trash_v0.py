"""PettingZoo AEC env for Trash: ``trash_v0.env(preset=..., **options)``.

Every Trash option and preset of docs/rules/trash.md is accepted (``cardtable.load("trash", ...)``
validates them); env keywords: ``render_mode`` (``"ansi"``), ``illegal``
(``"raise"`` or ``"penalty"``), ``illegal_penalty``, ``reward_scale`` and
``seconds_per_action`` (the virtual time of one action under ``time_limit``).
Rewards are the game's returns: 1 to the match winner (shared wins split it), 0
otherwise. Set ``max_hands=1`` for one-hand episodes.

>>> from cardtable.envs import trash_v0
>>> env = trash_v0.env(players=2)
>>> env.reset(seed=1)
>>> obs, reward, terminated, truncated, info = env.last()
>>> obs["action_mask"].tolist()[:2], obs["action_mask"].dtype.name
([1, 0], 'int8')
"""

from __future__ import annotations

from typing import Any

from ..core.registry import load
from ..games.trash import TrashGame
from .aec import CardtableAECEnv
from .encode_trash import TrashEncoder

ENV_KEYS = ("render_mode", "illegal", "illegal_penalty", "reward_scale", "seconds_per_action")


def split_options(kwargs: dict[str, Any], env_keys: tuple[str, ...]) -> tuple[dict[str, Any], dict[str, Any]]:
    """``(env keywords, game options)`` of ``kwargs``."""
    env_kw = {k: v for k, v in kwargs.items() if k in env_keys}
    game_kw = {k: v for k, v in kwargs.items() if k not in env_keys}
    return env_kw, game_kw


def raw_env(preset: str | None = None, **kwargs: Any) -> CardtableAECEnv:
    """The bare AEC env (no PettingZoo wrappers)."""
    env_kw, options = split_options(kwargs, ENV_KEYS)
    game = load("trash", preset, **options)
    assert isinstance(game, TrashGame)
    return CardtableAECEnv(game, TrashEncoder(game), "trash_v0", **env_kw)


def env(preset: str | None = None, **kwargs: Any) -> CardtableAECEnv:
    """The AEC env. It is its own order and bounds checker (a step before ``reset``, an action out of
    range or not legal now each get a clear error), so PettingZoo's checking wrappers are not added:
    they would cost a third of a step."""
    return raw_env(preset, **kwargs)
