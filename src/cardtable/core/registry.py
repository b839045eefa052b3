"""The registry of games, with aliases (``garbage`` and ``ten`` are Trash)."""

from __future__ import annotations

from typing import Any, TypeVar

from .errors import ConfigError
from .game import Game

_GAMES: dict[str, type[Game]] = {}
_ALIASES: dict[str, str] = {}

G = TypeVar("G", bound=type[Game])


def register(cls: G) -> G:
    """Class decorator: make a game loadable by its name and aliases."""
    for key in (cls.name, *cls.aliases):
        owner = _ALIASES.get(key.lower())
        if owner is not None and owner != cls.name:
            raise ValueError(f"{key!r} already names {owner}")
        _ALIASES[key.lower()] = cls.name
    _GAMES[cls.name] = cls
    return cls


def game_class(name: str) -> type[Game]:
    """The game class registered as ``name`` or one of its aliases."""
    key = _ALIASES.get(str(name).strip().lower())
    if key is None:
        raise ConfigError(f"unknown game {name!r}; games: {', '.join(sorted(_GAMES))}")
    return _GAMES[key]


def load(name: str, preset: str | None = None, /, **options: Any) -> Game:
    """A game by name or alias, with a preset (positional, or ``preset=``) and option overrides.

    Unknown games, presets and options raise :class:`ConfigError`, and so does an option named
    as a parameter here (``-o preset=x`` beside a preset: the preset is chosen apart).
    """
    return game_class(name).load(preset, **options)


def game_names() -> list[str]:
    """The registered games' canonical names, sorted."""
    return sorted(_GAMES)
