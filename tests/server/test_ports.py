"""The action-log and owner-lease contract (``cardtable.server.ports``), run on every adapter
(SQLite, PostgreSQL): claims hand out rising epochs, a write from a stale epoch is refused in the
same transaction and writes nothing, an append must be the log's next version, undo moves actions
aside, chat, fair deals and tables read back as written, and the adapter's own errors never leave
it (``LogError`` only). Then two owners of one table, as two server processes: only the newer one
can write (S3: no acknowledged action of a deposed owner). The PostgreSQL adapter also serves
several threads at once and survives its server's restart."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import queue
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from cardtable.server.hub import Hub
from cardtable.server.ports import ActionLog, LeasedLog, LogError, StaleLease, VersionConflict
from cardtable.server.store import BadRow, SeatRow, Store, TableRow, Taken, open_log, token_hash
from tests.procs import HAS_PROC

from .services import Postgres

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Database:
    """One database of an adapter: :meth:`open` is one more client of it (as another process),
    :meth:`raw` writes to it behind the adapter's back."""

    url: str
    raw: Callable[[str], None]

    def open(self) -> LeasedLog:
        return open_log(self.url)


def sqlite_database(request: pytest.FixtureRequest, tmp_path: Path) -> Database:
    path = tmp_path / "log.sqlite3"

    def raw(sql: str) -> None:
        db = sqlite3.connect(path, isolation_level=None)
        db.execute(sql)
        db.close()

    return Database(f"sqlite:///{path}", raw)


def postgres_database(request: pytest.FixtureRequest, tmp_path: Path) -> Database:
    url: str = request.getfixturevalue("pg_url")

    def raw(sql: str) -> None:
        import psycopg

        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(sql)  # type: ignore[arg-type]

    return Database(url, raw)


ADAPTERS: dict[str, Callable[[pytest.FixtureRequest, Path], Database]] = {
    "sqlite": sqlite_database, "postgres": postgres_database}


@pytest.fixture(params=sorted(ADAPTERS))
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Database:
    return ADAPTERS[request.param](request, tmp_path)


@pytest.fixture
def log(database: Database) -> Iterator[LeasedLog]:
    adapter = database.open()
    yield adapter
    adapter.close()


def a_table(log: ActionLog, table_id: str = "t1", created: float = 0.0) -> str:
    log.create_table(TableRow(table_id, "trash", "standard", {}, None, 7, "h" * 64, "open", created,
                              seats=[SeatRow(0, "open", "", None), SeatRow(1, "open", "", None)]))
    log.start(table_id, 99)
    return table_id


def test_s3_claims_hand_out_rising_epochs_per_table(log: ActionLog):
    assert log.epoch("t1") == 0
    assert [log.claim("t1") for _ in range(3)] == [1, 2, 3]
    assert log.claim("t2") == 1 and log.epoch("t1") == 3 and log.epoch("t2") == 1


def test_s3_a_stale_epoch_writes_nothing(log: ActionLog):
    table = a_table(log)
    old = log.claim(table)
    log.append(table, 1, 0, "stock", 1, epoch=old)
    new = log.claim(table)
    with pytest.raises(StaleLease):
        log.append(table, 2, 1, "stock", None, epoch=old)
    with pytest.raises(StaleLease):
        log.undo(table, 0, epoch=old)
    assert [(r.version, r.action) for r in log.actions(table)] == [(1, "stock")]
    log.append(table, 2, 1, "stock", None, epoch=new)
    assert log.undo(table, 1, epoch=new) == 1
    assert [r.version for r in log.actions(table)] == [1]


def test_s3_a_stale_epoch_changes_no_seat_status_fair_deal_or_chat(log: ActionLog):
    """S3 (docs/deploy.md: a paused or cut-off owner never writes again): every write of a
    table's owner, not only its actions, is refused with the epoch of an owner the table was
    claimed from since, and nothing of it is written; the newer owner's goes through."""
    table = a_table(log)
    old = log.claim(table)
    new = log.claim(table)
    row = log.table(table)
    assert row is not None
    seat = SeatRow(1, "bot", "random")
    writes = [lambda e: log.set_seat(table, seat, epoch=e), lambda e: log.start(table, 7, epoch=e),
              lambda e: log.set_fair(table, {"scheme": "x"}, epoch=e),
              lambda e: log.add_chat(table, 0, "A", "hi", epoch=e), lambda e: log.set_status(table, "over", epoch=e)]
    for write in writes:
        with pytest.raises(StaleLease):
            write(old)
    assert log.table(table) == row and log.chat(table, 10) == []
    for write in writes:
        write(new)
    after = log.table(table)
    assert after is not None and after.status == "over" and after.seats[1].kind == "bot"
    assert log.chat(table, 10) == [{"seat": 0, "name": "A", "text": "hi"}]


def test_s3_two_clients_claim_one_table_and_only_the_newer_can_append(database: Database):
    """Two clients of one database, as two server processes: the first owns the table, the
    second takes it over; from then on only the second's appends and undos are written."""
    first, second = database.open(), database.open()
    try:
        table = a_table(first)
        mine = first.claim(table)
        first.append(table, 1, 0, "stock", 1, epoch=mine)
        theirs = second.claim(table)
        assert theirs > mine and first.epoch(table) == theirs
        with pytest.raises(StaleLease):
            first.append(table, 2, 1, "stock", None, epoch=mine)
        with pytest.raises(StaleLease):
            first.undo(table, 0, epoch=mine)
        second.append(table, 2, 1, "stock", None, epoch=theirs)
        assert [r.version for r in first.actions(table)] == [1, 2]
    finally:
        first.close()
        second.close()


def test_s3_take_claims_tables_and_reads_what_their_replay_needs_in_one_go(database: Database):
    """``take``: every table asked for is claimed (a write of its former owner is refused from
    then on) and read back whole: its row, actions in order, undone seqs and last chat lines,
    each table's own; a missing table is left out, an unreadable row is a BadRow."""
    first, second = database.open(), database.open()
    try:
        for table_id in ("t1", "t2", "t3"):
            a_table(first, table_id)
        old = first.claim("t1")
        for version, (seat, seq) in enumerate([(0, 1), (1, None), (0, 2), (1, None)], start=1):
            first.append("t1", version, seat, f"a{version}", seq, epoch=old)
        first.undo("t1", 2, epoch=old)
        first.append("t2", 1, 1, "b1", None)
        for i in range(4):
            first.add_chat("t1", i % 2, f"P{i % 2}", f"line {i}")
        first.add_chat("t2", 0, "Z", "elsewhere")
        database.raw("UPDATE tables SET options = '[1]' WHERE id = 't3'")
        taken = second.take(["t2", "t1", "t3", "nowhere"], 3)
        assert sorted(taken) == ["t1", "t2", "t3"]
        t1, t2, t3 = taken["t1"], taken["t2"], taken["t3"]
        assert isinstance(t1, Taken) and isinstance(t2, Taken) and isinstance(t3, BadRow)
        assert t1.row.id == "t1" and t1.row.status == "playing" and t1.row.seed == 99
        assert t1.epoch == old + 1 == second.epoch("t1") and t2.epoch == 1
        assert [(r.version, r.seat, r.action, r.client_seq) for r in t1.actions] == [
            (1, 0, "a1", 1), (2, 1, "a2", None)]
        assert t1.undone == {0: 2} and t2.undone == {}
        assert [c["text"] for c in t1.chat] == ["line 1", "line 2", "line 3"]
        assert t2.chat == [{"seat": 0, "name": "Z", "text": "elsewhere"}]
        assert [(r.version, r.action) for r in t2.actions] == [(1, "b1")]
        with pytest.raises(StaleLease):
            first.append("t1", 3, 0, "late", 3, epoch=old)
        second.append("t1", 3, 0, "a3", 3, epoch=t1.epoch)
        assert second.take([], 3) == {}
    finally:
        first.close()
        second.close()


class MessageLog:
    """A TCP proxy in front of PostgreSQL that reads the messages its clients send (the frontend
    protocol: after the untyped start-up, a type byte and a length each) and keeps their types in
    order with the number of the connection that sent each (:attr:`sent`), however the bytes were
    split on the wire."""

    def __init__(self, host: str, port: int) -> None:
        import socket

        self.upstream = (host, port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.sent: list[tuple[int, str]] = []  # (connection, type) of each message the clients sent
        self._lock = threading.Lock()
        self._numbers = itertools.count()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        import socket

        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(self.upstream)
            number = next(self._numbers)
            threading.Thread(target=self._pipe, args=(client, upstream, number), daemon=True).start()
            threading.Thread(target=self._pipe, args=(upstream, client, None), daemon=True).start()

    def _pipe(self, src: Any, dst: Any, number: int | None) -> None:
        """Bytes from ``src`` to ``dst``; read as messages when a client (``number``) sends them."""
        import socket

        pending, untyped = b"", 1  # the start-up message has no type byte (nor has a TLS request before it)
        while True:
            try:
                data = src.recv(65536)
            except OSError:
                data = b""
            if not data:
                with contextlib.suppress(OSError):
                    dst.shutdown(socket.SHUT_WR)
                return
            if number is not None:
                pending += data
                while True:
                    head = 4 if untyped else 5
                    if len(pending) < head:
                        break
                    size = int.from_bytes(pending[head - 4:head], "big") + head - 4
                    if len(pending) < size:
                        break
                    message, pending = pending[:size], pending[size:]
                    if untyped:
                        untyped = 1 if message[4:8] == (80877103).to_bytes(4, "big") else 0  # TLS asked first
                    else:
                        with self._lock:
                            self.sent.append((number, chr(message[0])))
            with contextlib.suppress(OSError):
                dst.sendall(data)

    def close(self) -> None:
        self.listener.close()


def test_r1_a_take_over_sends_its_six_statements_to_postgresql_together(pg_url: str):
    """R1 (failover within about 2 s): a take-over's read of a dead node's tables from PostgreSQL
    sends its six statements one after another without waiting for an answer between them (a
    pipeline): three round trips with the transaction's begin and commit, where a statement at a
    time made eight, each waiting on a busy machine for the server process to get a core. A
    client waits after each message that asks for an answer: a Sync, a simple Query or a Flush."""
    import re
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(pg_url)
    assert parts.hostname is not None and parts.port is not None
    proxy = MessageLog(parts.hostname, parts.port)
    log = open_log(urlunsplit(parts._replace(netloc=f"{parts.username}@127.0.0.1:{proxy.port}")))
    try:
        for table_id in ("t1", "t2", "t3"):
            a_table(log, table_id)
            log.append(table_id, 1, 0, "a1", 1)
        log.epoch("t1")  # the pool's connection is open
        before = len(proxy.sent)
        taken = log.take(["t1", "t2", "t3"], 3)
        assert sorted(taken) == ["t1", "t2", "t3"]
        assert all(isinstance(t, Taken) and len(t.actions) == 1 for t in taken.values())
        with proxy._lock:
            by_connection: dict[int, str] = {}
            for number, kind in proxy.sent[before:]:
                by_connection[number] = by_connection.get(number, "") + kind
        sent = max(by_connection.values(), key=lambda kinds: kinds.count("P"))  # the take's connection
        sent_together = re.split("[SQH]+", sent)  # what the client sent between two waits
        assert max(burst.count("P") for burst in sent_together) == 6, sent  # P: a statement parsed
        assert sum(1 for burst in sent_together if "P" in burst) == 3, sent  # begin, the six, commit
    finally:
        log.close()
        proxy.close()


def test_s3_an_append_must_be_the_next_version_of_the_log(log: ActionLog):
    """A version already in the log or past a gap is refused and writes nothing; the log goes on
    from its last version (after an undo too)."""
    table = a_table(log)
    with pytest.raises(VersionConflict):
        log.append(table, 2, 0, "stock", 1)  # a gap: the log is empty
    log.append(table, 1, 0, "stock", 1)
    with pytest.raises(VersionConflict):
        log.append(table, 1, 0, "draw", 2)  # the same version twice
    with pytest.raises(VersionConflict):
        log.append(table, 3, 0, "draw", 2, epoch=log.claim(table))
    log.append(table, 2, 1, "stock", None)
    assert log.undo(table, 1) == 1
    log.append(table, 2, 1, "discard", 5)
    assert [(r.version, r.action, r.client_seq) for r in log.actions(table)] == [(1, "stock", 1), (2, "discard", 5)]
    assert log.actions("another") == []


def test_undo_moves_the_actions_after_a_version_aside(log: ActionLog):
    table = a_table(log)
    for version, (seat, seq) in enumerate([(0, 1), (1, None), (0, 2), (1, None), (0, 3)], start=1):
        log.append(table, version, seat, f"a{version}", seq)
    assert log.undone_seqs(table) == {}
    assert log.undo(table, 3) == 2
    assert [r.version for r in log.actions(table)] == [1, 2, 3]
    assert log.undone_seqs(table) == {0: 3}  # a seat's highest seq taken back
    log.append(table, 4, 0, "b4", 7)
    assert log.undo(table, 1) == 3  # a second undo, numbered after the first
    assert log.undone_seqs(table) == {0: 7}
    assert log.undo(table, 1) == 0  # nothing after version 1
    assert [(r.version, r.action) for r in log.actions(table)] == [(1, "a1")]


def test_chat_keeps_the_last_lines_in_the_order_said(log: ActionLog):
    table = a_table(log)
    other = a_table(log, "t2")
    for i in range(6):
        log.add_chat(table, i % 2, f"P{i % 2}", f"line {i}")
    log.add_chat(other, 0, "Z", "elsewhere")
    assert log.chat(table, 3) == [{"seat": 1, "name": "P1", "text": "line 3"},
                                  {"seat": 0, "name": "P0", "text": "line 4"},
                                  {"seat": 1, "name": "P1", "text": "line 5"}]
    assert [c["text"] for c in log.chat(table, 100)] == [f"line {i}" for i in range(6)]
    assert log.chat(other, 5) == [{"seat": 0, "name": "Z", "text": "elsewhere"}]


def test_h_fair_a_tables_fair_deal_protocol_reads_back(log: ActionLog):
    table = a_table(log)
    assert log.table(table).fair is None  # type: ignore[union-attr]
    fair = {"commitments": {"0": "ab" * 32}, "server_seed": "s" * 64, "reveals": {}}
    log.set_fair(table, fair)
    assert log.table(table).fair == fair  # type: ignore[union-attr]
    log.set_fair(table, None)
    assert log.table(table).fair is None  # type: ignore[union-attr]


def test_tables_read_back_with_seats_stored_as_token_digests(log: ActionLog, database: Database):
    """Tables and seats read back as written, tokens only as their digests, seeds of the full
    unsigned 64-bit range; ``tables`` lists the statuses asked for, oldest first, an unreadable
    row as a :class:`BadRow` in its place."""
    seed = 2**64 - 3
    row = TableRow("t1", "trex", "standard", {"deals": 2}, None, 2**63 + 1, token_hash("host"), "open", 5.0,
                   seats=[SeatRow(s, "open", "", None) for s in range(4)], undo=True)
    log.create_table(row)
    log.set_seat("t1", SeatRow(2, "human", "Ada", token_hash("ada's token")))
    log.set_seat("t1", SeatRow(3, "bot", "random", None))
    log.start("t1", seed)
    a_table(log, "t0", created=1.0)
    a_table(log, "t9", created=9.0)
    log.set_status("t9", "over")
    back = log.table("t1")
    assert back is not None and back.seed == seed and back.bot_seed == 2**63 + 1 and back.status == "playing"
    assert back.options == {"deals": 2} and back.undo is True and back.host_hash == token_hash("host")
    assert [(s.kind, s.name, s.token_hash) for s in back.seats] == [
        ("open", "", None), ("open", "", None), ("human", "Ada", token_hash("ada's token")), ("bot", "random", None)]
    assert log.table("nowhere") is None
    assert [t.id for t in log.tables()] == ["t0", "t1"]  # type: ignore[union-attr]
    assert [t.id for t in log.tables(("over",))] == ["t9"]  # type: ignore[union-attr]
    database.raw("UPDATE tables SET options = '[1, 2]' WHERE id = 't0'")
    listed = log.tables()
    assert isinstance(listed[0], BadRow) and listed[0].table_id == "t0" and isinstance(listed[1], TableRow)
    with pytest.raises(BadRow):
        log.table("t0")


def test_s3_a_timed_lease_is_one_owners_until_it_is_released_and_then_fenced(database: Database):
    """Two processes: while A's lease runs B cannot take the table; once A releases it B takes it
    with a new epoch, A's writes under its old epoch are refused and A's renewal no longer has it."""
    a, b = database.open(), database.open()
    try:
        table = a_table(a)
        mine = a.acquire(table, "A", 60.0)
        assert mine == 1 and a.holder(table) == "A" == b.holder(table)
        assert b.acquire(table, "B", 60.0) is None
        assert a.acquire(table, "A", 60.0) == mine  # A again: still its lease, the same epoch
        a.append(table, 1, 0, "stock", 1, epoch=mine)
        assert a.renew("A", 60.0) == {table: mine} and b.renew("B", 60.0) == {}
        b.release(table, "B")  # not B's: nothing happens
        assert b.acquire(table, "B", 60.0) is None
        a.release(table, "A")
        assert b.holder(table) is None
        theirs = b.acquire(table, "B", 60.0)
        assert theirs == mine + 1 and a.holder(table) == "B"
        with pytest.raises(StaleLease):
            a.append(table, 2, 1, "stock", None, epoch=mine)
        assert a.renew("A", 60.0) == {}
        b.append(table, 2, 1, "stock", None, epoch=theirs)
        assert [r.version for r in a.actions(table)] == [1, 2]
    finally:
        a.close()
        b.close()


def test_s3_a_lease_not_renewed_runs_out_and_its_table_is_listed_unowned(log: LeasedLog):
    """A lease ends ``ttl`` seconds after it was taken or last renewed: then it has no holder, its
    playing table is listed as unowned (oldest first), and another owner takes it."""
    first, second, waiting = a_table(log, "t1", 1.0), a_table(log, "t2", 2.0), a_table(log, "t3", 3.0)
    log.create_table(TableRow("t4", "trash", "standard", {}, None, 7, "h", "open", 4.0))  # not playing
    assert log.unowned() == [first, second, waiting]
    assert log.acquire(first, "A", 3.0) == 1 and log.acquire(second, "A", 60.0) == 1  # 3 s: a slow commit
    assert log.unowned() == [waiting]
    deadline = time.monotonic() + 60
    while log.holder(first) is not None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert log.holder(first) is None and log.holder(second) == "A"
    assert log.unowned() == [first, waiting]
    assert log.unowned(("open",)) == ["t4"]
    assert log.acquire(first, "B", 60.0) == 2
    assert log.renew("A", 60.0) == {second: 1}


def test_s3_renewing_brings_back_a_lease_nobody_took(log: LeasedLog):
    table = a_table(log)
    assert log.acquire(table, "A", 0.0) == 1
    assert log.renew("A", 60.0) == {table: 1}
    assert log.holder(table) == "A" and log.acquire(table, "B", 60.0) is None


def test_s3_a_claim_ends_every_timed_lease_of_the_table(log: LeasedLog):
    table = a_table(log)
    assert log.acquire(table, "A", 60.0) == 1
    assert log.claim(table) == 2
    assert log.holder(table) is None and log.renew("A", 60.0) == {}
    assert log.acquire(table, "B", 60.0) == 3


PAUSED_OWNER = """
import os, signal, sys
from cardtable.server.ports import StaleLease, LogError
from cardtable.server.store import open_log

log = open_log(sys.argv[1])
epoch = log.acquire("t1", "A", 1.0)
print("epoch", epoch, flush=True)
version = 0
while True:
    if version == 3:
        os.kill(os.getpid(), signal.SIGSTOP)  # paused between two writes, past its lease
    try:
        log.renew("A", 1.0)
        log.append("t1", version + 1, 0, "stock", None, epoch=epoch)
        version += 1
        print("wrote", version, flush=True)
    except StaleLease:
        print("stale", version + 1, sorted(log.renew("A", 1.0).items()), flush=True)
        break
    except LogError:  # the other process holds the file's write lock a moment: again
        pass
log.close()
"""


@pytest.mark.skipif(not HAS_PROC, reason="needs /proc")
def test_s3_an_owner_paused_past_its_lease_writes_nothing_after_another_took_over(database: Database):
    """A process owns the table and writes; it is paused (SIGSTOP) past its lease; another process
    sees the lease run out and takes the table; when the first goes on (SIGCONT) its next write is
    refused (StaleLease) and its renewal no longer has the table: the log holds its three writes,
    then the new owner's."""
    log = database.open()
    owner = None
    try:
        table = a_table(log)
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
        owner = subprocess.Popen([sys.executable, "-c", PAUSED_OWNER, database.url], stdout=subprocess.PIPE,
                                 text=True, env=env)
        lines = Lines(owner)
        assert lines.next() == "epoch 1"
        assert [lines.next() for _ in range(3)] == ["wrote 1", "wrote 2", "wrote 3"]
        deadline = time.monotonic() + 60
        while not stopped(owner.pid) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert stopped(owner.pid)
        while log.holder(table) is not None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert log.holder(table) is None and log.unowned() == [table]
        epoch = log.acquire(table, "B", 60.0)
        assert epoch == 2
        log.append(table, 4, 1, "stock", None, epoch=epoch)
        owner.send_signal(signal.SIGCONT)
        assert lines.next() == "stale 4 []"
        assert owner.wait(timeout=60) == 0
        assert [(r.version, r.seat) for r in log.actions(table)] == [(1, 0), (2, 0), (3, 0), (4, 1)]
        assert log.holder(table) == "B"
    finally:
        if owner is not None and owner.poll() is None:
            owner.kill()
            owner.wait(timeout=60)
        log.close()


def test_s3_a_writer_paused_inside_its_transaction_does_not_hold_the_table_forever(pg_url: str):
    """PostgreSQL: a process paused in the middle of a write (its lease row locked ``FOR SHARE``,
    the transaction open) would keep every claim of the table waiting; the database ends its idle
    transaction after the log's timeout, the claim goes through, and the paused write is lost,
    never committed after the claim."""
    import psycopg

    from cardtable.server.pglog import PgLog

    a, b = PgLog(pg_url, timeout=1.0), PgLog(pg_url, timeout=1.0)
    try:
        table = a_table(a)
        epoch = a.claim(table)
        with pytest.raises(psycopg.errors.IdleInTransactionSessionTimeout), a._connection() as conn, conn.transaction():
            a._check_epoch(conn, table, epoch)  # the lease row locked, then the writer stops here
            deadline = time.monotonic() + 60
            while True:  # another node claims the table: it waits, then gets it
                try:
                    newer = b.claim(table)
                    break
                except LogError:  # the paused transaction still holds the row: not yet
                    assert time.monotonic() < deadline, "the paused transaction held the table"
            conn.execute("INSERT INTO chat (table_id, seat, name, text, at) VALUES (%s, 0, 'a', 'late', 0)",
                         (table,))  # the writer goes on: its session is gone
        assert newer == epoch + 1 and b.chat(table, 10) == []
        with pytest.raises(StaleLease):
            a.append(table, 1, 0, "stock", None, epoch=epoch)
        b.append(table, 1, 1, "stock", None, epoch=newer)
        assert [(r.version, r.seat) for r in b.actions(table)] == [(1, 1)]
    finally:
        a.close()
        b.close()


class Lines:
    """A child's output lines, each waited for (bounded) on a thread of its own."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self.queue: queue.Queue[str] = queue.Queue()
        assert proc.stdout is not None
        stdout = proc.stdout
        threading.Thread(target=lambda: [self.queue.put(line.strip()) for line in stdout], daemon=True).start()

    def next(self, timeout: float = 60.0) -> str:
        return self.queue.get(timeout=timeout)


def stopped(pid: int) -> bool:
    """The process is stopped by a signal (state T in /proc)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "T"
    except OSError:
        return False


def test_s3_the_adapters_own_errors_do_not_leave_it(log: ActionLog):
    table = a_table(log)
    log.append(table, 1, 0, "stock", 1)
    with pytest.raises(LogError):
        log.create_table(TableRow(table, "trash", "standard", {}, None, 7, "h", "open", 0.0))  # its id again
    log.close()
    with pytest.raises(LogError):
        log.actions(table)


@pytest.mark.parametrize("database", ["postgres"], indirect=True)
def test_s3_a_lost_database_server_is_a_log_error_and_the_next_call_after_its_restart_works(
        database: Database, postgres: Postgres):
    log = database.open()
    try:
        table = a_table(log)
        log.append(table, 1, 0, "stock", 1, epoch=log.claim(table))
        postgres.stop()
        with pytest.raises(LogError):
            log.append(table, 2, 1, "stock", None)
        with pytest.raises(LogError):
            log.actions(table)
        postgres.start()
        log.append(table, 2, 1, "stock", None, epoch=log.epoch(table))
        assert [r.version for r in log.actions(table)] == [1, 2]
    finally:
        log.close()


@pytest.mark.parametrize("database", ["postgres"], indirect=True)
def test_the_postgres_log_serves_several_threads_at_once(log: LeasedLog):
    """Eight threads write eight tables at once through one log (its pool); then eight threads
    race for one version of one table, and eight owners for one table's lease: exactly one of
    them gets it."""
    tables = [a_table(log, f"t{i}") for i in range(8)]
    failures: list[BaseException] = []

    def run(work: Callable[[], None]) -> Callable[[], None]:
        def guarded() -> None:
            try:
                work()
            except BaseException as exc:
                failures.append(exc)
        return guarded

    def play(table: str) -> Callable[[], None]:
        def work() -> None:
            epoch = log.claim(table)
            for version in range(1, 31):
                log.append(table, version, version % 2, f"a{version}", None, epoch=epoch)
        return work

    threads = [threading.Thread(target=run(play(t))) for t in tables]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=90)
    assert not failures
    assert all([r.version for r in log.actions(t)] == list(range(1, 31)) for t in tables)

    won: list[int] = []

    def race(seat: int) -> Callable[[], None]:
        def work() -> None:
            try:
                log.append("t0", 31, seat, f"race{seat}", None)
                won.append(seat)
            except VersionConflict:
                pass
        return work

    threads = [threading.Thread(target=run(race(seat))) for seat in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=90)
    assert not failures and len(won) == 1
    assert log.actions("t0")[-1].action == f"race{won[0]}"

    owners: list[str] = []

    def take(owner: str) -> Callable[[], None]:
        def work() -> None:
            if log.acquire("t1", owner, 60.0) is not None:
                owners.append(owner)
        return work

    threads = [threading.Thread(target=run(take(f"P{i}"))) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=90)
    assert not failures and len(owners) == 1 and log.holder("t1") == owners[0]


def test_s3_of_two_owners_of_one_table_only_the_newer_one_can_write(database: Database):
    """Two hubs over one database, as two server processes: the second takes the table over;
    the first's next action is refused (not acknowledged) and the second goes on from the log."""
    store = database.open()
    first = Hub(store)
    table, _ = first.create("trash", None, {})
    table.sit(0, "Ada")
    table.sit(1, "Ben")
    table.start(seed=5)
    rng = random.Random(1)

    def move(t: object, seq: int) -> dict[str, object]:
        state = t.match.state  # type: ignore[attr-defined]
        seat = state.current_player()
        return t.act(seat, seq, str(rng.choice(state.legal_actions())))  # type: ignore[attr-defined, no-any-return]

    assert move(table, 1)["type"] == "ack"
    other = database.open()
    second = Hub(other).get(table.id)  # loads (replays) and claims it
    assert second.epoch > table.epoch and second.version == table.version
    refused = move(table, 2)
    assert refused["type"] == "error" and refused["code"] == "server", refused
    assert move(second, 2)["type"] == "ack"
    assert len(store.actions(table.id)) == 2
    store.close()
    other.close()


def test_open_log_gives_a_sqlite_store_for_paths_and_sqlite_urls(tmp_path: Path):
    for where in (str(tmp_path / "a.sqlite3"), f"sqlite:///{tmp_path}/b.sqlite3"):
        log = open_log(where)
        assert isinstance(log, Store)
        log.close()
    assert (tmp_path / "a.sqlite3").exists() and (tmp_path / "b.sqlite3").exists()
    with pytest.raises(ValueError, match=r"sqlite:///.*or postgresql://"):
        open_log("mysql://db/cardtable")


@pytest.mark.parametrize("database", ["postgres"], indirect=True)
def test_open_log_gives_the_postgres_log_for_postgresql_urls(database: Database):
    from cardtable.server.pglog import PgLog

    for url in (database.url, database.url.replace("postgresql://", "postgres://", 1)):
        log = open_log(url)
        assert isinstance(log, PgLog)
        log.close()


def test_open_log_of_an_unreachable_postgres_is_a_log_error():
    pytest.importorskip("psycopg")
    from .services import free_port

    with pytest.raises(LogError):
        open_log(f"postgresql://nobody@127.0.0.1:{free_port()}/cardtable")


class HeldWrites:
    """A log whose writes each wait for the test's word, counting how many are inside at once;
    :attr:`full` is set once ``expected`` of them are."""

    def __init__(self, concurrent: bool, expected: int) -> None:
        self.concurrent = concurrent
        self.expected = expected
        self.inside = self.most = 0
        self.go = threading.Event()
        self.full = threading.Event()
        self._lock = threading.Lock()

    def write(self) -> None:
        with self._lock:
            self.inside += 1
            self.most = max(self.most, self.inside)
            if self.inside == self.expected:
                self.full.set()
        try:
            assert self.go.wait(60)
        finally:
            with self._lock:
                self.inside -= 1


def test_r1_a_log_that_takes_calls_side_by_side_is_written_by_several_threads_any_other_one_at_a_time():
    """R1: the PostgreSQL log takes calls from several threads at once, so a server writes it from
    WRITERS threads: a take-over's read does not wait behind every other table's writes. A log
    that does not say so (SQLite's one connection) is still called one call at a time."""
    from cardtable.server.actor import WRITERS, LogRunner
    from cardtable.server.pglog import PgLog

    assert PgLog.concurrent and WRITERS >= 2

    async def main(concurrent: bool) -> int:
        log = HeldWrites(concurrent, WRITERS if concurrent else 1)
        runner = LogRunner(log, inline=False)  # type: ignore[arg-type]
        try:
            writes = [asyncio.ensure_future(runner.write(log.write)) for _ in range(WRITERS)]
            # until as many writes are inside as may be at once (a generous bound)
            assert await asyncio.to_thread(log.full.wait, 60)
            log.go.set()
            await asyncio.gather(*writes)
            return log.most
        finally:
            log.go.set()
            runner.close()

    assert asyncio.run(main(True)) == WRITERS
    assert asyncio.run(main(False)) == 1
