"""A table closed by a no-show (T13) is closed in the action log too, not only in the runner's
memory: the runner of a restarted server remembers the forfeits of the 1,000 newest events only,
and a cluster's node runs no events at all, so a table left ``open`` in the log came back into the
lobby as an open table that nobody could start."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

from cardtable.server.commands import Leave
from cardtable.server.events.routes import event_json
from cardtable.server.events.runner import Runner, seat_token
from cardtable.server.ports import LogError
from cardtable.server.store import CLOSED

from .netserver import Server as NetServer
from .test_events_run import Server, accounts, until


def _forfeit(server: Server) -> tuple[str, str]:
    """A Swiss event of two people, neither of whom comes to the table, run to its end: the
    event's id and its one table (a forfeit)."""
    people = accounts(2)
    row = asyncio.run(server.events.create(people[0], {"name": "Nobody came", "kind": "swiss", "game": "trash",
                                           "options": {"max_hands": 1}, "rounds": 1, "max_entrants": 2,
                                           "when_full": True}, "ip"))
    for who in people:
        assert asyncio.run(server.events.register(row.id, who, "ip")) == "ok"

    def over() -> bool:
        now = server.events.store.event(row.id)
        return now is not None and now.status == "over"

    asyncio.run(until("the no-show ends the event", over, server.runner.step))
    final = server.events.store.event(row.id)
    assert final is not None and final.progress is not None
    game = final.progress["rounds"][0]["games"][0]
    assert game["forfeit"] and game["points"] == [0.0, 0.0]
    return row.id, game["table"]


def _newer_events(path: Path, event_id: str, count: int) -> None:
    """``count`` events over after ``event_id`` (copies of it without progress), in one transaction."""
    db = sqlite3.connect(path)
    columns = [r[1] for r in db.execute("PRAGMA table_info(events)")]
    found = dict(zip(columns, db.execute("SELECT * FROM events WHERE id = ?", (event_id,)).fetchone(), strict=True))
    rows = [tuple({**found, "id": f"later-{i}", "created": found["created"] + 1 + i, "progress": None}[c]
                  for c in columns) for i in range(count)]
    db.executemany(f"INSERT INTO events ({', '.join(columns)}) VALUES ({', '.join('?' for _ in columns)})", rows)
    db.commit()
    db.close()


def test_t13_a_table_closed_by_a_no_show_stays_out_of_the_lobby_after_a_restart_behind_newer_events(tmp_path: Path):
    """A forfeited table is closed in the log: a restart a thousand events later (its event
    beyond what the runner reads back) neither loads it at the start nor when someone asks for it,
    a cluster would not announce it among the live tables, and a request for it is still told
    ``410 forfeited``, not 404."""
    server = Server(tmp_path / "server.sqlite3", no_show=0.2)
    event_id, table_id = _forfeit(server)
    assert table_id not in server.hub.tables and all(t["id"] != table_id for t in server.hub.listing())
    _newer_events(server.path, event_id, 1000)
    server.close()

    again = Server(server.path, no_show=0.2)  # within the hub's `keep` of the table's creation
    try:
        assert table_id not in again.hub.tables
        assert again.hub.find(table_id) is None  # GET /api/tables/{id}, /ws/{id}
        assert all(t["id"] != table_id for t in again.hub.listing())  # GET /api/tables
        assert table_id not in [getattr(r, "id", None) for r in again.store.tables(("open", "playing"))]  # ct:live
    finally:
        again.close()
    served = NetServer(server.path).start(timeout=60)  # its runner has not read the event back either
    try:
        gone = served.client.get(f"{served.http}/api/tables/{table_id}")
        assert gone.status_code == 410 and gone.json()["error"] == "forfeited", gone.text
        assert served.client.get(f"{served.http}/api/tables/no-such-table").status_code == 404
    finally:
        served.stop()


def test_t13_a_forfeited_table_an_earlier_version_left_open_is_closed_when_the_runner_starts(tmp_path: Path):
    """A forfeit stored by a version that left its table ``open`` in the log: the runner closes it
    at its start, and the table is no longer served to anyone."""
    server = Server(tmp_path / "server.sqlite3", no_show=0.2)
    _, table_id = _forfeit(server)
    server.store.set_status(table_id, "open")  # as an earlier version left it
    server.close()

    again = Server(server.path, no_show=0.2)
    try:
        found = again.store.table(table_id)
        assert found is not None and found.status == CLOSED
        assert again.hub.find(table_id) is None
        assert Runner(again.events, again.hub).forfeited == {table_id}  # and the gate still answers 410
    finally:
        again.close()


def test_t13_a_forfeit_whose_progress_was_not_stored_leaves_its_table_open_for_the_next_look(tmp_path: Path):
    """The table is closed only once the event's progress holds the forfeit: a store that fails
    to write that progress leaves the table open in the log, and the next look forfeits it again
    (closing it first would have left the event waiting for ever on a table no one loads)."""
    server = Server(tmp_path / "server.sqlite3", no_show=0.2)
    store = server.events.store
    write = store.set_progress
    failed: list[str] = []

    def set_progress(event_id: str, status: str, progress: dict[str, Any] | None, **was: Any) -> bool:
        games = [g for r in (progress or {}).get("rounds", []) for g in r["games"]]
        if not failed and any(g.get("forfeit") for g in games):
            failed.append(games[0]["table"])
            found = server.store.table(games[0]["table"])
            assert found is not None and found.status == "open"
            raise LogError("disk I/O error")
        return write(event_id, status, progress, **was)

    store.set_progress = set_progress  # type: ignore[method-assign]
    try:
        _, table_id = _forfeit(server)
        assert failed == [table_id]
        found = server.store.table(table_id)
        assert found is not None and found.status == CLOSED
    finally:
        server.close()


def test_t13_a_void_duplicate_table_is_closed_and_shown_as_not_played(tmp_path: Path):
    """A duplicate table with an open seat cannot start (the event's routes refuse a person's
    leaving before the start; the seat is opened here through the table's own command): at the
    no-show the runner makes it void, closes it like a forfeit, and the event's page data says
    so, so the page offers no link to watch or replay a table that answers 410."""

    async def main() -> None:
        server = Server(tmp_path / "server.sqlite3", no_show=0.2)
        people = accounts(4)
        row = await server.events.create(people[0], {"name": "One left", "kind": "duplicate", "game": "trex",
                                               "preset": "complex", "rounds": 1, "max_entrants": 4,
                                               "when_full": True}, "ip")
        for who in people:
            assert await server.events.register(row.id, who, "ip") == "ok"

        def table_made() -> bool:
            now = server.events.store.event(row.id)
            return now is not None and bool((now.progress or {}).get("rounds"))

        await until("the round's table", table_made, server.runner.step)
        now = server.events.store.event(row.id)
        assert now is not None and now.progress is not None
        (game,) = now.progress["rounds"][0]["games"]
        table = server.hub.find(game["table"])
        assert table is not None and table.row.status == "open"
        await table.ask(Leave(seat_token(now.secret, table.id, 0)))
        assert table.row.seats[0].kind == "open"

        def void() -> bool:
            later = server.events.store.event(row.id)
            return later is not None and bool(later.progress["rounds"][0]["games"][0].get("void"))  # type: ignore[index]

        await until("the table is void", void, server.runner.step)
        shown = event_json(server.events.store.event(row.id), server.events, server.runner)  # type: ignore[arg-type]
        (listed,) = shown["rounds"][0]["games"]
        assert listed["table"] == table.id and listed["void"] and not listed["forfeit"]
        found = server.store.table(table.id)
        assert found is not None and found.status == CLOSED
        server.close()

    asyncio.run(main())
