"""The base of every game's view (docs/architecture.md: hidden information has one chokepoint).

This module stays interpreted in the compiled build (setup.py): every game
extends :class:`PlayerView` with its own frozen dataclass, and Spit fills its
views directly (``games/spit/state.py``), which compiled classes do not allow.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, is_dataclass
from enum import Enum
from typing import Any, TypeVar

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


V = TypeVar("V", bound=PlayerView)


def filled_view(cls: type[V], values: dict[str, Any]) -> V:
    """The view ``cls(**values)``, made without the frozen dataclass's generated ``__init__``
    (one ``object.__setattr__`` per field: the larger part of building a view). ``values``
    names every field; ``events`` may be left to :class:`EventsOnFirstUse` by putting
    ``"_events": (build, args)`` in its place. The engines' hot path."""
    view = object.__new__(cls)
    object.__setattr__(view, "__dict__", values)
    return view


class EventsOnFirstUse:
    """``events`` of a view made by :func:`filled_view` with ``"_events": (build, args)``:
    ``build(*args)`` on first use, then an ordinary attribute of the view (environments and
    bots never read events, so they do not pay for their sentences). A non-data descriptor:
    a view made by its class's ``__init__`` has ``events`` in its own ``__dict__``, which
    takes precedence. Set on the class after ``@dataclass``, so it is no field default."""

    def __get__(self, view: PlayerView | None, owner: type | None = None) -> Any:
        if view is None:
            return self
        d = view.__dict__
        pending: tuple[Callable[..., tuple[Event, ...]], tuple[Any, ...]] | None = d.get("_events")
        if pending is None:
            if "events" in d:  # built meanwhile by another thread
                return d["events"]
            raise AttributeError("events")
        build, args = pending
        events = d["events"] = build(*args)
        d.pop("_events", None)
        return events


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
