"""One move per state on the table page (Chromium, the game socket answered by the test): a double
click or a key pressed twice sends one action, not a second one that would reach the server after
the turn passed and come back as the engine's English refusal; an action refused for another
reason can be made again; an ``illegal`` refusal that comes after the table moved on says in
the page's language that the turn had passed, and any other ``illegal`` refusal is said in the
page's language too."""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.netserver import Server

from .fakesocket import FakeTable, new_state, sync_api, trash_draw, trex_trick
from .test_catalogs import web_catalog

SERVER_ARGS = ("--max-open-tables", "100")
"""Every test here opens a table of its own, and none starts: more than one address's 10."""


def acts_after_a_hint(table: FakeTable, hints: int = 1) -> list[dict[str, Any]]:
    """The page's actions so far: the hint asked after them comes after anything they sent."""
    table.page.keyboard.press("h")
    table.socket.wait_for("hint", hints)
    return [m for m in table.socket.sent if m.get("type") == "act"]


def in_a_trex_trick(server: Server, watched: Any, lang: str = "en") -> tuple[FakeTable, Any, Any, str | None]:
    """A Trex table in a trick, seat 0 to play, on the page: the table, the state shown, seat 0's
    first legal card and its code."""
    table = FakeTable(server, watched, "trex", lang=lang)
    state = trex_trick(new_state("trex", 1))
    table.show(state)
    card = table.page.get_by_test_id("hand").locator(".legal").first
    return table, state, card, card.get_attribute("data-card")


def test_a_double_click_on_a_trex_card_sends_one_play(server: Server, watched: Any):
    table, _, card, code = in_a_trex_trick(server, watched)
    page = table.page
    card.dblclick()
    acts = acts_after_a_hint(table)
    assert [(a["action"], a["version"]) for a in acts] == [(code, table.version)]
    table.socket.send({"type": "error", "code": "rate_limited", "message": "slow down", "seq": acts[0]["seq"]})
    sync_api.expect(page.get_by_test_id("flash").last).to_have_text(web_catalog("en")["web.error.rate_limited"])
    card.click()  # refused: the same state may be acted on again
    table.socket.wait_for("act", 2)
    assert not table.w.errors, table.w.errors


def test_a_double_click_or_enter_twice_on_the_trash_stock_draws_once(server: Server, watched: Any):
    table = FakeTable(server, watched, "trash")
    page = table.page
    table.show(trash_draw())
    stock = page.get_by_test_id("stock")
    sync_api.expect(stock).to_have_attribute("data-legal", "stock")
    stock.dblclick()
    assert [a["action"] for a in acts_after_a_hint(table)] == ["stock"]
    page.keyboard.press("Enter")  # the key for the same draw, on the same state
    assert [a["action"] for a in acts_after_a_hint(table, 2)] == ["stock"]
    assert not table.w.errors, table.w.errors


def test_a_double_click_on_a_spit_pile_plays_the_card_once_sp13(server: Server, watched: Any):
    """SP-13: Spit takes several plays on one state, but the same play twice is one card played once
    (the second would come back as a lost race)."""
    state = new_state("spit", 1)  # seat 0 may play Q♥ from pile 3 onto S1
    assert "0 play 3 QH S1" in {str(a) for a in state.legal_actions()}
    table = FakeTable(server, watched, "spit")
    page = table.page
    table.show(state)
    page.get_by_test_id("my-pile-3").click()
    target = page.get_by_test_id("spit-1")
    sync_api.expect(target).to_have_attribute("data-legal", "0 play 3 QH S1")
    target.dblclick()
    assert [a["action"] for a in acts_after_a_hint(table)] == ["0 play 3 QH S1"]
    page.get_by_test_id("spit").click()  # another action on the same state still goes
    table.socket.wait_for("act", 2)
    assert not table.w.errors, table.w.errors


@pytest.mark.parametrize("lang", ["en", "es", "pt", "ar"])
def test_an_illegal_refusal_after_the_turn_passed_is_said_in_the_pages_language(server: Server, watched: Any,
                                                                              lang: str):
    """A card played just as the turn passed (a timer's or a stand-in's move got there first): the
    server's refusal is the engine's English "it is seat 1's turn, not seat 0's"; the page says the
    turn had passed, in its language."""
    table, state, card, code = in_a_trex_trick(server, watched, lang)
    page = table.page
    card.click()
    act = table.socket.wait_for("act")[0]
    state.play(code)  # the move that came first (here: the same card, played for the seat)
    table.show(state)
    table.socket.send({"type": "error", "code": "illegal", "message": "it is seat 1's turn, not seat 0's",
                       "seq": act["seq"]})
    sync_api.expect(page.get_by_test_id("flash").last).to_have_text(web_catalog(lang)["web.turn_passed"])
    assert not table.w.errors, table.w.errors


@pytest.mark.parametrize("lang", ["en", "es", "pt", "ar"])
def test_another_illegal_refusal_is_said_in_the_pages_language(server: Server, watched: Any, lang: str):
    """An ``illegal`` refusal on the state the move was chosen on: an English page shows the
    server's words (they name what was wrong), another language says in its own words that the
    move was not played, not the engine's English."""
    table, _, card, _ = in_a_trex_trick(server, watched, lang)
    page = table.page
    card.click()
    act = table.socket.wait_for("act")[0]
    message = "seat 0 cannot play that card now"
    table.socket.send({"type": "error", "code": "illegal", "message": message, "seq": act["seq"]})
    said = message if lang == "en" else web_catalog(lang)["web.move_refused"]
    sync_api.expect(page.get_by_test_id("flash").last).to_have_text(said)
    assert not table.w.errors, table.w.errors
