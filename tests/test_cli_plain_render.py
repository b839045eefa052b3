"""The plain text loop's boards: English numbers agree with their nouns, columns line up, and
the board after the last hand names that hand."""

from __future__ import annotations

import dataclasses
import random
import re

import cardtable
from cardtable.cli import render_trash, render_trex

from .walk import walked


def test_plain_trash_board_says_1_slot_1_hand_won_and_1_card():
    view = cardtable.load("trash").new_state(seed=1).view(0)
    view = dataclasses.replace(view, sizes=(1, 9), hands_won=(9, 1), stock_count=1)
    text = render_trash.render(view, color=False)
    assert "Seat 1: 9 slots, 1 hand won" in text
    assert "You: 1 slot, 9 hands won" in text
    assert "Stock: 1 card " in text
    assert not re.search(r"\b1 (slots|hands|cards)\b", text)


def test_plain_trash_final_board_names_the_last_hand_played():
    state = walked(cardtable.load("trash").new_state(seed=1), random.Random(1))
    assert state.is_terminal()
    last = state.hands_played
    head = render_trash.render(state.view(0), color=False).splitlines()[0]
    assert head.startswith(f"Trash — hand {last} ")


def test_plain_trex_board_says_1_card_in_the_same_column():
    view = cardtable.load("trex").new_state(seed=1).view(0)
    view = dataclasses.replace(view, hand_sizes=(13, 1, 13, 13))
    rows = [line for line in render_trex.render(view, color=False).splitlines()
            if re.match(r"(You|Seat \d) ", line)]
    assert "Seat 1   1 card " in rows[1] and "1 cards" not in "\n".join(rows)
    assert len({row.index("card") for row in rows}) == 1


def test_plain_trex_score_sheet_totals_line_up_with_the_seat_columns():
    view = cardtable.load("trex").new_state(seed=1).view(0)
    view = dataclasses.replace(view, deal_scores=((1, 0, 0, "KH", (-75, 0, 0, 0)),),
                               kingdom_scores=((-75, 0, 0, 0),), totals=(-75, 0, 0, 0))
    rows = render_trex.score_sheet(view, render_trex.Style(False))
    head, deal, kingdom, total = rows
    assert kingdom.startswith("  kingdom 1 total") and total.startswith("  total")
    ends = [m.end() for m in re.finditer(r"seat \d", head)]  # each seat column ends under its name
    for row in (deal, kingdom, total):
        assert [m.end() for m in re.finditer(r"[-+]\d+", row)][-4:] == ends, row


def test_plain_trash_help_says_what_d_takes_under_the_options():
    import cardtable.cli.textplay as textplay
    from cardtable.host import Match

    def help_shown(**options):
        out: list[str] = []
        replies = iter(["?", "q"])
        match = Match(cardtable.load("trash", **options), seed=1, bots={})
        textplay.play_text(match, 0, color=False, ask=lambda p: next(replies), say=out.append)
        return "\n".join(out)

    assert "take the top discard (only when you can place it)" in help_shown()
    anything = help_shown(discard_take_requires_playable=False)
    assert "only when you can place it" not in anything
    assert "take the top discard (any card: one you cannot place ends your turn)" in anything


def test_tr1_a_large_table_shows_the_other_seats_one_a_line_within_80_columns():
    state = walked(cardtable.load("trash", players=52).new_state(seed=1), random.Random(1), 3000)
    text = render_trash.render(state.view(3), color=False)
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 80
    rows = [line for line in lines if re.match(r"Seat \d+ ", line)]
    assert [int(row.split()[1]) for row in rows] == [s for s in range(52) if s != 3]
    assert len({row.index(" slot") for row in rows if " 10 slots" not in row}) == 1  # the counts line up
    numbers = lines[1].split()
    assert numbers == [str(k) for k in range(1, 11)]
    assert "You: " in text and text.count("\n   6   7   8   9  10") == 1  # the seat on screen: two rows
    spectator = render_trash.render(state.view(None), color=False)
    assert len([line for line in spectator.splitlines() if re.match(r"Seat \d+ ", line)]) == 52


def test_tr1_up_to_four_players_keep_every_layout_in_two_rows():
    text = render_trash.render(cardtable.load("trash", players=4).new_state(seed=1).view(0), color=False)
    assert text.count("   6   7   8   9  10") == 4 and "Seat 1: 10 slots, 0 hands won" in text


def test_tr1_the_plain_loop_seats_nine_bots(monkeypatch, capsys):
    import io

    from cardtable.cli.main import main

    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # no moves: the game stops at the first prompt
    main(["play", "trash", "--plain", "--bots", "9", "--no-color", "--seed", "3"])
    out = capsys.readouterr().out
    assert all(f"Seat {s} " in out for s in range(1, 10)) and "You: 10 slots" in out
