"""Events in the action log's database: the :class:`EventLog` port and its two adapters.

An event is one row of ``events`` (its settings, its status and its progress as JSON) and its
entrants' rows (``event_entrants``); the schema is the action log's, revision 0004
(:mod:`cardtable.server.migrations`), so a database the server opens has them. Every call is one
short transaction, durable when it returns, and raises :class:`~cardtable.server.ports.LogError`
and nothing else. :func:`open_events` opens the adapter of a ``--db`` URL: :class:`SqliteEvents`
(the SQLite file of the action log, a connection of its own) or :class:`PgEvents` (PostgreSQL).
"""

from __future__ import annotations

import contextlib
import functools
import json
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ParamSpec, Protocol, TypeVar

from ..migrations import upgrade_postgres, upgrade_sqlite
from ..ports import LogError
from ..store import POSTGRES_SCHEMES, db_path_from_url

P = ParamSpec("P")
R = TypeVar("R")

STATUSES = ("open", "running", "over", "cancelled")


@dataclass
class EventRow:
    """An event's settings and state. ``kind``: ``swiss`` or ``duplicate``; ``rounds``: Swiss
    rounds, or duplicate rounds of ``deals`` deals each; ``starts_at``: seconds since the epoch
    (``None``: when full); ``when_full``: it starts as soon as ``max_entrants`` have registered;
    ``bots``: bots fill a Swiss field up to ``max_entrants`` at the start; ``secret``: 64 hex
    digits that key its seat tokens and seeds (never sent); ``progress``: the running event
    (:mod:`cardtable.server.events.runner`)."""

    id: str
    name: str
    kind: str
    game: str
    preset: str
    options: dict[str, Any]
    rated: bool
    rounds: int
    deals: int | None
    starts_at: float | None
    when_full: bool
    max_entrants: int
    creator: int
    creator_name: str
    status: str
    created: float
    secret: str
    progress: dict[str, Any] | None = field(default=None)
    bots: bool = False


@dataclass(frozen=True)
class EntrantRow:
    account_id: int
    username: str
    registered: float


class EventLog(Protocol):
    """What a database behind the events must do."""

    def create_event(self, row: EventRow) -> None: ...

    def event(self, event_id: str) -> EventRow | None: ...

    def events(self, statuses: Sequence[str] = STATUSES, limit: int = 100) -> list[EventRow]:
        """Newest first."""

    def open_events_of(self, account_id: int) -> int:
        """Events ``account_id`` created that have not ended (open or running)."""

    def register(self, event_id: str, account_id: int, username: str, now: float) -> str:
        """One transaction: ``"ok"``, ``"already"`` (registered before), ``"full"`` (the entry
        limit is reached), ``"closed"`` (the event is no longer open) or ``"missing"``."""

    def unregister(self, event_id: str, account_id: int) -> str:
        """``"ok"``, ``"absent"`` (not registered), ``"closed"`` or ``"missing"``."""

    def entrants(self, event_id: str) -> list[EntrantRow]:
        """In the order they registered."""

    def events_of(self, account_id: int, limit: int = 50) -> list[EventRow]:
        """The events ``account_id`` entered, newest first."""

    def set_progress(self, event_id: str, status: str, progress: dict[str, Any] | None, *,
                     was: tuple[str, str | None] | None = None) -> bool:
        """The event's status and progress written; with ``was`` (a status and the progress's
        text, :func:`progress_text`), only if the row still holds exactly those: whether it wrote."""

    def close(self) -> None: ...


_COLUMNS = ("id, name, kind, game, preset, options, rated, rounds, deals, starts_at, when_full, max_entrants,"
            " creator, creator_name, status, created, secret, progress, bots")


def progress_text(progress: dict[str, Any] | None) -> str | None:
    """A progress as the ``progress`` column holds it."""
    return None if progress is None else json.dumps(progress)


def _values(row: EventRow) -> tuple[Any, ...]:
    return (row.id, row.name, row.kind, row.game, row.preset, json.dumps(row.options), bool(row.rated), row.rounds,
            row.deals, row.starts_at, bool(row.when_full), row.max_entrants, row.creator, row.creator_name,
            row.status, row.created, row.secret,
            progress_text(row.progress), bool(row.bots))


def _row(r: Sequence[Any]) -> EventRow:
    try:
        options = json.loads(r[5])
        progress = None if r[17] is None else json.loads(r[17])
        return EventRow(str(r[0]), str(r[1]), str(r[2]), str(r[3]), str(r[4]), options, bool(r[6]), int(r[7]),
                        None if r[8] is None else int(r[8]), None if r[9] is None else float(r[9]), bool(r[10]),
                        int(r[11]), int(r[12]), str(r[13]), str(r[14]), float(r[15]), str(r[16]), progress,
                        bool(r[18]))
    except (TypeError, ValueError) as exc:
        raise LogError(f"event {r[0]}: unreadable row ({exc})") from None


def _errors(kind: type[Exception]) -> Callable[[Callable[P, R]], Callable[P, R]]:
    def wrap(method: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(method)
        def wrapped(*args: P.args, **kwargs: P.kwargs) -> R:
            try:
                return method(*args, **kwargs)
            except kind as exc:
                raise LogError(f"{type(exc).__name__}: {exc}".strip()) from exc
        return wrapped
    return wrap


class _Sql:
    """The statements both adapters run, with ``?`` marks (PostgreSQL's adapter writes ``%s``)."""

    mark = "?"

    def q(self, sql: str) -> str:
        return sql if self.mark == "?" else sql.replace("?", self.mark)

    same = "IS"
    """Equal, a NULL equal to a NULL (PostgreSQL's ``IS NOT DISTINCT FROM``)."""
    for_update = ""
    """What a read for an update adds (PostgreSQL locks the row; SQLite's write transaction
    holds the whole file already)."""

    def transaction(self, write: bool = False) -> contextlib.AbstractContextManager[Any]:
        """A cursor in one transaction (``write``: one that will write)."""
        raise NotImplementedError

    def _one(self, sql: str, args: tuple[Any, ...]) -> Any:
        with self.transaction() as cur:
            cur.execute(self.q(sql), args)
            return cur.fetchone()

    def _all(self, sql: str, args: tuple[Any, ...]) -> list[Any]:
        with self.transaction() as cur:
            cur.execute(self.q(sql), args)
            return list(cur.fetchall())

    def create_event(self, row: EventRow) -> None:
        marks = ", ".join("?" for _ in _values(row))
        with self.transaction() as cur:
            cur.execute(self.q(f"INSERT INTO events ({_COLUMNS}) VALUES ({marks})"), _values(row))

    def event(self, event_id: str) -> EventRow | None:
        r = self._one(f"SELECT {_COLUMNS} FROM events WHERE id = ?", (event_id,))
        return None if r is None else _row(r)

    def events(self, statuses: Sequence[str] = STATUSES, limit: int = 100) -> list[EventRow]:
        marks = ", ".join("?" for _ in statuses)
        rows = self._all(f"SELECT {_COLUMNS} FROM events WHERE status IN ({marks}) ORDER BY created DESC, id"
                         " LIMIT ?", (*statuses, limit))
        return [_row(r) for r in rows]

    def open_events_of(self, account_id: int) -> int:
        r = self._one("SELECT COUNT(*) FROM events WHERE creator = ? AND status IN ('open', 'running')",
                      (account_id,))
        return int(r[0])

    def register(self, event_id: str, account_id: int, username: str, now: float) -> str:
        with self.transaction(write=True) as cur:
            cur.execute(self.q("SELECT status, max_entrants FROM events WHERE id = ?" + self.for_update), (event_id,))
            found = cur.fetchone()
            if found is None:
                return "missing"
            if found[0] != "open":
                return "closed"
            cur.execute(self.q("SELECT 1 FROM event_entrants WHERE event_id = ? AND account_id = ?"),
                        (event_id, account_id))
            if cur.fetchone() is not None:
                return "already"
            cur.execute(self.q("SELECT COUNT(*) FROM event_entrants WHERE event_id = ?"), (event_id,))
            if int(cur.fetchone()[0]) >= int(found[1]):
                return "full"
            cur.execute(self.q("INSERT INTO event_entrants VALUES (?, ?, ?, ?)"),
                        (event_id, account_id, username, now))
        return "ok"

    def unregister(self, event_id: str, account_id: int) -> str:
        with self.transaction(write=True) as cur:
            cur.execute(self.q("SELECT status FROM events WHERE id = ?" + self.for_update), (event_id,))
            found = cur.fetchone()
            if found is None:
                return "missing"
            if found[0] != "open":
                return "closed"
            cur.execute(self.q("DELETE FROM event_entrants WHERE event_id = ? AND account_id = ?"),
                        (event_id, account_id))
            return "ok" if cur.rowcount else "absent"

    def entrants(self, event_id: str) -> list[EntrantRow]:
        rows = self._all("SELECT account_id, username, registered FROM event_entrants WHERE event_id = ?"
                         " ORDER BY registered, account_id", (event_id,))
        return [EntrantRow(int(a), str(u), float(t)) for a, u, t in rows]

    def events_of(self, account_id: int, limit: int = 50) -> list[EventRow]:
        cols = ", ".join(f"e.{c.strip()}" for c in _COLUMNS.split(","))
        rows = self._all(f"SELECT {cols} FROM events e JOIN event_entrants n ON n.event_id = e.id"
                         " WHERE n.account_id = ? ORDER BY e.created DESC, e.id LIMIT ?", (account_id, limit))
        return [_row(r) for r in rows]

    def set_progress(self, event_id: str, status: str, progress: dict[str, Any] | None, *,
                     was: tuple[str, str | None] | None = None) -> bool:
        if status not in STATUSES:
            raise ValueError(f"an event's status is one of {', '.join(STATUSES)}")
        sql = "UPDATE events SET status = ?, progress = ? WHERE id = ?"
        args: tuple[Any, ...] = (status, progress_text(progress), event_id)
        if was is not None:
            sql += f" AND status = ? AND progress {self.same} ?"
            args += was
        with self.transaction(write=True) as cur:
            cur.execute(self.q(sql), args)
            return bool(cur.rowcount == 1)


class SqliteEvents(_Sql):
    """Events in the SQLite file of the action log (a connection of its own; WAL lets it and the
    log's connection write one after the other)."""

    @_errors(sqlite3.Error)
    def __init__(self, path: Path | str, *, busy: float = 2.0) -> None:
        self.path = path
        self.db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False, timeout=busy)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA foreign_keys=ON")
        upgrade_sqlite(self.db)
        self._lock = threading.Lock()

    @contextlib.contextmanager
    def transaction(self, write: bool = False) -> Iterator[Any]:
        with self._lock:
            try:
                cur = self.db.cursor()
            except sqlite3.Error as exc:
                raise LogError(f"{type(exc).__name__}: {exc}") from exc
            try:
                cur.execute("BEGIN IMMEDIATE" if write else "BEGIN")
                try:
                    yield cur
                except BaseException:
                    cur.execute("ROLLBACK")
                    raise
                cur.execute("COMMIT")
            except sqlite3.Error as exc:
                raise LogError(f"{type(exc).__name__}: {exc}") from exc
            finally:
                cur.close()

    def close(self) -> None:
        with self._lock:
            self.db.close()


class PgEvents(_Sql):
    """Events on the PostgreSQL database of ``url`` (the action log's): one connection, opened
    again after it was lost. A registration locks its event's row, so two at once cannot both
    take the last place."""

    mark = "%s"
    same = "IS NOT DISTINCT FROM"
    for_update = " FOR UPDATE"

    def __init__(self, url: str, *, timeout: float = 2.0) -> None:
        import psycopg

        self._psycopg = psycopg
        self.url = url
        self.timeout = timeout
        self._lock = threading.Lock()
        self._conn: Any = None
        try:
            conn = self._connect()
            found = None
            if conn.execute("SELECT to_regclass('alembic_version')").fetchone() not in (None, (None,)):
                row = conn.execute("SELECT version_num FROM alembic_version").fetchone()
                found = None if row is None else str(row[0])
            upgrade_postgres(lambda: psycopg.connect(url, connect_timeout=max(2, round(timeout))), found)
        except psycopg.Error as exc:
            raise LogError(f"{type(exc).__name__}: {exc}".strip()) from exc

    def _connect(self) -> Any:
        if self._conn is None or self._conn.closed:
            conn = self._psycopg.connect(self.url, connect_timeout=max(2, round(self.timeout)), autocommit=True)
            conn.execute(f"SET statement_timeout = {int(self.timeout * 1000)}")
            self._conn = conn
        return self._conn

    @contextlib.contextmanager
    def transaction(self, write: bool = False) -> Iterator[Any]:
        psycopg = self._psycopg
        with self._lock:
            try:
                conn = self._connect()
                with conn.transaction(), conn.cursor() as cur:
                    yield cur
            except psycopg.OperationalError as exc:
                with contextlib.suppress(psycopg.Error):
                    self._conn.close()
                self._conn = None
                raise LogError(f"{type(exc).__name__}: {exc}".strip()) from exc
            except psycopg.Error as exc:
                raise LogError(f"{type(exc).__name__}: {exc}".strip()) from exc

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None


def open_events(url: str | None) -> SqliteEvents | PgEvents:
    """The events of the database ``--db`` names (as :func:`cardtable.server.store.open_log` reads it)."""
    if url is not None and url.startswith(POSTGRES_SCHEMES):
        return PgEvents(url)
    return SqliteEvents(db_path_from_url(url))
