"""The page in Arabic (Chromium): right to left with logical CSS, Trex's next seat still on the
player's right (TX-2: the direction of play, not of reading), option numbers in Arabic-Indic
digits, and a whole Trex game played by clicking, at desktop and phone width."""

from __future__ import annotations

import contextlib
import re
from typing import Any

import pytest

from cardtable.server import protocol
from tests.server.netserver import Server

from .browser import SHOTS, sync_api
from .test_layout import centres

ARABIC_INDIC = re.compile("[\u0660-\u0669]")
CARD_ACTION = re.compile(r"^[2-9TJQKA][CDHS]$")
# A table's socket speaks the languages of server/protocol.py's LANGS (hello.lang); until ar is one
# of them (LANGS = cardtable.i18n.LANGUAGES) an Arabic page cannot join a table.
needs_ar_socket = pytest.mark.skipif("ar" not in protocol.LANGS, reason="hello.lang does not accept ar yet "
                                     "(server/protocol.py LANGS must be cardtable.i18n.LANGUAGES)")


def test_ar_the_page_is_right_to_left_with_arabic_indic_option_numbers(server: Server, watched: Any):
    w = watched(locale="ar")
    page = w.page
    page.goto(server.http + "/")
    page.get_by_test_id("lang").select_option("ar")
    sync_api.expect(page.locator("html")).to_have_attribute("dir", "rtl")
    sync_api.expect(page.locator("html")).to_have_attribute("lang", "ar")
    page.get_by_test_id("game").select_option("trex")
    first_dealer = page.get_by_test_id("option-first_dealer")
    sync_api.expect(first_dealer).to_contain_text("\u0660")  # its default 0, as ٠
    assert not re.search(r"\(.*[0-9].*\)", first_dealer.locator(".muted").inner_text())
    # the lobby mirrors: the option's logical border (border-inline-start) is on the right edge
    side = page.evaluate("""() => getComputedStyle(document.querySelector('.option')).borderRightWidth""")
    assert side == "3px", side
    page.get_by_test_id("lang").select_option("en")
    sync_api.expect(page.locator("html")).to_have_attribute("dir", "ltr")
    assert not w.errors, w.errors


@needs_ar_socket
@pytest.mark.parametrize("width", [1280, 390])
def test_tx2_ar_the_next_seat_stays_on_your_right(server: Server, watched: Any, width: int):
    table_id, host, token = server.seated({1: "random", 2: "random", 3: "random"}, game="trex")
    server.post(f"/api/tables/{table_id}/start", host=host)
    w = watched(width=width, height=900 if width > 500 else 844, phone=width < 500, locale="ar")
    page = w.open_as(server, table_id, token, seat=0, lang="ar")
    sync_api.expect(page.locator("html")).to_have_attribute("dir", "rtl")
    sync_api.expect(page.get_by_test_id("seat-1")).to_be_visible()
    (x0, y0), (x1, _y1), (_x2, y2), (x3, _y3), t1, t3 = centres(
        page, "seat-0", "seat-1", "seat-2", "seat-3", "trick-1", "trick-3")
    assert y0 > y2
    assert x1 > x0 > x3  # seat 1 plays after me: on my right, in Arabic too
    assert t1[0] > t3[0]
    assert not w.errors, w.errors


def trex_choice(actions: list[str]) -> str | None:
    """A trick contract before Trex, no doubling, keep the hand, else a card, else the first offer."""
    choice = next((a for a in actions if a.startswith("contract ") and a != "contract TR"), None)
    choice = choice or next((a for a in actions if a in ("done", "keep")), None)
    choice = choice or next((a for a in actions if CARD_ACTION.match(a)), None)
    return choice or (actions[0] if actions else None)


def play_trex_to_the_end(page: Any, limit: int = 1500) -> int:
    """Click until the game's result shows; the end-of-deal summaries are closed by their button
    (or Enter). Returns the number of clicks."""
    clicks = 0
    result = page.get_by_test_id("result")
    summary = page.get_by_test_id("deal-summary")
    for _ in range(limit):
        if result.count():
            return clicks
        if summary.count():
            page.keyboard.press("Enter")
            continue
        legal = page.locator("[data-legal]")
        try:
            legal.first.wait_for(state="visible", timeout=1500)
        except sync_api.Error:
            continue
        actions = [a for a in legal.evaluate_all("els => els.map(e => e.dataset.legal)") if a]
        choice = trex_choice(actions)
        if choice is None:
            continue
        with contextlib.suppress(sync_api.Error):
            page.locator(f'[data-legal="{choice}"]').first.click(timeout=1500)
            clicks += 1
    raise AssertionError("the Trex game did not end")


@needs_ar_socket
@pytest.mark.parametrize(("width", "shot"), [(1280, "trex-ar-desktop.png"), (390, "trex-ar-phone.png")])
def test_ar_a_whole_trex_game_by_clicking(server: Server, watched: Any, width: int, shot: str):
    """Complex Trex (TX-V1, 8 deals) against three bots, every decision of seat 0 a click, in Arabic."""
    table_id, host, token = server.seated({1: "random", 2: "random", 3: "random"}, game="trex", complex_mode=True)
    phone = width < 500
    w = watched(width=width, height=844 if phone else 900, phone=phone, locale="ar")
    page = w.open_as(server, table_id, token, seat=0, lang="ar")
    server.post(f"/api/tables/{table_id}/start", host=host)
    sync_api.expect(page.get_by_test_id("hand").locator("[data-card]")).to_have_count(13)
    sync_api.expect(page.locator("html")).to_have_attribute("dir", "rtl")
    page.screenshot(path=str(SHOTS / shot), full_page=not phone)
    clicks = play_trex_to_the_end(page)
    assert clicks >= 8  # at least one decision a deal
    sync_api.expect(page.get_by_test_id("result")).to_be_visible()
    assert server.get(f"/api/tables/{table_id}")["table"]["status"] == "over"
    assert not w.errors, w.errors
