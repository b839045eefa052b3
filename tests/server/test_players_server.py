"""The players' records on the server (docs/play-online.md): a seat taken while logged in is the
account's, and when the game ends its result is in the account's profile."""

from __future__ import annotations

from pathlib import Path

from cardtable.server.app import create_app
from cardtable.server.players import Players
from cardtable.server.store import Store

from .helpers import play_first_legal_to_end
from .players_fixtures import CHEAP, JSON, client, open_limits, signup
from .test_protocol import hello


def test_a_seat_taken_while_logged_in_brings_the_finished_game_to_the_profile(tmp_path: Path):
    store = Store(tmp_path / "server.sqlite3")
    players = Players(tmp_path / "server.sqlite3", log=store, hasher=CHEAP, limits=open_limits())
    app = create_app(store, bot_delay=0.0, allow_hosts=("testserver",), players=players, rate=1e6, burst=1e6)
    with client(app) as c:
        signup(c, "Ana")
        created = c.post("/api/tables", json={"game": "trash", "options": {"target_size": 3}}, headers=JSON).json()
        table_id, host = created["table"]["id"], created["host"]
        token = c.post(f"/api/tables/{table_id}/sit", json={"seat": 0, "name": "Ana"}, headers=JSON).json()["token"]
        c.post(f"/api/tables/{table_id}/bot", json={"host": host, "seat": 1, "bot": "random"}, headers=JSON)
        c.post(f"/api/tables/{table_id}/start", json={"host": host}, headers=JSON)
        with c.websocket_connect(f"/ws/{table_id}") as ws:
            hello(ws, token)
            final = play_first_legal_to_end(ws, 0)
        assert final["view"]["outcome"] is not None
        profile = c.get("/api/players/profile/Ana").json()
        assert profile["games"]["trash"]["played"] == 1
        assert [r["table"] for r in profile["results"]] == [table_id]
        result = profile["results"][0]
        assert result["seat"] == 0 and result["abandoned"] is False and not result["rated"]
        assert result["replay"] == f"/t/{table_id}/replay?seat=0"
    store.close()
    players.close()
