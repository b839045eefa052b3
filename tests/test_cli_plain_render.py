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
