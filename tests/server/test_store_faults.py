"""Faults of the store heal by themselves, and a locked store never freezes the loop."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from cardtable.server.cluster import OwnerGone
from cardtable.server.edge import answering
from cardtable.server.ports import LogError, StaleLease, TableLetGo, TableMoving
from cardtable.server.store import Store
from tests.web.test_replay_api import finished

from .conftest import _client
from .helpers import my_turn_or_over, new_table, receive_until
from .test_protocol import hello


class Disk:
    """The store's writes fail while :attr:`full` is set, as on a full disk."""

    def __init__(self, store: Store) -> None:
        self.full = False
        self.failed = 0
        for name in ("append", "set_status", "add_chat", "set_seat"):
            setattr(store, name, self._guard(getattr(store, name)))

    def _guard(self, write: Callable[..., Any]) -> Callable[..., Any]:
        def guarded(*args: Any, **kwargs: Any) -> Any:
            if self.full:
                self.failed += 1
                raise LogError("database or disk is full")
            return write(*args, **kwargs)
        return guarded


@pytest.fixture
def disk_client(db_path: Path) -> Iterator[tuple[TestClient, Disk]]:
    store = Store(db_path)
    disk = Disk(store)
    with _client(store, bot_delay=0.0, rate=1e6, burst=1e6) as c:
        yield c, disk
    store.close()


def _wait(until: Callable[[], bool], timeout: float = 20.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if until():
            return True
        time.sleep(0.05)
    return False


@pytest.mark.parametrize(("game", "bots"), [("trash", {0: "random", 1: "random"}),
                                            ("trex", {0: "random", 1: "random", 2: "random", 3: "random"}),
                                            ("spit", {0: "medium", 1: "medium"})])
def test_s3_a_bot_table_goes_on_by_itself_after_the_disk_was_full(disk_client: tuple[TestClient, Disk],
                                                                  game: str, bots: dict[int, str]):
    client, disk = disk_client
    hub = client.app.state.hub  # type: ignore[attr-defined]
    table_id, host, _ = new_table(client, bots, game=game, sit=(), start=False)
    # bots alone play while somebody watches; the socket closes however the test ends (a failure
    # with it open would hold the app's shutdown)
    with client.websocket_connect(f"/ws/{table_id}") as watcher:
        hello(watcher)
        disk.full = True  # the game starts (its seed is stored), then no move can be saved
        assert client.post(f"/api/tables/{table_id}/start", json={"host": host}).status_code == 200
        table = hub.tables[table_id]
        assert _wait(lambda: disk.failed >= 3)
        stuck = table.version
        time.sleep(0.3)
        assert table.version == stuck  # nothing is played while nothing can be saved
        disk.full = False
        assert _wait(lambda: table.version >= stuck + 5), "the bots did not go on after the disk was freed"
        committed = table.store.actions(table_id)
        assert [a.version for a in committed] == list(range(1, len(committed) + 1))


def test_s3_a_persons_table_goes_on_after_the_disk_was_full(disk_client: tuple[TestClient, Disk]):
    client, disk = disk_client
    table_id, _, tokens = new_table(client, {1: "random"})
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        hello(ws, tokens[0])
        frame, _ = my_turn_or_over(ws, 0)
        disk.full = True
        ws.send_json({"type": "act", "seq": 1, "action": frame["view"]["legal_actions"][0]})
        error, _ = receive_until(ws, "error")
        assert error["code"] == "server" and error["seq"] == 1
        ws.send_json({"type": "chat", "text": "hello?"})
        assert receive_until(ws, "error")[0]["code"] == "server"
        disk.full = False
        for seq in range(2, 12):  # the same person plays on; the bot answers
            frame, _ = my_turn_or_over(ws, 0)
            if frame["view"]["outcome"] is not None:
                break
            ws.send_json({"type": "act", "seq": seq, "action": frame["view"]["legal_actions"][0]})
            assert receive_until(ws, "ack")[0]["version"] is not None


def test_s3_lobby_writes_that_fail_answer_503_and_change_nothing(disk_client: tuple[TestClient, Disk]):
    client, disk = disk_client
    table_id, _, _ = new_table(client, {}, sit=(), start=False)
    disk.full = True
    r = client.post(f"/api/tables/{table_id}/sit", json={"seat": 0, "name": "A"})
    assert r.status_code == 503 and r.json()["error"] == "store"
    disk.full = False
    assert client.get(f"/api/tables/{table_id}").json()["table"]["seats"][0]["kind"] == "open"
    assert client.post(f"/api/tables/{table_id}/sit", json={"seat": 0, "name": "A"}).status_code == 200


def test_s3_a_review_whose_store_cannot_be_read_answers_503_and_then_its_review(
        disk_client: tuple[TestClient, Disk], monkeypatch: pytest.MonkeyPatch):
    client, _ = disk_client
    table_id = finished(client, target_size=9)
    store = client.app.state.hub.tables[table_id].store  # type: ignore[attr-defined]
    actions = store.actions

    def unreadable(*args: Any) -> Any:
        raise LogError("disk I/O error")

    monkeypatch.setattr(store, "actions", unreadable)
    r = client.get(f"/api/tables/{table_id}/review?seat=0")
    assert r.status_code == 503 and r.json()["error"] == "store", r.text
    monkeypatch.setattr(store, "actions", actions)
    r = client.get(f"/api/tables/{table_id}/review?seat=0")
    assert r.status_code == 200 and r.json()["seat"] == 0, r.text


def test_c12_a_store_locked_by_another_process_does_not_freeze_other_games(db_path: Path):
    store = Store(db_path)
    with _client(store, bot_delay=0.0, rate=1e6, burst=1e6) as client:
        a_id, _, a_tokens = new_table(client, {1: "random"})
        b_id, _, b_tokens = new_table(client, {1: "random"})
        other = sqlite3.connect(db_path, isolation_level=None, check_same_thread=False)
        with client.websocket_connect(f"/ws/{a_id}") as a, client.websocket_connect(f"/ws/{b_id}") as b:
            hello(a, a_tokens[0])
            hello(b, b_tokens[0])
            frame, _ = my_turn_or_over(a, 0)
            other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
            other.execute("INSERT INTO meta VALUES ('lock', 'held')")
            pings: list[float] = []
            done = threading.Event()

            def ping_b() -> None:  # the other game's keep-alive, all the while
                while not done.is_set():
                    start = time.monotonic()
                    b.send_json({"type": "ping"})
                    receive_until(b, "pong")
                    pings.append(time.monotonic() - start)

            pinger = threading.Thread(target=ping_b)
            pinger.start()
            start = time.monotonic()
            a.send_json({"type": "act", "seq": 1, "action": frame["view"]["legal_actions"][0]})
            error, _ = receive_until(a, "error")
            took = time.monotonic() - start
            time.sleep(1.0)
            done.set()
            pinger.join()
            other.execute("ROLLBACK")
            # a write that waited for sqlite's default 5 s lock timeout, or a loop held that long,
            # fails these bounds; they leave a loaded machine room (the store waits 0.05 s)
            assert error["code"] == "server" and took < 4.0, took
            assert pings and max(pings) < 3.0, max(pings)
            frame, _ = my_turn_or_over(a, 0)  # free again: the game goes on
            a.send_json({"type": "act", "seq": 2, "action": frame["view"]["legal_actions"][0]})
            assert receive_until(a, "ack")[0]["version"] is not None
        other.close()
    store.close()


def test_s3_a_take_that_fails_in_its_reads_backs_the_store_off_like_a_failed_write(
        db_path: Path, monkeypatch: pytest.MonkeyPatch):
    """S3: a take (claim and read in one write) whose read of the actions meets a locked or failing
    database sets the store's back-off as a failed write does: the next write is refused at once
    for RETRY_AFTER seconds, not tried against the failing file."""
    from cardtable.server.store import SeatRow, TableRow, _log_errors

    monkeypatch.setattr("cardtable.server.store.RETRY_AFTER", 600.0)  # however slow the machine
    store = Store(db_path)
    try:
        store.create_table(TableRow("t1", "trash", "standard", {}, None, 7, "h" * 64, "open", time.time(),
                                    seats=[SeatRow(0, "human", "Ada", "a" * 64), SeatRow(1, "human", "Bo", "b" * 64)]))

        @_log_errors
        def locked(table_id: str) -> list[Any]:
            raise sqlite3.OperationalError("database is locked")

        store.actions = locked  # type: ignore[method-assign]
        with pytest.raises(LogError, match="locked"):
            store.take(["t1"], 10)
        del store.actions
        with pytest.raises(LogError, match="not writable now"):
            store.take(["t1"], 10)
    finally:
        store.close()


@pytest.mark.parametrize("error, code", [
    (LogError("database or disk is full"), "store"),
    (StaleLease("an older epoch"), "moved"),
    (OwnerGone("b"), "moved"),
    (TableLetGo("table t1 was let go by this server process; reconnect"), "moved"),
    (TableMoving("the table has no owner; reconnect"), "moved"),
])
def test_s3_r1_a_refused_request_says_whether_the_store_failed_or_the_table_is_moving(error: LogError, code: str):
    """S3, R1: a request the store could not serve, and one whose table is moving to another
    server process (its owner died, lost its lease or let it go), both answer 503 (send it again), each with
    its own code and words; neither tells the log's own message."""
    async def route(request: Any) -> Any:
        raise error

    response = asyncio.run(answering(route)(None))  # type: ignore[arg-type]
    body = json.loads(bytes(response.body))
    assert response.status_code == 503 and body["error"] == code
    assert body["message"] == error.advice and str(error) not in body["message"]
    assert ("moving" in body["message"]) == (code == "moved")
