"""Browser tests of the table around the game (Playwright, Debian's Chromium): two people chat
(P10: markup stays text), the host opens a seat before the start and a person leaves a game in
progress, after which a bot plays their seat (A4); Spit's wait for its player (R9); a finished
game's record for download (H6)."""

from __future__ import annotations

from tests.web.browser import SHOTS, browser_fixture, open_as, server_fixture, sync_api  # noqa: F401  (fixtures)

from .netserver import Server
from .test_browser import pytestmark  # noqa: F401  (reruns)


def test_p10_a4_chat_then_leave_a_game_in_progress(browser: object, server: Server):
    host_ctx = browser.new_context(viewport={"width": 1100, "height": 860})  # type: ignore[attr-defined]
    friend_ctx = browser.new_context(viewport={"width": 1100, "height": 860})  # type: ignore[attr-defined]
    host, friend = host_ctx.new_page(), friend_ctx.new_page()
    errors: list[str] = []
    for page in (host, friend):
        page.on("pageerror", lambda e: errors.append(str(e)))
        # a Content-Security-Policy violation (inline code, another origin) is a console error
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    host.goto(server.http + "/")
    host.get_by_test_id("create-name").fill("Host")  # the creator is seated at once
    host.get_by_test_id("create").click()
    host.wait_for_url("**/t/*")
    host.get_by_test_id("bot-1").click()  # a bot first, then the host opens the seat again for a friend
    sync_api.expect(host.get_by_test_id("free-1")).to_be_visible()
    host.get_by_test_id("free-1").click()
    sync_api.expect(host.get_by_test_id("free-1")).to_have_count(0)  # an open seat has nothing to free
    friend.goto(host.get_by_test_id("share").input_value())
    friend.get_by_test_id("name-1").fill("Friend")
    friend.get_by_test_id("sit-1").click()
    sync_api.expect(host.get_by_test_id("seats")).to_contain_text("Friend")
    # chat: a line with markup arrives as text at the other seat
    sync_api.expect(friend.get_by_test_id("chat-input")).to_be_visible()
    friend.get_by_test_id("chat-input").fill("<b>hola</b> 👋")
    friend.get_by_test_id("chat-send").click()
    sync_api.expect(host.get_by_test_id("chat-log")).to_contain_text("Friend: <b>hola</b> 👋")
    assert host.locator("[data-testid=chat-log] b", has_text="hola").count() == 0
    host.get_by_test_id("start").click()
    sync_api.expect(friend.get_by_test_id("layout-1")).to_be_visible()
    host.screenshot(path=str(SHOTS / "trash-chat.png"))
    # the friend leaves mid-game: a bot takes the seat and the friend's page becomes a spectator's
    friend.on("dialog", lambda d: d.accept())
    friend.get_by_test_id("leave").click()
    sync_api.expect(host.get_by_test_id("seats")).to_contain_text("sensible")
    sync_api.expect(friend.get_by_test_id("leave")).to_have_count(0)
    sync_api.expect(friend.get_by_test_id("chat-input")).to_be_hidden()
    assert not errors, errors
    host_ctx.close()
    friend_ctx.close()


def test_r9_a_spit_page_shows_the_wait_and_the_countdown(browser: object, server: Server):
    """A Spit game started before its player's page connected stands still (R9); when the page
    connects it shows the countdown, then the game goes on."""
    table_id, host, token = server.seated({1: "beginner"}, game="spit")
    server.post(f"/api/tables/{table_id}/start", host=host)
    assert server.get(f"/api/tables/{table_id}")["table"]["pause"] == {"waiting": [0], "countdown": None}
    context = browser.new_context(viewport={"width": 1100, "height": 860})  # type: ignore[attr-defined]
    page = context.new_page()
    open_as(page, server, table_id, token)
    note = page.get_by_test_id("pause")
    sync_api.expect(note).to_contain_text("goes on in")
    sync_api.expect(note).to_have_count(0, timeout=10_000)
    assert server.get(f"/api/tables/{table_id}")["table"]["pause"] is None
    context.close()


def test_h6_a_finished_game_offers_its_record_for_download(browser: object, server: Server):
    import json
    import time
    from pathlib import Path

    created = server.post("/api/tables", game="trash", options={"target_size": 9})
    table_id, host = created["table"]["id"], created["host"]
    for seat, bot in ((0, "stock"), (1, "sensible")):
        server.post(f"/api/tables/{table_id}/bot", host=host, seat=seat, bot=bot)
    server.post(f"/api/tables/{table_id}/start", host=host)
    context = browser.new_context(viewport={"width": 1100, "height": 760}, accept_downloads=True)  # type: ignore[attr-defined]
    page = context.new_page()
    page.goto(f"{server.http}/t/{table_id}")  # a spectator
    sync_api.expect(page.get_by_test_id("record")).to_have_count(0)  # not while the game is on
    sync_api.expect(page.get_by_test_id("layout-0")).to_be_attached()
    settings = page.get_by_test_id("settings").text_content() or ""
    assert "Standard" in settings and ": 9" in settings  # the table's rules in the help, in words
    deadline = time.monotonic() + 60
    while server.get(f"/api/tables/{table_id}")["table"]["status"] != "over":
        assert time.monotonic() < deadline
        time.sleep(0.2)
    link = page.get_by_test_id("record")
    sync_api.expect(link).to_be_visible()
    with page.expect_download() as info:
        link.click()
    record = json.loads(Path(info.value.path()).read_text(encoding="utf-8"))
    assert record["format"] == "cardtable-record" and record["game"] == "trash" and record["result"]["reason"]
    context.close()


def test_the_hint_button_says_and_outlines_the_bots_advice(browser: object, server: Server):
    table_id, host, token = server.seated({1: "sensible"})
    context = browser.new_context(viewport={"width": 1100, "height": 860})  # type: ignore[attr-defined]
    page = context.new_page()
    open_as(page, server, table_id, token)
    server.post(f"/api/tables/{table_id}/start", host=host)
    sync_api.expect(page.locator("[data-legal]").first).to_be_visible()  # seat 0 starts
    page.get_by_test_id("hint").click()
    sync_api.expect(page.get_by_test_id("flash").last).to_contain_text("Suggested: ")
    hinted = page.locator(".hinted")
    sync_api.expect(hinted).to_have_count(1)
    assert hinted.get_attribute("data-legal") in ("stock", "discard")
    context.close()
