"""The players layer's done-when tests in Chromium ("P-done", docs/play-online.md): quick play
for Spit (two browsers pressing "Play now" are seated together; a third waits, sees how many
wait and the countdown, and is given a bot after the wait), and a rated Trex game of three
people (one in Chromium, two over WebSockets) and a bot, played to the end: the four ratings
change as openskill's Plackett–Luce model says, and the profiles show the game, its replay link
and the new ratings.

The server is the app with the players' layer (``create_app(players=...)``) under uvicorn in a
thread of the test, on a free port with its own database."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from cardtable.server.app import create_app
from cardtable.server.events.routes import with_events
from cardtable.server.events.store import SqliteEvents
from cardtable.server.players import Players
from cardtable.server.players.quickplay import LocalTickets
from cardtable.server.store import Store
from tests.server.helpers import wait
from tests.server.players_fixtures import CHEAP, open_limits

from .browser import SHOTS, open_as, sync_api
from .threaded import Served

pytestmark = pytest.mark.flaky(reruns=2)

DEADLINE = 180.0
"""Seconds any awaited condition may take on a loaded machine (a whole Trex game is the longest)."""


def players_app(tmp: Path) -> Served:
    """The app with the players' layer and the tournaments (as ``cardtable serve`` has them), served;
    quick play waits for people until a test asks for bots."""
    store = Store(tmp / "server.sqlite3")
    players = Players(tmp / "server.sqlite3", log=store, hasher=CHEAP, limits=open_limits(), quick_wait=600.0)
    app = create_app(store, bot_delay=0.05, allow_hosts=("testserver",), players=players)
    with_events(app, players, SqliteEvents(tmp / "server.sqlite3"))
    return Served(app, store, players)


@pytest.fixture
def served(tmp_path: Path, browser: Any) -> Iterator[Served]:
    s = players_app(tmp_path)
    yield s
    s.stop()


def table_of(page: Any) -> str:
    """The id of the table a page shows (its address is /t/ID)."""
    page.wait_for_url("**/t/*", timeout=DEADLINE * 1000)
    return str(page.url.rsplit("/", 1)[1])


def test_p_done_quick_play_spit_two_browsers_together_and_a_third_gets_a_bot(served: Served, watched: Any):
    quick = served.players.quick
    assert quick is not None
    ana, ben, cy = watched(), watched(), watched()
    for w in (ana, ben, cy):
        w.page.goto(served.http + "/")
        w.page.evaluate("() => localStorage.setItem('ct.lang', 'en')")
    ana.page.goto(served.http + "/")
    ana.page.get_by_test_id("play-now-spit").click()
    sync_api.expect(ana.page.get_by_test_id("quick-count")).to_have_text("Waiting now: 1", timeout=DEADLINE * 1000)
    ana.page.screenshot(path=str(SHOTS / "players-quick-play.png"))
    ben.page.goto(served.http + "/")
    ben.page.get_by_test_id("play-now-spit").click()
    together = table_of(ana.page), table_of(ben.page)
    assert together[0] == together[1]
    table = served.app.state.hub.get(together[0])
    assert table.row.game == "spit" and table.row.rated and [s.kind for s in table.row.seats] == ["human", "human"]
    for w in (ana, ben):  # each page holds its own seat
        sync_api.expect(w.page.get_by_test_id("board")).to_be_visible()
    cy.page.goto(served.http + "/")
    cy.page.get_by_test_id("play-now-spit").click()
    sync_api.expect(cy.page.get_by_test_id("quick-count")).to_have_text("Waiting now: 1", timeout=DEADLINE * 1000)
    sync_api.expect(cy.page.get_by_test_id("quick-bots-in")).to_contain_text("Empty seats go to bots in")
    # every text the countdown shows from now on, told to the test as it is drawn (the last second
    # shows for one second only, and the page then goes to the table)
    shown: list[str] = []
    cy.page.expose_function("countdownShown", lambda text: shown.append(text))
    cy.page.evaluate("""() => { const el = document.querySelector('[data-testid=quick-bots-in]');
      new MutationObserver(() => window.countdownShown(el.textContent)).observe(el,
        { childList: true, characterData: true, subtree: true }); }""")
    book = quick.book
    assert isinstance(book, LocalTickets)
    (ticket,) = [t for t in list(book.tickets.values()) if t.seat is None]  # Cy's
    # the wait is short from now on (a few seconds from now, however long Cy has waited already):
    # the countdown runs out
    quick.wait = quick.clock() - ticket.joined + 4.0
    alone = served.app.state.hub.get(table_of(cy.page))
    assert any(" 1 s" in text for text in shown), shown
    assert alone.id != table.id and [s.kind for s in alone.row.seats] == ["human", "bot"]
    sync_api.expect(cy.page.get_by_test_id("clock").get_by_test_id("rated")).to_have_text("Rated game")
    for w in (ana, ben, cy):
        assert not w.errors, w.errors


def _play_over_socket(http: str, table_id: str, seat: int, token: str, errors: list[str]) -> None:
    """A person scripted over the game's WebSocket: the first legal action on each turn, to the end."""
    from websockets.sync.client import connect

    try:
        with connect(http.replace("http://", "ws://") + f"/ws/{table_id}", origin=http,
                     open_timeout=60) as ws:  # type: ignore[arg-type]
            ws.send(json.dumps({"type": "hello", "token": token}))
            seq = 0
            acted = -1
            end = time.monotonic() + DEADLINE * 2
            while time.monotonic() < end:
                frame = json.loads(ws.recv(timeout=DEADLINE))
                if frame["type"] != "state":
                    continue
                view = frame["view"]
                if view["outcome"] is not None:
                    return
                if view["current_player"] == seat and view["legal_actions"] and frame["version"] != acted:
                    seq += 1
                    acted = frame["version"]
                    ws.send(json.dumps({"type": "act", "seq": seq, "action": view["legal_actions"][0],
                                        "version": frame["version"]}))
            errors.append(f"seat {seat}: the game did not end in time")
    except Exception as exc:  # reported by the test
        errors.append(f"seat {seat}: {exc!r}")


AUTOPLAY = """() => { window.__played = null; window.__auto = setInterval(() => {
  const go = document.querySelector('[data-testid=summary-continue]');
  if (go) { go.click(); return; }
  const el = document.querySelector('[data-legal]');
  if (el && el !== window.__played) { window.__played = el; el.click(); }
}, 100); }"""
"""Ana's page plays by itself: the end-of-deal summary dismissed, the first legal move clicked
(each drawn element once: a click is not sent twice for one state)."""


def test_p_done_a_rated_trex_game_of_three_people_and_a_bot_moves_four_ratings_as_the_model_says(
        served: Served, watched: Any):
    from openskill.models import PlackettLuce

    clock = {"move": 300, "bank": 600, "timeouts": 20}  # nobody's clock runs out on a loaded machine
    created = httpx.post(served.http + "/api/tables", json={"game": "trex", "rated": True, "clock": clock},
                         timeout=60).json()
    table_id, host = created["table"]["id"], created["host"]
    w = watched()
    page = w.page
    page.goto(served.http + "/account")
    page.evaluate("() => localStorage.setItem('ct.lang', 'en')")
    sat = page.evaluate("""async (id) => {
      const post = (path, body) => fetch(path, { method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body) }).then((r) => r.json());
      await post("/api/players/signup", { username: "Ana", password: "a long passphrase" });
      const sat = await post(`/api/tables/${id}/sit`, { seat: 0, name: "Ana" });
      localStorage.setItem(`ct.seat.${id}`, JSON.stringify({ seat: 0, token: sat.token }));
      return sat;
    }""", table_id)
    assert sat["seat"] == 0
    people: dict[int, tuple[httpx.Client, str]] = {}
    for seat, name in ((1, "Ben"), (2, "Cy")):
        c = httpx.Client(base_url=served.http, timeout=60)
        signed = c.post("/api/players/signup", json={"username": name, "password": "a long passphrase"})
        assert signed.status_code == 201
        people[seat] = (c, c.post(f"/api/tables/{table_id}/sit", json={"seat": seat, "name": name}).json()["token"])
    assert httpx.post(served.http + f"/api/tables/{table_id}/bot", json={"host": host, "seat": 3, "bot": "rules"},
                      timeout=60).status_code == 200
    ids = [served.players.accounts.named(n) for n in ("Ana", "Ben", "Cy")]
    assert all(ids) and served.players.seat_accounts(table_id, 4)[:3] == [a.id for a in ids if a]
    page.goto(f"{served.http}/t/{table_id}")
    sync_api.expect(page.get_by_test_id("clock").get_by_test_id("rated")).to_have_text("Rated game")
    errors: list[str] = []
    threads = [threading.Thread(target=_play_over_socket, args=(served.http, table_id, seat, token, errors),
                                daemon=True) for seat, (_, token) in people.items()]
    for t in threads:
        t.start()
    assert httpx.post(served.http + f"/api/tables/{table_id}/start", json={"host": host}, timeout=60).status_code == 200
    sync_api.expect(page.get_by_test_id("clock-turn")).to_be_visible(timeout=DEADLINE * 1000)
    page.evaluate(AUTOPLAY)
    result = wait("the game's result", lambda: served.players.store.result(table_id), DEADLINE * 2)
    page.evaluate("() => clearInterval(window.__auto)")
    for t in threads:
        t.join(DEADLINE)
    assert errors == []
    table = served.app.state.hub.get(table_id)
    outcome = table.match.state.outcome()
    # the winner first (TX-40: a tie on the best total goes to the most Trex firsts), then the best total
    key = [(s in outcome.winners, r) for s, r in enumerate(outcome.returns)]
    ranks = [1 + sum(1 for other in key if other > k) for k in key]
    assert result.rated and list(result.ranks) == ranks and result.abandoned == ()
    model = PlackettLuce()
    expected = model.rate([[model.rating()] for _ in range(4)], ranks=ranks)
    bot = served.players.accounts.bot("rules")
    for seat, account in enumerate([*(a.id for a in ids if a), bot.id]):
        rating = served.players.store.rating(account, "trex")
        assert rating is not None and rating.games == 1
        assert rating.mu == pytest.approx(expected[seat][0].mu, abs=1e-9)
        assert rating.sigma == pytest.approx(expected[seat][0].sigma, abs=1e-9)
    for seat, name in enumerate(("Ana", "Ben", "Cy")):
        page.goto(f"{served.http}/players/{name}")
        shown = round(expected[seat][0].mu - 3 * expected[seat][0].sigma, 2)
        sync_api.expect(page.get_by_test_id("rating-trex")).to_have_text(f"Rating: {shown:.1f} (provisional)")
        rows = page.get_by_test_id("result")
        sync_api.expect(rows).to_have_count(1)
        sync_api.expect(rows.first).to_contain_text("rated")
        sync_api.expect(rows.first.get_by_test_id("replay-link")).to_have_attribute(
            "href", f"/t/{table_id}/replay?seat={seat}")
        if name == "Ana":
            page.screenshot(path=str(SHOTS / "players-rated-profile.png"))
    page.goto(f"{served.http}/leaderboard/trex")
    board = page.get_by_test_id("board-row")
    sync_api.expect(board).to_have_count(4)
    page.screenshot(path=str(SHOTS / "players-rated-leaderboard.png"))
    # Ana has no wait for people: "Play now" for Trex, then "Play bots now": a rated table with the
    # default clock (15 s a move, a 30 s bank each deal), three bots, her move timed on the page
    page.goto(served.http + "/")
    page.get_by_test_id("play-now-trex").click()
    page.get_by_test_id("quick-bots-now").click()
    quick_table = served.app.state.hub.get(table_of(page))
    assert quick_table.row.rated and quick_table.row.clock == {"move": 15.0, "bank": 30.0, "timeouts": 3}
    assert [s.kind for s in quick_table.row.seats] == ["human", "bot", "bot", "bot"]
    sync_api.expect(page.get_by_test_id("clock-rules")).to_contain_text("15 s a move, plus a bank of 30 s")
    sync_api.expect(page.get_by_test_id("clock-turn")).to_contain_text("s (bank", timeout=DEADLINE * 1000)
    page.screenshot(path=str(SHOTS / "players-rated-clock.png"))
    for c, _ in people.values():
        c.close()
    assert not w.errors, w.errors


def test_p_rated_the_lobby_makes_a_rated_table_with_its_clock_and_the_page_says_so(served: Served, watched: Any):
    w = watched()
    page = w.page
    page.goto(served.http + "/")
    page.evaluate("() => localStorage.setItem('ct.lang', 'en')")
    page.goto(served.http + "/")
    page.get_by_test_id("game").select_option("trex")
    sync_api.expect(page.get_by_test_id("clock-fields")).to_be_hidden()
    page.get_by_test_id("create-rated").check()
    sync_api.expect(page.get_by_test_id("clock-fields")).to_be_visible()
    sync_api.expect(page.get_by_test_id("create-undo")).to_be_disabled()  # a rated table has no undo
    page.get_by_test_id("clock-move").fill("20")
    page.get_by_test_id("create").click()
    table = served.app.state.hub.get(table_of(page))
    assert table.row.rated and table.row.clock == {"move": 20.0, "bank": 30.0, "timeouts": 3}
    note = page.get_by_test_id("clock")
    sync_api.expect(note.get_by_test_id("rated")).to_have_text("Rated game")
    sync_api.expect(note.get_by_test_id("clock-rules")).to_contain_text("20 s a move, plus a bank of 30 s")
    page.goto(served.http + "/")
    page.get_by_test_id("game").select_option("spit")  # a race: rated, but no clock to set
    page.get_by_test_id("create-rated").check()
    sync_api.expect(page.get_by_test_id("clock-fields")).to_be_hidden()
    page.get_by_test_id("create").click()
    spit = served.app.state.hub.get(table_of(page))
    assert spit.row.rated and spit.row.clock is None
    sync_api.expect(page.get_by_test_id("clock").get_by_test_id("rated")).to_have_text("Rated game")
    assert not w.errors, w.errors


def test_p_rated_a_clock_that_ran_out_too_often_says_so_not_that_you_left(served: Served, watched: Any):
    """At a table whose clock allows one timeout, the person's time runs out: the seat goes to a
    stand-in (close 4003, as when a person leaves), and the page says the clock ran out, in its
    language, never "you left this seat"."""
    clock = {"move": 3, "bank": 0, "timeouts": 1}
    created = httpx.post(served.http + "/api/tables", json={"game": "trash", "rated": True, "clock": clock},
                         timeout=30).json()
    table, host = created["table"]["id"], created["host"]
    token = served.post(f"/api/tables/{table}/sit", {"seat": 0, "name": "Ana"})["token"]
    served.post(f"/api/tables/{table}/bot", {"host": host, "seat": 1, "bot": "random"})
    served.post(f"/api/tables/{table}/start", {"host": host})
    w = watched()
    page = open_as(w.page, served, table, token, seat=0, lang="pt")
    sync_api.expect(page.get_by_test_id("clock-turn")).to_be_visible(timeout=DEADLINE * 1000)
    said = page.get_by_test_id("flash").filter(has_text="seu tempo acabou vezes demais")
    sync_api.expect(said).to_be_visible(timeout=60_000)  # 3 s a move, no bank: the stand-in moves
    sync_api.expect(page.get_by_test_id("flash").filter(has_text="você deixou este lugar")).to_have_count(0)
    wait("the seat is the stand-in's", lambda: served.store.table(table).seats[0].kind == "bot", deadline=DEADLINE)
    assert not w.errors, w.errors


@pytest.mark.parametrize(("lang", "title", "count"), [
    ("es", "Partida rápida: Trex", "Esperando ahora: 1"),
    ("pt", "Partida rápida: Trex", "Esperando agora: 1"),
    ("ar", "لعب سريع: Trex", "ينتظرون الآن: ١"),
])
def test_p_quick_the_waiting_page_speaks_the_pages_language(served: Served, watched: Any, lang: str, title: str,
                                                              count: str):
    w = watched()
    page = w.page
    page.goto(served.http + "/")
    page.evaluate("(l) => localStorage.setItem('ct.lang', l)", lang)
    page.goto(served.http + "/")
    page.get_by_test_id("play-now-trex").click()
    sync_api.expect(page.locator("h1")).to_have_text(title)
    sync_api.expect(page.get_by_test_id("quick-count")).to_have_text(count, timeout=DEADLINE * 1000)
    assert page.evaluate("() => document.documentElement.dir") == ("rtl" if lang == "ar" else "ltr")
    page.get_by_test_id("quick-cancel").click()
    page.wait_for_url(served.http + "/", timeout=DEADLINE * 1000)
    quick = served.players.quick
    assert quick is not None and isinstance(quick.book, LocalTickets)
    assert quick.waiting(quick.book.tickets, "trex", "standard") == []
    assert not w.errors, w.errors
