"""PettingZoo AEC env for Trex: ``trex_v0.env(preset=..., **options)``.

Every Trex preset (``standard``, ``seed``, ``complex``, ``partnership``,
``inverted``, ``open``) and option is accepted; env keywords as in
:mod:`cardtable.envs.trash_v0`, plus ``per_deal_rewards``: pay each seat the
change of its side's total when a deal is scored (the sum over the game is the
same as the final return), and ``per_trick_rewards``: pay each seat its deal's
points as they fall, trick by trick (the same sum again; not both at once).
Rewards are the game's returns (final totals, team totals in partnership), times
``reward_scale``.

>>> from cardtable.envs import trex_v0
>>> env = trex_v0.env(preset="complex", reward_scale=0.01)
>>> env.reset(seed=3)
>>> env.agent_selection in env.agents
True
"""

from __future__ import annotations

from typing import Any

from ..core.registry import load
from .aec import CardtableAECEnv
from .encode_trex import TrexEncoder
from .trash_v0 import ENV_KEYS, split_options

TREX_ENV_KEYS = (*ENV_KEYS, "per_deal_rewards", "per_trick_rewards")


def raw_env(preset: str | None = None, **kwargs: Any) -> CardtableAECEnv:
    """The bare AEC env (no PettingZoo wrappers)."""
    env_kw, options = split_options(kwargs, TREX_ENV_KEYS)
    return CardtableAECEnv(load("trex", preset, **options), TrexEncoder(), "trex_v0", **env_kw)


def env(preset: str | None = None, **kwargs: Any) -> CardtableAECEnv:
    """The AEC env. It is its own order and bounds checker (a step before ``reset``, an action out of
    range or not legal now each get a clear error), so PettingZoo's checking wrappers are not added:
    they would cost a third of a step."""
    return raw_env(preset, **kwargs)
