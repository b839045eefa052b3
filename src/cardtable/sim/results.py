"""Read the runs stored under a ``cardtable simulate --out`` directory."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.errors import ConfigError
from ..core.registry import game_class
from .spec import SimSpec
from .store import ResultStore


@dataclass
class Run:
    """One run directory: its spec, its rows (sorted by match) and its timings."""

    spec: SimSpec
    dir: Path
    rows: list[dict[str, Any]]
    timings: list[dict[str, Any]] = field(default_factory=list)

    @property
    def game(self) -> str:
        return self.spec.game

    @property
    def players(self) -> int:
        return self.spec.num_players

    @property
    def label(self) -> str:
        return self.spec.label

    def option(self, name: str) -> Any:
        """The value of option ``name`` in this run (preset and defaults applied)."""
        return self.spec.load().options[name]

    @property
    def changed(self) -> dict[str, Any]:
        """Options that differ from the defaults, the player count excepted."""
        out = {k: v for k, v in self.spec.options if k != "players"}
        if self.spec.preset != "standard":
            out = {"preset": self.spec.preset, **out}
        return out

    @property
    def same_bots(self) -> str | None:
        """The bot in every seat, or None for a mixed line-up."""
        return self.spec.bots[0] if len(set(self.spec.bots)) == 1 else None

    def rate(self, workers: int) -> float | None:
        """Matches per second measured with ``workers`` workers (the longest measurement)."""
        best = [t for t in self.timings if t["workers"] == workers and t["backend"] == "local"]
        if not best:
            return None
        t = max(best, key=lambda t: t["matches"])
        return float(t["matches"] / t["seconds"]) if t["seconds"] > 0 else None


def load_runs(root: Path) -> list[Run]:
    """Every run with at least one row under ``root`` (``root`` may itself be a run),
    for games registered in this version, sorted by label."""
    runs = []
    for meta in sorted(root.rglob("run.json")):
        spec = SimSpec.from_json_file(meta)
        try:
            game_class(spec.game)
        except ConfigError:  # a game this version does not have
            continue
        store = ResultStore(meta.parent, writable=False)  # a report changes nothing in the runs
        rows = store.rows()
        if not rows:
            continue
        runs.append(Run(spec, meta.parent, rows, read_timings(meta.parent / "timings.jsonl")))
    runs.sort(key=lambda r: (r.game, r.players, r.label))
    return runs


TIMING_KEYS = ("matches", "seconds", "workers", "backend")


def read_timings(path: Path) -> list[dict[str, Any]]:
    """The speed measurements in a run's ``timings.jsonl`` (none if it is missing); a line
    that is not one is a :class:`ConfigError` naming the file and the line. A last line cut
    off by an interruption is skipped."""
    if not path.exists():
        return []
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot be read ({exc})") from None
    lines = text.split("\n")
    out = []
    for number, line in enumerate(lines[:-1], 1):  # after the last newline: nothing, or a cut-off line
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ConfigError(f"{path}, line {number}: not valid JSON ({exc.msg})") from None
        if not (isinstance(rec, dict) and all(k in rec for k in TIMING_KEYS)):
            raise ConfigError(f"{path}, line {number}: not a timing record ({', '.join(TIMING_KEYS)})")
        out.append(rec)
    return out
