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
        data = json.loads(meta.read_text())
        spec = SimSpec.from_json(data["spec"])
        try:
            game_class(spec.game)
        except ConfigError:  # a game this version does not have
            continue
        store = ResultStore(meta.parent)
        rows = store.rows()
        if not rows:
            continue
        timings = []
        tfile = meta.parent / "timings.jsonl"
        if tfile.exists():
            timings = [json.loads(line) for line in tfile.read_text().splitlines() if line.strip()]
        runs.append(Run(spec, meta.parent, rows, timings))
    runs.sort(key=lambda r: (r.game, r.players, r.label))
    return runs
