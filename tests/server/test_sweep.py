"""Memory over time (LD8): open and finished tables nobody is at leave memory after ``keep``
seconds and come back from the database, the same, when their link is opened."""

from __future__ import annotations

import random
import time
from pathlib import Path

from cardtable.server.connection import Connection
from cardtable.server.hub import Hub
from cardtable.server.store import Store

from .conftest import _client
from .helpers import new_table, receive_until, wait


def _finished_trash(hub: Hub, seed: int) -> str:
    table, _ = hub.create("trash", None, {})
    table.sit(0, "A")
    table.add_bot(1, "random")
    table.start(seed=seed)
    rng = random.Random(seed)
    seq = 0
    assert table.match is not None
    while not table.match.is_over:
        if table.match.to_move() == 0:
            seq += 1
            assert table.act(0, seq, str(rng.choice(table.match.state.legal_actions(0))))["type"] == "ack"
            table.after_change()
        else:
            assert table.step_bot()
    assert table.row.status == "over"
    return table.id


def test_ld8_finished_and_open_tables_leave_memory_and_come_back(tmp_path: Path):
    hub = Hub(Store(tmp_path / "s.sqlite3"), keep=60.0)
    over = _finished_trash(hub, 4)
    views = {s: hub.tables[over].view_json(s, "es") for s in (0, 1, None)}
    version = hub.tables[over].version
    opened, _ = hub.create("trex", None, {})
    playing, _ = hub.create("trash", None, {})
    playing.sit(0, "B")
    playing.add_bot(1, "random")
    playing.start(seed=1)
    now = time.monotonic()
    assert hub.sweep(now + 30) == []  # not idle long enough
    assert sorted(hub.sweep(now + 61)) == sorted([over, opened.id])
    assert set(hub.tables) == {playing.id}  # a game in progress stays
    back = hub.get(over)  # loaded and replayed from the database
    assert back.version == version and {s: back.view_json(s, "es") for s in (0, 1, None)} == views
    assert back.row.status == "over" and back.public()["seats"][0]["name"] == "A"
    assert hub.find(opened.id) is not None and hub.tables[opened.id].row.status == "open"
    assert hub.find("no-such-table") is None and hub.find(None) is None and hub.find("x" * 65) is None


def test_ld8_a_table_with_someone_at_it_is_not_swept(tmp_path: Path):
    hub = Hub(Store(tmp_path / "s.sqlite3"), keep=1.0)
    over = hub.tables[_finished_trash(hub, 5)]

    async def send(text: str) -> None:
        pass

    async def close(code: int, reason: str) -> None:
        pass

    watcher = Connection(send, close)
    over.attach(watcher, None, None)
    later = time.monotonic() + 100
    assert hub.sweep(later) == []
    over.visitors += 1  # a socket between finding the table and its hello
    over.detach(watcher)
    assert hub.sweep(later) == []
    over.visitors -= 1
    assert hub.sweep(time.monotonic() + 100) == [over.id]


def test_ld8_the_server_sweeps_by_itself_and_the_link_still_works(db_path: Path):
    store = Store(db_path)
    with _client(store, bot_delay=0.0, keep=0.2) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        table_id, _, tokens = new_table(client, {1: "random"})
        time.sleep(0.5)  # several sweeps: a started game stays (nobody is connected, but it is in progress)
        assert table_id in hub.tables
        made = client.post("/api/tables", json={"game": "spit"}).json()["table"]["id"]
        deadline = time.monotonic() + 10
        while made in hub.tables and time.monotonic() < deadline:
            time.sleep(0.05)
        assert made not in hub.tables  # the open table nobody is at left memory
        r = client.get(f"/api/tables/{made}")
        assert r.status_code == 200 and r.json()["table"]["status"] == "open"
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            ws.send_json({"type": "hello", "token": tokens[0]})
            assert receive_until(ws, "state")[0]["view"]["seat"] == 0
    store.close()


def test_ld8_a_restart_does_not_bring_old_open_tables_back_to_the_lobby(tmp_path: Path):
    path = tmp_path / "s.sqlite3"
    hub = Hub(Store(path), keep=60.0)
    old, _ = hub.create("trash", None, {})
    new, _ = hub.create("trex", None, {})
    hub.store.db.execute("UPDATE tables SET created = created - 3600 WHERE id = ?", (old.id,))
    hub.store.close()
    again = Hub(Store(path), keep=60.0)
    assert set(again.tables) == {new.id}
    assert [t["id"] for t in again.listing()] == [new.id]
    assert again.find(old.id) is not None  # its link still works


def test_ld8_a_game_in_progress_nobody_has_been_at_leaves_the_lobby_listing_but_not_its_link(tmp_path: Path):
    """Stale tables leave the lobby; the game is still there for its players."""
    hub = Hub(Store(tmp_path / "s.sqlite3"), keep=60.0)
    table, _ = hub.create("trash", None, {})
    table.sit(0, "A")
    table.add_bot(1, "random")
    table.start(seed=3)
    assert [t["id"] for t in hub.listing()] == [table.id]
    table.touched -= 59.0
    assert [t["id"] for t in hub.listing()] == [table.id]  # not stale yet
    table.touched -= 2.0  # nobody for more than keep seconds
    assert hub.listing() == []
    assert hub.get(table.id) is table and table.row.status == "playing"  # the link still works
    table.touched = time.monotonic()  # somebody came back
    assert [t["id"] for t in hub.listing()] == [table.id]


def test_s9_after_downtime_a_game_whose_people_never_come_back_is_played_out_by_stand_ins(tmp_path: Path):
    """S9: a Trash game with two people is stored, the server is down, and neither person comes
    back to the new one. The policy is R5's, the same every time: once the hold has run out a
    stand-in bot plays each away seat, to the end of the game, and every move it makes is in the
    log under its seat; the table says which seats are played for their owners."""
    path = tmp_path / "s.sqlite3"
    store = Store(path)
    hub = Hub(store)
    table, _ = hub.create("trash", None, {})
    for seat in range(2):
        table.sit(seat, f"P{seat}")
    table.start(seed=5)
    assert table.version == 0
    store.close()
    store = Store(path)
    with _client(store, bot_delay=0.0, hold=0.3, rate=1e6, burst=1e6) as client:  # the restart
        def over() -> dict | None:  # type: ignore[type-arg]
            info = client.get(f"/api/tables/{table.id}").json()["table"]
            return info if info["status"] == "over" else None

        info = wait("the away seats played to the end by stand-ins", over, deadline=120, every=0.05)
        assert [s["auto"] for s in info["seats"]] == [True, True]
        assert {r.seat for r in store.actions(table.id)} == {0, 1}
    store.close()
