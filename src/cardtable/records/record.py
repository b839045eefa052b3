"""Game records: ``(game, options, seed or deck, actions, result)`` as versioned JSON.

A record replays to the identical state. It holds the seed (or the stacked
deck), so it is a secret of whoever ran the game: what a player may see of it
is what :func:`replay_views` produces from ``state.view(seat)``.

>>> import cardtable
>>> state = cardtable.load("trash").new_state(seed=3)
>>> state.play("stock")
>>> rec = record_of(state)
>>> str(Record.loads(rec.dumps()).replay()) == str(state)
True
"""

from __future__ import annotations

import contextlib
import errno
import json
import math
import os
import secrets
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.cards import Card, parse_cards
from ..core.errors import CardtableError, ConfigError, ParseError
from ..core.game import Action, PlayerView, State
from ..core.registry import load
from .fairness import FAIR_SEED, Fairness

FORMAT = "cardtable-record"
VERSION = 1


@dataclass(frozen=True)
class Record:
    """One game. ``options`` are the values that differ from the defaults."""

    game: str
    preset: str = "standard"
    options: dict[str, Any] = field(default_factory=dict)
    seed: int | None = None
    deck: tuple[str, ...] | None = None
    actions: tuple[str, ...] = ()
    result: dict[str, Any] | None = None
    fairness: Fairness | None = None
    """A provably fair game's commitments, reveals and deals (records/fairness.py); no seed then."""
    seats: tuple[str, ...] | None = None
    """Who held each seat in the game ``cardtable play`` saved: ``human`` (``human:Ana`` with a
    name) or a bot's name; ``cardtable play --resume`` seats them so again. Other records have none."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"format": FORMAT, "version": VERSION, "game": self.game, "preset": self.preset,
                               "options": _plain(self.options)}
        if self.deck is not None:
            out["deck"] = list(self.deck)
        elif self.fairness is not None:
            out["fairness"] = self.fairness.to_json()
        else:
            out["seed"] = self.seed
        if self.seats is not None:
            out["seats"] = list(self.seats)
        out["actions"] = list(self.actions)
        out["result"] = self.result
        return out

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1, ensure_ascii=False)

    def save(self, path: str | Path) -> None:
        """Write atomically: a new temporary file in the target's folder, renamed over the target.

        The temporary file has a name of its own (see :func:`open_beside`), so no file of the
        user's is overwritten but the target, and it is removed when the write fails. A failure
        is an :class:`OSError` that names ``path``, not the temporary file."""
        target = Path(path)
        fd, tmp = open_beside(target)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(self.dumps() + "\n")
            os.replace(tmp, target)
        except BaseException as exc:
            with contextlib.suppress(OSError):
                tmp.unlink()
            if isinstance(exc, OSError):
                raise OSError(exc.errno, exc.strerror, str(target)) from None
            raise

    @classmethod
    def loads(cls, text: str) -> Record:
        """A record from JSON text; :class:`ParseError` with the reason otherwise (also for
        JSON nested too deeply to parse)."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ParseError(f"not a record: invalid JSON ({exc.msg} at line {exc.lineno})") from None
        except RecursionError:  # arrays or objects nested deeper than the parser goes
            raise ParseError("not a record: the JSON is nested too deeply") from None
        except ValueError as exc:  # a number of more digits than Python converts (4,300)
            raise ParseError(f"not a record: {exc}".split(";")[0]) from None
        return cls.from_json(data)

    @classmethod
    def from_json(cls, data: Any) -> Record:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ParseError(f"not a record: the JSON has no \"format\": \"{FORMAT}\"")
        if data.get("version") != VERSION:
            raise ParseError(f"record version {data.get('version')!r} is not supported (this is version {VERSION})")
        try:
            game = data["game"]
            actions = data.get("actions", [])
            options = data.get("options", {})
            if not isinstance(game, str) or not isinstance(options, dict) or not isinstance(actions, list):
                raise TypeError
            if not all(isinstance(a, str) for a in actions):
                raise TypeError
            seats = data.get("seats")
            if seats is not None and not (isinstance(seats, list) and all(isinstance(s, str) for s in seats)):
                raise TypeError
            deck = data.get("deck")
            seed = data.get("seed")
            fairness = Fairness.from_json(data["fairness"]) if "fairness" in data else None
            if deck is None and fairness is None and isinstance(seed, bool):  # JSON true is no seed 1
                raise ParseError('a record\'s "seed" is a whole number, not true or false')
            if deck is None and fairness is None and not isinstance(seed, int):
                raise ParseError("a record needs an integer \"seed\", a \"deck\" or a \"fairness\" block")
            return cls(
                game=game,
                preset=str(data.get("preset", "standard")),
                options=options,
                seed=seed if deck is None and fairness is None else None,
                deck=tuple(str(c) for c in parse_cards(deck)) if deck is not None else None,
                actions=tuple(actions),
                result=_result(data.get("result")),
                fairness=fairness if deck is None else None,
                seats=None if seats is None else tuple(seats),
            )
        except (KeyError, TypeError):
            raise ParseError("not a record: game, options, actions or seed/deck are missing or malformed") from None

    @classmethod
    def load(cls, path: str | Path) -> Record:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise ParseError(f"cannot read {path}: {exc.strerror}") from None
        except UnicodeDecodeError as exc:
            raise ParseError(f"cannot read {path}: not UTF-8 text (byte {exc.start})") from None
        return cls.loads(text)

    def new_state(self) -> State:
        """The game's first state."""
        game = load(self.game, self.preset, **self.options)
        if self.fairness is not None:
            return game.new_state(seed=FAIR_SEED, deals=self.fairness.shuffler())
        return game.new_state(seed=self.seed, deck=list(self.deck) if self.deck is not None else None)

    def steps(self) -> Iterator[tuple[Action | None, State]]:
        """``(None, first state)``, then ``(action, state after it)`` for each action.
        The same state object is mutated: clone it to keep one."""
        state = self.new_state()
        yield None, state
        for number, text in enumerate(self.actions, 1):
            try:
                action = state.game.parse_action(text)
                state.play(action)
            except CardtableError as exc:
                raise ParseError(f"record action {number} ({text!r}) does not replay: {exc}") from None
            yield action, state

    def replay(self) -> State:
        """The state after every action (checked as it is replayed)."""
        state = self.new_state()
        for _, state in self.steps():  # noqa: B007
            pass
        return state


def open_beside(target: Path) -> tuple[int, Path]:
    """A new file in ``target``'s folder, open for writing: its descriptor and path.

    Its name (``.NAME.<random>.tmp``) is created exclusively, so an existing file is never
    opened; its permissions are those of a new file (the umask applies). An :class:`OSError`
    (no such folder, no permission) names ``target``."""
    for _ in range(100):
        tmp = target.with_name(f".{target.name}.{secrets.token_hex(8)}.tmp")
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), tmp
        except FileExistsError:
            continue  # one chance in 2^64: draw another name
        except OSError as exc:
            raise OSError(exc.errno, exc.strerror, str(target)) from None
    raise FileExistsError(errno.EEXIST, "no free temporary name beside it", str(target))


def check_writable(target: Path) -> None:
    """Raise :class:`OSError` (naming ``target``) unless :meth:`Record.save` could write ``target``:
    its folder exists and takes a new file, and ``target`` is not a folder. Nothing is left behind."""
    if target.is_dir():
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(target))
    fd, tmp = open_beside(target)
    os.close(fd)
    tmp.unlink()


def record_of(state: State, deck: list[Card] | None = None, fairness: Fairness | None = None) -> Record:
    """The record of ``state``'s game so far (its seed, or the stacked ``deck`` it began from;
    a fair game's ``fairness`` block, from :meth:`FairDeal.fairness`, instead of either)."""
    if fairness is None and state.deals is not None:
        raise ConfigError("a fair game's record needs its fairness block: use FairDeal.record(state)")
    game = state.game
    outcome = state.outcome()
    result = None
    if outcome is not None:
        result = {"returns": list(outcome.returns), "winners": list(outcome.winners), "reason": outcome.reason}
    seed = state.seed
    if deck is None and state.stacked_deck is not None:
        deck = [Card.from_id(c) for c in state.stacked_deck]
    return Record(
        game=game.name,
        preset=game.preset,
        options=_changed_from_preset(game),
        seed=None if deck is not None or fairness is not None else seed,
        deck=tuple(str(c) for c in deck) if deck is not None and fairness is None else None,
        actions=tuple(str(a) for a in state.history),
        result=result,
        fairness=fairness,
    )


def _result(value: Any) -> dict[str, Any] | None:
    """A record's ``result`` as written (``None``: none), checked for its shape only: what the
    moves give is the replayed state's :meth:`~cardtable.core.game.State.outcome`."""
    if value is None:
        return None

    def number(x: Any) -> bool:
        return isinstance(x, int | float) and not isinstance(x, bool) and math.isfinite(x)

    if (not isinstance(value, dict) or set(value) - {"returns", "winners", "reason"}
            or not isinstance(value.get("returns", []), list) or not all(number(x) for x in value.get("returns", []))
            or not isinstance(value.get("winners", []), list)
            or not all(isinstance(w, int) and not isinstance(w, bool) for w in value.get("winners", []))
            or not isinstance(value.get("reason", ""), str)):
        raise ParseError('not a record: "result" is {"returns": [numbers], "winners": [seats], "reason": text}')
    return value


def replay_views(record: Record, seat: int | None) -> Iterator[tuple[Action | None, PlayerView]]:
    """What ``seat`` (None: a spectator) saw after the start and after each action."""
    for action, state in record.steps():
        yield action, state.view(seat)


def _changed_from_preset(game: Any) -> dict[str, Any]:
    base = type(game).PRESETS.get(game.preset, {})
    out = {}
    for spec in type(game).OPTIONS:
        value = game.options[spec.name]
        expected = base.get(spec.name, spec.default)
        if value != expected:
            out[spec.name] = value
    return out


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return list(value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value
