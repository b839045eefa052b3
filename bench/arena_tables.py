"""Re-summarise saved arena runs: ``python bench/arena_tables.py RUN.json ...`` prints each
run's Markdown table (``cardtable arena ... --format json > RUN.json`` saves one), with the
statistics of the current code (Wilson intervals over deals, Plackett–Luce ratings)."""

from __future__ import annotations

import json
import sys

from cardtable.arena.run import ArenaResult, GameResult, format_table, summarise


def load(path: str) -> ArenaResult:
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    results = [GameResult(r["deal"], r["rotation"], tuple(r["seats"]), tuple(r["returns"]), tuple(r["winners"]),
                          r["reason"], r.get("table", 0)) for r in data["results"]]
    out = ArenaResult(data["game"], data["preset"], tuple(data["bots"]), data["deals"], data["seed"], results,
                      options=data["options"], tables=data["tables"], seats=data["seats"], seconds=data["seconds"])
    out.stats = summarise(results, list(dict.fromkeys(data["bots"])))
    return out


def main(paths: list[str]) -> int:
    for path in paths:
        print(format_table(load(path), "markdown"))
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
