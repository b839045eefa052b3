"""One vocabulary and the player's own pace on the page: the hint says
"Suggested: draw from the stock" and answers only the position on the board; names instead of
"seat N"; "Collections"; no rule ids; end screens say "you"; Trash's draw from the stock is never
taken for the player, and a Trash key that does nothing says why."""

from __future__ import annotations

import random
import re
from typing import Any

from tests.server.netserver import Server

from ..walk import walked
from .fakesocket import FakeTable, new_state, sync_api


def trash_turn(seed_from: int = 0) -> Any:
    """A two-player Trash deal where seat 0 is to draw and only the stock is legal (a bounded search)."""
    for seed in range(seed_from, seed_from + 500):
        state = new_state("trash", seed)
        if state.current_player() == 0 and [str(a) for a in state.legal_actions()] == ["stock"]:
            return state
    raise AssertionError("no such deal")


def test_the_hint_is_said_in_words_and_only_for_the_position_on_the_board(server: Server, watched: Any):
    table = FakeTable(server, watched, "trash")
    page = table.page
    state = trash_turn()
    table.show(state, version=1)
    sync_api.expect(page.get_by_test_id("stock")).to_have_attribute("data-legal", "stock")
    page.keyboard.press("h")
    table.socket.wait_for("hint")
    table.socket.send({"type": "hint", "version": 1, "action": "stock", "bot": "hard"})
    toast = page.get_by_test_id("flash")
    sync_api.expect(toast).to_have_text("Suggested: draw from the stock")
    sync_api.expect(page.locator(".hinted")).to_have_attribute("data-legal", "stock")
    state.play("stock")
    table.show(state, version=2)  # the table moves on: the advice for version 1 goes
    sync_api.expect(toast).to_have_count(0)
    table.socket.send({"type": "hint", "version": 1, "action": "stock", "bot": "hard"})  # late: dropped
    table.socket.send({"type": "chat", "messages": [{"name": "Ada", "text": "after the late hint"}]})
    sync_api.expect(page.get_by_test_id("chat-log")).to_contain_text("after the late hint")
    sync_api.expect(toast).to_have_count(0)
    assert not table.w.errors, table.w.errors


def test_trash_the_draw_from_the_stock_stays_the_players_key_press(server: Server, watched: Any):
    """host/forced.py PACE: the stock alone is not answered for the player, on the page as in the terminal."""
    table = FakeTable(server, watched, "trash")
    page = table.page
    state = trash_turn()
    table.show(state)
    sync_api.expect(page.get_by_test_id("stock")).to_have_attribute("data-legal", "stock")
    page.wait_for_timeout(2000)  # the page answered lone questions after 0.7 s
    assert [m for m in table.socket.sent if m["type"] == "act"] == []
    assert page.get_by_test_id("auto-answer").count() == 0
    page.keyboard.press("Enter")
    assert table.socket.wait_for("act")[0]["action"] == "stock"
    assert not table.w.errors, table.w.errors


def test_trash_a_key_that_does_nothing_says_why(server: Server, watched: Any):
    table = FakeTable(server, watched, "trash")
    page = table.page
    state = trash_turn()
    table.show(state)
    note = page.get_by_test_id("note")
    sync_api.expect(page.get_by_test_id("stock")).to_have_attribute("data-legal", "stock")
    # each note shows for a moment; ``data-said`` keeps its text, so a slow machine cannot miss it
    page.keyboard.press("5")  # a slot before drawing
    sync_api.expect(note).to_have_attribute("data-said", "Draw first: Enter for the stock, d for the discard.")
    page.keyboard.press("d")  # the discard cannot be placed (only the stock is legal)
    sync_api.expect(note).to_have_attribute("data-said", re.compile(r"draw from the stock \(Enter\)"))
    sync_api.expect(note).to_have_text("", timeout=30_000)  # a short note: it goes by itself
    assert [m for m in table.socket.sent if m["type"] == "act"] == []
    state.play("stock")
    while state.current_player() == 0:
        state.play(state.legal_actions()[0])
    table.show(state)  # the bot's turn
    # the page has drawn it (the stock is no longer ours to draw) before the key is pressed
    sync_api.expect(page.get_by_test_id("stock")).not_to_have_attribute("data-legal", "stock")
    page.keyboard.press("Enter")
    sync_api.expect(note).to_have_attribute("data-said", "Not your turn: Ben is playing.")
    assert not table.w.errors, table.w.errors


def test_trex_words_collections_names_and_no_seat_numbers(server: Server, watched: Any):
    """The TK contract is "Collections" (the rules' name, as the terminal says); the page says the
    players' names ("Ben"), in the log too, where the server's sentence says "seat 1"."""
    table = FakeTable(server, watched, "trex")
    page = table.page
    state = new_state("trex", 3)
    for _ in range(30):
        table.show(state)
        actions = [str(a) for a in state.legal_actions()]
        state.play(next((a for a in ("contract QN", "keep", "done") if a in actions), actions[0]))
    table.show(state)
    sync_api.expect(page.get_by_test_id("log").locator("li").last).to_be_visible()
    board = page.get_by_test_id("board").inner_text()
    log = page.get_by_test_id("log").inner_text()
    assert "Collections" in page.get_by_test_id("trex-info").inner_text()
    assert "Tricks" not in board
    for text in (board, log):
        assert "seat " not in text.lower(), text
    assert "Ben" in log and "Cleo" in log
    assert not table.w.errors, table.w.errors


def test_the_end_screen_says_you_and_a_spit_game_is_a_game(server: Server, watched: Any):
    table = FakeTable(server, watched, "spit")
    page = table.page
    state = new_state("spit", 0)
    walked(state, random.Random(0), 20_000)  # a seeded random game to its end
    assert state.is_terminal()
    table.show(state)
    result = page.get_by_test_id("result")
    sync_api.expect(result).to_be_visible()
    rows = result.locator("li b").all_inner_texts()
    assert rows[0] == "you", rows
    text = page.get_by_test_id("board").inner_text().lower()
    assert "seat" not in text and "match" not in text, text
    assert not table.w.errors, table.w.errors


def test_messages_carry_no_rule_ids(server: Server, watched: Any):
    table = FakeTable(server, watched, "spit")
    page = table.page
    table.show(new_state("spit", 1))
    table.socket.send({"type": "error", "code": "illegal",
                       "message": "0 play 1 AS S0: stale: AS is not the face-up top of pile 1 (SP-13)"})
    toast = page.get_by_test_id("flash")
    sync_api.expect(toast).to_have_text("0 play 1 AS S0: stale: AS is not the face-up top of pile 1")
    assert not table.w.errors, table.w.errors
