"""The terminal renderer draws from views alone and never shows hidden hands."""

from __future__ import annotations

import random

from cardtable.cli import render_trex
from cardtable.core.cards import Card

from ..walk import walk, walked
from .conftest import SUITS_DEAL, load, new, start


def test_render_every_phase_plain_and_colour() -> None:
    state = load().new_state(seed=4)
    seen = set()
    for _ in walk(state, random.Random(4), 400):
        seat = state.current_player()
        view = state.view(seat)
        seen.add(view.phase)
        plain = render_trex.render(view, color=False)
        assert "\x1b[" not in plain and "Your hand" in plain
        assert "\x1b[" in render_trex.render(view, color=True)
    assert {"redeal", "choose", "trick"} <= seen
    assert "help" in render_trex.ACTION_HELP


def test_render_trex_layout_rows_and_hidden_hands() -> None:
    state = start(new(SUITS_DEAL), "TR")
    state.play("JH")
    text = render_trex.render(state.view(0), color=False)
    assert "J   next ↓ 10  next ↑ Q" in text and "not opened" in text
    assert Card.parse("AC").unicode() in text  # own clubs
    assert "A♠" not in text  # seat 3's spades stay hidden


def test_render_spectator_and_score_sheet() -> None:
    state = load().new_state(seed=2)
    walked(state, random.Random(2), until=lambda s: s.deal_index >= 2)
    text = render_trex.render(state.view(None), color=False)
    assert "total" in text and "Your hand" not in text


def test_interpret_shortcuts() -> None:
    state = new(SUITS_DEAL)
    view = state.view(state.current_player())
    assert render_trex.interpret(view, "") == "keep"
    while state.phase.value == "redeal":
        state.play("keep")
    view = state.view(state.current_player())
    assert render_trex.interpret(view, "qn") == "contract qn" and render_trex.prompt(view) == "contract> "
