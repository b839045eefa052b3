"""The action log's schema is versioned (Alembic) and brought up to date when a log opens (S10: a
game started on one version resumes on the next): a SQLite database of the schema every release
before versioning wrote is adopted with its games, which resume; an up-to-date database costs no
migration run; a database of a revision newer than this code is refused, and so is a damaged one,
each with a clear error."""

from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from cardtable.server import migrations
from cardtable.server.hub import Hub
from cardtable.server.ports import LogError, VersionConflict
from cardtable.server.store import Store, TableRow, token_hash

MAIN_DDL = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    preset TEXT NOT NULL,
    options TEXT NOT NULL,
    seed INTEGER,
    bot_seed INTEGER NOT NULL,
    host_hash TEXT NOT NULL,
    status TEXT NOT NULL,
    created REAL NOT NULL,
    fair TEXT
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    token_hash TEXT,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL REFERENCES tables(id),
    version INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    client_seq INTEGER,
    at REAL NOT NULL,
    PRIMARY KEY (table_id, version)
);
CREATE INDEX IF NOT EXISTS seats_by_token ON seats(token_hash);
CREATE TABLE IF NOT EXISTS chat (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    text TEXT NOT NULL,
    at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS chat_by_table ON chat(table_id, at);
CREATE TABLE IF NOT EXISTS leases (table_id TEXT PRIMARY KEY, epoch INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS undone (
    table_id TEXT NOT NULL REFERENCES tables(id),
    undo INTEGER NOT NULL,
    version INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    client_seq INTEGER,
    at REAL NOT NULL,
    PRIMARY KEY (table_id, undo, version)
);
"""
"""The schema of every SQLite database written before the schema was versioned (the store's DDL
as it was then, word for word)."""
MAIN_OPENED = """
ALTER TABLE tables ADD COLUMN undo INTEGER NOT NULL DEFAULT 0;
INSERT OR IGNORE INTO meta VALUES ('schema', '1');
"""
"""What that store did to a database when it opened it, after the DDL."""


def unversioned_database(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(path, isolation_level=None)
    db.executescript(MAIN_DDL + MAIN_OPENED)
    return db


def play(table: object, rng: random.Random, seq: int) -> dict[str, object]:
    state = table.match.state  # type: ignore[attr-defined]
    reply: dict[str, object] = table.act(state.current_player(), seq,  # type: ignore[attr-defined]
                                         str(rng.choice(state.legal_actions())))
    return reply


def test_the_head_is_the_newest_revision():
    assert migrations.revisions()[0] == migrations.HEAD


def test_s10_a_database_of_the_unversioned_schema_is_adopted_and_its_games_resume(tmp_path: Path):
    """A game in progress on a database of the old schema, its rows written as that schema held
    them (seed and token digests, actions, chat, a lease, an undo taken back): opened by today's
    store it is migrated in place, every row reads back, and the game resumes where it was."""
    rng = random.Random(3)
    played = Store(tmp_path / "played.sqlite3")
    table, _ = Hub(played).create("trash", None, {})
    tokens = [table.sit(0, "Ada"), table.sit(1, "Ben")]
    table.start(seed=2**64 - 5)  # a seed past the signed 64-bit range
    for seq in range(1, 9):
        assert play(table, rng, seq)["type"] == "ack"
    row, actions = played.table(table.id), played.actions(table.id)
    assert row is not None and len(actions) == 8

    path = tmp_path / "old.sqlite3"
    old = unversioned_database(path)
    old.execute("INSERT INTO tables VALUES (?, ?, ?, '{}', ?, ?, ?, 'playing', ?, NULL, 0)",
                (row.id, row.game, row.preset, row.seed - 2**64 if row.seed is not None else None,  # type: ignore[operator]
                 row.bot_seed, row.host_hash, row.created))
    old.executemany("INSERT INTO seats VALUES (?, ?, ?, ?, ?)",
                    [(row.id, s.seat, s.kind, s.name, s.token_hash) for s in row.seats])
    old.executemany("INSERT INTO actions VALUES (?, ?, ?, ?, ?, 0.0)",
                    [(row.id, a.version, a.seat, a.action, a.client_seq) for a in actions])
    old.execute("INSERT INTO chat VALUES (?, 0, 'Ada', 'gl hf', 1.0)", (row.id,))
    old.execute("INSERT INTO leases VALUES (?, 4)", (row.id,))
    old.execute("INSERT INTO undone VALUES (?, 1, 9, 1, 'stock', 17, 2.0)", (row.id,))
    old.close()

    store = Store(path)
    assert migrations.sqlite_revision(store.db) == migrations.HEAD
    back = store.table(row.id)
    assert back == row
    assert [s.token_hash for s in back.seats] == [token_hash(t) for t in tokens]
    assert store.actions(row.id) == actions
    assert store.chat(row.id, 10) == [{"seat": 0, "name": "Ada", "text": "gl hf"}]
    assert store.epoch(row.id) == 4 and store.undone_seqs(row.id) == {1: 17}
    resumed = Hub(store).get(row.id)  # replays the log and claims the table
    assert resumed.version == 8 and resumed.epoch == 5
    assert resumed.match.state.view(0) == table.match.state.view(0)
    assert play(resumed, rng, 100)["type"] == "ack"  # past the seqs taken back (a resend of one is not played)
    assert [a.version for a in store.actions(row.id)] == list(range(1, 10))
    store.close()
    played.close()


def test_s10_a_database_from_before_fair_deals_and_undo_gains_both_columns(tmp_path: Path):
    path = tmp_path / "older.sqlite3"
    db = sqlite3.connect(path)
    db.executescript(MAIN_DDL.replace(",\n    fair TEXT", ""))
    db.execute("INSERT INTO tables VALUES ('t', 'trash', 'standard', '{}', NULL, 1, 'h', 'open', 0.0)")
    db.commit()
    db.close()
    store = Store(path)
    old = store.table("t")
    assert old is not None and old.fair is None and old.undo is False
    table, _ = Hub(store).create("trash", None, {}, undo=True)
    assert store.table(table.id).undo is True  # type: ignore[union-attr]
    store.close()


def test_s10_a_new_sqlite_database_gets_the_schema_the_migrations_make(tmp_path: Path):
    """A new file is given ``head_sqlite.py``'s schema rather than a run of every revision: it must
    be what the revisions make (after a new one: ``python -m cardtable.server.migrations``)."""
    made = sqlite3.connect(":memory:", isolation_level=None)
    migrations.upgrade_sqlite(made, snapshot=False)
    store = Store(tmp_path / "new.sqlite3")
    assert migrations.sqlite_schema(store.db) == migrations.sqlite_schema(made), \
        "head_sqlite.py is not what the migrations make: run python -m cardtable.server.migrations"
    assert migrations.sqlite_revision(store.db) == migrations.sqlite_revision(made) == migrations.HEAD
    store.close()


def test_a_new_store_opens_without_loading_alembic():
    """The suite and every server start open new stores: they do not pay for Alembic's import."""
    code = ("import sys; from cardtable.server.store import Store; Store(':memory:').close(); "
            "print(sorted(m for m in ('alembic', 'sqlalchemy') if m in sys.modules))")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src")}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0 and done.stdout.strip() == "[]", done.stdout + done.stderr


def test_s10_an_up_to_date_database_runs_no_migration(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    Store(tmp_path / "s.sqlite3").close()

    def no(*args: object) -> None:
        raise AssertionError("a migration ran on an up-to-date database")

    monkeypatch.setattr(migrations, "_upgrade", no)
    Store(tmp_path / "s.sqlite3").close()


def test_s10_a_database_of_a_newer_revision_is_refused_with_a_clear_error(tmp_path: Path):
    path = tmp_path / "newer.sqlite3"
    Store(path).close()
    db = sqlite3.connect(path)
    db.execute("UPDATE alembic_version SET version_num = '9999'")
    db.commit()
    db.close()
    with pytest.raises(LogError, match="revision 9999, which this cardtable does not know"):
        Store(path)


def test_a_file_that_is_no_database_is_a_log_error(tmp_path: Path):
    path = tmp_path / "junk.sqlite3"
    path.write_bytes(b"not a database " * 300)
    with pytest.raises(LogError):
        Store(path)


def test_s10_stores_opening_one_new_file_at_once_migrate_it_once(tmp_path: Path):
    path = tmp_path / "s.sqlite3"
    stores: list[Store] = []
    errors: list[BaseException] = []

    def open_one() -> None:
        try:
            stores.append(Store(path))
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=open_one) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not errors and len(stores) == 4
    stores[0].create_table(TableRow("t", "trash", "standard", {}, None, 1, "h", "open", 0.0))
    stores[1].append("t", 1, 0, "stock", None)
    with pytest.raises(VersionConflict):
        stores[2].append("t", 1, 0, "stock", None)
    for s in stores:
        s.close()


def _pg_revision(url: str) -> str | None:
    import psycopg

    with psycopg.connect(url) as conn:
        if conn.execute("SELECT to_regclass('alembic_version')").fetchone() == (None,):
            return None
        row = conn.execute("SELECT version_num FROM alembic_version").fetchone()
        return None if row is None else str(row[0])


def test_s10_a_new_postgres_database_is_brought_to_the_head_once(pg_url: str, monkeypatch: pytest.MonkeyPatch):
    from cardtable.server.pglog import PgLog

    assert _pg_revision(pg_url) is None
    PgLog(pg_url).close()
    assert _pg_revision(pg_url) == migrations.HEAD

    def no(*args: object) -> None:
        raise AssertionError("a migration ran on an up-to-date database")

    monkeypatch.setattr(migrations, "_upgrade", no)
    PgLog(pg_url).close()


def test_s10_postgres_logs_opening_one_new_database_at_once_migrate_it_once(pg_url: str):
    """Server processes starting together: one migrates (under an advisory lock), the others find
    the schema done; all of them work."""
    from cardtable.server.pglog import PgLog

    logs: list[PgLog] = []
    errors: list[BaseException] = []

    def open_one() -> None:
        try:
            logs.append(PgLog(pg_url))
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=open_one) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not errors and len(logs) == 4
    logs[0].create_table(TableRow("t", "trash", "standard", {}, None, 1, "h", "open", 0.0))
    assert [log.claim("t") for log in logs] == [1, 2, 3, 4]
    for log in logs:
        log.close()


def test_s10_a_postgres_database_of_a_newer_revision_is_refused(pg_url: str):
    import psycopg

    from cardtable.server.pglog import PgLog

    PgLog(pg_url).close()
    with psycopg.connect(pg_url) as conn:
        conn.execute("UPDATE alembic_version SET version_num = '9999'")
    with pytest.raises(LogError, match="revision 9999, which this cardtable does not know"):
        PgLog(pg_url)
