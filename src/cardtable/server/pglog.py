"""The action log (:class:`~cardtable.server.ports.ActionLog`) and owner leases
(:class:`~cardtable.server.ports.TimedLease`) on PostgreSQL: the log that several server processes
share.

It keeps what :class:`~cardtable.server.store.Store` keeps, in the same rows read by the same code
(:func:`~cardtable.server.store.table_row`): seat and host tokens as SHA-256 digests, seeds as
signed 64-bit integers, a table's options and fair-deal protocol as JSON text. Its schema is
brought to the newest revision when it opens (:mod:`cardtable.server.migrations`).

Calls are synchronous and safe from any number of threads: each takes a connection of a pool
(psycopg 3, ``psycopg_pool``) for one transaction, committed when the call returns. An append or
undo with an epoch locks the table's lease row (``FOR SHARE``) in its transaction and is refused
if a newer claim exists, and a claim (which updates that row) waits for the writes under way: so a
write either commits before the claim, and the new owner replays it, or is refused.

Every driver error leaves as :class:`~cardtable.server.ports.LogError`, within :attr:`PgLog.timeout`
seconds (a lost server, a lock held too long). A transaction left idle that long (its process was
paused inside a write) is ended by the database server, which lets its locks go. After a lost
connection the next call opens a new pool, which tries one connection at once: a server still down
fails that call at once, and a restarted one is used again at once.
"""

from __future__ import annotations

import functools
import json
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any, ParamSpec, TypeVar

import psycopg
from psycopg import errors
from psycopg_pool import ConnectionPool, PoolTimeout

from .migrations import upgrade_postgres
from .ports import LogError, StaleLease, VersionConflict
from .store import TABLE_COLUMNS, ActionRow, BadRow, SeatRow, TableRow, Taken, fair_text, i64, table_row

P = ParamSpec("P")
R = TypeVar("R")

TIMEOUT = 2.0
"""Seconds a call may wait for a connection or a statement before it fails."""
IDLE_CHECK = 1.0
"""Seconds after which a connection back in the pool is checked (one round trip) before its next
use: the server may have restarted meanwhile. One used more recently is not, which spares a
round trip on every call of a busy log."""
_NOW = "extract(epoch FROM clock_timestamp())::double precision"
"""Now on the database server's clock, in seconds since the epoch: one clock for every process."""


_APPEND = (
    "WITH lease AS (SELECT epoch FROM leases WHERE table_id = %(table)s FOR SHARE),"
    " added AS (INSERT INTO actions (table_id, version, seat, action, client_seq, at)"
    " SELECT %(table)s, %(version)s, %(seat)s, %(action)s, %(seq)s, %(at)s"
    " WHERE (%(epoch)s::bigint IS NULL OR COALESCE((SELECT epoch FROM lease), 0) <= %(epoch)s::bigint)"
    " AND (SELECT COALESCE(MAX(version), 0) FROM actions WHERE table_id = %(table)s) = %(version)s - 1"
    " RETURNING 1)"
    " SELECT (SELECT epoch FROM lease), (SELECT count(*) FROM added)")
"""An append in one statement: the lease row's newest epoch, and 1 if the action was added."""


SEATS = ("SELECT table_id, seat, kind, name, token_hash FROM seats WHERE table_id = ANY(%s)"
         " ORDER BY table_id, seat")
"""The seats of the tables ``%s`` names (:func:`_by_table` sorts them out)."""


def _by_table(rows: list[tuple[Any, ...]]) -> dict[str, list[tuple[Any, ...]]]:
    """Rows whose first column is a table's id, each table's rest in the order read."""
    out: dict[str, list[tuple[Any, ...]]] = {}
    for table_id, *rest in rows:
        out.setdefault(table_id, []).append(tuple(rest))
    return out


def _log_errors(method: Callable[P, R]) -> Callable[P, R]:
    """``method`` raising :class:`~cardtable.server.ports.LogError` for every psycopg error."""

    @functools.wraps(method)
    def wrapped(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(*args, **kwargs)
        except psycopg.Error as exc:
            raise LogError(f"{type(exc).__name__}: {exc}".strip()) from exc

    return wrapped


class PgLog:
    """The action log on the PostgreSQL database of ``url`` (``postgresql://user@host:port/db``,
    any libpq connection string). ``pool``: at most that many connections at once (a server's
    writer and reader threads, and a call from its event loop, each hold one)."""

    concurrent = True
    """Calls may run in several threads at once: each is a transaction of its own."""

    @_log_errors
    def __init__(self, url: str, *, pool: int = 10, timeout: float = TIMEOUT) -> None:
        self.url = url
        self.size = pool
        self.timeout = timeout
        self._lock = threading.Lock()  # for the fields below, held a moment
        self._opening = threading.Lock()  # held while a pool is opened
        self._closed = False
        self._lent = 0  # connections in use now
        self._pool: ConnectionPool | None = None
        self._returned: weakref.WeakKeyDictionary[psycopg.Connection[Any], float] = weakref.WeakKeyDictionary()
        try:
            with self._connection() as conn:
                found = None
                if conn.execute("SELECT to_regclass('alembic_version')").fetchone() not in (None, (None,)):
                    row = conn.execute("SELECT version_num FROM alembic_version").fetchone()
                    found = None if row is None else str(row[0])
            upgrade_postgres(self._connect, found)
        except BaseException:
            self.close()
            raise

    # ------------------------------------------------------------- connections
    def _connect(self) -> psycopg.Connection[Any]:
        return psycopg.connect(self.url, connect_timeout=max(2, round(self.timeout)))

    def _configure(self, conn: psycopg.Connection[Any]) -> None:
        conn.execute(f"SET statement_timeout = {int(self.timeout * 1000)}")
        # a process paused inside a write (SIGSTOP, a frozen VM) would hold the table's lease row
        # locked, and so the table, forever: the server ends such a session after the same time
        conn.execute(f"SET idle_in_transaction_session_timeout = {int(self.timeout * 1000)}")
        conn.commit()
        conn.autocommit = True  # one statement, one transaction; several: conn.transaction()

    def _check(self, conn: psycopg.Connection[Any]) -> None:
        """Before a connection of the pool is used: checked if it has been idle a while
        (:data:`IDLE_CHECK`); a broken one raises, and the pool takes another."""
        with self._lock:
            returned = self._returned.get(conn)
        if returned is None or time.monotonic() - returned > IDLE_CHECK:
            ConnectionPool.check_connection(conn)

    def _reset(self, conn: psycopg.Connection[Any]) -> None:
        """A connection back in the pool: when (for :meth:`_check`)."""
        with self._lock:
            self._returned[conn] = time.monotonic()

    def _open_pool(self) -> ConnectionPool:
        """The pool, opened first if there is none (after :meth:`_connection` discarded one)."""
        with self._lock:
            if self._closed:
                raise LogError("the action log is closed")
            if self._pool is not None:
                return self._pool
        with self._opening:  # one thread opens a pool; the others wait for it and use it
            with self._lock:
                if self._pool is not None:
                    return self._pool
            # one connection first, in this thread: an unreachable or misconfigured server
            # fails this call at once with libpq's own words, not after the pool's timeout
            self._connect().close()
            pool = ConnectionPool(self.url, min_size=1, max_size=self.size, open=False, timeout=self.timeout,
                                  configure=self._configure, check=self._check, reset=self._reset,
                                  kwargs={"connect_timeout": max(2, round(self.timeout))}, name="cardtable-log")
            try:
                pool.open(wait=True, timeout=self.timeout)
            except BaseException:
                pool.close(timeout=0)
                raise
            with self._lock:
                closed = self._closed
                if not closed:
                    self._pool = pool
            if closed:  # closed meanwhile
                pool.close(timeout=0)
                raise LogError("the action log is closed")
            return pool

    @contextmanager
    def _connection(self) -> Iterator[psycopg.Connection[Any]]:
        """A connection of the pool for one call. A connection lost (the server went away), or
        none to be had while none is in use, discards the pool: the next call opens a new one
        at once rather than waiting for the old one's reconnection (which backs off)."""
        pool = self._open_pool()
        lost = False
        try:
            with pool.connection() as conn:
                with self._lock:
                    self._lent += 1
                try:
                    yield conn
                except psycopg.OperationalError:
                    lost = conn.broken or conn.closed
                    raise
                finally:
                    with self._lock:
                        self._lent -= 1
        except PoolTimeout:
            with self._lock:
                lost = self._lent == 0
            raise
        finally:
            if lost:
                with self._lock:
                    if self._pool is pool:
                        self._pool = None
                pool.close(timeout=0)

    def connection(self) -> AbstractContextManager[psycopg.Connection[Any]]:
        """A connection of the log's pool for one call, in autocommit (``conn.transaction()`` for
        several statements in one): the players' tables kept in the same database use it
        (:class:`~cardtable.server.players.pgstore.PgAccountStore`). Its errors are the driver's
        (:mod:`psycopg`, :class:`psycopg_pool.PoolTimeout`) or :class:`LogError` once closed."""
        return self._connection()

    def close(self) -> None:
        with self._lock:
            self._closed = True
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.close()

    # ------------------------------------------------------------- tables
    @_log_errors
    def create_table(self, row: TableRow) -> None:
        with self._connection() as conn, conn.transaction():
            conn.execute(
                "INSERT INTO tables (id, game, preset, options, seed, bot_seed, host_hash, status, created, fair, undo,"
                " rated, clock) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                (row.id, row.game, row.preset, json.dumps(row.options), i64(row.seed), i64(row.bot_seed),
                 row.host_hash, row.status, row.created, fair_text(row.fair), row.undo, row.rated,
                 fair_text(row.clock)))
            with conn.cursor() as cur:
                cur.executemany("INSERT INTO seats (table_id, seat, kind, name, token_hash)"
                                " VALUES (%s, %s, %s, %s, %s)",
                                [(row.id, s.seat, s.kind, s.name, s.token_hash) for s in row.seats])

    @_log_errors
    def set_seat(self, table_id: str, seat: SeatRow, epoch: int | None = None) -> None:
        self._fenced(table_id, epoch, "UPDATE seats SET kind = %s, name = %s, token_hash = %s"
                     " WHERE table_id = %s AND seat = %s", (seat.kind, seat.name, seat.token_hash, table_id, seat.seat))

    @_log_errors
    def set_fair(self, table_id: str, fair: dict[str, Any] | None, epoch: int | None = None) -> None:
        self._fenced(table_id, epoch, "UPDATE tables SET fair = %s WHERE id = %s", (fair_text(fair), table_id))

    @_log_errors
    def start(self, table_id: str, seed: int, epoch: int | None = None) -> None:
        self._fenced(table_id, epoch, "UPDATE tables SET status = 'playing', seed = %s WHERE id = %s",
                     (i64(seed), table_id))

    @_log_errors
    def set_status(self, table_id: str, status: str, epoch: int | None = None) -> None:
        self._fenced(table_id, epoch, "UPDATE tables SET status = %s WHERE id = %s", (status, table_id))

    def _fenced(self, table_id: str, epoch: int | None, sql: str, args: tuple[Any, ...]) -> None:
        """One write of the table's owner; with ``epoch``, the lease row is locked in the same
        transaction and the write refused (:class:`StaleLease`), nothing written, if the table was
        claimed since."""
        with self._connection() as conn, conn.transaction():
            if epoch is not None:
                self._check_epoch(conn, table_id, epoch)
            conn.execute(sql, args)

    # ------------------------------------------------------------- the log
    @_log_errors
    def append(self, table_id: str, version: int, seat: int, action: str, client_seq: int | None,
               epoch: int | None = None) -> None:
        """One accepted action, committed when this returns; refused as
        :class:`~cardtable.server.store.Store.append` refuses it. One statement, so one round
        trip: it locks the table's lease row (``FOR SHARE``, read as the newest claim left it)
        and adds the row only if no claim newer than ``epoch`` exists and ``version`` is next."""
        try:
            with self._connection() as conn:
                found = conn.execute(_APPEND, {
                    "table": table_id, "version": version, "seat": seat, "action": action,
                    "seq": client_seq, "at": time.time(), "epoch": epoch}).fetchone()
        except errors.UniqueViolation:  # another writer's append of this version committed meanwhile
            found = None
        newest, added = (0, 0) if found is None else (int(found[0] or 0), int(found[1]))
        if epoch is not None and epoch < newest:
            raise StaleLease.taken_over(table_id, epoch, newest)
        if not added:
            raise VersionConflict(f"table {table_id}: version {version} is not the next one of its log")

    @staticmethod
    def _check_epoch(conn: psycopg.Connection[Any], table_id: str, epoch: int) -> None:
        """Inside the write's transaction: the writer's ``epoch`` is the table's newest, and no
        claim commits before this transaction ends (the lease row is locked)."""
        found = conn.execute("SELECT epoch FROM leases WHERE table_id = %s FOR SHARE", (table_id,)).fetchone()
        newest = 0 if found is None else int(found[0])
        if epoch < newest:
            raise StaleLease.taken_over(table_id, epoch, newest)

    @_log_errors
    def claim(self, table_id: str) -> int:
        with self._connection() as conn:
            row = conn.execute("INSERT INTO leases AS l (table_id, epoch) VALUES (%s, 1) ON CONFLICT (table_id)"
                               " DO UPDATE SET epoch = l.epoch + 1, owner = NULL, expires = 0 RETURNING epoch",
                               (table_id,)).fetchone()
        assert row is not None
        return int(row[0])

    @_log_errors
    def take(self, table_ids: list[str], chat: int) -> dict[str, Taken | BadRow]:
        """As :meth:`~cardtable.server.store.Store.take`: one transaction of six statements
        whatever the number of tables (a node taking over a dead node's tables reads them all at
        once), sent together in a pipeline: three round trips with the begin and the commit,
        where a round trip for each statement made eight. The claims lock the lease rows in the
        order of the tables' ids, as every claim does, so two takers of overlapping tables cannot
        deadlock."""
        ids = sorted(set(table_ids))
        with self._connection() as conn, conn.pipeline(), conn.transaction():
            claimed = conn.execute(
                "INSERT INTO leases AS l (table_id, epoch) SELECT id, 1 FROM tables WHERE id = ANY(%s) ORDER BY id"
                " ON CONFLICT (table_id) DO UPDATE SET epoch = l.epoch + 1, owner = NULL, expires = 0"
                " RETURNING table_id, epoch", (ids,))
            found = conn.execute("SELECT " + TABLE_COLUMNS + " FROM tables WHERE id = ANY(%s)", (ids,))
            seated = conn.execute(SEATS, (ids,))
            played = conn.execute("SELECT table_id, version, seat, action, client_seq, at FROM actions"
                                  " WHERE table_id = ANY(%s) ORDER BY table_id, version", (ids,))
            taken_back = conn.execute("SELECT table_id, seat, MAX(client_seq) FROM undone WHERE table_id = ANY(%s)"
                                      " AND client_seq IS NOT NULL GROUP BY table_id, seat", (ids,))
            said = conn.execute(
                "SELECT table_id, seat, name, text FROM (SELECT *, row_number() OVER (PARTITION BY table_id"
                " ORDER BY at DESC, line DESC) AS n FROM chat WHERE table_id = ANY(%s)) c WHERE n <= %s"
                " ORDER BY table_id, at, line", (ids, chat))
            epochs = dict(claimed.fetchall())  # the first fetch sends the six statements
            rows = found.fetchall()
            seats = _by_table(seated.fetchall())
            actions: dict[str, list[ActionRow]] = {}
            for table_id, *action in played.fetchall():
                actions.setdefault(table_id, []).append(ActionRow(*action))
            undone: dict[str, dict[int, int]] = {}
            for table_id, seat, seq in taken_back.fetchall():
                undone.setdefault(table_id, {})[int(seat)] = int(seq)
            lines: dict[str, list[dict[str, Any]]] = {}
            for table_id, seat, name, text in said.fetchall():
                lines.setdefault(table_id, []).append({"seat": seat, "name": name, "text": text})
        out: dict[str, Taken | BadRow] = {}
        for r in rows:
            table_id = r[0]
            try:
                row = table_row(r, seats.get(table_id, []))
            except BadRow as exc:
                out[table_id] = exc
                continue
            out[table_id] = Taken(row, int(epochs[table_id]), actions.get(table_id, []), undone.get(table_id, {}),
                                  lines.get(table_id, []))
        return out

    @_log_errors
    def epoch(self, table_id: str) -> int:
        with self._connection() as conn:
            row = conn.execute("SELECT epoch FROM leases WHERE table_id = %s", (table_id,)).fetchone()
        return 0 if row is None else int(row[0])

    # ------------------------------------------------------------- timed leases (the database's clock)
    @_log_errors
    def acquire(self, table_id: str, owner: str, ttl: float) -> int | None:
        with self._connection() as conn:
            row = conn.execute(
                "INSERT INTO leases AS l (table_id, epoch, owner, expires) VALUES (%s, 1, %s, " + _NOW + " + %s)"
                " ON CONFLICT (table_id) DO UPDATE SET owner = EXCLUDED.owner, expires = EXCLUDED.expires,"
                " epoch = CASE WHEN l.owner = EXCLUDED.owner THEN l.epoch ELSE l.epoch + 1 END"
                " WHERE l.owner = EXCLUDED.owner OR l.expires <= " + _NOW + " RETURNING epoch",
                (table_id, owner, ttl)).fetchone()
        return None if row is None else int(row[0])

    @_log_errors
    def renew(self, owner: str, ttl: float) -> dict[str, int]:
        with self._connection() as conn:
            rows = conn.execute("UPDATE leases SET expires = " + _NOW + " + %s WHERE owner = %s"
                                " RETURNING table_id, epoch", (ttl, owner)).fetchall()
        return {str(t): int(e) for t, e in rows}

    @_log_errors
    def release(self, table_id: str, owner: str) -> None:
        with self._connection() as conn:
            conn.execute("UPDATE leases SET expires = 0 WHERE table_id = %s AND owner = %s", (table_id, owner))

    @_log_errors
    def holder(self, table_id: str) -> str | None:
        with self._connection() as conn:
            row = conn.execute("SELECT owner FROM leases WHERE table_id = %s AND expires > " + _NOW,
                               (table_id,)).fetchone()
        return None if row is None else row[0]

    @_log_errors
    def unowned(self, statuses: tuple[str, ...] = ("playing",)) -> list[str]:
        with self._connection() as conn:
            rows = conn.execute("SELECT t.id FROM tables t LEFT JOIN leases l ON l.table_id = t.id"
                                " WHERE t.status = ANY(%s) AND (l.table_id IS NULL OR l.expires <= " + _NOW + ")"
                                " ORDER BY t.created", (list(statuses),)).fetchall()
        return [str(r[0]) for r in rows]

    @_log_errors
    def undo(self, table_id: str, keep: int, epoch: int | None = None) -> int:
        """Every action after version ``keep`` moved to ``undone`` (numbered by the table's undos)
        in one transaction; how many."""
        with self._connection() as conn, conn.transaction():
            if epoch is not None:
                self._check_epoch(conn, table_id, epoch)
            number = conn.execute("SELECT COALESCE(MAX(undo), 0) + 1 FROM undone WHERE table_id = %s",
                                  (table_id,)).fetchone()
            assert number is not None
            return conn.execute(
                "WITH moved AS (DELETE FROM actions WHERE table_id = %s AND version > %s RETURNING *)"
                " INSERT INTO undone (table_id, undo, version, seat, action, client_seq, at)"
                " SELECT table_id, %s, version, seat, action, client_seq, at FROM moved",
                (table_id, keep, number[0])).rowcount

    @_log_errors
    def undone_seqs(self, table_id: str) -> dict[int, int]:
        with self._connection() as conn:
            rows = conn.execute("SELECT seat, MAX(client_seq) FROM undone WHERE table_id = %s"
                                " AND client_seq IS NOT NULL GROUP BY seat", (table_id,)).fetchall()
        return {int(seat): int(seq) for seat, seq in rows}

    @_log_errors
    def add_chat(self, table_id: str, seat: int, name: str, text: str, epoch: int | None = None) -> None:
        self._fenced(table_id, epoch, "INSERT INTO chat (table_id, seat, name, text, at) VALUES (%s, %s, %s, %s, %s)",
                     (table_id, seat, name, text, time.time()))

    @_log_errors
    def chat(self, table_id: str, last: int) -> list[dict[str, Any]]:
        """The table's ``last`` chat lines, oldest first."""
        with self._connection() as conn:
            rows = conn.execute("SELECT seat, name, text FROM chat WHERE table_id = %s"
                                " ORDER BY at DESC, line DESC LIMIT %s", (table_id, last)).fetchall()
        return [{"seat": seat, "name": name, "text": text} for seat, name, text in reversed(rows)]

    @_log_errors
    def actions(self, table_id: str) -> list[ActionRow]:
        with self._connection() as conn:
            rows = conn.execute("SELECT version, seat, action, client_seq, at FROM actions WHERE table_id = %s"
                                " ORDER BY version", (table_id,)).fetchall()
        return [ActionRow(*r) for r in rows]

    @_log_errors
    def tables(self, statuses: tuple[str, ...] = ("open", "playing")) -> list[TableRow | BadRow]:
        """The tables of ``statuses``, oldest first; a row that cannot be read is a :class:`BadRow`
        in its place."""
        with self._connection() as conn, conn.transaction():
            rows = conn.execute("SELECT " + TABLE_COLUMNS + " FROM tables WHERE status = ANY(%s) ORDER BY created",
                                (list(statuses),)).fetchall()
            seats = self._seats(conn, [r[0] for r in rows])
        out: list[TableRow | BadRow] = []
        for r in rows:
            try:
                out.append(table_row(r, seats.get(r[0], [])))
            except BadRow as exc:
                out.append(exc)
        return out

    @_log_errors
    def table(self, table_id: str) -> TableRow | None:
        with self._connection() as conn, conn.transaction():
            row = conn.execute("SELECT " + TABLE_COLUMNS + " FROM tables WHERE id = %s", (table_id,)).fetchone()
            if row is None:
                return None
            seats = self._seats(conn, [table_id])
        return table_row(row, seats.get(table_id, []))

    @staticmethod
    def _seats(conn: psycopg.Connection[Any], ids: list[str]) -> dict[str, list[tuple[Any, ...]]]:
        return _by_table(conn.execute(SEATS, (ids,)).fetchall())
