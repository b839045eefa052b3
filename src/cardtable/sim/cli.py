"""``cardtable simulate`` and ``cardtable report`` (picked up by ``cli.main``'s
``EXTRA_COMMANDS``). Bad arguments get one line on stderr and exit status 2."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path
from typing import Any, NoReturn

from ..core.errors import ConfigError
from ..core.options import parse_pairs
from ..core.registry import game_class

DEFAULT_OUT = "out/sim"


def _one_line_errors(parser: argparse.ArgumentParser) -> None:
    """argparse prints the usage before an error; ours is one line."""

    def error(message: str) -> NoReturn:
        print(f"{parser.prog}: {message}", file=sys.stderr)
        raise SystemExit(2)

    parser.error = error  # type: ignore[method-assign]


def cmd_simulate(args: argparse.Namespace) -> int:
    from .metrics import metrics_for
    from .simulate import simulate
    from .spec import SimSpec
    from .summary import summary_text

    name = game_class(args.game).name
    options = parse_pairs(args.option)
    bots = args.bots.split(",")
    if args.grid:
        grids = metrics_for(name).grids
        if args.grid not in grids:
            known = ", ".join(grids) or "none"
            raise ConfigError(f"{name} has no grid {args.grid!r}; grids: {known}")
        points: list[dict[str, Any]] = [{**options, **point} for point in grids[args.grid]]
    else:
        points = [options]
    specs = [SimSpec.build(name, args.preset, p, bots, args.seed, rotate=not args.fixed_seats) for p in points]
    out = Path(args.out)
    bar = not args.quiet
    if bar and importlib.util.find_spec("rich") is None:  # the base install: results without the bar
        print("cardtable simulate: no progress bar without the sim extra (pip install 'cardtable[sim]')",
              file=sys.stderr)
        bar = False
    for spec in specs:
        result = simulate(
            spec, args.games, out, workers=args.workers, backend=args.backend, address=args.address,
            fmt=args.format, chunk_size=args.chunk, progress=bar,
        )
        speed = (f"{result.played} new in {result.seconds:.1f}s, {result.rate:.0f} matches/s "
                 f"with {args.workers} worker{'s' if args.workers > 1 else ''}") if result.played else "all stored"
        print(summary_text(result.summary, speed))
        print(f"  results: {result.dir}")
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    from .report import build_report

    page = build_report(Path(args.dir), Path(args.out) if args.out else None)
    print(f"report: {page}")
    return 0


def _whole(text: str, least: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < least:
        raise argparse.ArgumentTypeError(f"{value} is negative" if least == 0 else f"{value} is less than {least}")
    return value


def _positive(text: str) -> int:
    return _whole(text, 1)


def _seed(text: str) -> int:
    return _whole(text, 0)


def add_commands(sub: Any) -> None:
    sim = sub.add_parser(
        "simulate", help="play many seeded bot matches and summarise them",
        description="Play seeded bot-against-bot matches in parallel; results are stored in chunks under "
                    "--out and a rerun with the same arguments resumes where it stopped.",
    )
    sim.add_argument("game", help="trash, trex or spit (cardtable games lists them)")
    sim.add_argument("--preset", help="a preset of the game (see: cardtable rules GAME)")
    sim.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE", help="set a rule option")
    sim.add_argument("--games", "-n", type=_positive, required=True, metavar="N", help="number of matches")
    sim.add_argument("--bots", required=True, metavar="A,B,...",
                     help="one bot per seat (one name: every seat); Trash: the number sets the players")
    sim.add_argument("--workers", "-j", type=_positive, default=1, metavar="K", help="parallel workers (default 1)")
    sim.add_argument("--backend", choices=("local", "ray"), default="local",
                     help="local processes (default) or Ray tasks (pip install 'cardtable[ray]')")
    sim.add_argument("--address", metavar="ADDR", help="a Ray cluster to join (with --backend ray)")
    sim.add_argument("--out", default=DEFAULT_OUT, metavar="DIR", help=f"results directory (default {DEFAULT_OUT})")
    sim.add_argument("--seed", type=_seed, default=0, metavar="S", help="seed of the run (default 0)")
    sim.add_argument("--format", choices=("parquet", "csv"), help="result files (default parquet if pyarrow is there)")
    sim.add_argument("--grid", metavar="NAME", help="run one simulation per option set of a named grid "
                                                    "(trash: variants, players)")
    sim.add_argument("--fixed-seats", action="store_true", help="do not rotate the bots through the seats")
    sim.add_argument("--chunk", type=_positive, metavar="M", help="matches per stored chunk (default: automatic)")
    sim.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    sim.set_defaults(run=cmd_simulate)
    _one_line_errors(sim)

    rep = sub.add_parser("report", help="plots and an HTML page from simulation results",
                         description="Read every run under DIR and write report.html with PNG figures.")
    rep.add_argument("dir", metavar="DIR", help="a --out directory of cardtable simulate")
    rep.add_argument("--out", metavar="DIR", help="where to write the report (default DIR/report)")
    rep.set_defaults(run=cmd_report)
    _one_line_errors(rep)
