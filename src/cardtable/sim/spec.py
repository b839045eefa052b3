"""What a simulation run is: the game, its options, the bots and the seed.

A :class:`SimSpec` names a run independently of how many matches are played
and of the workers that play them, so a rerun with the same arguments finds the
same run directory and resumes it. Match ``i``'s game seed and bot seed derive
from ``(seed, i)`` alone (:func:`match_seeds`); so does its line-up
(:meth:`SimSpec.lineup`), so results never depend on the worker count.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..bots.base import bot_names, make_bot, reacts
from ..core.chance import derive
from ..core.errors import ConfigError
from ..core.game import Game
from ..core.registry import game_class
from .store import read_json

SPEC_VERSION = 1
"""Bump when the meaning of a run's rows changes (old run directories are then not resumed)."""


def match_seeds(seed: int, match: int) -> tuple[int, int]:
    """``(game_seed, bot_seed)`` of match number ``match`` in a run seeded ``seed``.

    >>> match_seeds(0, 5) == match_seeds(0, 5) != match_seeds(0, 6)
    True
    """
    rng = derive(seed, "sim", match)
    return rng.getrandbits(63), rng.getrandbits(63)


def _jsonable(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


@dataclass(frozen=True)
class SimSpec:
    """One run: ``cardtable.load(game, preset, **options)`` played by ``bots``
    (one name per seat) from ``seed``. With ``rotate`` match ``i`` shifts the
    line-up by ``i`` seats, so each bot sits in every seat equally often."""

    game: str
    preset: str
    options: tuple[tuple[str, Any], ...]
    bots: tuple[str, ...]
    seed: int = 0
    rotate: bool = True

    @classmethod
    def build(
        cls, game: str, preset: str | None, options: dict[str, Any], bots: list[str], seed: int, rotate: bool = True
    ) -> SimSpec:
        """Validate everything once (unknown game, option, bot: :class:`ConfigError`).

        ``options`` hold values or their command-line text. With one bot name
        for a multi-seat game, every seat gets that bot. When the game has a
        ``players`` option that was not given, the number of bots sets it.
        """
        cls_ = game_class(game)
        options = dict(options)
        names = [b.strip() for b in bots]
        if not any(names):
            raise ConfigError("--bots needs at least one bot name")
        if not all(names):  # "sensible,," is not a line-up of one bot: say so, never drop seats
            raise ConfigError(f"--bots {','.join(bots)}: a bot name is empty")
        if any(o.name == "players" for o in cls_.OPTIONS) and "players" not in options and len(names) > 1:
            options["players"] = len(names)
        loaded = cls_.load(preset, **options)
        n = loaded.num_players
        if len(names) == 1:
            names = names * n
        if len(names) != n:
            raise ConfigError(f"{cls_.title} with these options has {n} seats, but {len(names)} bots were named")
        known = bot_names(cls_.name)
        for name in names:
            if name not in known:
                raise ConfigError(f"no {cls_.name} bot named {name!r}; bots: {', '.join(known)}")
        if loaded.realtime:
            for name in dict.fromkeys(names):
                if not reacts(make_bot(cls_.name, name)):  # a turn-style bot has no react() for the host
                    raise ConfigError(f"{cls_.title} is played in real time: the bot {name!r} cannot play it")
        if seed < 0:
            raise ConfigError(f"--seed must be 0 or more, not {seed}")
        changed = tuple(sorted((k, _jsonable(v)) for k, v in loaded.changed_options().items()))
        return cls(cls_.name, loaded.preset, changed, tuple(names), seed, rotate)

    def load(self) -> Game:
        return game_class(self.game).load(self.preset, **dict(self.options))

    @property
    def num_players(self) -> int:
        return len(self.bots)

    def lineup(self, match: int) -> tuple[str, ...]:
        """The bot in each seat for match number ``match``."""
        if not self.rotate:
            return self.bots
        n = len(self.bots)
        k = match % n
        return tuple(self.bots[(s + k) % n] for s in range(n))

    def to_json(self) -> dict[str, Any]:
        return {
            "version": SPEC_VERSION,
            "game": self.game,
            "preset": self.preset,
            "options": dict(self.options),
            "bots": list(self.bots),
            "seed": self.seed,
            "rotate": self.rotate,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SimSpec:
        return cls(
            data["game"], data["preset"], tuple(sorted(data["options"].items())), tuple(data["bots"]),
            int(data["seed"]), bool(data["rotate"]),
        )

    @classmethod
    def from_json_file(cls, path: Path) -> SimSpec:
        """The spec in a run's ``run.json``; a damaged or foreign file is a one-line
        :class:`ConfigError` naming it."""
        data = read_json(path)
        spec = data.get("spec") if isinstance(data, dict) else None
        try:
            if not isinstance(spec, dict):
                raise TypeError
            return cls.from_json(spec)
        except (KeyError, TypeError, ValueError, AttributeError):
            raise ConfigError(f"{path}: not the run.json of a cardtable simulate run (no valid \"spec\")") from None

    @property
    def key(self) -> str:
        """A short hash of the spec: the run directory's name ends with it."""
        text = json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:10]

    @property
    def label(self) -> str:
        """A human name: ``trash 3p wild_mode=kings: sensible,sensible,random``."""
        opts = " ".join(f"{k}={_text(v)}" for k, v in self.options if k != "players")
        preset = "" if self.preset == "standard" else f" preset={self.preset}"
        return f"{self.game} {self.num_players}p{preset}{' ' + opts if opts else ''}: {','.join(self.bots)}"

    def command(self, games: int, out: str = "DIR") -> str:
        """The ``cardtable simulate`` command line that (re)produces this run.

        >>> SimSpec.build("trash", None, {"jokers": "true"}, ["sensible", "random"], 7).command(100)
        'cardtable simulate trash -o jokers=true --bots sensible,random --games 100 --seed 7 --out DIR'
        """
        parts = ["cardtable simulate", self.game]
        if self.preset != "standard":
            parts.append(f"--preset {self.preset}")
        names = list(self.bots)
        implied = len(set(names)) > 1  # several bot names set the players of a game with that option
        for k, v in self.options:
            if k == "players" and implied:
                continue
            text = ",".join(str(x) for x in v) if isinstance(v, list) else _text(v)
            parts.append(f"-o {k}={text}")
        parts.append(f"--bots {','.join(names) if implied else names[0]}")
        parts.append(f"--games {games} --seed {self.seed}")
        if not self.rotate:
            parts.append("--fixed-seats")
        parts.append(f"--out {out}")
        return " ".join(parts)

    @property
    def dirname(self) -> str:
        return f"{self.game}-{self.num_players}p-{self.key}"


def _text(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return "none" if v is None else str(v)
