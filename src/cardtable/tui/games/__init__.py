"""Per-game tables. ``table_class(game)`` is ``cardtable.tui.games.<game>.Table``,
or the generic table for a game that has no screen module yet."""

from __future__ import annotations

import importlib

from .base import GameTable


def table_class(game: str) -> type[GameTable]:
    """The table widget class for ``game``."""
    name = f"{__name__}.{game}"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
        module = importlib.import_module(f"{__name__}.generic")
    cls = module.Table
    if not (isinstance(cls, type) and issubclass(cls, GameTable)):
        raise TypeError(f"{module.__name__}.Table is not a GameTable")
    return cls


__all__ = ["GameTable", "table_class"]
