"""Browser tests: Playwright drives Debian's Chromium against a real ``cardtable serve``.

Create a table in the lobby, sit, add a bot, start, and play a Trash hand by
clicking; then the same at phone width and in Spanish. Screenshots go to
docs/screenshots/.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from .netserver import Server

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
# Screenshots land in a temporary folder; CARDTABLE_SCREENSHOTS=1 refreshes the ones kept in
# docs/screenshots/ (the deals are random, so a plain run must not rewrite tracked files).
SHOTS = (Path(__file__).resolve().parents[2] / "docs" / "screenshots" if os.environ.get("CARDTABLE_SCREENSHOTS")
         else Path(tempfile.gettempdir()) / "cardtable-screenshots")

# A real browser against a live server with bots moving on their own timers: a click can now and
# then race a redraw (seen about once in 15 runs of the Trex test). A test that fails for a real
# reason fails all three tries.
pytestmark = pytest.mark.flaky(reruns=2)

sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
if not (os.path.exists(CHROMIUM) or shutil.which("chromium")):
    pytest.skip(f"no Chromium at {CHROMIUM}: run scripts/install-browsers.sh (as root)", allow_module_level=True)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("browser") / "server.sqlite3", "--bot-delay", "0.05").start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield b
        b.close()


def new_table_by_clicking(page: object, server: Server, name: str = "Ada") -> None:
    page.goto(server.http + "/")  # type: ignore[attr-defined]
    page.get_by_test_id("create").click()  # type: ignore[attr-defined]
    page.wait_for_url("**/t/*")  # type: ignore[attr-defined]
    page.get_by_test_id("name-0").fill(name)  # type: ignore[attr-defined]
    page.get_by_test_id("sit-0").click()  # type: ignore[attr-defined]
    page.get_by_test_id("bot-kind-1").select_option("sensible")  # type: ignore[attr-defined]
    page.get_by_test_id("bot-1").click()  # type: ignore[attr-defined]
    start = page.get_by_test_id("start")  # type: ignore[attr-defined]
    sync_api.expect(start).to_be_enabled()
    start.click()
    sync_api.expect(page.get_by_test_id("layout-0")).to_be_visible()  # type: ignore[attr-defined]
    sync_api.expect(page.get_by_test_id("seats")).to_contain_text("sensible")  # type: ignore[attr-defined]


def play_by_clicking(page: object, until_hand: int, limit: int = 400) -> int:
    """Click a legal card or button until the hand number reaches ``until_hand`` or the match ends."""
    clicks = 0
    status = page.get_by_test_id("status")  # type: ignore[attr-defined]
    for _ in range(limit):
        text = status.inner_text()
        if "won" in text or "gan" in text or "shared" in text or "compartida" in text:
            return clicks
        hand = int("".join(ch for ch in text.split()[1] if ch.isdigit()))
        if hand >= until_hand:
            return clicks
        legal = page.locator("[data-legal]")  # type: ignore[attr-defined]
        try:
            legal.first.wait_for(state="visible", timeout=3000)
        except sync_api.TimeoutError:
            continue
        try:
            # prefer a wild's slot or displacing, else whatever is offered
            legal.last.click(timeout=2000)
            clicks += 1
        except sync_api.Error:
            continue  # the board was redrawn under the click: look again
    raise AssertionError(f"the hand did not end within {limit} steps")


def test_create_add_bot_and_play_a_trash_hand_by_clicking(browser: object, server: Server):
    context = browser.new_context(viewport={"width": 1280, "height": 860})  # type: ignore[attr-defined]
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.http + "/")
    sync_api.expect(page.get_by_test_id("create")).to_be_visible()
    page.screenshot(path=str(SHOTS / "lobby-desktop.png"))
    new_table_by_clicking(page, server)
    page.wait_for_timeout(300)
    page.screenshot(path=str(SHOTS / "trash-desktop-start.png"))
    clicks = play_by_clicking(page, until_hand=2)
    assert clicks >= 3
    page.wait_for_timeout(300)
    page.screenshot(path=str(SHOTS / "trash-desktop-hand2.png"))
    log = page.get_by_test_id("log").inner_text()
    assert "you draw" in log or "you take" in log
    # the page keeps the seat: a reload reconnects with the token and shows the same board
    version_before = page.get_by_test_id("status").inner_text()
    page.reload()
    sync_api.expect(page.get_by_test_id("layout-0")).to_be_visible()
    assert page.get_by_test_id("status").inner_text().split()[:2] == version_before.split()[:2]
    assert not errors, errors
    context.close()


def test_phone_width_in_spanish(browser: object, server: Server):
    context = browser.new_context(  # type: ignore[attr-defined]
        viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True,
        locale="es-ES")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.http + "/")
    sync_api.expect(page.get_by_test_id("create")).to_have_text("Crear mesa")
    page.screenshot(path=str(SHOTS / "lobby-phone-es.png"))
    new_table_by_clicking(page, server, name="Lucía")
    play_by_clicking(page, until_hand=1, limit=1)  # the board is up
    for _ in range(6):
        legal = page.locator("[data-legal]")
        legal.first.wait_for(state="visible", timeout=5000)
        legal.last.click()
        page.wait_for_timeout(150)
    page.screenshot(path=str(SHOTS / "trash-phone-es.png"), full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways at phone width ({width}px)"
    assert "Mano" in page.get_by_test_id("status").inner_text()
    assert not errors, errors
    context.close()


def test_a_friend_opens_the_shared_link_and_takes_the_other_seat(browser: object, server: Server):
    host_ctx = browser.new_context(viewport={"width": 1100, "height": 800})  # type: ignore[attr-defined]
    friend_ctx = browser.new_context(viewport={"width": 1100, "height": 800})  # type: ignore[attr-defined]
    host, friend = host_ctx.new_page(), friend_ctx.new_page()
    host.goto(server.http + "/")
    host.get_by_test_id("create").click()
    host.wait_for_url("**/t/*")
    host.get_by_test_id("name-0").fill("Host")
    host.get_by_test_id("sit-0").click()
    link = host.get_by_test_id("share").input_value()
    assert link.startswith(server.http + "/t/")
    friend.goto(link)
    friend.get_by_test_id("name-1").fill("<i>Friend</i>")
    friend.get_by_test_id("sit-1").click()
    sync_api.expect(host.get_by_test_id("seats")).to_contain_text("<i>Friend</i>")  # shown as text, not HTML
    host.get_by_test_id("start").click()
    sync_api.expect(friend.get_by_test_id("layout-1")).to_be_visible()
    # the friend never gets the host's controls, and both see whose turn it is
    assert friend.get_by_test_id("start").count() == 0
    moves = 0
    for _ in range(60):
        for page in (host, friend):
            legal = page.locator("[data-legal]")
            if legal.count():
                try:
                    legal.last.click(timeout=1000)
                    moves += 1
                except sync_api.Error:
                    pass
        if moves >= 8:
            break
        host.wait_for_timeout(100)
    assert moves >= 8
    friend.screenshot(path=str(SHOTS / "trash-two-people.png"))
    host_ctx.close()
    friend_ctx.close()


def test_a_short_match_to_the_end_shows_the_winner(browser: object, server: Server):
    created = server.post("/api/tables", game="trash", options={"target_size": 9})
    table_id, host = created["table"]["id"], created["host"]
    token = server.post(f"/api/tables/{table_id}/sit", seat=0, name="Ada")["token"]
    server.post(f"/api/tables/{table_id}/bot", host=host, seat=1, bot="stock")
    context = browser.new_context(viewport={"width": 1100, "height": 760})  # type: ignore[attr-defined]
    page = context.new_page()
    page.goto(server.http + "/")
    page.evaluate("([id, token]) => localStorage.setItem(`ct.seat.${id}`, JSON.stringify({seat: 0, token}))",
                  [table_id, token])
    page.goto(f"{server.http}/t/{table_id}")
    server.post(f"/api/tables/{table_id}/start", host=host)
    sync_api.expect(page.get_by_test_id("layout-0")).to_be_visible()
    for _ in range(600):
        if page.get_by_test_id("again").count():
            break
        legal = page.locator("[data-legal]")
        with contextlib.suppress(sync_api.Error):
            legal.last.click(timeout=1000)
    sync_api.expect(page.get_by_test_id("again")).to_be_visible()
    status = page.get_by_test_id("status").inner_text()
    assert "won the match" in status or "shared" in status
    page.screenshot(path=str(SHOTS / "trash-over.png"))
    context.close()


def test_lobby_options_reach_the_table(browser: object, server: Server):
    context = browser.new_context(viewport={"width": 1100, "height": 700})  # type: ignore[attr-defined]
    page = context.new_page()
    page.goto(server.http + "/")
    page.get_by_test_id("players").fill("3")
    page.locator("details.more summary").click()
    page.locator("[data-option=wild_mode]").select_option("kings")
    page.locator("[data-option=jokers]").check()
    page.screenshot(path=str(SHOTS / "lobby-options.png"))
    page.get_by_test_id("create").click()
    page.wait_for_url("**/t/*")
    table_id = page.url.rsplit("/", 1)[1]
    import httpx

    info = httpx.get(f"{server.http}/api/tables/{table_id}").json()["table"]
    assert info["options"] == {"players": 3, "wild_mode": "kings", "jokers": True}
    assert len(info["seats"]) == 3
    context.close()


def new_game_table(page: object, server: Server, game: str, bots: dict[int, str]) -> None:
    """Create a ``game`` table in the lobby, sit at seat 0 and fill the other seats with bots."""
    page.goto(server.http + "/")  # type: ignore[attr-defined]
    page.get_by_test_id("game").select_option(game)  # type: ignore[attr-defined]
    page.get_by_test_id("create").click()  # type: ignore[attr-defined]
    page.wait_for_url("**/t/*")  # type: ignore[attr-defined]
    page.get_by_test_id("name-0").fill("Ada")  # type: ignore[attr-defined]
    page.get_by_test_id("sit-0").click()  # type: ignore[attr-defined]
    for seat, bot in bots.items():
        page.get_by_test_id(f"bot-kind-{seat}").select_option(bot)  # type: ignore[attr-defined]
        page.get_by_test_id(f"bot-{seat}").click()  # type: ignore[attr-defined]
        sync_api.expect(page.get_by_test_id(f"bot-{seat}")).to_have_count(0)  # type: ignore[attr-defined]
    start = page.get_by_test_id("start")  # type: ignore[attr-defined]
    sync_api.expect(start).to_be_enabled()
    start.click()


CARD_ACTION = r"^[2-9TJQKA][CDHS]$"


def test_trex_table_with_three_bots_plays_a_trick_by_clicking(browser: object, server: Server):
    context = browser.new_context(viewport={"width": 1280, "height": 900})  # type: ignore[attr-defined]
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    new_game_table(page, server, "trex", {1: "rules", 2: "rules", 3: "rules"})
    sync_api.expect(page.get_by_test_id("trex-table")).to_be_visible()
    sync_api.expect(page.get_by_test_id("hand").locator("[data-card]")).to_have_count(13)
    cards_played = 0
    trick_done = False
    for _ in range(120):
        legal = page.locator("[data-legal]")
        try:
            legal.first.wait_for(state="visible", timeout=4000)
        except sync_api.TimeoutError:
            continue
        actions = [a for a in legal.evaluate_all("els => els.map(e => e.dataset.legal)") if a]
        # a trick contract rather than Trex, no doubling, keep the hand: reach a trick soon
        choice = next((a for a in actions if a.startswith("contract ") and a != "contract TR"), None)
        choice = choice or next((a for a in actions if a in ("done", "keep")), None)
        cards = [a for a in actions if re.match(CARD_ACTION, a)]
        if choice is None and cards:
            choice = cards[0]
        if choice is None:
            if not actions:
                continue  # redrawn under us: look again
            choice = actions[0]
        try:
            page.locator(f'[data-legal="{choice}"]').first.click(timeout=2000)
        except sync_api.Error:
            continue
        if choice in cards:
            try:  # played, unless the board was redrawn under the click (a bot forced a redeal)
                sync_api.expect(page.get_by_test_id("hand").locator(f'[data-card="{choice}"]')).to_have_count(
                    0, timeout=3000)
            except AssertionError:
                continue
            cards_played += 1
            if page.get_by_test_id("last-trick").count():
                trick_done = True
        if trick_done and cards_played >= 2:
            break
        if cards_played >= 1 and page.get_by_test_id("last-trick").count():
            trick_done = True
    assert cards_played >= 1, "no card was played by clicking"
    sync_api.expect(page.get_by_test_id("last-trick")).to_be_visible()
    # the last trick shows four cards, one per seat, with who played them
    sync_api.expect(page.get_by_test_id("last-trick").locator("[data-card]")).to_have_count(4)
    assert "Ada" in page.get_by_test_id("seats").inner_text()
    page.wait_for_timeout(300)
    page.screenshot(path=str(SHOTS / "trex-desktop.png"), full_page=True)
    assert not errors, errors
    context.close()


def test_spit_moves_by_clicking_against_a_bot(browser: object, server: Server):
    """Click a stock pile, then a spit pile: the move reaches the real-time host while the bot plays too."""
    context = browser.new_context(viewport={"width": 1280, "height": 860})  # type: ignore[attr-defined]
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    new_game_table(page, server, "spit", {1: "beginner"})
    sync_api.expect(page.get_by_test_id("my-pile-1")).to_be_visible()
    moves = 0
    for _ in range(200):
        if moves >= 3 or "won" in page.get_by_test_id("status").inner_text():
            break
        source = page.locator('[data-testid^="my-pile-"][data-legal^="select"]')
        spit = page.get_by_test_id("spit")
        try:
            if source.count():
                if not page.locator(".sp-pile.selected").count():
                    source.first.click(timeout=1000)
                # a spit pile, or an empty space of mine (a fill)
                page.locator(".target").first.click(timeout=1000)
                moves += 1
            elif spit.count():
                spit.click(timeout=1000)
                page.wait_for_timeout(200)
            else:
                page.wait_for_timeout(200)
        except sync_api.Error:
            continue  # the board changed under the click (the bot moved): look again
    assert moves >= 3, "no Spit move by clicking"
    page.wait_for_timeout(500)
    log = page.get_by_test_id("log").inner_text()
    assert "seat 0 plays" in log or "seat 0 moves" in log, log[-500:]
    assert "seat 1 plays" in log or "seat 1 spits" in log, "the bot never moved"
    page.screenshot(path=str(SHOTS / "spit-desktop.png"), full_page=True)
    assert not errors, errors
    context.close()


def test_trex_at_phone_width_in_spanish(browser: object, server: Server):
    context = browser.new_context(  # type: ignore[attr-defined]
        viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True,
        locale="es-ES")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    new_game_table(page, server, "trex", {1: "rules", 2: "rules", 3: "rules"})
    sync_api.expect(page.get_by_test_id("hand").locator("[data-card]")).to_have_count(13)
    sync_api.expect(page.get_by_test_id("status")).to_contain_text("Mano 1 de 20")
    page.wait_for_timeout(300)
    page.screenshot(path=str(SHOTS / "trex-phone-es.png"), full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    wide = page.evaluate("""[...document.querySelectorAll('*')].filter(e => e.getBoundingClientRect().right > 391)
        .slice(0, 8).map(e => `${e.tagName}.${e.className}:${Math.round(e.getBoundingClientRect().right)}`)""")
    assert width <= 390, f"the page scrolls sideways at phone width ({width}px): {wide}"
    assert not errors, errors
    context.close()
