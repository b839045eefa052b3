"""A finished game's record over HTTP (H6): refused while the game is on, then the whole record,
which replays to the server's final state."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardtable.records.fairness import verify
from cardtable.records.record import Record

from .helpers import new_table, play_first_legal_to_end
from .test_protocol import hello

if TYPE_CHECKING:
    from starlette.testclient import TestClient


def test_h6_the_record_with_its_seed_is_published_only_when_the_game_is_over(fast_client: TestClient):
    client = fast_client
    table_id, _, tokens = new_table(client, {1: "sensible"}, options={"target_size": 9})
    table = client.app.state.hub.tables[table_id]  # type: ignore[attr-defined]
    r = client.get(f"/api/tables/{table_id}/record")
    assert r.status_code == 409 and r.json()["error"] == "in_progress" and "seed" not in r.text
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        hello(ws, tokens[0])
        frame = play_first_legal_to_end(ws, 0)
    r = client.get(f"/api/tables/{table_id}/record")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    record = Record.from_json(r.json())
    assert record.seed is None and record.fairness is not None and record.game == "trash"  # a fair game
    assert verify(record).game == "trash"
    assert str(record.replay()) == str(table.match.state)
    assert record.result is not None and record.result["reason"] == frame["view"]["outcome"]["reason"]
    assert client.get("/api/tables/nope/record").status_code == 404
