"""The games. Importing this package registers every game with the core registry."""

from .spit import SpitGame
from .trash import TrashGame
from .trex import TrexGame

__all__ = ["SpitGame", "TrashGame", "TrexGame"]
