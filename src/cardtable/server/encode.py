"""A faster ``PlayerView.to_json``: the same output, by encoders made once per class.

``PlayerView.to_json`` is the definition; :func:`view_json` must equal it for
every view of every game (tests/server/test_encode.py checks that over random
states). It exists because the server serializes a view per seat per action.
An :class:`Event` is written out field by field, its ``args`` as an object.

The first value of a dataclass type met makes that type's encoder: a function that reads each
field by name and writes the dict in one expression (:func:`_encoder`), so a view costs one call
per field that is not a plain value, instead of a lookup, a ``getattr`` and a comprehension.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import fields, is_dataclass
from enum import Enum
from typing import Any

from ..core.cards import Card
from ..core.game import Action, Event, PlayerView

_PLAIN = (str, int, float, bool, type(None))
_AS_TEXT: set[type] = set()  # card and action types met so far: written as their text
_AS_NAME: set[type] = set()  # enum types met so far: written as their lower-case name
_ENCODERS: dict[type, Callable[[Any], dict[str, Any]]] = {}


def jsonable(value: Any) -> Any:
    t = type(value)
    if t in _PLAIN:
        return value
    if t in _AS_TEXT:
        return str(value)
    if t is tuple or t is list:
        return [jsonable(v) for v in value]
    encode = _ENCODERS.get(t)
    if encode is not None:
        return encode(value)
    if t in _AS_NAME:
        return value.name.lower()
    if t is Event:
        card = value.card
        return {
            "seq": value.seq, "kind": value.kind, "seat": value.seat,
            "card": None if card is None else str(card), "slot": value.slot, "value": value.value,
            "text": value.text, "args": dict(value.args),
        }
    if isinstance(value, (Card, Action)):
        _AS_TEXT.add(t)
        return str(value)
    if isinstance(value, Enum):
        _AS_NAME.add(t)
        return value.name.lower()
    if is_dataclass(value) and not isinstance(value, type):
        encode = _ENCODERS[t] = _encoder([f.name for f in fields(value)])
        return encode(value)
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    return value


def _encoder(names: list[str]) -> Callable[[Any], dict[str, Any]]:
    """``value -> {name: jsonable(value.name), ...}`` for these field names, as one function."""
    assert all(name.isidentifier() for name in names)  # a dataclass's fields: nothing but names
    body = ", ".join(f"{name!r}: J(v.{name})" for name in names)
    namespace: dict[str, Any] = {"J": jsonable}
    exec(f"def encode(v):\n    return {{{body}}}\n", namespace)
    encode: Callable[[Any], dict[str, Any]] = namespace["encode"]
    return encode


def view_json(view: PlayerView) -> dict[str, Any]:
    """``view.to_json()``, faster."""
    out = jsonable(view)
    assert isinstance(out, dict)
    return out
