"""More abuse: per-address socket cap (P11), a slow consumer (LD5), flapping (R7),
and Hypothesis-generated messages (P4)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.websockets import WebSocketDisconnect

from cardtable.server import connection
from cardtable.server.connection import MAX_MERGED_EVENTS, MAX_QUEUE, Connection
from cardtable.server.protocol import CLOSE_SLOW, MAX_FRAME, ProtocolError, parse_message
from cardtable.server.store import Store

from .conftest import _client
from .helpers import new_table, receive_until

if TYPE_CHECKING:
    from starlette.testclient import TestClient


def test_p11_open_sockets_per_address_are_capped(client: TestClient):
    table_id, _, _ = new_table(client)
    with contextlib.ExitStack() as stack:
        socks = [stack.enter_context(client.websocket_connect(f"/ws/{table_id}")) for _ in range(20)]
        for ws in socks[:1]:
            ws.send_json({"type": "hello"})
            receive_until(ws, "state")
        with pytest.raises(WebSocketDisconnect), client.websocket_connect(f"/ws/{table_id}") as extra:
            extra.receive_json()
        # the sockets already open are unaffected
        socks[0].send_json({"type": "ping"})
        receive_until(socks[0], "pong")
    # all closed: a new one is welcome again
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        ws.send_json({"type": "hello"})
        assert ws.receive_json()["type"] == "welcome"
    assert client.app.state.sockets_per_ip == {}  # type: ignore[attr-defined]


def test_ld5_a_client_that_does_not_read_is_closed():
    async def main() -> tuple[int, str] | None:
        closed: list[tuple[int, str]] = []
        never = asyncio.Event()

        async def send(text: str) -> None:
            await never.wait()  # the client's socket buffer is full

        async def close(code: int, reason: str) -> None:
            closed.append((code, reason))

        conn = Connection(send, close)
        conn.start()
        for i in range(MAX_QUEUE + 10):
            conn.push({"type": "pong", "i": i})
        assert conn.closed and len(conn.queue) <= MAX_QUEUE + 1
        assert conn.task is not None
        conn.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await conn.task
        return (CLOSE_SLOW, "slow consumer") if conn.closed else None

    assert asyncio.run(main()) == (CLOSE_SLOW, "slow consumer")


def test_ld5_ld6_a_reader_that_lags_gets_the_newest_state_not_a_backlog():
    """State and table frames are whole snapshots: an unsent one is replaced by the newer one,
    so a slow spectator is never closed for lagging and never reads stale states; the replaced
    states' events ride on, so its log misses nothing."""

    async def main() -> list[dict]:  # type: ignore[type-arg]
        sent: list[dict] = []  # type: ignore[type-arg]
        gate = asyncio.Event()

        async def send(text: str) -> None:
            await gate.wait()
            sent.append(json.loads(text))

        async def close(code: int, reason: str) -> None:
            pass

        conn = Connection(send, close)
        conn.start()
        await asyncio.sleep(0)
        conn.push({"type": "welcome"})
        shared = {"type": "state", "version": 1, "view": {"events": [{"version": 1}]}}
        conn.push(shared, latest="state")
        for version in range(2, 3 * MAX_QUEUE):
            conn.push({"type": "state", "version": version, "view": {"events": [{"version": version}]}},
                      latest="state")
            if version % 100 == 0:
                conn.push({"type": "table", "n": version}, latest="table")
        conn.push({"type": "ack", "seq": 1})
        assert not conn.closed and len(conn.queue) == 4
        assert shared["view"]["events"] == [{"version": 1}]  # a frame shared with others is not changed
        gate.set()
        while conn.queue:
            await asyncio.sleep(0.01)
        assert conn.task is not None
        conn.task.cancel()
        return sent

    sent = asyncio.run(main())
    # in order: the welcome, the newest table frame, the newest state, the ack
    assert [f["type"] for f in sent] == ["welcome", "table", "state", "ack"]
    assert sent[1]["n"] == 700 and sent[2]["version"] == 3 * MAX_QUEUE - 1
    versions = [e["version"] for e in sent[2]["view"]["events"]]
    assert versions == list(range(3 * MAX_QUEUE - MAX_MERGED_EVENTS, 3 * MAX_QUEUE))  # the newest 500


def test_ld5_a_socket_that_takes_no_frame_for_the_send_timeout_is_closed(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(connection, "SEND_TIMEOUT", 0.05)

    async def main() -> list[tuple[int, str]]:
        closed: list[tuple[int, str]] = []

        async def send(text: str) -> None:
            await asyncio.Event().wait()  # never returns

        async def close(code: int, reason: str) -> None:
            closed.append((code, reason))

        conn = Connection(send, close)
        conn.start()
        conn.push({"type": "state", "version": 1}, latest="state")
        assert conn.task is not None
        await asyncio.wait_for(conn.task, 5)
        assert conn.closed
        return closed

    assert asyncio.run(main()) == [(CLOSE_SLOW, "slow consumer")]


def test_r7_flapping_keeps_the_seat_and_leaks_no_connection(client: TestClient):
    table_id, _, tokens = new_table(client)
    table = client.app.state.hub.tables[table_id]  # type: ignore[attr-defined]
    for _ in range(20):
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            ws.send_json({"type": "hello", "token": tokens[0], "since": 0})
            assert ws.receive_json()["seat"] == 0
            receive_until(ws, "state")
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        ws.send_json({"type": "hello", "token": tokens[0]})
        receive_until(ws, "state")
        assert set(table.players) == {0} and not table.spectators
    assert not table.players


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=50),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
)
messages = st.fixed_dictionaries(
    {"type": st.sampled_from(["hello", "act", "ping", "zap", ""])},
    optional={"seq": json_values, "action": json_values, "token": json_values, "since": json_values,
              "lang": json_values, "seat": json_values},
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(msg=messages)
def test_p4_generated_messages_are_accepted_exactly_when_they_fit_the_schema(msg: dict):  # type: ignore[type-arg]
    text = json.dumps(msg)
    try:
        parsed = parse_message(text)
    except ProtocolError as exc:
        assert exc.code in ("bad_json", "bad_message")
        return
    assert parsed == msg
    kind = msg["type"]
    allowed = {"hello": {"token", "since", "lang"}, "act": {"seq", "action"}, "ping": set()}[kind]
    assert set(msg) - {"type"} <= allowed
    if kind == "act":
        assert type(msg["seq"]) is int and isinstance(msg["action"], str)


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=MAX_FRAME // 4))
def test_p4_arbitrary_text_never_raises_anything_but_protocol_errors(text: str):
    with contextlib.suppress(ProtocolError):
        parse_message(text)


def test_new_tables_per_address_are_rate_limited(db_path: Path):
    store = Store(db_path)
    with _client(store, max_open_per_ip=1000) as client:
        replies = [client.post("/api/tables", json={"game": "trash"}) for _ in range(40)]
    store.close()
    assert [r.status_code for r in replies[:30]] == [201] * 30
    assert "rate_limited" in [r.json().get("error") for r in replies[30:]]


def test_p11_open_tables_per_address_are_capped_and_unjoined_ones_expire(db_path: Path):
    store = Store(db_path)
    with _client(store, max_open_per_ip=5, unjoined=60.0) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        replies = [client.post("/api/tables", json={"game": "trash"}) for _ in range(8)]
        assert [r.status_code for r in replies] == [201] * 5 + [429] * 3
        assert replies[-1].json()["error"] == "too_many_open"
        assert len(client.get("/api/tables").json()["tables"]) == 5
        joined, *unjoined = [r.json()["table"]["id"] for r in replies[:5]]
        client.post(f"/api/tables/{joined}/sit", json={"seat": 0, "name": "A"})
        # a minute on, the server's sweep (every 15 s here) lets the four nobody joined go from
        # the lobby and from the cap; the test sweeps as the server would then
        assert sorted(hub.sweep(time.monotonic() + 61)) == sorted(unjoined)
        assert [t["id"] for t in client.get("/api/tables").json()["tables"]] == [joined]
        again = [client.post("/api/tables", json={"game": "trash"}).status_code for _ in range(5)]
        assert again == [201] * 4 + [429]
        assert client.get(f"/api/tables/{replies[1].json()['table']['id']}").status_code == 200  # links still work
    store.close()


def test_p11_open_tables_per_host_token_are_capped_and_the_token_hosts_them_all(db_path: Path):
    """People behind one address share its cap; one host token (one page) holds fewer."""
    store = Store(db_path)
    with _client(store, max_open_per_ip=50, max_open_per_host=3) as client:
        first = client.post("/api/tables", json={"game": "trash"}).json()
        host = first["host"]
        more = [client.post("/api/tables", json={"game": "trash", "host": host}) for _ in range(3)]
        assert [r.status_code for r in more] == [201, 201, 429]
        assert more[-1].json()["error"] == "too_many_open" and "host token" in more[-1].json()["message"]
        assert all(r.json()["host"] == host for r in more[:2])
        for table in [first["table"], *(r.json()["table"] for r in more[:2])]:  # the one token hosts each
            r = client.post(f"/api/tables/{table['id']}/bot", json={"host": host, "seat": 1, "bot": "random"})
            assert r.status_code == 200, r.text
        # another person behind the same address still creates tables
        assert client.post("/api/tables", json={"game": "trash"}).status_code == 201
        # starting one frees a place under the token
        client.post(f"/api/tables/{first['table']['id']}/sit", json={"seat": 0, "name": "A"})
        assert client.post(f"/api/tables/{first['table']['id']}/start", json={"host": host}).status_code == 200
        assert client.post("/api/tables", json={"game": "trash", "host": host}).status_code == 201
        for bad in ("", "x" * 32 + "!", 7, "short"):
            r = client.post("/api/tables", json={"game": "trash", "host": bad})
            assert r.status_code == 400 and r.json()["error"] == "bad_request", bad
    store.close()


def test_lobby_bodies_are_capped_before_they_are_read(client: TestClient):
    r = client.post("/api/tables", content=b"{}", headers={"content-length": str(10**9)})
    assert r.status_code in (400, 413)


def test_ld6_a_spectators_state_waits_a_moment_but_nothing_else_does():
    async def main() -> list[tuple[str, float]]:
        sent: list[tuple[str, float]] = []
        loop = asyncio.get_running_loop()
        begin = loop.time()

        async def send(text: str) -> None:
            sent.append((json.loads(text)["type"], loop.time() - begin))

        async def close(code: int, reason: str) -> None:
            pass

        conn = Connection(send, close)
        conn.pace = 0.2
        conn.start()
        conn.push({"type": "state", "version": 1, "view": {"events": []}}, latest="state")
        conn.push({"type": "pong"})
        await asyncio.sleep(0.05)
        conn.push({"type": "state", "version": 2, "view": {"events": []}}, latest="state")  # replaces 1
        while len(sent) < 2:
            await asyncio.sleep(0.01)
        assert conn.task is not None
        conn.task.cancel()
        return sent

    sent = asyncio.run(main())
    assert [kind for kind, _ in sent] == ["pong", "state"]
    # the pong at once, the state after the pace (a stalled machine only makes the state later)
    assert sent[0][1] < 0.1 <= sent[1][1] < 5
