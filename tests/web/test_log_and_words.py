"""The page's "What happened" and its words (Chromium): events numbered by their game sequence and
never shown twice; your own events in the second person in every game and language; bots with a
name and a translated level."""

from __future__ import annotations

import contextlib
from typing import Any

from tests.server.helpers import wait
from tests.server.netserver import Server

from .browser import sync_api

LOG_STATE = """() => [...document.querySelectorAll('[data-testid=log] li')]
    .map((li) => [li.value, Number(li.dataset.seq), li.textContent])"""


def test_the_log_numbers_events_by_their_game_sequence(server: Server, watched: Any):
    """After more than 60 events the list keeps the last 60, numbered as the game numbered them."""
    table_id, _ = server.table({0: "random", 1: "random", 2: "random", 3: "random"}, humans=(), game="trex")
    w = watched()
    page = w.open_as(server, table_id, None)
    page.wait_for_function("() => document.querySelectorAll('[data-testid=log] li').length >= 60", timeout=60_000)
    page.wait_for_function("() => document.querySelector('[data-testid=log] li').value > 20", timeout=60_000)
    rows = page.evaluate(LOG_STATE)
    values = [v for v, _, _ in rows]
    assert values == [seq + 1 for _, seq, _ in rows]
    assert values == sorted(set(values)), values  # in order, each once
    assert values[0] > 1 and values != list(range(1, len(values) + 1))
    assert not w.errors, w.errors


def test_the_spit_log_does_not_repeat_lines_at_the_end(server: Server, watched: Any):
    table_id, _ = server.table({0: "expert", 1: "expert"}, humans=(), game="spit", max_rounds=1)
    w = watched()
    page = w.open_as(server, table_id, None)
    sync_api.expect(page.get_by_test_id("result")).to_be_visible(timeout=90_000)
    page.wait_for_timeout(500)  # any late frame
    rows = page.evaluate(LOG_STATE)
    seqs = [seq for _, seq, _ in rows]
    assert seqs == sorted(set(seqs)), seqs
    assert rows[-1][2].endswith(("wins the game", "the game is drawn")), rows[-3:]
    assert not w.errors, w.errors


def online(server: Server, table_id: str) -> bool:
    """Whether seat 0's page has its socket in (its hello taken): from then on it gets every event."""
    return bool(server.get(f"/api/tables/{table_id}")["table"]["seats"][0]["online"])


def log_text(page: Any) -> str:
    return page.get_by_test_id("log").inner_text()


def test_your_own_trex_and_spit_events_say_you(server: Server, watched: Any):
    """Seat 0 deals the first deal (first_dealer 0): "you deal the cards of deal 1", not "seat 0
    deals deal 1"; its answer to the redeal question says "you" too."""
    for lang, deals, keeps in (("en", "you deal the cards of deal 1", "you do not ask for a redeal"),
                               ("es", "repartes la mano 1", "no pides que se reparta de nuevo")):
        table_id, host, token = server.seated({1: "random", 2: "random", 3: "random"}, game="trex")
        w = watched()
        page = w.open_as(server, table_id, token, lang=lang)  # there from the start: every event in the log
        wait("the page's socket is in", lambda t=table_id: online(server, t))
        server.post(f"/api/tables/{table_id}/start", host=host)
        log = page.get_by_test_id("log")
        sync_api.expect(log).to_contain_text(deals)
        keep = page.get_by_test_id("act-keep")  # the redeal question (the page may answer it alone)
        with contextlib.suppress(sync_api.Error):
            keep.click(timeout=5000)
        sync_api.expect(log).to_contain_text(keeps)
        assert "seat 0 " not in log_text(page) and "asiento 0 " not in log_text(page)
        assert not w.errors, w.errors
    table_id, host, token = server.seated({1: "beginner"}, game="spit")
    w = watched()
    page = w.open_as(server, table_id, token)
    wait("the page's socket is in", lambda: online(server, table_id))
    server.post(f"/api/tables/{table_id}/start", host=host)
    sync_api.expect(page.get_by_test_id("log")).to_contain_text("you lay out 15 of 26 cards in your stock piles")
    assert "seat 0 " not in log_text(page)
    assert not w.errors, w.errors


def test_bots_have_names_and_translated_levels(server: Server, watched: Any):
    table_id, _host, token = server.seated({1: "sensible"})
    for lang, text in (("en", "Ben · sensible bot"), ("es", "Ben · bot sensato")):
        w = watched()
        page = w.open_as(server, table_id, token, lang=lang)
        sync_api.expect(page.get_by_test_id("seats")).to_contain_text(text)
        assert not w.errors, w.errors
