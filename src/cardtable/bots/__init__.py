"""Bots: they see views, never states. ``make_bot(game, name)`` builds one."""

from .base import Bot, RandomBot, bot_names, make_bot, register_bot

__all__ = ["Bot", "RandomBot", "bot_names", "make_bot", "register_bot"]
