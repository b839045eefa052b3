"""``cardtable review RECORD --seat N``: where a seat lost its points (see :mod:`cardtable.review`)."""

from __future__ import annotations

import argparse
import json
import sys
from collections import deque
from typing import Any

MAX_WORLDS = 100_000
"""The most worlds ``--worlds`` takes: a minute or more a decision already, where 32 take a second."""


def cmd_review(args: argparse.Namespace) -> int:
    from ..core.errors import ConfigError
    from ..i18n import LANGUAGES, default_language
    from ..records.record import Record
    from ..records.result import played_result, result_note
    from . import review
    from .text import review_lines

    lang = default_language() if args.lang is None else args.lang  # --lang "" is refused, as replay does
    if lang not in LANGUAGES:
        raise ConfigError(f"--lang {lang!r}: languages are {', '.join(LANGUAGES)}")
    if not 1 <= args.worlds <= MAX_WORLDS:
        raise ConfigError(f"--worlds must be from 1 to {MAX_WORLDS:,}, not {args.worlds}")
    if args.top < 1:
        raise ConfigError("--top must be at least 1")
    record = Record.load(args.record)

    def progress(done: int, total: int) -> None:
        if not args.json and sys.stderr.isatty():
            print(f"\r{done}/{total}", end="", file=sys.stderr, flush=True)

    result = review(record, args.seat, worlds=args.worlds, hindsight=not args.no_hindsight, seed=args.seed,
                    progress=progress)
    if not args.json and sys.stderr.isatty():
        print("\r", end="", file=sys.stderr)
    last = deque(record.steps(), maxlen=1)  # the final position
    note = result_note(record.result, played_result(last[0][1] if last else None), args.seat)  # as replay says it
    if args.json:
        print(json.dumps(result.to_json(), ensure_ascii=False))
        if note:
            print(note, file=sys.stderr)  # stdout stays one JSON document
    else:
        print("\n".join(review_lines(result, lang, costliest=args.top)))
        if note:
            print(note)
    return 0


def add_commands(sub: Any) -> None:
    p = sub.add_parser("review", help="where a seat lost points in a saved game (Trex, Trash)",
                       description="For each decision of SEAT, the best move judged from what that seat knew "
                                   "(worlds sampled from its view, played out by the expert search's policy) "
                                   "and the expected points lost; then the best move with all cards known.")
    p.add_argument("record", help="a saved game (cardtable play --save, or a record from the server)")
    p.add_argument("--seat", type=int, default=0, help="the seat to review (default 0)")
    p.add_argument("--worlds", type=int, default=32, help="worlds sampled per decision (default 32)")
    p.add_argument("--top", type=int, default=5, help="how many costly decisions to list, at least 1 (default 5)")
    p.add_argument("--seed", type=int, default=0, help="seed of the sampling (default 0)")
    p.add_argument("--no-hindsight", action="store_true", help="skip the all-cards-known evaluation")
    p.add_argument("--json", action="store_true", help="every decision as JSON")
    p.add_argument("--lang", help="en, ar, es or pt (default: from the locale)")
    p.set_defaults(run=cmd_review)
