"""README's hot-seat examples say what the app does: a cover between turns only in a game with
private cards (Trex), none in Trash (docs/tui.md, "Seats")."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

import cardtable

ROOT = Path(__file__).resolve().parents[1]


def hot_seat_lines() -> list[str]:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    return [line for line in lines if re.match(r"cardtable play \w+ --seats \S*human\S*,human", line)]


def test_docs_readme_hot_seat_examples_say_whether_the_app_covers_the_table():
    pytest.importorskip("textual")
    from cardtable.tui.seats import parse_seats
    from cardtable.tui.session import Session

    lines = hot_seat_lines()
    for line in lines:
        words = shlex.split(line.partition("#")[0])
        game, seats = words[2], parse_seats(words[words.index("--seats") + 1], words[2])
        session = Session.start(cardtable.load(game, players=len(seats)) if game == "trash" else cardtable.load(game),
                                seats, seed=1)
        comment = line.partition("#")[2]
        if session.covers:
            assert "cover" in comment and "no cover" not in comment, line
        else:
            assert "no cover" in comment and "covered" not in comment, line
    assert {shlex.split(line.partition("#")[0])[2] for line in lines} >= {"trash", "trex"}
    assert "without a cover" in (ROOT / "docs" / "tui.md").read_text(encoding="utf-8")
