"""The base of every game's view (DESIGN.md: hidden information has one chokepoint).

This module stays interpreted in the compiled build (setup.py): every game
extends :class:`PlayerView` with its own frozen dataclass, and Spit fills its
views directly (``games/spit/state.py``), which compiled classes do not allow.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, is_dataclass
from enum import Enum
from typing import Any

from .cards import Card
from .game import Action, Event, Outcome
from .seats import Special


@dataclass(frozen=True)
class PlayerView:
    """What one seat (or a spectator, ``seat is None``) may know of a state.

    Every game extends this with its own fields. It never holds the seed, the
    deck order or a card the seat may not see. :meth:`to_json` derives a
    JSON-ready dict from the fields alone.
    """

    game: str
    seat: int | None
    num_players: int
    current_player: int
    legal_actions: tuple[Action, ...]
    events: tuple[Event, ...]
    outcome: Outcome | None

    def to_json(self) -> dict[str, Any]:
        """The view as plain JSON data: cards and actions as their text."""
        out = _jsonable(self)
        assert isinstance(out, dict)
        return out


def _jsonable(value: Any) -> Any:
    if isinstance(value, Event):
        out = {f.name: _jsonable(getattr(value, f.name)) for f in fields(value) if f.name != "args"}
        out["args"] = dict(value.args)
        return out
    if isinstance(value, (Card, Action)):
        return str(value)
    if isinstance(value, Special):  # TERMINAL and SIMULTANEOUS stay numbers in JSON
        return int(value)
    if isinstance(value, Enum):
        return value.name.lower()
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: _jsonable(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return value
