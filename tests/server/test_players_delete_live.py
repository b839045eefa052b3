"""Account deletion reaches the live tables through their actors ("P-delete-live"): a
table in memory shows the anonymous label at once (its pages are sent the new seats) and stores it."""

from __future__ import annotations

from pathlib import Path

from cardtable.server.app import create_app
from cardtable.server.players import Players
from cardtable.server.store import Store

from .players_fixtures import CHEAP, JSON, client, open_limits, signup


def test_p_delete_live_a_deleted_accounts_seat_is_renamed_by_the_tables_actor(tmp_path: Path):
    store = Store(tmp_path / "server.sqlite3")
    players = Players(tmp_path / "server.sqlite3", log=store, hasher=CHEAP, limits=open_limits())
    app = create_app(store, bot_delay=0.0, allow_hosts=("testserver",), players=players)
    with client(app) as c:
        signup(c, "Ana", "a long passphrase")
        created = c.post("/api/tables", json={"game": "trex"}, headers=JSON).json()
        table_id, host = created["table"]["id"], created["host"]
        c.post(f"/api/tables/{table_id}/sit", json={"seat": 0, "name": "Ana"}, headers=JSON)
        for seat in (1, 2, 3):
            c.post(f"/api/tables/{table_id}/bot", json={"host": host, "seat": seat, "bot": "random"}, headers=JSON)
        assert c.post(f"/api/tables/{table_id}/start", json={"host": host}, headers=JSON).status_code == 200
        csrf = c.get("/api/players/me").json()["csrf"]
        r = c.post("/api/players/delete", json={"password": "a long passphrase"},
                   headers={**JSON, "X-CSRF-Token": csrf})
        assert r.status_code == 200 and r.json()["anonymized"] == 1
        label = players.store.seat_links(table_id)[0].label
        assert label and label != "Ana"
        live = app.state.hub.get(table_id)
        assert live.row.seats[0].name == label and live.row.seats[0].kind == "human"
        stored = store.table(table_id)
        assert stored is not None and stored.seats[0].name == label
        assert c.get(f"/api/tables/{table_id}").json()["table"]["seats"][0]["name"] == label
    store.close()
    players.close()
