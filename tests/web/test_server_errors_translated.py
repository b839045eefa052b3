"""A refusal of the server's HTTP API reaches the person in the page's language (Chromium): a
wrong event link says there is no such event, the lobby's Create once over the cap says the cap
with its number (the server sends it as ``limit``), not the server's English message."""

from __future__ import annotations

from typing import Any

import pytest

from cardtable.i18n.bidi import arabic_digits
from tests.server.netserver import Server

from .browser import sync_api
from .test_catalogs import web_catalog

PER_HOST = 5
"""``--max-open-per-host``'s default: open tables one page (its host token) may hold."""


def in_lang(page: Any, server: Server, lang: str) -> None:
    page.goto(server.http + "/")
    page.evaluate("(l) => localStorage.setItem('ct.lang', l)", lang)


@pytest.mark.parametrize("lang", ["es", "pt", "ar"])
def test_a_wrong_event_link_says_no_such_event_in_the_pages_language(server: Server, watched: Any, lang: str):
    w = watched()
    page = w.page
    in_lang(page, server, lang)
    page.goto(server.http + "/events/nope")
    sync_api.expect(page.locator(".card-panel").first).to_have_text(web_catalog(lang)["web.error.no_event"])
    assert "no such event" not in page.locator("main, body").first.inner_text()


def test_the_lobbys_create_over_the_open_tables_cap_says_the_cap_in_the_pages_language(server: Server, watched: Any):
    """The page hosts its tables with one token (api.js newTable); a token holding PER_HOST open
    tables is refused ``too_many_open`` with ``limit`` and ``per``: said with the number, in Arabic
    with Arabic-Indic digits (the only tables this module makes: the address's cap is 10)."""
    made = server.post("/api/tables", game="trash")
    host = made["host"]
    for _ in range(PER_HOST - 1):
        server.post("/api/tables", game="trash", host=host)
    w = watched()
    page = w.page
    for lang in ("en", "es", "pt", "ar"):
        in_lang(page, server, lang)
        page.evaluate("(h) => localStorage.setItem('ct.host', JSON.stringify(h))", host)
        page.goto(server.http + "/")
        page.get_by_test_id("create").click()
        number = arabic_digits(str(PER_HOST)) if lang == "ar" else str(PER_HOST)
        said = web_catalog(lang)["web.error.too_many_open.host"].replace("{limit}", number)
        sync_api.expect(page.get_by_test_id("flash")).to_have_text(said)
    assert not [e for e in w.errors if "status of 429" not in e], w.errors  # the refusals themselves
