"""The action log's schema, versioned by Alembic, for both adapters (SQLite and PostgreSQL).

Each adapter brings its database to :data:`HEAD` when it opens it: an up-to-date database costs
one small query (Alembic, which takes a quarter of a second to import, is loaded only when there is
something to do); otherwise every missing revision is applied in one transaction, whole or not at
all. A database of a newer revision than this code knows is refused: it was written by a newer
cardtable, and this one cannot tell what it may break.

A new revision is a file in ``versions/`` (its ``down_revision`` the previous head), a new
:data:`HEAD`, and ``head_sqlite.py`` written again (``python -m cardtable.server.migrations``);
``tests/server/test_migrations.py`` checks that the three agree.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..ports import LogError

if TYPE_CHECKING:
    from alembic.config import Config
    from sqlalchemy.engine import Connection

HERE = Path(__file__).resolve().parent
HEAD = "0004"
"""The newest revision in ``versions/``."""
LOCK = 0x63617264  # "card": the advisory lock that lets one PostgreSQL client migrate at a time
SQLITE_WAIT = 10.0
"""Seconds a SQLite migration waits for another process's write (its own migration, say) to end."""


def config(connection: Connection | None = None) -> Config:
    """Alembic's configuration for this folder, to run on ``connection``."""
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(HERE))
    cfg.attributes["connection"] = connection
    return cfg


def revisions() -> list[str]:
    """Every revision in ``versions/``, newest first."""
    from alembic.script import ScriptDirectory

    return [r.revision for r in ScriptDirectory.from_config(config()).walk_revisions()]


def sqlite_revision(db: sqlite3.Connection) -> str | None:
    """The revision of the SQLite database (``None``: never versioned, or empty)."""
    if db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'alembic_version'").fetchone() is None:
        return None
    row = db.execute("SELECT version_num FROM alembic_version").fetchone()
    return None if row is None else str(row[0])


def upgrade_sqlite(db: sqlite3.Connection, *, snapshot: bool = True) -> None:
    """Bring the SQLite database of ``db`` (opened with ``isolation_level=None``) to :data:`HEAD`
    on that connection (an in-memory database has no other), in one ``BEGIN IMMEDIATE``
    transaction: two processes opening one file migrate it once.

    An empty database (a new file) is given the schema the migrations make, as
    ``head_sqlite.py`` keeps it, and stamped with :data:`HEAD` (``snapshot``; Alembic's way for a
    database built up to date from scratch): a new store opens in a millisecond, without loading
    Alembic."""
    if sqlite_revision(db) == HEAD or (snapshot and _made_from_snapshot(db)):
        return
    import sqlalchemy as sa
    from sqlalchemy.pool import StaticPool

    engine = sa.create_engine("sqlite://", creator=lambda: db, poolclass=StaticPool)

    @sa.event.listens_for(engine, "begin")
    def begin(conn: Connection) -> None:  # sqlite3 in autocommit mode begins nothing by itself
        conn.exec_driver_sql("BEGIN IMMEDIATE")

    (timeout,) = db.execute("PRAGMA busy_timeout").fetchone()
    db.execute(f"PRAGMA busy_timeout = {int(SQLITE_WAIT * 1000)}")
    try:
        with _errors(), engine.begin() as conn:
            _upgrade(conn, sqlite_revision(db))
    finally:
        db.execute(f"PRAGMA busy_timeout = {int(timeout)}")


def _made_from_snapshot(db: sqlite3.Connection) -> bool:
    """If the database is empty, the schema of :data:`HEAD` written into it; whether it was."""
    from .head_sqlite import REVISION, STATEMENTS

    if REVISION != HEAD or db.execute("SELECT 1 FROM sqlite_master").fetchone() is not None:
        return False
    (timeout,) = db.execute("PRAGMA busy_timeout").fetchone()
    db.execute(f"PRAGMA busy_timeout = {int(SQLITE_WAIT * 1000)}")
    try:
        db.execute("BEGIN IMMEDIATE")
        try:
            empty = db.execute("SELECT 1 FROM sqlite_master").fetchone() is None  # still, now it is ours
            if empty:
                for statement in STATEMENTS:
                    db.execute(statement)
                db.execute("INSERT INTO alembic_version (version_num) VALUES (?)", (HEAD,))
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
    finally:
        db.execute(f"PRAGMA busy_timeout = {int(timeout)}")
    return empty


def sqlite_schema(db: sqlite3.Connection) -> list[str]:
    """The statements that make the tables and indexes of the SQLite database, in the order made."""
    return [str(r[0]) for r in db.execute("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid")]


def write_snapshot(path: Path = HERE / "head_sqlite.py") -> None:
    """Write ``head_sqlite.py``: the schema the migrations make on an empty SQLite database."""
    db = sqlite3.connect(":memory:", isolation_level=None)
    upgrade_sqlite(db, snapshot=False)
    statements = "".join(f"    {statement!r},\n" for statement in sqlite_schema(db))
    path.write_text(f'''"""The SQLite schema of revision {HEAD}, as the migrations make it on an empty database.

Written by ``python -m cardtable.server.migrations``; ``tests/server/test_migrations.py`` checks
that it is what the migrations make now.
"""
# ruff: noqa: E501

REVISION = {HEAD!r}
STATEMENTS = (
{statements})
''')


def upgrade_postgres(connect: Callable[[], Any], found: str | None) -> None:
    """Bring the PostgreSQL database that ``connect()`` (a new psycopg connection) reaches to
    :data:`HEAD`, under an advisory lock: of several processes starting at once, one migrates and
    the others find it done. ``found``: the revision the caller read (``None``: none)."""
    if found == HEAD:
        return
    import sqlalchemy as sa
    from sqlalchemy.pool import NullPool

    engine = sa.create_engine("postgresql+psycopg://", creator=connect, poolclass=NullPool)
    try:
        with _errors(), engine.begin() as conn:
            conn.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOCK})
            row = None
            if conn.execute(sa.text("SELECT to_regclass('alembic_version')")).scalar() is not None:
                row = conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar()
            _upgrade(conn, None if row is None else str(row))
    finally:
        engine.dispose()


def _upgrade(conn: Connection, found: str | None) -> None:
    if found == HEAD:
        return
    from alembic import command

    if found is not None and found not in revisions():
        raise LogError(f"the database's schema is of revision {found}, which this cardtable does not know"
                       f" (its newest is {HEAD}): it was written by a newer cardtable; run that one")
    command.upgrade(config(conn), "head")


@contextmanager
def _errors() -> Iterator[None]:
    """SQLAlchemy's and Alembic's errors as the log's own."""
    from alembic.util import CommandError
    from sqlalchemy.exc import SQLAlchemyError

    try:
        yield
    except SQLAlchemyError as exc:
        raise LogError(f"the schema could not be brought up to date: {exc.__cause__ or exc}") from exc
    except CommandError as exc:
        raise LogError(f"the schema could not be brought up to date: {exc}") from exc
