"""A database file changed under a running server (S3): truncated, replaced or removed, it is
noticed at the next write, which is then not acknowledged, and neither is any later one, since
the restart would refuse the file and lose them. The file's ordinary growth and checkpoints are
never taken for such a change."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from cardtable.server.hub import Hub
from cardtable.server.ports import LogBroken
from cardtable.server.store import Store


def person_table(store: Store) -> tuple[Hub, object]:
    hub = Hub(store)
    table, _ = hub.create("trash", None, {})
    table.sit(0, "Ada")
    table.add_bot(1, "random")
    table.start(seed=4)
    while table.step_bot():
        pass
    return hub, table


def ada_moves(table: object, seq: int) -> dict[str, object]:
    state = table.match.state  # type: ignore[attr-defined]
    reply: dict[str, object] = table.act(0, seq, str(state.legal_actions()[0]))  # type: ignore[attr-defined]
    if reply["type"] == "ack":
        table.after_change()  # type: ignore[attr-defined]
        while table.step_bot():  # type: ignore[attr-defined]
            pass
    return reply


@pytest.mark.parametrize("change", ["truncate", "replace", "remove"])
def test_s3_a_database_file_changed_under_the_server_stops_the_acknowledgements(tmp_path: Path, change: str):
    path = tmp_path / "s.sqlite3"
    store = Store(path)
    _, table = person_table(store)
    assert ada_moves(table, 1)["type"] == "ack"
    if change == "truncate":
        os.truncate(path, 0)
    elif change == "replace":
        os.replace(_another_database(tmp_path), path)
    else:
        os.remove(path)
    version = table.version  # type: ignore[attr-defined]
    replies = []
    for seq in range(2, 6):  # Ada tries again and again; bots try their moves too
        if table.match.to_move() == 0:  # type: ignore[attr-defined]
            replies.append(ada_moves(table, seq))
        else:
            table.step_bot()  # type: ignore[attr-defined]
    assert replies and all(r["type"] == "error" and r["code"] == "server" for r in replies), replies
    assert table.version <= version + 1  # type: ignore[attr-defined]  # the one write that found the change
    with pytest.raises(LogBroken, match="under the server"):
        store.set_status(table.id, "over")  # type: ignore[attr-defined]
    store.close()


def test_s3_growth_and_checkpoints_are_not_taken_for_a_change(tmp_path: Path):
    path = tmp_path / "s.sqlite3"
    store = Store(path)
    _, table = person_table(store)
    other = sqlite3.connect(str(path), isolation_level=None)
    for seq in range(1, 60):
        if table.match.is_over:  # type: ignore[attr-defined]
            break
        assert ada_moves(table, seq)["type"] == "ack"
        other.execute("PRAGMA wal_checkpoint(PASSIVE)")  # the file grows as the log is copied in
    other.close()
    store.close()


def _another_database(tmp_path: Path) -> Path:
    path = tmp_path / "other.sqlite3"
    db = sqlite3.connect(str(path))
    db.execute("CREATE TABLE x (y)")
    db.close()
    return path
