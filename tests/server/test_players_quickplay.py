"""Quick play ("P-quick", docs/play-online.md): "Play now" seats waiting people together by rating, with a
window that widens while they wait, tells every waiting page how many wait, fills the empty
seats with bots after the wait (or at once when asked), with or without an account, through the
limits per address and per account."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from cardtable.server.app import create_app
from cardtable.server.hub import Hub
from cardtable.server.lobby import LobbyError
from cardtable.server.players import Players
from cardtable.server.players.limits import Limits
from cardtable.server.players.quickplay import MAX_PER_ADDRESS, STALE, LocalTickets, QuickPlay, Ticket
from cardtable.server.ports import LogError
from cardtable.server.store import Store

from .players_fixtures import CHEAP, JSON, client, open_limits, signup

DEADLINE = 90.0


def served(tmp: Path, *, wait: float = 60.0, limits: Limits | None = None) -> tuple[Any, Store, Players]:
    store = Store(tmp / "server.sqlite3")
    players = Players(tmp / "server.sqlite3", log=store, hasher=CHEAP, limits=limits or open_limits(),
                      quick_wait=wait)
    app = create_app(store, bot_delay=0.0, allow_hosts=("testserver",), players=players)
    return app, store, players


def join(c: Any, game: str = "spit", **extra: Any) -> dict[str, Any]:
    r = c.post("/api/quick", json={"game": game, **extra}, headers=JSON)
    assert r.status_code == 201, r.text
    return r.json()


def test_p_quick_two_people_are_seated_together_and_a_third_waits_then_gets_a_bot(tmp_path: Path):
    app, store, players = served(tmp_path, wait=1.0)
    with client(app) as c, client(app, "10.0.0.2") as ben, client(app, "10.0.0.3") as cy:
        signup(c, "Ana")
        csrf = c.get("/api/players/me").json()["csrf"]
        r = c.post("/api/quick", json={"game": "spit"}, headers={**JSON, "X-CSRF-Token": csrf})
        assert r.status_code == 201 and r.json()["status"] == "waiting" and r.json()["waiting"] == 1
        ana = r.json()["ticket"]
        second = join(ben, name="Ben")
        assert second["status"] == "seated"  # a full group at once
        first = c.get(f"/api/quick/{ana}").json()
        assert first["status"] == "seated" and first["table"] == second["table"]
        assert {first["seat"], second["seat"]} == {0, 1} and first["token"] != second["token"]
        table = app.state.hub.get(first["table"])
        assert table.row.rated and table.row.status == "playing"
        assert [s.name for s in table.row.seats] == ["Ana", "Ben"]
        account = players.accounts.named("Ana")
        assert account is not None and players.seat_accounts(table.id, 2)[first["seat"]] == account.id
        third = join(cy, name="Cy")
        assert third["status"] == "waiting" and third["waiting"] == 1 and 0 < third["bots_in"] <= 1.0
        deadline = time.monotonic() + DEADLINE
        while (now := cy.get(f"/api/quick/{third['ticket']}").json())["status"] == "waiting":
            assert time.monotonic() < deadline, now
            time.sleep(0.05)
        alone = app.state.hub.get(now["table"])
        assert alone.row.seats[now["seat"]].name == "Cy" and [s.kind for s in alone.row.seats] == ["human", "bot"]
        assert alone.row.status == "playing"
    store.close()
    players.close()


def test_p_quick_a_person_may_skip_the_wait_and_play_bots_now(tmp_path: Path):
    app, store, players = served(tmp_path)
    with client(app) as c:
        ticket = join(c, "trex", name="Ana")
        assert ticket["status"] == "waiting" and ticket["bots_in"] > 50
        r = c.post(f"/api/quick/{ticket['ticket']}/now", json={}, headers=JSON).json()
        assert r["status"] == "seated"
        table = app.state.hub.get(r["table"])
        assert [s.kind for s in table.row.seats] == ["human", "bot", "bot", "bot"]
        assert table.row.clock is not None  # a rated turn-based table has the clock
    store.close()
    players.close()


def test_p_quick_stop_waiting_after_the_seat_was_found_answers_the_seat_not_cancelled(tmp_path: Path):
    """"Stop waiting" pressed just after the group was seated: the table has started with the
    person in it, so the answer is the seat (status "seated", the table and token), never
    "cancelled" while the seat is kept; the ticket still answers its page."""
    app, store, players = served(tmp_path)
    with client(app) as c, client(app, "10.0.0.2") as ben:
        ana = join(c, name="Ana")
        join(ben, name="Ben")  # a full group: both seated
        r = c.post(f"/api/quick/{ana['ticket']}/cancel", json={}, headers=JSON)
        assert r.status_code == 200
        answer = r.json()
        assert answer["status"] == "seated" and answer["token"]
        table = app.state.hub.get(answer["table"])
        assert table.row.status == "playing" and table.row.seats[answer["seat"]].name == "Ana"
        assert c.get(f"/api/quick/{ana['ticket']}").json() == answer
    store.close()
    players.close()


def test_p_quick_every_waiting_page_sees_how_many_wait_and_a_cancelled_ticket_leaves(tmp_path: Path):
    app, store, players = served(tmp_path)
    with client(app) as c, client(app, "10.0.0.2") as ben:
        a = join(c, "trex", name="A")
        b = join(ben, "trex", name="B")
        assert b["waiting"] == 2 and c.get(f"/api/quick/{a['ticket']}").json()["waiting"] == 2
        cancelled = c.post(f"/api/quick/{a['ticket']}/cancel", json={}, headers=JSON)
        assert cancelled.status_code == 200 and cancelled.json() == {"status": "cancelled"}
        assert ben.get(f"/api/quick/{b['ticket']}").json()["waiting"] == 1
        gone = c.get(f"/api/quick/{a['ticket']}")
        assert gone.status_code == 404 and gone.json()["error"] == "no_ticket"
        assert c.get("/api/quick/not-a-ticket").status_code == 404
        assert c.post("/api/quick", json={"game": "chess"}, headers=JSON).json()["error"] == "bad_options"
        assert c.post("/api/quick", json={"game": "trex", "x": 1}, headers=JSON).status_code == 400
    store.close()
    players.close()


def test_p_quick_joins_go_through_the_limits_per_address_and_account(tmp_path: Path):
    app, store, players = served(tmp_path, limits=Limits(quick_address=(0.001, 3)))
    with client(app) as c:
        for _ in range(3):
            join(c, "trash")
        refused = c.post("/api/quick", json={"game": "trash"}, headers=JSON)
        assert refused.status_code == 429 and refused.json()["error"] == "rate_limited"
    app, store2, players2 = served(tmp_path / "b")
    with client(app) as c:
        for _ in range(MAX_PER_ADDRESS):
            join(c, "trex")
        assert c.post("/api/quick", json={"game": "trex"}, headers=JSON).json()["error"] == "too_many_waiting"
    for s in (store, store2):
        s.close()
    for p in (players, players2):
        p.close()


def test_p_quick_a_logged_in_join_needs_the_csrf_token_and_an_account_waits_once(tmp_path: Path):
    app, store, players = served(tmp_path)
    with client(app) as c:
        signup(c, "Ana")
        refused = c.post("/api/quick", json={"game": "trex"}, headers=JSON)
        assert refused.status_code == 403 and refused.json()["error"] == "csrf"
        csrf = {**JSON, "X-CSRF-Token": c.get("/api/players/me").json()["csrf"]}
        first = c.post("/api/quick", json={"game": "trex"}, headers=csrf).json()
        second = c.post("/api/quick", json={"game": "trex"}, headers=csrf).json()
        assert second["waiting"] == 1 and c.get(f"/api/quick/{first['ticket']}").status_code == 404
    store.close()
    players.close()


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def _ticket(book: LocalTickets, name: str, mu: float) -> Ticket:
    now = book.clock()
    t = Ticket(name, "trex", "standard", name, None, mu, name, now, now)
    book.tickets[t.id] = t
    return t


def test_p_quick_people_are_grouped_by_rating_with_a_window_that_widens_while_they_wait(tmp_path: Path):
    store = Store(":memory:")
    players = Players(tmp_path / "p.sqlite3", log=store, hasher=CHEAP)
    clock = Clock()
    book = LocalTickets(clock)
    quick = QuickPlay(Hub(store), players, wait=1000.0, book=book)
    for name, mu in (("a", 25.0), ("b", 26.0), ("c", 40.0), ("d", 24.0)):
        _ticket(book, name, mu)
        clock.t += 0.001
    assert quick.groups(book.tickets, "trex", "standard", 4) == []  # "c" is too far for now: nobody is seated
    clock.t += 10.0  # windows of 8 points: still not 15
    assert quick.groups(book.tickets, "trex", "standard", 4) == []
    clock.t += 20.0  # windows of 18 points
    (group,) = quick.groups(book.tickets, "trex", "standard", 4)
    assert [t.id for t in group] == ["a", "b", "d", "c"]  # the oldest, then the nearest in rating
    other = LocalTickets(clock)
    two = QuickPlay(Hub(store), players, wait=1000.0, book=other)
    _ticket(other, "x", 25.0)
    _ticket(other, "y", 25.5)
    (pair,) = two.groups(other.tickets, "trex", "standard", 2)
    assert [t.id for t in pair] == ["x", "y"]
    players.close()


def test_p_quick_a_page_that_stopped_asking_leaves_the_queue(tmp_path: Path):
    store = Store(":memory:")
    players = Players(tmp_path / "p.sqlite3", log=store, hasher=CHEAP)
    clock = Clock()
    book = LocalTickets(clock)
    quick = QuickPlay(Hub(store), players, wait=1000.0, book=book)
    _ticket(book, "a", 25.0)
    clock.t += STALE + 1
    quick._forget(book.tickets, clock())
    assert book.tickets == {}
    players.close()


@pytest.mark.parametrize("game", ["trash", "trex", "spit"])
def test_p_quick_every_game_has_a_play_now_page(tmp_path: Path, game: str):
    app, store, players = served(tmp_path)
    with client(app) as c:
        page = c.get(f"/quick/{game}")
        assert page.status_code == 200 and "/static/quick.js" in page.text
    store.close()
    players.close()


class _LostHold(LocalTickets):
    """A book whose hold runs out while a group is being seated (as a cluster node's can, when
    seating outlives its lock): keeping the seats is refused with a 503."""

    @asynccontextmanager
    async def holding(self) -> AsyncIterator[Any]:
        async with super().holding() as held:
            async def refused() -> None:
                raise LobbyError(503, "busy", "quick play took too long; try again")

            held.keep = refused  # type: ignore[method-assign]
            yield held


def test_p_quick_a_group_whose_seats_the_book_did_not_keep_plays_no_game(tmp_path: Path):
    """P-quick: when the book cannot keep a group's seats (the hold ran out while they were
    seated), the person whose join found the group is told 503 and nobody is told of a seat: the
    table made for them is closed unplayed, no account is linked to it, and no rated game starts
    (before, it started, and its absent people abandoned a rated game they had been told to try
    again)."""
    store = Store(tmp_path / "server.sqlite3")
    players = Players(tmp_path / "server.sqlite3", log=store, hasher=CHEAP, limits=open_limits())
    hub = Hub(store)
    quick = QuickPlay(hub, players, wait=1000.0, book=_LostHold())
    ana, ben = (players.accounts.bot(name) for name in ("random", "sensible"))  # two accounts

    async def main() -> None:
        first = await quick.join("trash", None, None, ana, "10.0.0.1")
        assert first["status"] == "waiting"
        with pytest.raises(LobbyError) as refused:
            await quick.join("trash", None, None, ben, "10.0.0.2")
        assert refused.value.status == 503

    asyncio.run(main())
    made = store.tables(("open", "playing", "over", "closed"))
    assert made and all(row.status == "closed" for row in made)
    assert all(players.store.seat_links(row.id) == {} for row in made)
    assert hub.tables == {}
    store.close()
    players.close()


def test_p_quick_a_join_that_fails_leaves_no_ticket_to_be_seated_later(tmp_path: Path):
    """P-quick: a join that fails while it seats its group (here the table cannot be made: the
    log refuses) is told so and leaves no ticket behind, so the next look of the person it would
    have joined does not seat them with someone who was told to try again."""
    store = Store(tmp_path / "server.sqlite3")
    players = Players(tmp_path / "server.sqlite3", log=store, hasher=CHEAP, limits=open_limits())
    hub = Hub(store)
    book = LocalTickets()
    quick = QuickPlay(hub, players, wait=1000.0, book=book)
    made = hub.create

    def refused(*args: Any, **kwargs: Any) -> Any:
        raise LogError("the log cannot be written now")

    async def main() -> None:
        ana = await quick.join("trash", None, "Ana", None, "10.0.0.1")
        hub.create = refused  # type: ignore[method-assign]
        with pytest.raises(LogError):
            await quick.join("trash", None, "Ben", None, "10.0.0.2")
        hub.create = made  # type: ignore[method-assign]
        assert [t.name for t in book.tickets.values()] == ["Ana"]
        look = await quick.status(ana["ticket"])
        assert look["status"] == "waiting" and look["waiting"] == 1

    asyncio.run(main())
    assert store.tables(("open", "playing", "over")) == []
    store.close()
    players.close()


def test_p_quick_a_group_whose_table_cannot_start_goes_back_to_the_queue(tmp_path: Path):
    """P-quick: when a group's table cannot start after its seats were kept (the log refuses the
    start), the person whose join found the group is told so, the others wait again in the queue
    (not at a table that never starts), the table is closed unplayed with no account linked to
    it, and the next join seats them at a table that starts."""
    store = Store(tmp_path / "server.sqlite3")
    players = Players(tmp_path / "server.sqlite3", log=store, hasher=CHEAP, limits=open_limits())
    hub = Hub(store)
    book = LocalTickets()
    quick = QuickPlay(hub, players, wait=1000.0, book=book)
    ana = players.accounts.bot("random")
    starts = store.start

    def refused(*args: Any, **kwargs: Any) -> Any:
        raise LogError("the log cannot be written now")

    async def main() -> None:
        first = await quick.join("trash", None, None, ana, "10.0.0.1")
        store.start = refused  # type: ignore[method-assign]
        with pytest.raises(LogError):
            await quick.join("trash", None, "Ben", None, "10.0.0.2")
        store.start = starts  # type: ignore[method-assign]
        look = await quick.status(first["ticket"])
        assert look["status"] == "waiting" and look["waiting"] == 1
        closed = store.tables(("open", "playing", "over", "closed"))
        assert [row.status for row in closed] == ["closed"] and players.store.seat_links(closed[0].id) == {}
        assert hub.tables == {}
        second = await quick.join("trash", None, "Cy", None, "10.0.0.3")
        assert second["status"] == "seated"
        assert hub.get(second["table"]).row.status == "playing"
        look = await quick.status(first["ticket"])
        assert look["status"] == "seated" and look["table"] == second["table"]

    asyncio.run(main())
    store.close()
    players.close()
