"""``cardtable arena GAME --bots A,B,... --games N [--preset P] [--seed S] [--workers K]``.

Duplicate deals between bots (see :mod:`cardtable.arena.run`); prints each bot's
win share (Wilson 95% interval over deals), mean score with its 95% interval and
a Plackett–Luce rating (openskill). The simulations' progress bar
(:class:`cardtable.sim.progress.Progress`, ``rich``) goes to stderr. The command lives in the
``cli`` layer because it joins two packages that may not import each other (``arena`` and
``sim``). Picked up by ``cli.main``'s ``EXTRA_COMMANDS``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import sys
from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from ..arena.run import ProgressBar, default_workers, format_table, run_arena
from ..bots.base import Budget
from ..core.errors import ConfigError
from ..core.options import parse_pairs
from ..sim.progress import Progress


def cmd_arena(args: argparse.Namespace) -> int:
    bots = [b.strip() for b in args.bots.split(",")]
    if any(bots) and not all(bots):  # never drop a seat silently
        raise ConfigError(f"--bots {args.bots}: a bot name is empty")
    bots = [b for b in bots if b]
    if len(bots) < 2:
        raise ConfigError("--bots wants at least two bots, e.g. --bots sensible,stock")
    if importlib.util.find_spec("openskill") is None:  # said before the games, not after them
        raise ConfigError("the arena's ratings need the arena extra: pip install 'cardtable[arena]'")
    budget = None
    if args.iterations is not None or args.seconds is not None:
        budget = Budget(args.iterations, args.seconds)
    workers = args.workers if args.workers is not None else default_workers()
    result = run_arena(
        args.game, bots, args.games, preset=args.preset, options=parse_pairs(args.option), seed=args.seed,
        workers=workers, budget=budget, progress=None if args.quiet else _progress_bar(),
    )
    if args.format == "json":
        print(json.dumps(_finite({
            "game": result.game, "preset": result.preset, "options": result.options, "bots": result.bots,
            "deals": result.deals, "tables": result.tables, "games": result.games, "seed": result.seed,
            "seconds": result.seconds, "seats": result.seats,
            "stats": [asdict(s) for s in result.stats], "results": [asdict(r) for r in result.results],
        }), indent=2))
    else:
        print(format_table(result, args.format))
    return 0


def _progress_bar() -> Callable[[int], ProgressBar] | None:
    """The bar for a run of N games; none (said in one line) without ``rich``."""
    if importlib.util.find_spec("rich") is None:
        print("cardtable arena: no progress bar without rich (pip install 'cardtable[sim]')", file=sys.stderr)
        return None
    return lambda total: Progress(total, label="games")


def _finite(value: Any) -> Any:
    """JSON has no NaN: an interval that cannot be computed (one deal) becomes null."""
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


def add_commands(sub: Any) -> None:
    p = sub.add_parser("arena", help="bots against bots on duplicate deals, with ratings")
    p.add_argument("game", help="trash, trex or spit")
    p.add_argument("--bots", required=True,
                   help="comma-separated bot names, one per seat; more distinct bots than seats play a ladder "
                        "of every table of them (see: cardtable rules GAME)")
    p.add_argument("--games", type=int, default=100, help="number of deals; each is played once per seat rotation")
    p.add_argument("--preset", help="a preset of the game")
    p.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE", help="set a rule option")
    p.add_argument("--seed", type=int, default=0, help="seed of the whole run (default 0)")
    p.add_argument("--workers", type=int, help="processes (default: one per core)")
    p.add_argument("--iterations", type=int, help="search budget per decision (iterations) for every bot")
    p.add_argument("--seconds", type=float,
                   help="search budget per decision (seconds) for every bot; results then depend on the "
                        "machine's speed, so use --iterations for reproducible runs")
    p.add_argument("--format", choices=("text", "markdown", "json"), default="text")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    p.set_defaults(run=cmd_arena)
