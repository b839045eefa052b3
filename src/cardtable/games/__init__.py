"""The games. Importing this package registers every game with the core registry."""

from .spit import SpitGame
from .trash import TrashGame
from .trex import TrexGame  # noqa: F401  (registers Trex)

__all__ = ["SpitGame", "TrashGame"]
