"""What the players layer keeps: accounts, sessions, account→seat links, results and ratings.

:class:`AccountStore` is the SQLite adapter (the standard library's ``sqlite3``, WAL journal) of
the port :class:`~cardtable.server.players.ports.PlayerData`; it and ``pgstore.py`` are the only
modules of the players layer that know SQL. Its tables are named ``player_*``, so it may
share the database file of the action log (:class:`cardtable.server.store.Store`) or have a file
of its own. Every method is one short statement or one transaction, committed when it returns;
every database error leaves as :class:`AccountStoreError` (nothing half-written). The statements
are written once, in :class:`SqlPlayerData`, for this adapter and PostgreSQL's
(:mod:`cardtable.server.players.pgstore`, which the nodes of a cluster share).

Nothing secret is kept as given: a password is an argon2id hash (``accounts.py``), a session id a
SHA-256 digest, an address a keyed digest (:meth:`AccountStore.secret`).
"""

from __future__ import annotations

import contextlib
import functools
import json
import secrets
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from .idle import idle_sigma

P = ParamSpec("P")
R = TypeVar("R")

BUSY_TIMEOUT = 0.25
"""Seconds a write waits for the database lock another connection holds (the action log's, when
the file is shared) before it fails."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS player_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS player_accounts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL,
    username TEXT NOT NULL,
    folded TEXT NOT NULL,
    password TEXT,
    operator INTEGER NOT NULL DEFAULT 0,
    created REAL NOT NULL,
    UNIQUE (kind, folded)
);
CREATE TABLE IF NOT EXISTS player_sessions (
    digest TEXT PRIMARY KEY,
    account_id INTEGER NOT NULL,
    created REAL NOT NULL,
    expires REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS player_sessions_by_account ON player_sessions(account_id);
CREATE TABLE IF NOT EXISTS player_seats (
    table_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    account_id INTEGER,
    label TEXT,
    address TEXT,
    linked REAL NOT NULL,
    token TEXT,
    PRIMARY KEY (table_id, seat)
);
CREATE INDEX IF NOT EXISTS player_seats_by_account ON player_seats(account_id);
CREATE TABLE IF NOT EXISTS player_results (
    table_id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    rated INTEGER NOT NULL,
    finished REAL NOT NULL,
    ranks TEXT NOT NULL,
    abandoned TEXT NOT NULL,
    reason TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS player_ratings (
    account_id INTEGER NOT NULL,
    game TEXT NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    games INTEGER NOT NULL,
    last REAL NOT NULL DEFAULT 0,
    PRIMARY KEY (account_id, game)
);
CREATE TABLE IF NOT EXISTS player_history (
    account_id INTEGER NOT NULL,
    game TEXT NOT NULL,
    table_id TEXT NOT NULL,
    at REAL NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    games INTEGER NOT NULL,
    PRIMARY KEY (account_id, game, table_id)
);
"""


class AccountStoreError(Exception):
    """The players' data could not be read or written now (locked, full, unreachable): nothing
    was written, and trying again later may work."""


class NameTaken(AccountStoreError):
    """An account of that kind already has that name (compared case-folded)."""


@dataclass(frozen=True)
class AccountRow:
    id: int
    kind: str  # "person" or "bot"
    username: str
    password: str | None  # the argon2id hash (PHC string); None for a bot
    operator: bool
    created: float


@dataclass(frozen=True)
class SeatLink:
    """A seat of a table and who played it: an account, or (``account_id`` None) the anonymous
    ``label`` of a deleted account; ``token``: the digest of the seat token it was linked with
    (``None``: linked without one, when the result was recorded)."""

    table_id: str
    seat: int
    account_id: int | None
    label: str | None
    address: str | None
    token: str | None = None


@dataclass(frozen=True)
class ResultRow:
    table_id: str
    game: str
    rated: bool
    finished: float
    ranks: tuple[int, ...]  # per seat, 1 best
    abandoned: tuple[int, ...]
    reason: str


@dataclass(frozen=True)
class RatingRow:
    """A rating as its last rated game left it; ``last``: when that game finished (seconds since
    the epoch; the sigma shown grows from there, :mod:`.idle`)."""

    account_id: int
    game: str
    mu: float
    sigma: float
    games: int
    last: float = 0.0


@dataclass(frozen=True)
class HistoryRow:
    table_id: str
    at: float
    mu: float
    sigma: float
    games: int


def _errors(method: Callable[P, R]) -> Callable[P, R]:
    """``method`` raising :class:`AccountStoreError` for every error of the store's database
    (its adapter's :attr:`SqlPlayerData.driver_errors`)."""

    @functools.wraps(method)
    def wrapped(*args: P.args, **kwargs: P.kwargs) -> R:
        store = args[0]
        assert isinstance(store, SqlPlayerData)
        try:
            return method(*args, **kwargs)
        except AccountStoreError:
            raise
        except store.driver_errors as exc:
            if store.is_unique_violation(exc):
                raise NameTaken(str(exc)) from exc
            raise AccountStoreError(f"{type(exc).__name__}: {exc}") from exc

    return wrapped


Run = Callable[[str, Sequence[Any]], Any]
"""Runs one SQL statement (``?`` placeholders) with its parameters: a cursor with ``fetchone``,
``fetchall`` and ``rowcount``."""


class SqlPlayerData:
    """The players' tables over SQL, written once for both adapters: :class:`AccountStore`
    (SQLite) and :class:`~cardtable.server.players.pgstore.PgAccountStore` (PostgreSQL). An
    adapter gives :meth:`_reading` and :meth:`_writing` (a statement runner outside or inside
    one transaction), :meth:`_insert_account` and its drivers' errors; every statement here is
    the SQL both databases read alike."""

    driver_errors: tuple[type[BaseException], ...] = ()

    def close(self) -> None:
        raise NotImplementedError

    def is_unique_violation(self, exc: BaseException) -> bool:
        """Whether ``exc`` is a UNIQUE constraint refusing a row."""
        raise NotImplementedError

    def _reading(self) -> contextlib.AbstractContextManager[Run]:
        raise NotImplementedError

    def _writing(self) -> contextlib.AbstractContextManager[Run]:
        raise NotImplementedError

    def _insert_account(self, run: Run, values: tuple[Any, ...]) -> int:
        """Insert ``(kind, username, folded, password, created)``; the new account's id."""
        raise NotImplementedError

    def _one(self, sql: str, params: Sequence[Any] = ()) -> Any:
        with self._reading() as run:
            return run(sql, params).fetchone()

    def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        with self._reading() as run:
            return list(run(sql, params).fetchall())

    def _write(self, sql: str, params: Sequence[Any] = ()) -> int:
        """One statement in a transaction of its own; how many rows it changed."""
        with self._writing() as run:
            return int(run(sql, params).rowcount)

    @_errors
    def secret(self) -> bytes:
        """A random key made when the database was first opened: session CSRF tokens and address
        digests are keyed with it."""
        row = self._one("SELECT value FROM player_meta WHERE key = 'secret'")
        return bytes.fromhex(row[0])

    def _make_secret(self) -> None:
        self._write("INSERT INTO player_meta VALUES ('secret', ?) ON CONFLICT DO NOTHING", (secrets.token_hex(32),))

    # ------------------------------------------------------------- accounts
    @_errors
    def add_account(self, kind: str, username: str, folded: str, password: str | None) -> AccountRow:
        """A new account; :class:`NameTaken` if one of ``kind`` has ``folded`` already."""
        now = time.time()
        try:
            with self._writing() as run:
                account_id = self._insert_account(run, (kind, username, folded, password, now))
        except self.driver_errors as exc:
            if self.is_unique_violation(exc):
                raise NameTaken(f"the name {username!r} is taken") from None
            raise
        return AccountRow(account_id, kind, username, password, False, now)

    @_errors
    def account_named(self, kind: str, folded: str) -> AccountRow | None:
        row = self._one(f"SELECT {_ACCOUNT} FROM player_accounts WHERE kind = ? AND folded = ?", (kind, folded))
        return None if row is None else _account(row)

    @_errors
    def account(self, account_id: int) -> AccountRow | None:
        row = self._one(f"SELECT {_ACCOUNT} FROM player_accounts WHERE id = ?", (account_id,))
        return None if row is None else _account(row)

    @_errors
    def set_password(self, account_id: int, password: str) -> None:
        self._write("UPDATE player_accounts SET password = ? WHERE id = ?", (password, account_id))

    @_errors
    def set_operator(self, account_id: int, operator: bool) -> None:
        self._write("UPDATE player_accounts SET operator = ? WHERE id = ?", (int(operator), account_id))

    @_errors
    def delete_account(self, account_id: int, label: str) -> list[SeatLink]:
        """The account, its sessions and its ratings gone in one transaction; each seat it played
        stays, linked to ``label`` instead. The seats relabelled."""
        with self._writing() as run:
            rows = run(f"SELECT {_LINK} FROM player_seats WHERE account_id = ?", (account_id,)).fetchall()
            run("UPDATE player_seats SET account_id = NULL, label = ? WHERE account_id = ?", (label, account_id))
            for table in ("player_sessions", "player_ratings", "player_history"):
                run(f"DELETE FROM {table} WHERE account_id = ?", (account_id,))
            run("DELETE FROM player_accounts WHERE id = ?", (account_id,))
        return [SeatLink(r[0], r[1], None, label, r[4], r[5]) for r in rows]

    # ------------------------------------------------------------- sessions
    @_errors
    def add_session(self, digest: str, account_id: int, created: float, expires: float) -> None:
        self._write("INSERT INTO player_sessions VALUES (?, ?, ?, ?)", (digest, account_id, created, expires))

    @_errors
    def session(self, digest: str) -> tuple[int, float] | None:
        """(account id, expiry time) of a session, or ``None``."""
        row = self._one("SELECT account_id, expires FROM player_sessions WHERE digest = ?", (digest,))
        return None if row is None else (int(row[0]), float(row[1]))

    @_errors
    def drop_session(self, digest: str) -> None:
        self._write("DELETE FROM player_sessions WHERE digest = ?", (digest,))

    @_errors
    def drop_expired(self, now: float) -> int:
        return self._write("DELETE FROM player_sessions WHERE expires <= ?", (now,))

    # ------------------------------------------------------------- seats
    @_errors
    def link_seat(self, table_id: str, seat: int, account_id: int, address: str | None, token: str | None) -> bool:
        """``account_id`` played ``seat`` of ``table_id`` (from ``address``, a digest), holding the
        seat token whose digest is ``token``. A seat linked with another token (a new person sat
        after the first left it before the start) is linked anew; otherwise the first link stays.
        Whether this call made or changed the link."""
        return self._write(
            "INSERT INTO player_seats VALUES (?, ?, ?, NULL, ?, ?, ?) ON CONFLICT(table_id, seat) DO UPDATE"
            " SET account_id = excluded.account_id, label = NULL, address = excluded.address,"
            " linked = excluded.linked, token = excluded.token"
            " WHERE excluded.token IS NOT NULL"
            " AND (player_seats.token IS NULL OR player_seats.token <> excluded.token)",
            (table_id, seat, account_id, address, time.time(), token)) == 1

    @_errors
    def drop_link(self, table_id: str, seat: int) -> None:
        self._write("DELETE FROM player_seats WHERE table_id = ? AND seat = ?", (table_id, seat))

    @_errors
    def seat_links(self, table_id: str) -> dict[int, SeatLink]:
        rows = self._all(f"SELECT {_LINK} FROM player_seats WHERE table_id = ?", (table_id,))
        return {int(r[1]): SeatLink(*r) for r in rows}

    # ------------------------------------------------------------- results and ratings
    lock_accounts = ""
    """What a read of the accounts a result rates adds to hold them until the transaction ends
    (PostgreSQL: ``FOR UPDATE``; a SQLite write transaction holds the whole file already)."""

    @_errors
    def save_result(self, result: ResultRow, accounts: Sequence[int],
                    rate: Callable[[dict[int, RatingRow | None]], Sequence[RatingRow]]) -> bool:
        """A finished table's result and the ratings it changed, in one transaction: ``accounts``
        (sorted) are locked, their ratings in the result's game read, and ``rate`` (given them,
        ``None`` for an account not rated yet) says the new rows. ``False`` (and nothing written)
        if the table's result is already stored."""
        with self._writing() as run:
            added = run("INSERT INTO player_results VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                        (result.table_id, result.game, int(result.rated), result.finished,
                         json.dumps(result.ranks), json.dumps(result.abandoned), result.reason)).rowcount
            if added != 1:
                return False
            before: dict[int, RatingRow | None] = {}
            for account in accounts:  # in order: two transactions lock them in the same order
                run(f"SELECT id FROM player_accounts WHERE id = ?{self.lock_accounts}", (account,))
                row = run(f"SELECT {_RATING} FROM player_ratings WHERE account_id = ? AND game = ?",
                          (account, result.game)).fetchone()
                before[account] = None if row is None else _rating(row)
            ratings = rate(before) if accounts else []
            for r in ratings:
                run("INSERT INTO player_ratings VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(account_id, game)"
                    " DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, games = excluded.games,"
                    " last = CASE WHEN excluded.last > player_ratings.last THEN excluded.last"
                    " ELSE player_ratings.last END",
                    (r.account_id, r.game, r.mu, r.sigma, r.games, result.finished))
                run("INSERT INTO player_history VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (r.account_id, r.game, result.table_id, result.finished, r.mu, r.sigma, r.games))
        return True

    @_errors
    def result(self, table_id: str) -> ResultRow | None:
        row = self._one(f"SELECT {_RESULT} FROM player_results WHERE table_id = ?", (table_id,))
        return None if row is None else _result(row)

    @_errors
    def results_of(self, account_id: int, limit: int, offset: int) -> list[tuple[ResultRow, int]]:
        """The finished games ``account_id`` played, newest first: (result, its seat)."""
        rows = self._all(
            f"SELECT {_RESULT_R}, s.seat FROM player_results r JOIN player_seats s ON s.table_id = r.table_id"
            " WHERE s.account_id = ? ORDER BY r.finished DESC, r.table_id LIMIT ? OFFSET ?",
            (account_id, limit, offset))
        return [(_result(r[:-1]), int(r[-1])) for r in rows]

    @_errors
    def played(self, account_id: int) -> dict[str, tuple[int, int]]:
        """Per game: (finished games, games ranked first)."""
        out: dict[str, tuple[int, int]] = {}
        rows = self._all(
            "SELECT r.game, r.ranks, s.seat FROM player_results r JOIN player_seats s ON s.table_id = r.table_id"
            " WHERE s.account_id = ?", (account_id,))
        for game, ranks, seat in rows:
            played, won = out.get(game, (0, 0))
            out[game] = (played + 1, won + (json.loads(ranks)[seat] == 1))
        return out

    @_errors
    def rating(self, account_id: int, game: str) -> RatingRow | None:
        row = self._one(f"SELECT {_RATING} FROM player_ratings WHERE account_id = ? AND game = ?",
                        (account_id, game))
        return None if row is None else _rating(row)

    @_errors
    def ratings_of(self, account_id: int) -> list[RatingRow]:
        rows = self._all(f"SELECT {_RATING} FROM player_ratings WHERE account_id = ? ORDER BY game", (account_id,))
        return [_rating(r) for r in rows]

    @_errors
    def history(self, account_id: int, game: str) -> list[HistoryRow]:
        rows = self._all("SELECT table_id, at, mu, sigma, games FROM player_history"
                         " WHERE account_id = ? AND game = ? ORDER BY games", (account_id, game))
        return [HistoryRow(str(r[0]), float(r[1]), float(r[2]), float(r[3]), int(r[4])) for r in rows]

    @_errors
    def leaderboard(self, game: str, limit: int, offset: int, now: float) -> list[tuple[AccountRow, RatingRow]]:
        """Every rated account of ``game`` (people and bots), by conservative rating at ``now``
        (mu − 3σ, σ grown by the idle time: :func:`.idle.idle_sigma`, a function of the database
        that each adapter defines)."""
        rows = self._all(
            f"SELECT {_ACCOUNT_A}, r.account_id, r.game, r.mu, r.sigma, r.games, r.last FROM player_ratings r"
            " JOIN player_accounts a ON a.id = r.account_id WHERE r.game = ?"
            " ORDER BY r.mu - 3 * idle_sigma(r.sigma, r.last, ?) DESC, a.id LIMIT ? OFFSET ?",
            (game, now, limit, offset))
        return [(_account(r[:6]), _rating(r[6:])) for r in rows]

    @_errors
    def meetings(self, account_id: int, since: float) -> list[tuple[int, int]]:
        """The other accounts that sat at a rated table with ``account_id`` from the same address
        (equal digests) in a game finished at ``since`` or later: (account id, such games)."""
        rows = self._all(
            "SELECT b.account_id, COUNT(DISTINCT a.table_id) FROM player_seats a"
            " JOIN player_seats b ON b.table_id = a.table_id AND b.seat <> a.seat AND b.address = a.address"
            " JOIN player_results r ON r.table_id = a.table_id"
            " WHERE a.account_id = ? AND b.account_id IS NOT NULL AND b.account_id <> a.account_id"
            " AND r.rated = 1 AND r.finished >= ? GROUP BY b.account_id ORDER BY b.account_id",
            (account_id, since))
        return [(int(a), int(n)) for a, n in rows]


class AccountStore(SqlPlayerData):
    """The players' tables in one SQLite database (``path``; the action log's file will do)."""

    driver_errors = (sqlite3.Error,)

    @_errors
    def __init__(self, path: Path | str, *, busy: float = BUSY_TIMEOUT) -> None:
        if isinstance(path, Path):
            path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False, timeout=busy)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(_SCHEMA)
        columns = {r[1] for r in self.db.execute("PRAGMA table_info(player_ratings)")}
        if "last" not in columns:  # a database from before idle sigmas: the last game from the history
            with self._writing() as run:
                run("ALTER TABLE player_ratings ADD COLUMN last REAL NOT NULL DEFAULT 0", ())
                run("UPDATE player_ratings SET last = COALESCE((SELECT MAX(h.at) FROM player_history h"
                    " WHERE h.account_id = player_ratings.account_id AND h.game = player_ratings.game), 0)", ())
        self.db.create_function("idle_sigma", 3, idle_sigma, deterministic=True)
        self._make_secret()

    def close(self) -> None:
        self.db.close()

    def is_unique_violation(self, exc: BaseException) -> bool:
        return isinstance(exc, sqlite3.IntegrityError)

    @contextlib.contextmanager
    def _reading(self) -> Iterator[Run]:
        yield self.db.execute

    @contextlib.contextmanager
    def _writing(self) -> Iterator[Run]:
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            yield self.db.execute

    def _insert_account(self, run: Run, values: tuple[Any, ...]) -> int:
        cur = run("INSERT INTO player_accounts (kind, username, folded, password, created) VALUES (?, ?, ?, ?, ?)",
                  values)
        assert cur.lastrowid is not None
        return int(cur.lastrowid)


_ACCOUNT = "id, kind, username, password, operator, created"
_ACCOUNT_A = "a.id, a.kind, a.username, a.password, a.operator, a.created"
_LINK = "table_id, seat, account_id, label, address, token"
_RESULT = "table_id, game, rated, finished, ranks, abandoned, reason"
_RESULT_R = "r.table_id, r.game, r.rated, r.finished, r.ranks, r.abandoned, r.reason"
_RATING = "account_id, game, mu, sigma, games, last"


def _account(r: Sequence[Any]) -> AccountRow:
    return AccountRow(int(r[0]), str(r[1]), str(r[2]), None if r[3] is None else str(r[3]), bool(r[4]), float(r[5]))


def _rating(r: Sequence[Any]) -> RatingRow:
    return RatingRow(int(r[0]), str(r[1]), float(r[2]), float(r[3]), int(r[4]), float(r[5]))


def _result(r: Sequence[Any]) -> ResultRow:
    return ResultRow(str(r[0]), str(r[1]), bool(r[2]), float(r[3]), tuple(json.loads(str(r[4]))),
                     tuple(json.loads(str(r[5]))), str(r[6]))
