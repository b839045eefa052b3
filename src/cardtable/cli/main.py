"""The ``cardtable`` command.

    cardtable play [trash|trex|spit] [--seats human,sensible …] [--preset P] [-o key=value …] [--lang es]
    cardtable play --resume FILE            (--plain: the text loop instead of the app)
    cardtable rules GAME [--preset P]
    cardtable replay FILE [--seat N] [--tui]
    cardtable games

Bad input gets one line on stderr and exit status 2, never a traceback. The
base install (no extras) runs every command that needs only the standard
library (``play --plain``, ``rules``, ``replay``, ``games``, ``review``,
``verify``, ``arena`` without ratings); the others say in one line which extra
to install (:data:`EXTRA_OF_MODULE`).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import math
import sys
from pathlib import Path
from typing import Any

import cardtable

from ..bots.base import bot_names, make_bot, reacts
from ..core.build import build_name
from ..core.errors import CardtableError, ConfigError
from ..core.game import Game
from ..core.options import parse_pairs
from ..core.registry import game_class, game_names
from ..host.match import Match
from ..records.record import Record, check_writable
from ..records.result import played_result, result_line, result_note
from .style import Style, want_color

DEFAULT_BOT = {"trash": "sensible", "trex": "hard", "spit": "medium"}

MAX_PACE = 60.0
"""The longest ``--pace`` in seconds: a bot's move is never held back longer."""

EXTRA_COMMANDS = ("cardtable.sim.cli", "cardtable.cli.arena", "cardtable.server.cli", "cardtable.tui.cli",
                  "cardtable.review.cli", "cardtable.cli.verify")
"""Modules that add subcommands with ``add_commands(subparsers)``. Each imports its
optional dependencies only when its command runs, and says which extra to install
when one is missing."""

EXTRA_OF_MODULE = {
    "textual": "tui", "rich": "sim", "matplotlib": "sim", "pyarrow": "sim",
    "starlette": "web", "uvicorn": "web", "websockets": "web", "httpx": "web", "playwright": "web",
    "openskill": "arena", "ray": "ray", "pettingzoo": "rl", "gymnasium": "rl", "numpy": "rl",
    "pyspiel": "openspiel", "torch": "train", "stable_baselines3": "train", "sb3_contrib": "train",
    "bidi": "ar", "arabic_reshaper": "ar", "alembic": "web",
    "psycopg": "cluster", "psycopg_pool": "cluster", "redis": "cluster", "argon2": "players",
}
"""The extra (pyproject.toml) that brings each optional module a command may import."""


def missing_extra(exc: ModuleNotFoundError) -> str | None:
    """The extra to install for a missing third-party module, or ``None`` (a real bug)."""
    return EXTRA_OF_MODULE.get((exc.name or "").partition(".")[0])


def needs_extra(command: str, exc: ModuleNotFoundError) -> str:
    """One line: which extra ``cardtable COMMAND`` needs."""
    extra = missing_extra(exc)
    return f"cardtable {command} needs the {extra} extra ({exc.name} is missing): pip install 'cardtable[{extra}]'"


def seat_bots(game: Game) -> list[str]:
    """The bots that can take a seat of ``game``: in a real-time game (Spit), only those that
    play in real time (not ``random``, which only answers when asked)."""
    names = bot_names(game.name)
    return [n for n in names if reacts(make_bot(game.name, n))] if game.realtime else names


def load_game(name: str, preset: str | None, options: dict[str, Any], bots: int | None) -> Game:
    cls = game_class(name)
    players = next((o for o in cls.OPTIONS if o.name == "players"), None)
    if bots is not None and players is not None:
        lo, hi = int(players.minimum or 2), int(players.maximum or 2)
        if not lo - 1 <= bots <= hi - 1:
            raise ConfigError(f"--bots {bots}: {cls.title} is played by {lo} to {hi} players, "
                              f"so --bots is {lo - 1} to {hi - 1}")
        if "players" in options and int(options["players"]) != bots + 1:
            raise ConfigError(f"--bots {bots} needs players={bots + 1}, but players={options['players']} was given")
        options.setdefault("players", str(bots + 1))
    game = cls.load(preset, **options)
    if bots is not None and bots != game.num_players - 1:
        raise ConfigError(f"{cls.title} is played by {game.num_players}: use --bots {game.num_players - 1}")
    return game


def cmd_play(args: argparse.Namespace) -> int:
    """``cardtable play``: the Textual app (``--plain``: the text loop of :mod:`.textplay`)."""
    from ..i18n import default_language
    from ..tui.seats import SeatSpec, default_seats, parse_seats
    from ..tui.session import Session, languages

    if args.pace is not None and not (math.isfinite(args.pace) and 0 <= args.pace <= MAX_PACE):
        raise ConfigError(f"--pace {args.pace:g}: a number of seconds from 0 to {MAX_PACE:g}")
    record = Record.load(args.resume) if args.resume else None
    name = game_class(record.game if record is not None else args.game or "trash").name
    if record is not None:
        if args.game is not None and game_class(args.game).name != name:
            raise ConfigError(f"--resume: {args.resume} is a {name} game, not {args.game}")
        if args.preset or args.option or args.bots is not None or args.seed is not None:
            raise ConfigError("--resume takes the game, its options and its seed from the record")
    if args.seats and args.seat is not None:
        raise ConfigError("use --seats or --seat, not both: --seats says which seat is yours")
    if args.seats and args.bot is not None:
        raise ConfigError("use --seats or --bot, not both: --seats names each seat's bot")
    seats: tuple[SeatSpec, ...] | None = parse_seats(args.seats, name) if args.seats else None
    if record is not None:
        game = cardtable.load(record.game, record.preset, **record.options)
    else:
        options = parse_pairs(args.option)
        if seats is not None:
            if args.bots is not None:
                raise ConfigError("use --seats or --bots, not both")
            if any(o.name == "players" for o in game_class(name).OPTIONS):
                if "players" in options and int(options["players"]) != len(seats):
                    raise ConfigError(f"--seats names {len(seats)} seats, but players={options['players']}")
                options.setdefault("players", str(len(seats)))
        game = load_game(name, args.preset, options, args.bots)
    if seats is None and record is not None and record.seats is not None and args.seat is None and args.bot is None:
        try:  # who held each seat when the game was saved
            seats = parse_seats(",".join(record.seats), name)
        except ConfigError as exc:
            raise ConfigError(f"--resume: the record's seats: {exc}") from None
        if len(seats) != game.num_players:
            raise ConfigError(f"--resume: the record names {len(seats)} seats; {game.title} is played by"
                              f" {game.num_players}")
    if seats is None:
        human = 0 if args.seat is None else args.seat
        if not 0 <= human < game.num_players:
            raise ConfigError(f"--seat {human}: seats are 0 to {game.num_players - 1}")
        seats = default_seats(game.num_players, name, human, args.bot)
    elif len(seats) != game.num_players:
        raise ConfigError(f"--seats names {len(seats)} seats; {game.title} is played by {game.num_players}")
    lang = default_language() if args.lang is None else args.lang  # --lang "" is refused, not the default
    if lang not in languages():
        raise ConfigError(f"--lang {lang!r}: languages are {', '.join(languages())}")
    save = Path(args.save) if args.save else None
    if save is not None:
        _check_save(save)
    if args.plain or not _terminal():  # Spit with --plain: the real-time screen of cli.spit_play
        if args.undo:
            raise ConfigError("--undo is the app's (u takes a move back); the plain text loop has no undo")
        _plain_in_english(args.lang)
        return _play_plain(args, game, seats, record, save)
    if importlib.util.find_spec("textual") is None:  # the base install: the text loop, if it can
        if sum(spec.is_human for spec in seats) != 1:
            raise ConfigError("hot-seat play needs the terminal app: pip install 'cardtable[tui]'")
        print("cardtable: the terminal app needs the tui extra (pip install 'cardtable[tui]'); "
              "playing in plain text", file=sys.stderr)
        _plain_in_english(args.lang)
        return _play_plain(args, game, seats, record, save)
    if record is not None:
        session = Session.resume(record, seats, lang=lang, save_path=save or Path(args.resume))
    else:
        session = Session.start(game, seats, seed=args.seed, lang=lang, save_path=save)
    from ..tui.launch import run_play

    pace = 0.25 if args.pace is None else args.pace
    return run_play(session, pace=pace, bot_delay=1.5 * pace, undo=args.undo)


def _check_save(save: Path) -> None:
    """Refuse a ``--save`` path that could not be written before the game starts, not after it."""
    folder = save.parent
    if not folder.is_dir():
        raise ConfigError(f"--save {save}: " + (f"{folder} is not a folder" if folder.exists()
                                                 else f"there is no folder {folder}"))
    try:
        check_writable(save)
    except IsADirectoryError:
        raise ConfigError(f"--save {save}: that is a folder; name a file to save the game in") from None
    except OSError as exc:
        raise ConfigError(f"--save {save}: cannot write in {save.parent} ({exc.strerror or exc})") from None


def _terminal() -> bool:
    """True when both ends are a terminal; piped input and output get the plain text loop."""
    return sys.stdin.isatty() and sys.stdout.isatty()


def _plain_in_english(lang: str | None) -> None:
    """The plain text loop speaks English only: a person who asked for another language is told."""
    if lang is not None and lang != "en":
        print(f"cardtable: --lang {lang} is the app's language; the plain text loop is in English",
              file=sys.stderr)


def _play_plain(args: argparse.Namespace, game: Game, seats: Any, record: Record | None, save: Path | None) -> int:
    """The plain text loop: one human seat, bots elsewhere."""
    color = want_color(sys.stdout, False if args.no_color else None)
    name = game.name
    if name == "spit":
        # a new game, you at seat 0 against one bot: what the app offers beyond that is refused
        for flag, given in (("--resume", record is not None), ("--seats", bool(args.seats)),
                            (f"--seat {args.seat}", args.seat not in (None, 0))):
            if given:
                raise ConfigError(f"{flag}: Spit's plain loop plays a new game, you (seat 0) against one bot; "
                                  "it takes --bot, --seed and --save")
        try:
            spit = importlib.import_module("cardtable.cli.spit_play")
        except ImportError:
            raise ConfigError("Spit terminal play is not available in this version") from None
        code: int = spit.play_spit(game, seed=args.seed, level=args.bot or DEFAULT_BOT["spit"], color=color,
                                   save=save)
        return code
    from .textplay import play_text, renderer_for  # the terminal's modules, for this command only

    try:
        renderer_for(name)
    except ImportError:
        raise ConfigError(f"{game.title} cannot be played in the terminal in this version") from None
    humans = [s for s, spec in enumerate(seats) if spec.is_human]
    if len(humans) != 1:
        raise ConfigError("--plain is for exactly one human seat (use the app for hot-seat play)")
    human = humans[0]
    if args.bot is None and not args.seats and (record is None or record.seats is None):
        kind = DEFAULT_BOT.get(name, "random")
        held = tuple(str(spec) if s == human else kind for s, spec in enumerate(seats))
        bots = {s: make_bot(name, kind) for s in range(game.num_players) if s != human}
    else:
        held = tuple(str(spec) for spec in seats)
        bots = {s: make_bot(name, spec.kind) for s, spec in enumerate(seats) if not spec.is_human}
    match = Match.from_record(record, bots=bots) if record is not None else Match(game, seed=args.seed, bots=bots)
    pace = args.pace if args.pace is not None else (0.25 if color else 0.0)
    return play_text(match, human, color=color, pace=pace, save=save, seats=held)


def _value(v: Any) -> str:
    """An option value as ``-o key=value`` takes it (a tuple: ``200,150,100,50``)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, tuple):
        return ",".join(_value(x) for x in v)
    return "none" if v is None else str(v)


def cmd_rules(args: argparse.Namespace) -> int:
    cls = game_class(args.game)
    game = cls.load(args.preset)
    st = Style(want_color(sys.stdout, False if args.no_color else None))
    print(st(f"{cls.title}", "bold") + (f" (also: {', '.join(cls.aliases)})" if cls.aliases else ""))
    print("Set options with -o key=value; the rule each option follows is in brackets.\n")
    print(st("Presets", "bold"))
    for name in cls.PRESETS:
        mark = " *" if name == game.preset else ""
        doc = cls.PRESET_DOCS.get(name, "")
        values = ", ".join(f"{k}={_value(v)}" for k, v in cls.PRESETS[name].items())
        print(f"  {name}{mark}: {doc}" + (st(f" [{values}]", "dim") if values else ""))
    print()
    print(st(f"Options (values under preset {game.preset})", "bold"))
    for spec in cls.OPTIONS:
        allowed = ""
        if spec.choices:
            allowed = " | ".join(_value(c) for c in spec.choices)
        elif spec.kind is bool:
            allowed = "true | false"
        elif spec.minimum is not None or spec.maximum is not None:
            lo = _value(spec.minimum if spec.kind is float else int(spec.minimum)) if spec.minimum is not None else ""
            hi = _value(spec.maximum if spec.kind is float else int(spec.maximum)) if spec.maximum is not None else ""
            allowed = f"{lo}..{hi}" + (" or none" if spec.nullable else "")
        elif spec.kind is tuple:
            allowed = "numbers separated by commas"
        print(f"  {st(spec.name, 'cyan')} = {_value(game.options[spec.name])}"
              + st(f"   (default {_value(spec.default)}" + (f"; {allowed}" if allowed else "") + f") [{spec.rule}]",
                   "dim"))
        print(f"      {spec.doc}")
    print(f"\nBots: {', '.join(seat_bots(game))}")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from ..i18n import LANGUAGES, default_language

    lang = default_language() if args.lang is None else args.lang  # refused as review refuses it, --tui or not
    if lang not in LANGUAGES:
        raise ConfigError(f"--lang {lang!r}: languages are {', '.join(LANGUAGES)}")
    record = Record.load(args.file)
    game = cardtable.load(record.game, record.preset, **record.options)
    color = want_color(sys.stdout, False if args.no_color else None)
    st = Style(color)
    seat = args.seat
    if seat is not None and not 0 <= seat < game.num_players:
        raise ConfigError(f"--seat {seat}: seats are 0 to {game.num_players - 1}")
    if args.tui:
        from ..tui.launch import run_replay

        return run_replay(record, seat, lang=lang)
    who = "a spectator" if seat is None else f"seat {seat}"
    print(st(f"Replay of a {game.title} game ({len(record.actions)} actions) as {who} saw it", "bold"))
    from .textplay import renderer_for

    try:
        r = renderer_for(game.name)
    except ImportError:
        r = None
    view = state = None
    for number, (action, state) in enumerate(record.steps()):
        view = state.view(seat)
        if action is not None:
            print(st(f"{number}. {action}", "bold"))
        for event in view.events:
            print("   " + event.text)
        if args.step and r is not None:
            print(r.render(view, color=color))
            try:
                if input(st("Enter for the next step, q to stop: ", "dim")).strip().lower() == "q":
                    return 0
            except EOFError:
                return 0
    if view is not None and r is not None:
        print(r.render(view, color=color))
    played = played_result(state)
    print(result_line(played, seat) if played else st("The game is not over.", "dim"))
    note = result_note(record.result, played, seat)  # the moves decide, not what the file says
    if note:
        print(st(note, "dim"))
    return 0


def cmd_games(args: argparse.Namespace) -> int:
    for name in game_names():
        cls = game_class(name)
        print(f"{name:8} {cls.title}" + (f" (also: {', '.join(cls.aliases)})" if cls.aliases else ""))
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="cardtable", description="Trash, Trex (Trix) and Spit.")
    p.add_argument("--version", action="version", version=f"cardtable {cardtable.__version__} ({build_name()})")
    p.set_defaults(run=None)  # each command sets its own
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    play = sub.add_parser("play", help="play a game in the terminal (a Textual app; --plain for the text loop)")
    play.add_argument("game", nargs="?", help="trash (default), trex or spit")
    play.add_argument("--preset", help="a preset of the game (see: cardtable rules GAME)")
    play.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE", help="set a rule option")
    play.add_argument("--seats", metavar="LIST",
                      help="who sits where, one entry per seat: human or a bot name, optionally :NAME "
                           "(e.g. human,sensible or human:Ana,human:Ben,random); sets the player count")
    play.add_argument("--bots", type=int, help="number of bot opponents (Trash: sets the player count)")
    play.add_argument("--bot", help="the bots' kind: a level (easy, medium, hard, expert) "
                      "or a bot name (see: cardtable rules GAME)")
    play.add_argument("--seat", type=int, help="your seat, without --seats (default 0)")
    play.add_argument("--seed", type=int, help="seed the deal, to replay the same game")
    play.add_argument("--save", metavar="FILE", help="save the game record to FILE (s in the app, at the end, on quit)")
    play.add_argument("--resume", metavar="FILE", help="continue a saved game")
    play.add_argument("--lang", help="the app's language: en, ar, es or pt (default: from the locale; "
                      "the plain text loop is in English)")
    play.add_argument("--pace", type=float, help="seconds per animation step (the app) or after a bot move "
                      f"(--plain): 0 to {MAX_PACE:g}")
    play.add_argument("--undo", action="store_true",
                      help="let the person take moves back with u (the app; only against bots, never in Spit)")
    play.add_argument("--plain", action="store_true",
                      help="the plain text loop instead of the app (also when input or output is not a terminal)")
    play.add_argument("--no-color", action="store_true", help="plain text (with --plain)")
    play.set_defaults(run=cmd_play)

    rules = sub.add_parser("rules", help="list a game's options, defaults and presets")
    rules.add_argument("game")
    rules.add_argument("--preset")
    rules.add_argument("--no-color", action="store_true")
    rules.set_defaults(run=cmd_rules)

    replay = sub.add_parser("replay", help="show a saved game as one seat saw it")
    replay.add_argument("file")
    replay.add_argument("--seat", type=int, help="whose view (default: a spectator's)")
    replay.add_argument("--step", action="store_true", help="wait for Enter after each action")
    replay.add_argument("--no-color", action="store_true")
    replay.add_argument("--tui", action="store_true", help="step through it in the terminal app")
    replay.add_argument("--lang", help="the app's language: en, ar, es or pt (default: from the locale)")
    replay.set_defaults(run=cmd_replay)

    games = sub.add_parser("games", help="list the games")
    games.set_defaults(run=cmd_games)
    for name in EXTRA_COMMANDS:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name is not None and name.startswith(exc.name):
                continue  # that part is not built in this version
            if missing_extra(exc) is None:
                raise
            continue  # left out so that the rest works; tests/test_wheel.py keeps every one loadable without extras
        module.add_commands(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    if argv is None:  # the installed command: a checkout's compiled build, when one was built
        from .builds import run_compiled_build_if_built

        run_compiled_build_if_built(sys.argv[1:])
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.run is None:  # no command
        parser.print_help()
        return 0
    try:
        code: int = args.run(args)
        return code
    except ModuleNotFoundError as exc:
        if missing_extra(exc) is None:
            raise
        print(needs_extra(args.command, exc), file=sys.stderr)
        return 2
    except CardtableError as exc:
        print(f"cardtable: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the output was piped into something that stopped reading
        return 0
    except OSError as exc:
        print(f"cardtable: {exc.strerror or exc}: {exc.filename or ''}".rstrip(": "), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
