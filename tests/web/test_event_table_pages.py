"""An event's pages in Chromium, on a real ``cardtable serve`` (docs/tournaments.md): what a
person sees at an event's table (a no-show, T13; no "Leave seat" before the start), the event's
page refreshing once per page whatever is clicked, its names in the page's language (the game's
title, the preset's name, the bots of the field), and a refused registration's note kept, with
Register disabled once the event is full. The other people are scripted over HTTP."""

from __future__ import annotations

import functools
import json
import re
import time
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from tests.server.events_net import Person, served_fixture
from tests.server.helpers import wait as poll
from tests.server.netserver import Server

from .browser import page_wait, sync_api

pytestmark = pytest.mark.flaky(reruns=2)
wait = functools.partial(poll, deadline=60.0, every=0.1)
__all__ = ["served_fixture"]  # the fixture, used by name


def catalog(lang: str) -> dict[str, str]:
    """The page's catalog in ``lang``: web.json and events.json."""
    out: dict[str, str] = {}
    for name in ("web.json", "events.json"):
        out.update(json.loads(resources.files("cardtable.i18n").joinpath(lang, name).read_text(encoding="utf-8")))
    return out


@pytest.fixture(name="quick_no_show")
def quick_no_show_fixture(tmp_path: Path) -> Iterator[Server]:
    """A server whose event tables are no-shows after 5 s (``--no-show 5``)."""
    srv = Server(tmp_path / "server.sqlite3", "--forwarded-allow-ips", "127.0.0.1", "--no-show", "5").start(timeout=60)
    yield srv
    srv.stop()


def as_person(w: Any, served: Server, person: Person, lang: str) -> Any:
    """``w``'s page logged in as ``person`` (their session cookie), in ``lang``."""
    w.context.add_cookies([{"name": "ct_session", "value": person.http.cookies["ct_session"], "url": served.http}])
    page = w.page
    page.goto(served.http + "/")
    page.evaluate("(l) => localStorage.setItem('ct.lang', l)", lang)
    return page


def swiss_of_two(ana: Person, ben: Person, **settings: Any) -> str:
    """A one-round Swiss Trash event of Ana and Ben that starts once both are in: its id."""
    made = ana.post("/api/events", {"name": "Two of us", "kind": "swiss", "game": "trash", "options": {"max_hands": 1},
                                    "rounds": 1, "max_entrants": 2, **settings})
    assert made.status_code == 201, made.text
    event_id = str(made.json()["event"]["id"])
    for p in (ana, ben):
        assert p.post(f"/api/events/{event_id}/register", {}).status_code == 200
    return event_id


def test_t13_w_the_one_who_came_to_a_no_show_is_told_they_won_by_forfeit_and_the_link_says_forfeited(
        quick_no_show: Server, watched: Any) -> None:
    """Ben (in Spanish) goes to his table from the event's page; Ana never comes. At the no-show
    his page stops reconnecting (the server closes the table's sockets 4010) and says, in
    Spanish, that the game was not played and he won it by forfeit, with a link back to the
    event; no "Leave seat", no "reconnecting". Opening the table's link afterwards says the
    catalog's ``web.error.forfeited``, not "There is no such table"."""
    srv = quick_no_show
    ana, ben = Person(srv, "Ana", "10.0.5.1"), Person(srv, "Ben", "10.0.5.2")
    event_id = swiss_of_two(ana, ben)
    es = catalog("es")
    w = watched()
    page = as_person(w, srv, ben, "es")
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    page.goto(f"{srv.http}/events/{event_id}")
    page.get_by_test_id("my-table").click()
    page.wait_for_url("**/t/*")
    table = page.url.rsplit("/", 1)[1]
    note = page.get_by_test_id("forfeited")
    note.wait_for(timeout=60_000)
    said = es["web.events.forfeit_won"].replace("{name}", "Ana")
    sync_api.expect(note.locator("p")).to_have_text(said)
    assert note.get_by_test_id("back-to-event").get_attribute("href") == f"/events/{event_id}"
    assert page.get_by_test_id("leave").count() == 0
    assert page.locator("#conn").inner_text() != es["web.offline"]
    assert es["web.waiting"] not in page.locator("main").inner_text()
    opened = len(sockets)
    page.goto(f"{srv.http}/events/{event_id}")  # the event's page says the same: a forfeit
    page.get_by_test_id("round-1").wait_for()
    assert es["web.events.forfeit"] in page.get_by_test_id("round-1").inner_text()
    assert len(sockets) == opened, sockets  # the table's page did not try again meanwhile
    page.goto(f"{srv.http}/t/{table}")
    sync_api.expect(page.get_by_test_id("forfeited")).to_have_text(es["web.error.forfeited"])
    assert page.get_by_test_id("back-to-event").get_attribute("href") == f"/events/{event_id}"
    assert es["web.no_table"] not in page.locator("main").inner_text()
    assert not [e for e in w.errors if "410" not in e], w.errors  # the table's link answers 410


def test_w_an_event_table_offers_no_leave_seat_before_its_start_and_its_refusal_is_in_the_pages_language(
        served: Server, watched: Any) -> None:
    """Before its start an event's table keeps its seats (the server refuses ``event_table``):
    the page offers no "Leave seat" there but links back to the event, says the game starts by
    itself once every player is there, and the refusal, if asked
    anyway, is the catalog's sentence in the page's language, not the server's English."""
    ana, ben = Person(served, "Ana", "10.0.6.1"), Person(served, "Ben", "10.0.6.2")
    event_id = swiss_of_two(ana, ben)
    w = watched()
    page = as_person(w, served, ben, "es")
    page.goto(f"{served.http}/events/{event_id}")
    page.get_by_test_id("my-table").click()
    page.wait_for_url("**/t/*")
    table = page.url.rsplit("/", 1)[1]
    page.get_by_test_id("back-to-event").wait_for()  # the page knows it is the event's table
    sync_api.expect(page.locator("[data-testid=seats] li.me")).to_have_count(1)
    assert page.get_by_test_id("leave").count() == 0
    # the board says the game starts by itself, not the lobby's "take a seat, fill the others, start"
    sync_api.expect(page.get_by_test_id("board")).to_have_text(catalog("es")["web.events.table_waiting"])
    token = page.evaluate(f"JSON.parse(localStorage.getItem('ct.seat.{table}')).token")
    refused = page.evaluate("""async ([table, token]) => {
      const { api } = await import('/static/api.js');
      const { errorText } = await import('/static/errors.js');
      try { await api(`/api/tables/${table}/leave`, { token }); return null; } catch (e) { return errorText(e); }
    }""", [table, token])
    assert refused == catalog("es")["web.error.event_table"]
    assert not [e for e in w.errors if "409" not in e], w.errors


def test_w_an_event_page_refreshes_once_every_two_seconds_whatever_is_clicked(served: Server, watched: Any) -> None:
    """Each Register and Unregister redraws the page: the page still looks at the event once
    every 2 s (one refresh timer for the page), not once more for each click."""
    ana, zoe = Person(served, "Ana", "10.0.7.1"), Person(served, "Zoe", "10.0.7.2")
    made = ana.post("/api/events", {"name": "Open Spit Cup", "kind": "swiss", "game": "spit", "max_entrants": 64,
                                    "starts_at": time.time() + 3600, "when_full": False})
    assert made.status_code == 201, made.text
    event_id = made.json()["event"]["id"]
    w = watched()
    page = as_person(w, served, zoe, "en")
    looks: list[float] = []
    page.on("request", lambda r: looks.append(time.monotonic()) if r.url.endswith(f"/api/events/{event_id}") else None)
    page.goto(f"{served.http}/events/{event_id}")
    for i in range(6):
        now, then = ("register", "unregister") if i % 2 == 0 else ("unregister", "register")
        page.get_by_test_id(now).click()
        page.get_by_test_id(then).wait_for()
    after = len(looks)
    page_wait(page, "six more looks", lambda: len(looks) >= after + 6, deadline=40.0)
    gaps = [b - a for a, b in zip(looks[after:], looks[after + 1:], strict=False)]
    assert min(gaps) > 1.5, gaps  # REFRESH is 2 s: several timers would look far more often
    assert not w.errors, w.errors


def test_t6_w_the_event_page_names_the_game_the_preset_and_the_bots_in_the_pages_language(
        served: Server, watched: Any) -> None:
    """A Swiss event of Kings-wild Trash whose field bots fill: in Spanish the page says
    "Suizo · Trash (<the preset's name>)" and calls the bots "bot medio 1", never the server's
    internal names (``trash``, ``d2_kings``, ``medium 1``)."""
    ana, ben = Person(served, "Ana", "10.0.8.1"), Person(served, "Ben", "10.0.8.2")
    made = ana.post("/api/events", {"name": "Kings night", "kind": "swiss", "game": "trash", "preset": "d2_kings",
                                    "rounds": 1, "max_entrants": 4, "bots": True, "when_full": False,
                                    "starts_at": time.time() + 3})
    assert made.status_code == 201, made.text
    event_id = made.json()["event"]["id"]
    for p in (ana, ben):
        assert p.post(f"/api/events/{event_id}/register", {}).status_code == 200
    es = catalog("es")
    w = watched()
    page = as_person(w, served, ana, "es")
    page.goto(f"{served.http}/events/{event_id}")
    page.get_by_test_id("standing").first.wait_for(timeout=60_000)
    game = page.get_by_test_id("event-game").inner_text()
    assert game.startswith(f"{es['web.events.kind.swiss']} · Trash ({es['web.preset.trash.d2_kings']})"), game
    bot = es["web.events.bot_entrant"].replace("{level}", es["web.bot.level.medium"])
    text = page.locator("main").inner_text()
    assert bot.replace("{n}", "1") in text and bot.replace("{n}", "2") in text, text
    assert re.search(r"\bmedium\b|d2_kings|\btrash\b", text) is None, text
    page.goto(f"{served.http}/players/Ana")  # her profile's events name the game by its title too
    page.get_by_test_id("player-event").wait_for()
    assert " · Trash · " in page.get_by_test_id("player-event").inner_text()
    assert not w.errors, w.errors


def test_w_a_refused_register_keeps_its_note_and_register_is_off_once_the_event_is_full(
        served: Server, watched: Any) -> None:
    """Zoe's page still shows one place left when Cy takes it: her Register is refused ``full``.
    The note says so in her language and stays through the page's next refreshes, which turn
    Register off now that the event is full."""
    ana, ben, cy = (Person(served, n, f"10.0.9.{i}") for i, n in enumerate(("Ana", "Ben", "Cy")))
    zoe = Person(served, "Zoe", "10.0.9.9")
    made = ana.post("/api/events", {"name": "Small table", "kind": "swiss", "game": "spit", "max_entrants": 2,
                                    "starts_at": time.time() + 3600, "when_full": False})
    assert made.status_code == 201, made.text
    event_id = made.json()["event"]["id"]
    assert ben.post(f"/api/events/{event_id}/register", {}).status_code == 200
    pt = catalog("pt")
    w = watched()
    page = as_person(w, served, zoe, "pt")
    url = f"{served.http}/api/events/{event_id}"
    stale = served.client.get(url).json()  # one place left, as Zoe's page saw it
    page.route(url, lambda route: route.fulfill(json=stale))  # the page does not see Cy come yet
    page.goto(f"{served.http}/events/{event_id}")
    register = page.get_by_test_id("register")
    sync_api.expect(register).to_be_enabled()
    assert cy.post(f"/api/events/{event_id}/register", {}).status_code == 200
    register.click()
    note = page.get_by_test_id("event-note")
    sync_api.expect(note).to_have_text(pt["web.error.event_full"])
    looks: list[str] = []
    page.on("request", lambda r: looks.append(r.url) if r.url == url else None)
    page.unroute(url)  # the page's next looks see the event as it is: full
    sync_api.expect(page.get_by_test_id("register")).to_be_disabled(timeout=15_000)
    page_wait(page, "two looks since the refusal", lambda: len(looks) >= 2, deadline=20.0)
    sync_api.expect(page.get_by_test_id("event-note")).to_have_text(pt["web.error.event_full"])
    assert not [e for e in w.errors if "409" not in e], w.errors
