"""``cardtable verify RECORD…``: check provably fair records (docs/fairness.md).

For each record: every commitment against its revealed seed, every recorded
shuffle and pick recomputed from the seeds, the actions against their digest,
and a replay that must make exactly the recorded deals and end with the
recorded result. Prints one line per record; exit status 0 when every record
verifies, 1 when one does not (the line says why: FAILED, or not a fair-deal
record at all, such as a game saved by ``cardtable play``), 2 when one cannot be
read.
Picked up by ``cli.main``'s ``EXTRA_COMMANDS``.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..core.errors import ParseError
from ..records.fairness import FairnessError, verify
from ..records.record import Record


def cmd_verify(args: argparse.Namespace) -> int:
    code = 0
    for path in args.records:
        try:
            record = Record.load(path)
        except ParseError as exc:
            print(f"{path}: cannot read the record: {exc}", file=sys.stderr)
            code = max(code, 2)
            continue
        if record.fairness is None:
            print(f"{path}: not a fair-deal record: this {record.game} game was dealt from a seed no player "
                  "committed to (a game saved on this machine), so there is nothing to verify", file=sys.stderr)
            code = max(code, 1)
            continue
        try:
            done = verify(record)
        except FairnessError as exc:
            print(f"{path}: FAILED: {exc}", file=sys.stderr)
            code = max(code, 1)
            continue
        print(f"{path}: verified: {done.game}, {done.seats} seats, every commitment matches; "
              f"{done.deals} deals recomputed from the seeds; {done.actions} actions replay")
    return code


def add_commands(sub: Any) -> None:
    verify_cmd = sub.add_parser(
        "verify", help="check that saved fair games were dealt from their committed seeds",
        description="Recompute every deal of each record from its revealed seeds, check every commitment "
                    "and replay the actions (docs/fairness.md). Exit 0: all verified; 1: one failed; "
                    "2: one could not be read.",
    )
    verify_cmd.add_argument("records", nargs="+", metavar="RECORD", help="a record file (JSON) of a fair game")
    verify_cmd.set_defaults(run=cmd_verify)
