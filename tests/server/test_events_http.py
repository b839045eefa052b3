"""Events over HTTP and the table sockets (T6, T8, T10 in the app): people sign up, an account
creates a duplicate Trex event, four register and it starts when full; each entrant gets their
seat with their session alone; while the round is played its table is sealed (no spectator, no
record); once the people leave stand-ins play their seats, the event ends with its final
table, the record verifies against the commitment published at the creation, and each entrant's
events list their place; the event was rated, so the game moved each entrant's rating."""

from __future__ import annotations

import contextlib
import functools
import json
from pathlib import Path
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from cardtable.records.fairness import verify
from cardtable.records.record import Record
from cardtable.server.app import create_app
from cardtable.server.events.routes import with_events
from cardtable.server.events.store import SqliteEvents
from cardtable.server.players import Players
from cardtable.server.protocol import CLOSE_POLICY
from cardtable.server.store import Store

from .helpers import wait as poll
from .players_fixtures import CHEAP, JSON, TestClient, open_limits

DEADLINE = 90.0
wait = functools.partial(poll, deadline=DEADLINE, every=0.05)



class Person:
    """One person's session on the shared client (cookie and CSRF token)."""

    def __init__(self, c: TestClient, name: str) -> None:
        r = c.post("/api/players/signup", json={"username": name, "password": "correct horse"}, headers=JSON)
        assert r.status_code == 201, r.text
        self.c, self.name, self.cookie, self.csrf = c, name, r.cookies["ct_session"], r.json()["csrf"]
        c.cookies.clear()

    def get(self, path: str) -> Any:
        self.c.cookies.clear()
        return self.c.get(path, headers={"Cookie": f"ct_session={self.cookie}"})

    def post(self, path: str, body: Any) -> Any:
        self.c.cookies.clear()
        return self.c.post(path, json=body, headers={**JSON, "X-CSRF-Token": self.csrf,
                                                    "Cookie": f"ct_session={self.cookie}"})


def _a_spectator_is_closed(c: TestClient, table: str) -> None:
    """A socket whose hello holds no seat token of the sealed ``table`` is closed with 1008."""
    with c.websocket_connect(f"/ws/{table}", headers={"origin": "http://testserver"}) as ws:
        ws.send_text(json.dumps({"type": "hello"}))
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                ws.receive_text()
        assert closed.value.code == CLOSE_POLICY


def test_t8_t10_a_duplicate_event_over_http_from_registration_to_the_final_table(tmp_path: Path):
    path = tmp_path / "server.sqlite3"
    store = Store(path)
    players = Players(path, log=store, hasher=CHEAP, limits=open_limits())
    app = create_app(store, bot_delay=0.0, hold=0.2, allow_hosts=("testserver",), players=players)
    with_events(app, players, SqliteEvents(path), no_show=60.0, tick=0.05)
    with TestClient(app, base_url="http://testserver") as c:
        people = [Person(c, name) for name in ("Ana", "Ben", "Cy", "Dee")]
        ana = people[0]
        assert ana.post("/api/events", {"name": "Duplicate"}).status_code == 400  # a clear error
        c.cookies.clear()
        assert c.post("/api/events", json={"name": "x"}, headers=JSON).json()["error"] == "no_session"
        r = ana.post("/api/events", {"name": "Duplicate night", "kind": "duplicate", "game": "trex",
                                     "preset": "complex", "max_entrants": 4, "when_full": True,
                                     "rated": True})
        assert r.status_code == 201, r.text
        event_id = r.json()["event"]["id"]
        shown = ana.get(f"/api/events/{event_id}").json()
        commitment = shown["commitments"][0]
        assert "secret" not in json.dumps(shown) and len(commitment) == 64
        assert ana.get(f"/api/events/{event_id}/seat").json()["error"] == "no_seat"
        assert ana.post(f"/api/events/{event_id}/register", {}).json() == {"registered": True}
        assert ana.post(f"/api/events/{event_id}/unregister", {}).json() == {"registered": False}
        assert ana.post(f"/api/events/{event_id}/register", {}).status_code == 200
        assert ana.post(f"/api/events/{event_id}/register", {}).status_code == 200  # already in: no change
        assert len(ana.get(f"/api/events/{event_id}").json()["entrants"]) == 1
        for p in people[1:]:  # the fourth fills it: it starts
            assert p.post(f"/api/events/{event_id}/register", {}).status_code == 200

        running = wait("the event starts", lambda: ana.get(f"/api/events/{event_id}").json()["event"]["status"]
                       in ("running", "over"))
        assert running
        assert ana.post(f"/api/events/{event_id}/unregister", {}).json()["error"] == "started"
        seats = [p.get(f"/api/events/{event_id}/seat").json() for p in people]
        seat = seats[0]
        table = seat["table"]
        assert set(seat) == {"table", "seat", "token", "round"}
        assert {s["table"] for s in seats} == {table} and sorted(s["seat"] for s in seats) == [0, 1, 2, 3]
        with contextlib.ExitStack() as sockets:
            for i, s in enumerate(seats):  # every person at the table: it starts, and waits for them to play
                if i == 1:  # not everybody is there: before the start the seats stay (a no-show loses)
                    assert c.post(f"/api/tables/{table}/leave", json={"token": seat["token"]},
                                  headers=JSON).json()["error"] == "event_table"
                ws = sockets.enter_context(c.websocket_connect(f"/ws/{table}", headers={"origin": "http://testserver"}))
                ws.send_text(json.dumps({"type": "hello", "token": s["token"]}))
                welcome = json.loads(ws.receive_text())
                assert welcome["type"] == "welcome" and welcome["seat"] == s["seat"]
            wait("the table starts", lambda: c.get(f"/api/tables/{table}").json()["table"]["status"] == "playing")
            assert ana.get(f"/api/events/{event_id}").json()["rounds"][0]["sealed"]
            assert c.get(f"/api/tables/{table}/record").json()["error"] == "sealed"
            assert c.get(f"/api/tables/{table}/replay").json()["error"] == "sealed"
            _a_spectator_is_closed(c, table)
        for s in seats:  # the people leave: stand-ins play their seats to the end
            assert c.post(f"/api/tables/{table}/leave", json={"token": s["token"]}, headers=JSON).status_code == 200

        over = wait("the event ends", lambda: (lambda e: e if e["event"]["status"] == "over" else None)(
            ana.get(f"/api/events/{event_id}").json()))
        assert over["standings"][0]["place"] == 1 and len(over["standings"]) == 4
        assert {d["deal"] for d in over["deals"]} == set(range(1, 9))
        hand = over["deals"][0]["hands"][0]
        assert len(hand["tables"]) == 1  # one table: nothing to compare with, no matchpoints
        record = c.get(f"/api/tables/{table}/record")
        assert record.status_code == 200
        checked = Record.from_json(record.json())
        verify(checked)
        assert checked.fairness is not None and checked.fairness.server_commitment == commitment
        mine = c.get("/api/events/of/Ana").json()["events"]
        assert [(e["id"], e["status"]) for e in mine] == [(event_id, "over")] and mine[0]["place"] is not None
        profile = c.get("/api/players/profile/Ana").json()  # the game in the profile, and it was rated
        assert profile["games"]["trex"]["played"] == 1 and profile["games"]["trex"]["rating"] is not None
        assert [r["table"] for r in profile["results"]] == [table] and profile["results"][0]["rated"]
        assert c.get("/events").status_code == 200 and c.get(f"/events/{event_id}").status_code == 200
    store.close()


def test_t10_a_duplicate_rounds_table_is_sealed_by_its_id_whatever_the_runner_has_heard(tmp_path: Path):
    """T10 (sealed tables), from before the round's tables are known: a table of a duplicate round
    is sealed by its id (``{event}-r{round}-{n}``) and the event's row, not only by the tables the
    runner has noted. Here the runner's own note is emptied (as on a node that has not read the new
    round yet, or between a table's making and its noting): a spectator is still closed with 1008,
    its record is 409 ``sealed``, and its summary and lobby line show no version; and a table of
    the next round, not made yet, is sealed already."""
    path = tmp_path / "server.sqlite3"
    store = Store(path)
    players = Players(path, log=store, hasher=CHEAP, limits=open_limits())
    app = create_app(store, bot_delay=0.0, hold=60.0, allow_hosts=("testserver",), players=players)
    runner = with_events(app, players, SqliteEvents(path), no_show=600.0, tick=0.05)
    with TestClient(app, base_url="http://testserver") as c:
        people = [Person(c, name) for name in ("Ana", "Ben", "Cy", "Dee")]
        r = people[0].post("/api/events", {"name": "Duplicate", "kind": "duplicate", "game": "trex",
                                           "deals": 2, "rounds": 2, "max_entrants": 4, "when_full": True})
        event_id = r.json()["event"]["id"]
        for p in people:
            assert p.post(f"/api/events/{event_id}/register", {}).status_code == 200
        seats = wait("the round's table", lambda: [p.get(f"/api/events/{event_id}/seat").json() for p in people]
                     if all("table" in p.get(f"/api/events/{event_id}/seat").json() for p in people) else None)
        table = seats[0]["table"]
        with contextlib.ExitStack() as sockets:
            for s in seats:
                ws = sockets.enter_context(c.websocket_connect(f"/ws/{table}", headers={"origin": "http://testserver"}))
                ws.send_text(json.dumps({"type": "hello", "token": s["token"]}))
                assert json.loads(ws.receive_text())["type"] == "welcome"
            wait("the table starts", lambda: c.get(f"/api/tables/{table}").json()["table"]["status"] == "playing")
            runner.sealed.clear()  # what the runner noted is not what seals
            assert runner.is_sealed(table) and runner.is_sealed(f"{event_id}-r2-0")
            assert not runner.is_sealed("some-table") and not runner.is_sealed("no-such-event-r1-0")
            assert c.get(f"/api/tables/{table}/record").json()["error"] == "sealed"
            assert c.get(f"/api/tables/{table}").json()["table"]["version"] is None
            listed = [t for t in c.get("/api/tables").json()["tables"] if t["id"] == table]
            assert all(t["version"] is None for t in listed)
            _a_spectator_is_closed(c, table)
    store.close()


def test_t6_a_bad_body_gets_a_clear_error_and_changes_nothing(tmp_path: Path):
    """The events' POSTs read their body as the accounts' do (``edge.read_body``): JSON only, an
    object, under the frame cap, from an allowed origin."""
    path = tmp_path / "server.sqlite3"
    store = Store(path)
    players = Players(path, log=store, hasher=CHEAP, limits=open_limits())
    app = create_app(store, bot_delay=0.0, allow_hosts=("testserver",), players=players)
    with_events(app, players, SqliteEvents(path))
    with TestClient(app, base_url="http://testserver") as c:
        ana = Person(c, "Ana")
        good = {"name": "Night", "kind": "duplicate", "game": "trex", "max_entrants": 4}
        session = {"X-CSRF-Token": ana.csrf, "Cookie": f"ct_session={ana.cookie}"}
        refused = [
            (c.post("/api/events", content=json.dumps(good), headers={**session, "Origin": JSON["Origin"],
                                                                         "Content-Type": "text/plain"}), 415),
            (c.post("/api/events", data={"name": "Night"}, headers={**session, **JSON}), 415),
            (ana.post("/api/events", [good]), 400),
            (ana.post("/api/events", {**good, "name": "x" * 70_000}), 413),
            (c.post("/api/events", json=good, headers={**session, "Origin": "https://elsewhere.example"}), 403),
        ]
        for response, status in refused:
            assert response.status_code == status, response.text
            assert set(response.json()) == {"error", "message"}
        assert ana.get("/api/events").json()["events"] == []
        made = ana.post("/api/events", good)  # the same person, a good body
        assert made.status_code == 201
        event_id = made.json()["event"]["id"]
        r = ana.post(f"/api/events/{event_id}/register", [])  # a JSON body, but not an object
        assert (r.status_code, r.json()["error"]) == (400, "bad_json")
        assert ana.get(f"/api/events/{event_id}").json()["entrants"] == []
    players.close()
    store.close()
