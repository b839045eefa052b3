"""The lobby in words for players (Chromium): every option and preset with a label and a visible
one-line explanation (a phone has no hover), what each game is and a link to its How to play page,
in English, Spanish and Portuguese; the "has a free seat" filter."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.server.netserver import Server

from .browser import SHOTS, page_wait, sync_api

IDENTIFIER = re.compile(r"\b[a-z]+_[a-z_]+\b")  # discard_take_requires_playable, d2_kings, …


@pytest.mark.parametrize(("lang", "phone"), [("en", False), ("es", True), ("pt", True)])
def test_every_option_and_preset_has_words_a_player_can_read(server: Server, watched: Any, lang: str, phone: bool):
    w = watched(width=390 if phone else 1200, phone=phone)
    page = w.page
    page.goto(server.http + "/")
    page.evaluate("(l) => localStorage.setItem('ct.lang', l)", lang)
    page.goto(server.http + "/")
    games = server.get("/api/games")["games"]
    page.locator("details.more summary").click()
    for g in games:
        page.get_by_test_id("game").select_option(g["name"])
        about = page.get_by_test_id("game-about")
        sync_api.expect(about).to_be_visible()
        assert len(about.inner_text()) > 60
        link = page.get_by_test_id("howto-link")
        sync_api.expect(link).to_have_attribute("href", f"/howto/{g['name']}")
        presets = page.get_by_test_id("preset").locator("option").all_inner_texts()
        assert len(presets) == len(g["presets"]) and not any(IDENTIFIER.search(p) for p in presets), presets
        for preset in g["presets"]:
            page.get_by_test_id("preset").select_option(preset)
            doc = page.get_by_test_id("preset-doc")
            sync_api.expect(doc).to_be_visible()
            assert doc.inner_text() and "D0" not in doc.inner_text() and "D2" not in doc.inner_text()
        for o in g["options"]:
            if o["name"] == "players":
                continue
            row = page.get_by_test_id(f"option-{o['name']}")
            sync_api.expect(row).to_be_visible()
            label, doc = row.locator("label b").inner_text(), row.locator(".option-doc").inner_text()
            assert label and label != o["name"] and not IDENTIFIER.search(label), (o["name"], label)
            assert len(doc) > 20 and not IDENTIFIER.search(doc), (o["name"], doc)
            assert row.locator(".option-doc").is_visible()
        text = page.locator("form.create").inner_text()
        assert not IDENTIFIER.search(text), IDENTIFIER.findall(text)
    if lang == "en":
        page.get_by_test_id("game").select_option("trex")
        page.screenshot(path=str(SHOTS / "lobby-words.png"))
    assert not w.errors, w.errors


def test_the_howto_link_opens_the_game_page(server: Server, watched: Any):
    w = watched()
    page = w.page
    page.goto(server.http + "/")
    page.get_by_test_id("game").select_option("trex")
    page.get_by_test_id("howto-link").click()
    page.wait_for_url("**/howto/trex")
    sync_api.expect(page.get_by_test_id("howto")).to_be_visible()
    sync_api.expect(page.get_by_test_id("howto").locator("h1")).to_contain_text("Trex")
    page.get_by_test_id("howto-back").click()
    page.wait_for_url(server.http + "/")
    assert not [e for e in w.errors if "404" not in e], w.errors  # a page not written yet is a 404


def test_the_howto_markdown_is_drawn_as_text(server: Server, watched: Any):
    """Markup in a doc stays text; a link goes only to the web or this site."""
    w = watched()
    page = w.page
    page.goto(server.http + "/")
    source = ("# Title\n\nA **bold** <script>x</script> [bad](javascript:alert(1)) [ok](/howto/spit)\n\n"
              "- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |")
    html = page.evaluate("""async (source) => {
        const { markdown } = await import('/static/howto.js');
        const { h } = await import('/static/dom.js');
        const el = document.createElement('div');
        el.append(...markdown(h, source));
        return el.innerHTML;
    }""", source)
    assert "<h1>Title</h1>" in html and "<strong>bold</strong>" in html
    assert "&lt;script&gt;" in html and "<script>" not in html
    assert 'href="#"' in html and 'href="/howto/spit"' in html and "javascript:" not in html.split("href=")[1][:20]
    assert "<li>one</li><li>two</li>" in html and "<td>1</td>" in html


def test_the_free_seat_filter(server: Server, watched: Any):
    full, _ = server.table({1: "random"})  # playing: no free seat
    created = server.post("/api/tables", game="trash", options={})
    free = created["table"]["id"]
    w = watched()
    page = w.page
    page.goto(server.http + "/")
    sync_api.expect(page.get_by_test_id(f"table-{full}")).to_be_visible()
    page.get_by_test_id("free-only").check()
    sync_api.expect(page.get_by_test_id(f"table-{full}")).to_have_count(0)
    sync_api.expect(page.get_by_test_id(f"table-{free}")).to_be_visible()
    page.reload()  # the choice is kept
    sync_api.expect(page.get_by_test_id("free-only")).to_be_checked()
    sync_api.expect(page.get_by_test_id(f"table-{full}")).to_have_count(0)
    assert not w.errors, w.errors


def test_the_lobby_marks_the_rated_tables(server: Server, watched: Any):
    """A rated table (docs/play-online.md) says so in the lobby's list, in the page's language; a
    casual one does not."""
    rated = server.post("/api/tables", game="trash", options={}, rated=True)["table"]["id"]
    casual = server.post("/api/tables", game="trash", options={})["table"]["id"]
    w = watched()
    page = w.page
    page.goto(server.http + "/")
    sync_api.expect(page.get_by_test_id(f"rated-{rated}")).to_have_text("rated")
    sync_api.expect(page.get_by_test_id(f"table-{rated}")).to_contain_text("Waiting for players · rated · ")
    sync_api.expect(page.get_by_test_id(f"table-{casual}")).to_be_visible()
    sync_api.expect(page.get_by_test_id(f"rated-{casual}")).to_have_count(0)
    page.evaluate("localStorage.setItem('ct.lang', 'es')")
    page.reload()
    sync_api.expect(page.get_by_test_id(f"rated-{rated}")).to_have_text("puntuable")
    assert not w.errors, w.errors


def test_a_double_click_on_create_makes_one_table_and_a_refusal_lets_it_be_pressed_again(
        server: Server, watched: Any):
    """One click, one table: a double click on Create sends one request (the button is off while
    it is under way) and opens that table; after a refusal the button works again."""
    w = watched()
    page = w.page
    posts: list[str] = []
    done: list[str] = []
    creates = lambda r: r.method == "POST" and r.url.endswith("/api/tables")  # noqa: E731
    page.on("request", lambda r: posts.append(r.url) if creates(r) else None)
    page.on("requestfinished", lambda r: done.append(r.url) if creates(r) else None)
    page.goto(server.http + "/")
    page.get_by_test_id("game").select_option("trash")
    page.get_by_test_id("create-name").fill("Twice")
    page.get_by_test_id("create").dblclick()
    page.wait_for_url("**/t/*")
    table = page.url.rsplit("/", 1)[1]
    sync_api.expect(page.get_by_test_id("seats")).to_be_visible()
    # every request made has its answer (a second table would be made by now)
    page_wait(page, f"answers to every create {posts} {done}", lambda: len(done) >= len(posts), deadline=60.0)
    assert len(posts) == 1, posts
    mine = [t for t in server.get("/api/tables")["tables"] if t["seats"][0]["name"] == "Twice"
            and t["game"] == "trash" and t["status"] == "open"]
    assert [t["id"] for t in mine] == [table], mine
    # a refusal: the button is on again, and the next click makes the table
    page.goto(server.http + "/")
    page.route("**/api/tables", lambda route: route.fulfill(
        status=503, content_type="application/json", body='{"error": "store", "message": "x"}')
        if route.request.method == "POST" else route.continue_())
    page.get_by_test_id("create").click()
    sync_api.expect(page.get_by_test_id("flash")).to_be_visible()
    sync_api.expect(page.get_by_test_id("create")).to_be_enabled()
    page.unroute("**/api/tables")
    page.get_by_test_id("create").click()
    page.wait_for_url("**/t/*")
    assert page.url.rsplit("/", 1)[1] != table
    assert not [e for e in w.errors if "503" not in e], w.errors
