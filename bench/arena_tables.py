"""Re-summarise saved arena runs: ``python bench/arena_tables.py RUN.json ...`` prints each
run's Markdown table (``cardtable arena ... --format json > RUN.json`` saves one), with the
statistics of the current code (Wilson intervals over deals, Plackett–Luce ratings).

``--merge`` pools runs of the same bots under different seeds into one table: their deals are
different seeds, so they are independent and are numbered one after the other."""

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


def merge(runs: list[ArenaResult]) -> ArenaResult:
    """One result of several runs of the same bots (seeds listed in the caption's seed field)."""
    first = runs[0]
    if any(r.bots != first.bots or r.game != first.game or r.options != first.options for r in runs):
        raise SystemExit("--merge wants runs of the same game, options and bots")
    results: list[GameResult] = []
    offset = 0
    for r in runs:
        results += [GameResult(g.deal + offset, g.rotation, g.seats, g.returns, g.winners, g.reason, g.table)
                    for g in r.results]
        offset += r.deals
    out = ArenaResult(first.game, first.preset, first.bots, offset, first.seed, results, options=first.options,
                      tables=first.tables, seats=first.seats, seconds=sum(r.seconds for r in runs))
    out.stats = summarise(results, list(dict.fromkeys(first.bots)))
    return out


def main(args: list[str]) -> int:
    paths = [a for a in args if a != "--merge"]
    runs = [load(p) for p in paths]
    if "--merge" in args:
        text = format_table(merge(runs), "markdown")
        seeds = ", ".join(str(r.seed) for r in runs)
        print(text.replace(f"seed {runs[0].seed},", f"seeds {seeds},", 1))
        return 0
    for r in runs:
        print(format_table(r, "markdown"))
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
