"""Options are data: every rule switch of docs/rules/ is a named, typed, documented
:class:`Option`; a preset is a named bundle of option values.

A game resolves ``preset`` + overrides into an :class:`Options` mapping once,
when it is loaded; unknown names and bad values raise :class:`ConfigError`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import ConfigError

Validator = Callable[[Any], "str | None"]


@dataclass(frozen=True)
class Option:
    """One rule switch.

    ``kind`` is the Python type of a value (``bool``, ``int``, ``float``, ``str``
    or ``tuple`` for a tuple of ints); ``choices`` lists the allowed values of a
    closed option; ``nullable`` admits ``None`` (written ``none`` on a command
    line); ``check`` returns an error message for a bad value, or ``None``.
    Several kinds at once (``redeal_requests`` is ``true``/``false`` or a word)
    are declared with ``kind=object`` and ``choices``.
    """

    name: str
    kind: type
    default: Any
    rule: str
    doc: str
    choices: tuple[Any, ...] = ()
    nullable: bool = False
    minimum: float | None = None
    maximum: float | None = None
    check: Validator | None = field(default=None, compare=False)

    def parse(self, text: str) -> Any:
        """The value written as ``text`` on a command line (``key=value``)."""
        raw = text.strip()
        low = raw.lower()
        if self.nullable and low in ("none", "null", ""):
            return None
        candidates: list[Any] = []
        if self.kind is bool or (self.kind is object and any(isinstance(c, bool) for c in self.choices)):
            if low in ("true", "yes", "on", "1"):
                candidates.append(True)
            elif low in ("false", "no", "off", "0"):
                candidates.append(False)
        if self.kind is object:
            candidates.extend(c for c in self.choices if isinstance(c, str) and c == raw)
            if candidates:
                return candidates[0]
            raise ConfigError(f"option {self.name}: {text!r} is not one of {self._choices_text()}")
        if self.kind is bool:
            if candidates:
                return candidates[0]
            raise ConfigError(f"option {self.name}: {text!r} is not true or false")
        if self.kind is tuple:
            try:
                return tuple(int(x) for x in raw.strip("()[]").replace(",", " ").split())
            except ValueError:
                raise ConfigError(f"option {self.name}: {text!r} is not whole numbers separated by commas") from None
        try:
            if self.kind is int:
                return int(raw)
            if self.kind is float:
                return float(raw)
        except ValueError:
            raise ConfigError(f"option {self.name}: {text!r} is not a {self.kind.__name__}") from None
        return raw

    def validate(self, value: Any) -> Any:
        """``value`` checked and normalised, or :class:`ConfigError`."""
        if value is None:
            if self.nullable:
                return None
            raise ConfigError(f"option {self.name} may not be none")
        if self.kind is object:
            if value not in self.choices or type(value) not in (type(c) for c in self.choices):
                raise ConfigError(f"option {self.name}: {value!r} is not one of {self._choices_text()}")
            return value
        if self.kind is float and isinstance(value, int) and not isinstance(value, bool):
            try:
                value = float(value)
            except OverflowError:  # an integer past every float
                raise ConfigError(f"option {self.name}: the number is too large") from None
        if self.kind is tuple and isinstance(value, list):
            value = tuple(value)
        if not isinstance(value, self.kind) or (self.kind is not bool and isinstance(value, bool)):
            raise ConfigError(f"option {self.name}: {value!r} is not a {self.kind.__name__}")
        if isinstance(value, float) and not math.isfinite(value):
            raise ConfigError(f"option {self.name}: {value!r} is not a finite number")
        if self.choices and value not in self.choices:
            raise ConfigError(f"option {self.name}: {value!r} is not one of {self._choices_text()}")
        if self.minimum is not None and value < self.minimum:  # type: ignore[operator]
            raise ConfigError(f"option {self.name}: {value!r} is below {self.minimum:g}")
        if self.maximum is not None and value > self.maximum:  # type: ignore[operator]
            raise ConfigError(f"option {self.name}: {value!r} is above {self.maximum:g}")
        if self.check is not None:
            problem = self.check(value)
            if problem:
                raise ConfigError(f"option {self.name}: {problem}")
        return value

    def _choices_text(self) -> str:
        return ", ".join(_show(c) for c in self.choices)


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    return str(value)


class Options(Mapping[str, Any]):
    """The resolved, immutable option values of a loaded game; also readable as
    attributes (``game.options.wild_mode``)."""

    __slots__ = ("_values", "preset")

    def __init__(self, values: Mapping[str, Any], preset: str) -> None:
        object.__setattr__(self, "_values", dict(values))
        object.__setattr__(self, "preset", preset)

    def __getitem__(self, key: str) -> Any:
        return self._values[key]

    def __getattr__(self, key: str) -> Any:
        if key.startswith("_"):  # e.g. _values while unpickling: never an option
            raise AttributeError(key)
        try:
            return self._values[key]
        except KeyError:
            raise AttributeError(key) from None

    def __reduce__(self) -> tuple[Any, ...]:
        return (Options, (self._values, self.preset))

    def __setattr__(self, key: str, value: Any) -> None:
        raise AttributeError("Options are immutable")

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __repr__(self) -> str:
        return f"Options({self._values!r}, preset={self.preset!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Options) and self._values == other._values

    def __hash__(self) -> int:
        return hash(tuple(sorted((k, repr(v)) for k, v in self._values.items())))

    def changed(self, specs: tuple[Option, ...]) -> dict[str, Any]:
        """The values that differ from the defaults (what a record needs)."""
        return {o.name: self._values[o.name] for o in specs if self._values[o.name] != o.default}

    def only_with(self, specs: tuple[Option, ...], names: Iterable[str], applies: bool, what: str) -> None:
        """Refuse a value other than its default for each option of ``names`` unless ``applies``:
        an option that would change nothing is a mistake to say, not to ignore (``what``: what
        the options apply with, for the message)."""
        if not applies:
            for o in specs:
                if o.name in names and self._values[o.name] != o.default:
                    raise ConfigError(f"option {o.name}: it applies only with {what}")


def parse_pairs(pairs: Iterable[str]) -> dict[str, str]:
    """The ``key=value`` words of the command lines' ``--option`` as a mapping (values still text:
    :func:`resolve` parses them by their option's kind).

    >>> parse_pairs(["hand_size=8", "wild = jacks"])
    {'hand_size': '8', 'wild': ' jacks'}
    """
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"--option wants key=value, not {pair!r}")
        out[key.strip()] = value
    return out


def resolve(
    game: str,
    specs: tuple[Option, ...],
    presets: Mapping[str, Mapping[str, Any]],
    preset: str | None,
    overrides: Mapping[str, Any],
) -> Options:
    """Defaults, then the preset's values, then ``overrides``, each validated."""
    by_name = {o.name: o for o in specs}
    name = preset or "standard"
    if name not in presets:
        raise ConfigError(f"{game} has no preset {name!r}; presets: {', '.join(presets)}")
    values = {o.name: o.default for o in specs}
    for source in (presets[name], overrides):
        for key, value in source.items():
            spec = by_name.get(key)
            if spec is None:
                raise ConfigError(f"{game} has no option {key!r}; options: {', '.join(by_name)}")
            if isinstance(value, str) and spec.kind is not str:
                value = spec.parse(value)
            elif isinstance(value, str) and spec.choices:
                value = value.strip()  # a word of a list, written with spaces around (`key = value`)
            values[key] = spec.validate(value)
    return Options(values, name)
