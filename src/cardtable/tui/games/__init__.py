"""Per-game tables. ``table_class(game)`` is the ``<Game>Table`` class of the module
``cardtable.tui.games.<game>`` (``trex``: ``TrexTable``), or the generic table for a game that has
no screen module yet."""

from __future__ import annotations

import importlib

from .base import GameTable


def class_name(game: str) -> str:
    """The table class a game's screen module defines: ``spit`` -> ``SpitTable``,
    ``crazy_eights`` -> ``CrazyEightsTable``."""
    return "".join(part.capitalize() for part in game.split("_")) + "Table"


def table_class(game: str) -> type[GameTable]:
    """The table widget class for ``game``."""
    name = f"{__name__}.{game}"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
        module = importlib.import_module(f"{__name__}.generic")
        game = "generic"
    cls = getattr(module, class_name(game), None)
    if not (isinstance(cls, type) and issubclass(cls, GameTable)):
        raise TypeError(f"{module.__name__} defines no GameTable called {class_name(game)}")
    return cls


__all__ = ["GameTable", "class_name", "table_class"]
