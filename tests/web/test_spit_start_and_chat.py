"""A Spit table's countdown drawn over the table (ready, 3, 2, 1, as the terminal does) while the
table's `pause` counts down, and the chat's word to a spectator."""

from __future__ import annotations

import re
from typing import Any

from tests.server.netserver import Server

from .fakesocket import FakeTable, new_state, sync_api


def test_spit_the_countdown_shows_over_the_table_while_the_table_counts_down(server: Server, watched: Any):
    table = FakeTable(server, watched, "spit")
    page = table.page
    table.show(new_state("spit", 0))
    countdown = page.get_by_test_id("countdown")
    sync_api.expect(countdown).to_be_hidden()
    # 30 s to count, so that however slow the page, the number is read before it runs out
    table.socket.send({"type": "table", "table": {**table.info, "pause": {"waiting": [], "countdown": 30}}})
    sync_api.expect(countdown).to_be_visible()
    sync_api.expect(countdown).to_contain_text("Ready…")
    number = countdown.locator("b")
    sync_api.expect(number).to_have_text(re.compile(r"^\d+$"))
    shown = int(number.inner_text())
    assert 20 <= shown <= 30, shown  # the seconds left, whole
    page.wait_for_function(  # it counts down (a countdown that stands still fails here after 20 s)
        "shown => Number(document.querySelector('[data-testid=countdown] b').textContent) < shown",
        arg=shown, timeout=20_000)
    table.socket.send({"type": "table", "table": {**table.info, "pause": None}})  # the game goes
    sync_api.expect(countdown).to_be_hidden()
    assert not table.w.errors, table.w.errors


def test_a_spectator_reads_the_chat_and_is_told_why_there_is_no_box(server: Server, watched: Any):
    table = FakeTable(server, watched, "trash", seat=None)
    page = table.page
    table.show(new_state("trash", 0))
    table.socket.send({"type": "chat", "messages": [{"name": "Ada", "text": "hello"}]})
    sync_api.expect(page.get_by_test_id("chat-log")).to_contain_text("hello")
    sync_api.expect(page.get_by_test_id("chat-input")).to_be_hidden()
    sync_api.expect(page.get_by_test_id("chat-readonly")).to_have_text(
        "You are watching: the players at the table write here, spectators read.")
    assert not table.w.errors, table.w.errors


def test_a_seated_player_has_the_chat_box_and_no_spectators_note(server: Server, watched: Any):
    table = FakeTable(server, watched, "trash")
    page = table.page
    table.show(new_state("trash", 0))
    sync_api.expect(page.get_by_test_id("chat-input")).to_be_visible()
    sync_api.expect(page.get_by_test_id("chat-readonly")).to_be_hidden()
    assert not table.w.errors, table.w.errors
