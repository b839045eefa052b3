"""Bots: they see views, never states. ``make_bot(game, name)`` builds one."""

from . import spit as _spit  # noqa: F401  (registers the Spit bot levels)
from . import trash as _trash  # noqa: F401  (registers the Trash bots)
from . import trex as _trex  # noqa: F401  (registers the Trex bots)
from .base import Bot, RandomBot, bot_names, make_bot, register_bot

__all__ = ["Bot", "RandomBot", "bot_names", "make_bot", "register_bot"]
