"""The review API (``GET /api/tables/{id}/review?seat=N``, docs/review.md): a finished game's
costliest decisions of one seat; never during the game, whose all-cards-known half would leak
every hidden card (H6, as the record and the replay)."""

from __future__ import annotations

from typing import Any

from cardtable.records.record import Record
from cardtable.review import review
from cardtable.server.review import WORLDS, review_json
from tests.server.helpers import new_table

from .test_replay_api import finished

RANDOMS = {0: "random", 1: "random", 2: "random", 3: "random"}


def test_h6_no_review_during_the_game(client: Any):
    table_id, _, _ = new_table(client, {1: "random"})  # seat 0 is a person who has not moved
    r = client.get(f"/api/tables/{table_id}/review?seat=0")
    assert r.status_code == 409 and r.json()["error"] == "in_progress"
    assert client.get(f"/api/tables/{table_id}/review?seat=x").status_code == 409  # the game first


def test_h6_a_finished_trex_game_answers_its_seats_review(client: Any):
    table_id = finished(client, "trex", RANDOMS, complex_mode=True)
    r = client.get(f"/api/tables/{table_id}/review?seat=2")
    assert r.status_code == 200, r.text
    got = r.json()
    record = Record.from_json(client.get(f"/api/tables/{table_id}/record").json())
    expected = review_json(review(record, 2, worlds=WORLDS, hindsight=True))
    assert got == expected  # the review of the record (seeded), nothing else
    assert got["seat"] == 2 and got["unit"] == "points" and got["costliest"], got
    steps = [d["step"] for d in got["costliest"]]
    losses = [d["loss"] for d in got["costliest"]]
    assert losses == sorted(losses, reverse=True) and all(loss >= 1.0 for loss in losses)
    for d in got["costliest"]:
        assert 1 <= d["step"] <= len(record.actions) and d["played"] == record.actions[d["step"] - 1]
        assert d["best"] != d["played"]
    assert len(got["contracts"]) == 1  # its kingdom: Complex or Trex first (the second one is forced)
    assert client.get(f"/api/tables/{table_id}/review?seat=2").json()["costliest"][0]["step"] == steps[0]  # kept


def test_bad_review_requests_are_refused_clearly(client: Any):
    table_id = finished(client, target_size=9)
    for q in ("", "seat=", "seat=2", "seat=-1", "seat=x", "seat=1.5", "seat=--0", "seat=%C2%B2", "seat=" + "1" * 5000):
        r = client.get(f"/api/tables/{table_id}/review?{q}")
        assert r.status_code == 400 and "seat" in r.json()["message"], (q, r.text)
    assert client.get(f"/api/tables/{table_id}/review?seat=1").status_code == 200
    assert client.get("/api/tables/nope/review?seat=0").status_code == 404
    spit, _, _ = new_table(client, {1: "random"}, game="spit")
    r = client.get(f"/api/tables/{spit}/review?seat=0")
    assert r.status_code == 400 and r.json()["error"] == "no_review" and "spit" in r.json()["message"]
