"""The games. Importing this package registers every game with the core registry."""

from .trash import TrashGame

__all__ = ["TrashGame"]
