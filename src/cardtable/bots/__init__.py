"""Bots: they see views, never states. ``make_bot(game, name)`` builds one.

Importing this package registers every game's bots.
"""

from . import levels as _levels  # noqa: F401  (registers the levels of Trex and Spit)
from . import sparring as _sparring  # noqa: F401  (Trex sparring partners, apart from the levels)
from . import spit as _spit  # noqa: F401  (registers the Spit bots)
from . import spit_policy as _spit_policy  # noqa: F401  (Spit move policies and levels, after spit)
from . import trash as _trash  # noqa: F401  (registers the Trash bots)
from . import trex as _trex  # noqa: F401  (registers the Trex bots)
from .base import LEVELS, Bot, Budget, RandomBot, bot_doc, bot_names, make_bot, register_bot

__all__ = ["LEVELS", "Bot", "Budget", "RandomBot", "bot_doc", "bot_names", "make_bot", "register_bot"]
