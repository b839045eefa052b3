"""Bots: they see views, never states. ``make_bot(game, name)`` builds one."""

from . import trash as _trash  # noqa: F401  (registers the Trash bots)
from .base import LEVELS, Bot, Budget, RandomBot, bot_doc, bot_names, make_bot, register_bot

__all__ = ["LEVELS", "Bot", "Budget", "RandomBot", "bot_doc", "bot_names", "make_bot", "register_bot"]
