"""cardtable: Trash, Trex (Trix) and Spit.

>>> import cardtable
>>> game = cardtable.load("garbage")
>>> game.name, game.num_players
('trash', 2)
"""

from . import games as _games  # noqa: F401  (registers the games)
from .core import (
    Card,
    CardtableError,
    ConfigError,
    IllegalActionError,
    ParseError,
    Rank,
    Suit,
    game_class,
    game_names,
    load,
)

__version__ = "0.1.0"

__all__ = [
    "Card",
    "CardtableError",
    "ConfigError",
    "IllegalActionError",
    "ParseError",
    "Rank",
    "Suit",
    "__version__",
    "game_class",
    "game_names",
    "load",
]
