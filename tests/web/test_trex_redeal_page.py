"""Trex on the page: a hand shown to force a redeal (TX-13) belongs to the deal it ended. It is told
in the log with the redeal and is not drawn on the table beside the new deal's hands."""

from __future__ import annotations

from typing import Any

from cardtable.games.trex.view import TrexView
from tests.server.netserver import Server

from .fakesocket import FakeTable, new_state, sync_api


def a_bot_asked_to_redeal() -> tuple[Any, int]:
    """A Trex deal whose first question is a bot seat's redeal (a bounded search over seeds)."""
    for seed in range(2000):
        state = new_state("trex", seed)
        seat = state.current_player()
        if seat != 0 and "redeal" in [str(a) for a in state.legal_actions()]:
            return state, seat
    raise AssertionError("no seed with a bot asked to redeal first")


def test_tx13_the_hand_shown_for_a_redeal_is_in_the_log_not_on_the_new_deals_table(server: Server, watched: Any):
    state, seat = a_bot_asked_to_redeal()
    table = FakeTable(server, watched, "trex")
    page = table.page
    table.show(state)
    hand = page.get_by_test_id("hand").locator("[data-card]")
    sync_api.expect(hand).to_have_count(13)
    state.play("redeal")
    view = state.view(0)
    assert isinstance(view, TrexView)
    shown = [c for s, cards in view.redeal_shown if s == seat for c in cards]
    assert len(shown) == 13 and view.redeal_shown  # the view still carries it through the new deal
    table.show(state)
    new_hand = sorted(str(c) for c in state.view(0).hand)
    sync_api.expect(page.get_by_test_id("log").locator("li", has_text="deal 1 is redealt")).to_have_count(1)
    board_cards = page.get_by_test_id("board").locator("[data-card]").evaluate_all(
        "els => els.map(e => e.dataset.card)")
    assert sorted(board_cards) == new_hand, board_cards  # only my new hand: nobody's old hand on the table
    line = page.get_by_test_id("log").locator("li", has=page.get_by_test_id("log-cards"))
    sync_api.expect(line).to_have_count(1)
    text = line.inner_text()
    for card in shown:
        assert card.unicode() in text, (card, text)
    assert not table.w.errors, table.w.errors
