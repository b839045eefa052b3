"""The server's durable store: tables, seats and each game's action log in SQLite.

The seed of a game lives here and nowhere else: it is read back only to replay
a game after a restart. So does a fair game's protocol (``fair``, the JSON of
:meth:`cardtable.records.fairness.FairDeal.to_json`, its secret server seed included).
Seat tokens are stored as SHA-256 digests, so a copy of
the database does not hand out seats.

An undo (a table created with ``undo``, one person against bots) moves the actions it takes
back from ``actions`` to ``undone`` in one transaction: ``actions`` is always the line of play
as it stands, so a restart replays it to the undone position; ``undone`` keeps what was taken
back (for the server's operator; it is in no record and never sent).

Every append is committed before it returns (WAL journal): the server
acknowledges an action only after :meth:`Store.append` has returned, so a
crash of the process (even SIGKILL) never loses an acknowledged action.

The schema is versioned and brought up to date when a store opens (:mod:`cardtable.server.migrations`).
The rows and how they are kept (:func:`token_hash`, :func:`table_row`, :func:`i64`) are shared by the
PostgreSQL log (:mod:`cardtable.server.pglog`); :func:`open_log` opens the one a ``--db`` URL names.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import sqlite3
import sys
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from .migrations import SQLITE_WAIT, upgrade_sqlite
from .ports import LeasedLog, LogBroken, LogError, StaleLease, VersionConflict

P = ParamSpec("P")
R = TypeVar("R")

BUSY_TIMEOUT = 0.05
"""Seconds a write waits for a lock another process holds before it fails."""
RETRY_AFTER = 0.5
"""After a write failed, seconds every further write fails at once (without waiting for the lock):
sixty tables retrying cannot hold the event loop for sixty busy timeouts."""

def token_hash(token: str) -> str:
    """What the store keeps of a token."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def default_db_path() -> Path:
    """``$XDG_DATA_HOME/cardtable/server.sqlite3`` (``~/.local/share`` by default)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "cardtable" / "server.sqlite3"


def db_path_from_url(url: str | None) -> Path:
    """The database file of ``sqlite:///path`` (``sqlite:////abs/path``; percent-escapes decoded)
    or of a bare path. What the server cannot honour is a :class:`ValueError` rather than a
    surprise: URL options such as ``?mode=ro`` (the server writes every action), an in-memory
    database (a restart would lose every game), a host part."""
    if url is None:
        return default_db_path()
    if url in (":memory:", "sqlite://:memory:", "sqlite:///:memory:") or url.startswith("file::memory:"):
        raise ValueError("an in-memory database keeps nothing over a restart; name a file")
    if "://" not in url:
        if "?" in url:
            raise ValueError(f"{url!r}: a path has no options; use sqlite:///path/to/file.sqlite3")
        return Path(url)
    parts = urllib.parse.urlsplit(url)
    if parts.scheme != "sqlite":
        raise ValueError(f"unsupported database URL {url!r}: use sqlite:///path/to/file.sqlite3"
                         " or postgresql://user@host:port/database")
    if parts.netloc:
        raise ValueError(f"{url!r} names a host; SQLite is a local file: sqlite:///path/to/file.sqlite3")
    if parts.query or parts.fragment:
        query = urllib.parse.parse_qs(parts.query)
        if query.get("mode") == ["ro"]:
            raise ValueError("a read-only database (mode=ro) cannot be served: the server writes every action")
        raise ValueError(f"URL options are not supported ({parts.query or parts.fragment}); name the file alone")
    path = urllib.parse.unquote(parts.path[1:])  # sqlite:///rel/path -> rel/path, sqlite:////abs -> /abs
    if not path or path.endswith("/"):
        raise ValueError(f"{url!r} names no file path")
    return Path(path)


POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def open_log(url: str | None, *, synchronous: str = "NORMAL") -> LeasedLog:
    """The action log of ``--db``: a ``postgresql://`` (or ``postgres://``) URL is a
    :class:`~cardtable.server.pglog.PgLog` on that database (libpq's URL, its options included);
    anything else is a SQLite file as :func:`db_path_from_url` reads it (``None``: the default
    file), a :class:`Store` with ``synchronous``. A URL that names nothing usable is a
    :class:`ValueError`; a database that cannot be opened or brought up to date, a
    :class:`~cardtable.server.ports.LogError`."""
    if url is not None and url.startswith(POSTGRES_SCHEMES):
        from .pglog import PgLog

        return PgLog(url)
    return Store(db_path_from_url(url), synchronous=synchronous)


class BadRow(Exception):
    """A stored table row that cannot be read (its id is known, its contents are not usable)."""

    def __init__(self, table_id: str, message: str) -> None:
        super().__init__(message)
        self.table_id = table_id


CLOSED = "closed"
"""The status of a table that will never be played: an event's table closed by a no-show
(:meth:`cardtable.server.events.runner.Runner._close`). No hub loads it (not at a start, not
when asked for it, not on another node of a cluster), so it is in no lobby again."""


@dataclass
class SeatRow:
    seat: int
    kind: str  # "open", "human" or "bot"
    name: str
    token_hash: str | None = None


@dataclass
class TableRow:
    id: str
    game: str
    preset: str
    options: dict[str, Any]
    seed: int | None
    bot_seed: int
    host_hash: str
    status: str  # "open", "playing", "over", or CLOSED (never played)
    created: float
    seats: list[SeatRow] = field(default_factory=list)
    fair: dict[str, Any] | None = None  # the fair-deal protocol with its server seed: never sent
    undo: bool = False  # a person alone against bots may take moves back (docs/web.md)
    rated: bool = False  # the result moves the players' ratings (docs/play-online.md)
    clock: dict[str, Any] | None = None  # a rated table's per-move clock (cardtable.server.moveclock)


@dataclass
class ActionRow:
    version: int
    seat: int
    action: str
    client_seq: int | None
    # when it was stored (epoch seconds): a rated clock's banks are rebuilt from it; not part of what the row is
    at: float | None = field(default=None, compare=False)


@dataclass
class Taken:
    """A table claimed by this process (:meth:`Store.take`) with everything its replay reads."""

    row: TableRow
    epoch: int  # the claim's: every write of this owner carries it
    actions: list[ActionRow] = field(default_factory=list)
    undone: dict[int, int] = field(default_factory=dict)  # each seat's highest client seq taken back
    chat: list[dict[str, Any]] = field(default_factory=list)  # the last lines, oldest first


def _log_errors(method: Callable[P, R]) -> Callable[P, R]:
    """``method`` raising :class:`~cardtable.server.ports.LogError` for every SQLite error: the
    rest of the server knows the port's errors only."""

    @functools.wraps(method)
    def wrapped(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(*args, **kwargs)
        except sqlite3.Error as exc:
            raise LogError(f"{type(exc).__name__}: {exc}") from exc

    return wrapped


class Store:
    """The action log (:class:`~cardtable.server.ports.ActionLog`) and owner leases
    (:class:`~cardtable.server.ports.TimedLease`) on one SQLite
    database. All calls are synchronous and short; the server calls them from its event loop
    (one connection, one thread). A write that cannot be done (the disk is full, another process
    holds the file) raises :class:`~cardtable.server.ports.LogError` within :data:`BUSY_TIMEOUT`
    seconds; nothing is half-written."""

    @_log_errors
    def __init__(self, path: Path | str, *, synchronous: str = "NORMAL", busy: float = BUSY_TIMEOUT) -> None:
        if isinstance(path, Path):
            path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        # opening (the switch to WAL, the migration) waits for another store opening the same file;
        # once open, a file locked by another process fails a write after ``busy`` seconds rather
        # than holding the event loop (every game's pings) for sqlite's default five
        self.db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False, timeout=SQLITE_WAIT)
        self.db.execute("PRAGMA journal_mode=WAL")
        # NORMAL in WAL mode: a commit survives a crash of the process (SIGKILL);
        # FULL also survives a power cut, at the cost of an fsync per action.
        if synchronous not in ("NORMAL", "FULL"):
            raise ValueError("synchronous must be NORMAL or FULL")
        self.db.execute(f"PRAGMA synchronous={synchronous}")
        self.db.execute("PRAGMA foreign_keys=ON")
        upgrade_sqlite(self.db)  # the schema, versioned (cardtable.server.migrations)
        self.db.execute(f"PRAGMA busy_timeout = {int(busy * 1000)}")
        self._failing_until = 0.0
        self._failure = ""
        self._broken = ""
        # the database file as opened: an SQLite file never shrinks (no VACUUM here), so a file that
        # is smaller, another file or none at all was changed under the server (:meth:`_check_file`)
        self._file: tuple[int, int, int] | None = None
        if isinstance(path, Path):
            st = os.stat(path)
            self._file = (st.st_dev, st.st_ino, st.st_size)
        self._stop = threading.Event()
        self._checkpointer: threading.Thread | None = None
        if isinstance(path, Path):
            # Checkpoints (copying the WAL into the database file, with an fsync) run
            # on a thread of their own, so a commit on the event loop never waits for one.
            self.db.execute("PRAGMA wal_autocheckpoint=0")
            self._checkpointer = threading.Thread(target=self._checkpoint_loop, name="sqlite-checkpoint", daemon=True)
            self._checkpointer.start()

    def _checkpoint_loop(self, every: float = 2.0) -> None:
        db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False)
        try:
            while not self._stop.wait(every):
                with contextlib.suppress(sqlite3.Error):
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        finally:
            db.close()

    def close(self) -> None:
        self._stop.set()
        if self._checkpointer is not None:
            self._checkpointer.join()
        with contextlib.suppress(sqlite3.Error):
            self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self.db.close()

    # ------------------------------------------------------------- writes
    @contextlib.contextmanager
    def _writing(self) -> Iterator[None]:
        """One write: refused at once while the store is failing (for :data:`RETRY_AFTER`
        seconds after a failed write), then tried again."""
        if self._broken:
            raise LogBroken(self._broken)
        if time.monotonic() < self._failing_until:
            raise LogError(f"the store is not writable now ({self._failure})")
        try:
            yield
        except (sqlite3.OperationalError, LogError) as exc:
            # locked, full, an I/O error (also in a read made inside the write, which arrives
            # as the LogError it became): not a row's own fault
            cause = exc if isinstance(exc, sqlite3.OperationalError) else exc.__cause__
            if isinstance(cause, sqlite3.OperationalError):
                self._failing_until, self._failure = time.monotonic() + RETRY_AFTER, str(cause)
            raise
        self._check_file()
        self._failing_until = 0.0

    def _check_file(self) -> None:
        """After a write: the database file is still the one opened, at least as long as it was.
        Otherwise the store is broken for good (:class:`~cardtable.server.ports.LogBroken`): the write just made is
        not acknowledged, nor is any later one, and the operator is told once."""
        if self._file is None:
            return
        dev, ino, size = self._file
        try:
            st = os.stat(self.path)
            problem = ("replaced by another file" if (st.st_dev, st.st_ino) != (dev, ino)
                       else f"truncated from {size} to {st.st_size} bytes" if st.st_size < size else "")
        except OSError as exc:
            problem = f"gone ({exc.strerror})"
        if not problem:
            self._file = (dev, ino, st.st_size)
            return
        self._broken = f"the database file {self.path} was {problem} under the server; restart it"
        print(f"cardtable serve: {self._broken}; nothing more is written or acknowledged", file=sys.stderr,
              flush=True)
        raise LogBroken(self._broken)

    # ------------------------------------------------------------- tables
    @_log_errors
    def create_table(self, row: TableRow) -> None:
        with self._writing(), self.db:
            self.db.execute("BEGIN")
            self.db.execute(
                "INSERT INTO tables (id, game, preset, options, seed, bot_seed, host_hash, status, created, fair, undo,"
                " rated, clock) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (row.id, row.game, row.preset, json.dumps(row.options), i64(row.seed), i64(row.bot_seed),
                 row.host_hash, row.status, row.created, fair_text(row.fair), int(row.undo), int(row.rated),
                 fair_text(row.clock)),
            )
            for s in row.seats:
                self.db.execute(
                    "INSERT INTO seats VALUES (?, ?, ?, ?, ?)", (row.id, s.seat, s.kind, s.name, s.token_hash)
                )

    @_log_errors
    def set_seat(self, table_id: str, seat: SeatRow, epoch: int | None = None) -> None:
        self._fenced(table_id, epoch, "UPDATE seats SET kind = ?, name = ?, token_hash = ?"
                     " WHERE table_id = ? AND seat = ?", (seat.kind, seat.name, seat.token_hash, table_id, seat.seat))

    @_log_errors
    def set_fair(self, table_id: str, fair: dict[str, Any] | None, epoch: int | None = None) -> None:
        """The table's fair-deal protocol as it stands (every commitment and reveal; ``None``: a seeded game)."""
        self._fenced(table_id, epoch, "UPDATE tables SET fair = ? WHERE id = ?", (fair_text(fair), table_id))

    @_log_errors
    def start(self, table_id: str, seed: int, epoch: int | None = None) -> None:
        self._fenced(table_id, epoch, "UPDATE tables SET status = 'playing', seed = ? WHERE id = ?",
                     (i64(seed), table_id))

    @_log_errors
    def set_status(self, table_id: str, status: str, epoch: int | None = None) -> None:
        self._fenced(table_id, epoch, "UPDATE tables SET status = ? WHERE id = ?", (status, table_id))

    def _fenced(self, table_id: str, epoch: int | None, sql: str, args: tuple[Any, ...]) -> int:
        """One write of the table's owner (the rows it changed); with ``epoch``, refused
        (:class:`StaleLease`) in the same transaction, and nothing written, if the table was
        claimed since."""
        with self._writing():
            if epoch is None:
                return int(self.db.execute(sql, args).rowcount)
            with self.db:
                self.db.execute("BEGIN IMMEDIATE")
                self._check_epoch(table_id, epoch)
                return int(self.db.execute(sql, args).rowcount)

    @_log_errors
    def append(self, table_id: str, version: int, seat: int, action: str, client_seq: int | None,
               epoch: int | None = None) -> None:
        """Append one accepted action; committed when this returns. Refused
        (:class:`~cardtable.server.ports.VersionConflict`) unless ``version`` is the next one of the
        log; with ``epoch``, refused (:class:`~cardtable.server.ports.StaleLease`) in the same
        transaction if the table was claimed since."""
        added = self._fenced(table_id, epoch, _APPEND,
                             (table_id, version, seat, action, client_seq, time.time(), table_id, version))
        if not added:
            raise VersionConflict(f"table {table_id}: version {version} is not the next one of its log")

    def _check_epoch(self, table_id: str, epoch: int) -> None:
        """Inside a write transaction: the writer's ``epoch`` is the table's newest."""
        found = self.db.execute("SELECT epoch FROM leases WHERE table_id = ?", (table_id,)).fetchone()
        newest = 0 if found is None else int(found[0])
        if epoch < newest:
            raise StaleLease.taken_over(table_id, epoch, newest)

    @_log_errors
    def claim(self, table_id: str) -> int:
        """Take the table over: its new epoch (every earlier owner's writes are refused from now on)."""
        with self._writing(), self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute("INSERT INTO leases (table_id, epoch) VALUES (?, 1) ON CONFLICT(table_id) DO UPDATE"
                            " SET epoch = epoch + 1, owner = NULL, expires = 0", (table_id,))
            epoch: int = self.db.execute("SELECT epoch FROM leases WHERE table_id = ?", (table_id,)).fetchone()[0]
        return epoch

    @_log_errors
    def take(self, table_ids: list[str], chat: int) -> dict[str, Taken | BadRow]:
        """Each table of ``table_ids`` claimed (as :meth:`claim`) and read for its replay (its
        row, actions, undone seqs and last ``chat`` lines), in one transaction. A table that does
        not exist is left out; one whose row cannot be read is a :class:`BadRow` (still claimed)."""
        out: dict[str, Taken | BadRow] = {}
        with self._writing(), self.db:
            self.db.execute("BEGIN IMMEDIATE")
            for table_id in table_ids:
                found = self.db.execute(f"SELECT {TABLE_COLUMNS} FROM tables WHERE id = ?", (table_id,)).fetchone()
                if found is None:
                    continue
                self.db.execute("INSERT INTO leases (table_id, epoch) VALUES (?, 1) ON CONFLICT(table_id) DO UPDATE"
                                " SET epoch = epoch + 1, owner = NULL, expires = 0", (table_id,))
                epoch = int(self.db.execute("SELECT epoch FROM leases WHERE table_id = ?", (table_id,)).fetchone()[0])
                try:
                    row = self._row(found)
                except BadRow as exc:
                    out[table_id] = exc
                    continue
                out[table_id] = Taken(row, epoch, self.actions(table_id), self.undone_seqs(table_id),
                                      self.chat(table_id, chat))
        return out

    @_log_errors
    def epoch(self, table_id: str) -> int:
        found = self.db.execute("SELECT epoch FROM leases WHERE table_id = ?", (table_id,)).fetchone()
        return 0 if found is None else int(found[0])

    # ------------------------------------------------------------- timed leases
    @_log_errors
    def acquire(self, table_id: str, owner: str, ttl: float) -> int | None:
        """``owner``'s lease of the table for ``ttl`` seconds (:class:`~cardtable.server.ports.TimedLease`)."""
        with self._writing(), self.db:
            self.db.execute("BEGIN IMMEDIATE")
            now = time.time()
            found = self.db.execute("SELECT epoch, owner, expires FROM leases WHERE table_id = ?",
                                    (table_id,)).fetchone()
            if found is None:
                epoch = 1
                self.db.execute("INSERT INTO leases (table_id, epoch, owner, expires) VALUES (?, 1, ?, ?)",
                                (table_id, owner, now + ttl))
                return epoch
            epoch, holder, expires = int(found[0]), found[1], float(found[2])
            if holder != owner:
                if expires > now:
                    return None
                epoch += 1
            self.db.execute("UPDATE leases SET epoch = ?, owner = ?, expires = ? WHERE table_id = ?",
                            (epoch, owner, now + ttl, table_id))
        return epoch

    @_log_errors
    def renew(self, owner: str, ttl: float) -> dict[str, int]:
        with self._writing(), self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute("UPDATE leases SET expires = ? WHERE owner = ?", (time.time() + ttl, owner))
            rows = self.db.execute("SELECT table_id, epoch FROM leases WHERE owner = ?", (owner,)).fetchall()
        return {str(t): int(e) for t, e in rows}

    @_log_errors
    def release(self, table_id: str, owner: str) -> None:
        with self._writing():
            self.db.execute("UPDATE leases SET expires = 0 WHERE table_id = ? AND owner = ?", (table_id, owner))

    @_log_errors
    def holder(self, table_id: str) -> str | None:
        found = self.db.execute("SELECT owner FROM leases WHERE table_id = ? AND expires > ?",
                                (table_id, time.time())).fetchone()
        return None if found is None else found[0]

    @_log_errors
    def unowned(self, statuses: tuple[str, ...] = ("playing",)) -> list[str]:
        marks = ", ".join("?" for _ in statuses)
        rows = self.db.execute(
            f"SELECT t.id FROM tables t LEFT JOIN leases l ON l.table_id = t.id WHERE t.status IN ({marks})"
            " AND (l.table_id IS NULL OR l.expires <= ?) ORDER BY t.created", (*statuses, time.time())).fetchall()
        return [str(r[0]) for r in rows]

    @_log_errors
    def undo(self, table_id: str, keep: int, epoch: int | None = None) -> int:
        """Take back every action after version ``keep``: moved to ``undone`` (numbered by the
        table's undos) in one transaction, committed when this returns; how many were moved.
        ``epoch`` as for :meth:`append`."""
        with self._writing(), self.db:
            self.db.execute("BEGIN IMMEDIATE")
            if epoch is not None:
                self._check_epoch(table_id, epoch)
            number = self.db.execute("SELECT COALESCE(MAX(undo), 0) + 1 FROM undone WHERE table_id = ?",
                                     (table_id,)).fetchone()[0]
            self.db.execute(
                "INSERT INTO undone SELECT table_id, ?, version, seat, action, client_seq, at FROM actions"
                " WHERE table_id = ? AND version > ?", (number, table_id, keep))
            moved: int = self.db.execute("DELETE FROM actions WHERE table_id = ? AND version > ?",
                                         (table_id, keep)).rowcount
        return moved

    @_log_errors
    def undone_seqs(self, table_id: str) -> dict[int, int]:
        """Each seat's highest client seq among its actions taken back (a resend of one is not
        played again after a restart)."""
        rows = self.db.execute("SELECT seat, MAX(client_seq) FROM undone WHERE table_id = ? AND client_seq"
                               " IS NOT NULL GROUP BY seat", (table_id,)).fetchall()
        return {int(seat): int(seq) for seat, seq in rows}

    @_log_errors
    def add_chat(self, table_id: str, seat: int, name: str, text: str, epoch: int | None = None) -> None:
        self._fenced(table_id, epoch, "INSERT INTO chat VALUES (?, ?, ?, ?, ?)",
                     (table_id, seat, name, text, time.time()))

    @_log_errors
    def chat(self, table_id: str, last: int) -> list[dict[str, Any]]:
        """The table's ``last`` chat lines, oldest first."""
        rows = self.db.execute(
            "SELECT seat, name, text FROM chat WHERE table_id = ? ORDER BY at DESC, rowid DESC LIMIT ?",
            (table_id, last),
        ).fetchall()
        return [{"seat": seat, "name": name, "text": text} for seat, name, text in reversed(rows)]

    @_log_errors
    def actions(self, table_id: str) -> list[ActionRow]:
        cur = self.db.execute(
            "SELECT version, seat, action, client_seq, at FROM actions WHERE table_id = ? ORDER BY version", (table_id,)
        )
        return [ActionRow(*r) for r in cur.fetchall()]

    @_log_errors
    def tables(self, statuses: tuple[str, ...] = ("open", "playing")) -> list[TableRow | BadRow]:
        """The tables of ``statuses``, oldest first; a row that cannot be read is a :class:`BadRow`
        in its place (one bad row never hides the others)."""
        marks = ", ".join("?" for _ in statuses)
        query = f"SELECT {TABLE_COLUMNS} FROM tables WHERE status IN ({marks}) ORDER BY created"
        rows = self.db.execute(query, statuses).fetchall()
        out: list[TableRow | BadRow] = []
        for r in rows:
            try:
                out.append(self._row(r))
            except BadRow as exc:
                out.append(exc)
        return out

    @_log_errors
    def table(self, table_id: str) -> TableRow | None:
        """One table whatever its status (a finished game is loaded when someone asks for it);
        :class:`BadRow` if its row cannot be read."""
        row = self.db.execute(f"SELECT {TABLE_COLUMNS} FROM tables WHERE id = ?", (table_id,)).fetchone()
        return None if row is None else self._row(row)

    def _row(self, r: tuple[Any, ...]) -> TableRow:
        seats = self.db.execute(
            "SELECT seat, kind, name, token_hash FROM seats WHERE table_id = ? ORDER BY seat", (r[0],)
        ).fetchall()
        return table_row(r, seats)


def table_row(r: Sequence[Any], seats: Iterable[Sequence[Any]]) -> TableRow:
    """The table of a row of :data:`TABLE_COLUMNS` and its seats' rows (seat, kind, name, token
    digest), as every adapter stores them; :class:`BadRow` if it cannot be read."""
    try:
        options = json.loads(r[3])
        if not isinstance(options, dict):
            raise ValueError("options are not an object")
        t = TableRow(str(r[0]), str(r[1]), str(r[2]), options, u64(r[4]), u64(r[5]) or 0, str(r[6]),
                     str(r[7]), float(r[8]), undo=bool(r[10]), rated=bool(r[11]))
        if r[9] is not None:
            fair = json.loads(r[9])
            if not isinstance(fair, dict):
                raise ValueError("the fair-deal protocol is not an object")
            t.fair = fair
        if r[12] is not None:
            clock = json.loads(r[12])
            if not isinstance(clock, dict):
                raise ValueError("the clock is not an object")
            t.clock = clock
        t.seats = [SeatRow(*s) for s in seats]
    except (TypeError, ValueError) as exc:
        raise BadRow(str(r[0]), f"unreadable row: {exc}") from None
    return t


_APPEND = ("INSERT INTO actions (table_id, version, seat, action, client_seq, at) SELECT ?, ?, ?, ?, ?, ?"
           " WHERE (SELECT COALESCE(MAX(version), 0) FROM actions WHERE table_id = ?) = ? - 1")
"""One action, written only if its version is the next one of its table's log."""
TABLE_COLUMNS = "id, game, preset, options, seed, bot_seed, host_hash, status, created, fair, undo, rated, clock"
"""A table's columns in the order :func:`table_row` reads them."""


def fair_text(fair: dict[str, Any] | None) -> str | None:
    return None if fair is None else json.dumps(fair)


def i64(value: int | None) -> int | None:
    """SQLite integers are signed 64-bit; seeds are unsigned 64-bit."""
    if value is None:
        return None
    return value - 2**64 if value >= 2**63 else value


def u64(value: int | None) -> int | None:
    if value is None:
        return None
    return value + 2**64 if value < 0 else value
