"""One request, or one stored row, never breaks the lobby for everybody."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from cardtable.server.hub import Hub
from cardtable.server.protocol import CLOSE_NO_TABLE
from cardtable.server.store import Store

from .conftest import _client
from .helpers import new_table

NON_FINITE = ["NaN", "Infinity", "-Infinity", "1e999", "-1e999"]
OPTIONS = [("trash", "time_limit"), ("spit", "spit_delay"), ("spit", "slap_timeout")]


@pytest.mark.parametrize(("game", "option"), OPTIONS)
@pytest.mark.parametrize("number", NON_FINITE)
def test_p4_a_non_finite_option_answers_400_and_the_lobby_keeps_answering(
        client: TestClient, game: str, option: str, number: str):
    body = '{"game": "' + game + '", "options": {"' + option + '": ' + number + "}}"
    r = client.post("/api/tables", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 400, r.text
    assert r.json()["error"] == "bad_json" and "finite" in r.json()["message"]
    listing = client.get("/api/tables")
    assert listing.status_code == 200 and listing.json()["tables"] == []
    new_table(client)  # and an honest table is made and played as before
    assert len(client.get("/api/tables").json()["tables"]) == 1


def test_p4_an_out_of_range_option_answers_400_with_the_options_own_words(client: TestClient):
    r = client.post("/api/tables", json={"game": "spit", "options": {"spit_delay": -5}})
    assert r.status_code == 400 and r.json()["error"] == "bad_options"
    assert "spit_delay" in r.json()["message"]
    assert client.get("/api/tables").status_code == 200


def _store_with_bad_rows(path: Path) -> tuple[str, list[str]]:
    """A store holding one good open table and rows no request could make today."""
    store = Store(path)
    hub = Hub(store)
    good, _ = hub.create("trash", None, {})
    bad_ids = []
    for options in ({"time_limit": float("nan")}, {"time_limit": float("inf")}):
        t, _ = hub.create("trash", None, {})
        store.db.execute("UPDATE tables SET options = ? WHERE id = ?", (json.dumps(options), t.id))
        bad_ids.append(t.id)
    t, _ = hub.create("spit", None, {})
    store.db.execute("UPDATE tables SET options = 'not json{' WHERE id = ?", (t.id,))
    bad_ids.append(t.id)
    t, _ = hub.create("trash", None, {})
    store.db.execute("DELETE FROM seats WHERE table_id = ? AND seat = 0", (t.id,))
    bad_ids.append(t.id)
    t, _ = hub.create("trash", None, {})
    store.db.execute("UPDATE tables SET status = 'exploded' WHERE id = ?", (t.id,))
    bad_ids.append(t.id)
    store.close()
    return good.id, bad_ids


def test_s10_any_stored_row_leaves_the_listing_the_page_and_the_socket_working(
        tmp_path: Path, capfd: pytest.CaptureFixture[str]):
    path = tmp_path / "s.sqlite3"
    good, bad = _store_with_bad_rows(path)
    store = Store(path)
    with _client(store, bot_delay=0.0) as client:
        r = client.get("/api/tables")
        assert r.status_code == 200
        assert [t["id"] for t in r.json()["tables"]] == [good]
        for table_id in bad:
            page = client.get(f"/t/{table_id}")
            assert page.status_code == 200  # the page itself is static; its API says what is wrong
            api = client.get(f"/api/tables/{table_id}")
            assert api.status_code == 404 and api.json()["error"] == "no_table"
            with client.websocket_connect(f"/ws/{table_id}") as ws, pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == CLOSE_NO_TABLE
        assert client.get(f"/api/tables/{good}").status_code == 200
        assert client.get("/api/tables").status_code == 200
    store.close()
    err = capfd.readouterr().err
    assert all(f"table {t} not loaded" in err for t in bad)  # one line each, no traceback
    assert "Traceback" not in err


def test_s10_a_row_that_turns_unsendable_in_memory_is_dropped_from_the_listing_alone(client: TestClient):
    good, _, _ = new_table(client, start=False)
    bad, _, _ = new_table(client, start=False)
    hub = client.app.state.hub  # type: ignore[attr-defined]
    hub.tables[bad].row.options = {"time_limit": float("nan")}
    r = client.get("/api/tables")
    assert r.status_code == 200 and [t["id"] for t in r.json()["tables"]] == [good]
    assert bad in hub.broken


def test_s10_an_unreadable_row_is_reported_by_the_store_not_raised_for_all(tmp_path: Path):
    path = tmp_path / "s.sqlite3"
    good, _ = _store_with_bad_rows(path)
    db = sqlite3.connect(path)
    db.execute("UPDATE tables SET created = 'yesterday' WHERE id = ?", (good,))
    db.commit()
    db.close()
    store = Store(path)
    hub = Hub(store)
    assert good in hub.broken and not hub.tables
    assert hub.listing() == []
    store.close()
