"""The replay API (``GET /api/tables/{id}/replay``): a finished game's views as one seat saw
them, computed from the record; nothing before the end (H6)."""

from __future__ import annotations

import time
from typing import Any

from cardtable.records.record import Record, replay_views
from tests.server.helpers import new_table
from tests.server.test_protocol import hello


def finished(client: Any, game: str = "trash", bots: dict[int, str] | None = None, **options: Any) -> str:
    table_id, _, _ = new_table(client, bots or {0: "random", 1: "random"}, game=game, options=options, sit=())
    with client.websocket_connect(f"/ws/{table_id}") as ws:  # a spectator: bots alone wait for one
        hello(ws)
        for _ in range(2000):
            if client.get(f"/api/tables/{table_id}").json()["table"]["status"] == "over":
                return table_id
            time.sleep(0.01)
    raise AssertionError("the game did not end")


def test_h6_no_replay_before_the_end(client: Any):
    table_id, _, _ = new_table(client, {1: "random"})  # seat 0 is a person who has not moved
    r = client.get(f"/api/tables/{table_id}/replay?seat=0")
    assert r.status_code == 409 and r.json()["error"] == "in_progress"


def test_h6_every_step_is_the_seats_view_of_the_record(client: Any):
    table_id = finished(client, target_size=9)
    record = Record.from_json(client.get(f"/api/tables/{table_id}/record").json())
    for seat in (0, 1, None):
        expected = [view.to_json() for _, view in replay_views(record, seat)]
        q = "" if seat is None else f"seat={seat}&"
        first = client.get(f"/api/tables/{table_id}/replay?{q}step=0").json()
        assert first["steps"] == len(record.actions) == len(expected) - 1
        for step in (0, 1, len(expected) // 2, len(expected) - 1):
            got = client.get(f"/api/tables/{table_id}/replay?{q}step={step}").json()
            view = got["view"]
            for e in view["events"]:
                assert e.pop("version") == step
            assert view == expected[step], (seat, step)
            assert got["seat"] == seat
    # seat 0's first view hides seat 1's layout; a spectator's hides both
    assert client.get(f"/api/tables/{table_id}/replay?seat=0&step=0").json()["view"]["layouts"][1] == [None] * 10


def test_the_replay_ends_at_the_outcome_and_carries_the_log(client: Any):
    table_id = finished(client, target_size=9)
    end = client.get(f"/api/tables/{table_id}/replay?seat=1").json()
    assert end["step"] == end["steps"] and end["view"]["outcome"] is not None
    versions = [e["version"] for e in end["log"]]
    assert versions == sorted(versions) and versions[-1] == end["steps"] and len(end["log"]) <= 60
    es = client.get(f"/api/tables/{table_id}/replay?seat=1&lang=es").json()
    assert es["view"]["events"][-1]["text"] != end["view"]["events"][-1]["text"]  # told in Spanish


def test_bad_replay_requests_are_refused_clearly(client: Any):
    table_id = finished(client, target_size=9)
    bad = (("seat=2", "seat"), ("seat=x", "seat"), ("step=-1", "step"), ("step=99999", "step"), ("lang=xx", "lang"),
           # P4: other scripts' digits, two signs and 5,000 digits are refused, not a 500
           ("step=%C2%B2", "step"), ("step=--1", "step"), ("seat=%C2%B9", "seat"), ("step=" + "9" * 5000, "step"))
    for q, word in bad:
        r = client.get(f"/api/tables/{table_id}/replay?{q}")
        assert r.status_code == 400 and word in r.json()["message"], (q, r.text)
    assert client.get("/api/tables/nope/replay").status_code == 404
