"""In-process protocol tests (Starlette TestClient): lobby, seats, schema, abuse.

Ids from docs/server-requirements.md are in the test names.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pytest
from starlette.websockets import WebSocketDisconnect

from cardtable.server.lobby import clean_name, new_token
from cardtable.server.protocol import (
    CLOSE_BAD_TOKEN,
    CLOSE_NO_TABLE,
    CLOSE_POLICY,
    CLOSE_REPLACED,
    CLOSE_TOO_BIG,
    CLOSE_UNSUPPORTED,
    MAX_FRAME,
    ProtocolError,
    TokenBucket,
    parse_message,
)

from .helpers import my_turn_or_over, new_table, play_first_legal_to_end, receive_until

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from starlette.testclient import TestClient


def hello(ws, token=None, **extra):
    msg = {"type": "hello", **extra}
    if token is not None:
        msg["token"] = token
    ws.send_json(msg)
    welcome = ws.receive_json()
    assert welcome["type"] == "welcome", welcome
    return welcome


def closed_code(ws) -> int:
    with pytest.raises(WebSocketDisconnect) as info:
        for _ in range(100):
            ws.receive_json()
    return info.value.code


# ------------------------------------------------------------------ lobby
def test_lobby_lists_games_presets_options_and_bots(client: TestClient):
    games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    assert "trash" in games
    assert "standard" in games["trash"]["presets"] and "random" in games["trash"]["bots"]
    assert any(o["name"] == "players" for o in games["trash"]["options"])


def test_lobby_create_sit_bot_start(client: TestClient):
    table_id, host, tokens = new_table(client, {1: "sensible"}, start=False)
    info = client.get(f"/api/tables/{table_id}").json()["table"]
    assert [s["kind"] for s in info["seats"]] == ["human", "bot"]
    assert '"seed"' not in json.dumps(info) and tokens[0] not in json.dumps(info)  # the fair block's seeds aside
    assert client.post(f"/api/tables/{table_id}/start", json={"host": "nope"}).status_code == 403
    assert client.post(f"/api/tables/{table_id}/start", json={"host": host}).json()["table"]["status"] == "playing"
    assert client.post(f"/api/tables/{table_id}/sit", json={"seat": 1}).status_code == 409


def test_lobby_rejects_bad_requests(client: TestClient):
    assert client.post("/api/tables", json={"game": "chess"}).status_code == 400
    assert client.post("/api/tables", json={"game": "trash", "options": {"players": 99}}).status_code == 400
    assert client.post("/api/tables", json={"game": "trash", "seed": 1}).status_code == 400
    assert client.post("/api/tables", content=b"[1]").status_code == 400
    assert client.post("/api/tables", content=b"x" * (MAX_FRAME + 1)).status_code == 413
    table_id, host, _ = new_table(client, {}, sit=(), start=False)
    assert client.post(f"/api/tables/{table_id}/start", json={"host": host}).status_code == 409  # seats open
    assert client.post(f"/api/tables/{table_id}/bot", json={"host": host, "seat": 0, "bot": "x"}).status_code == 400
    assert client.post(f"/api/tables/{table_id}/sit", json={"seat": 7}).status_code == 400
    assert client.post(f"/api/tables/{table_id}/sit", json={"seat": True}).status_code == 400
    assert client.get("/api/tables/nope").status_code == 404


def test_p10_names_are_stripped_and_capped():
    assert clean_name("<b>x</b>\x00\n" + "y" * 100, "P") == ("<b>x</b> " + "y" * 100)[:25]
    assert clean_name("\x01\x02", "Player 1") == "Player 1"
    assert clean_name(None, "Player 2") == "Player 2"


def test_a8_tokens_are_long_and_random():
    tokens = {new_token() for _ in range(100)}
    assert len(tokens) == 100 and all(len(t) >= 22 for t in tokens)  # >= 128 bits of base64url


# ------------------------------------------------------------- sockets
def test_play_a_whole_trash_game_against_a_bot_in_process(fast_client: TestClient):
    client = fast_client
    table_id, _, tokens = new_table(client, {1: "sensible"})
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        welcome = hello(ws, tokens[0])
        assert welcome["seat"] == 0
        for seq in range(1, 5000):
            frame, _ = my_turn_or_over(ws, 0)
            view = frame["view"]
            if view["outcome"] is not None:
                break
            ws.send_json({"type": "act", "seq": seq, "action": view["legal_actions"][-1]})
            ack, _ = receive_until(ws, "ack")
            assert ack["seq"] == seq and ack["version"] >= frame["version"] + 1
        assert view["outcome"] is not None
    assert client.get(f"/api/tables/{table_id}").json()["table"]["status"] == "over"


def test_a1_wrong_token_gets_no_game_data(client: TestClient):
    table_id, _, tokens = new_table(client)
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        ws.send_json({"type": "hello", "token": "x" * 32})
        assert closed_code(ws) == CLOSE_BAD_TOKEN
    other, _, _ = new_table(client)
    with client.websocket_connect(f"/ws/{other}") as ws:  # a token of another table
        ws.send_json({"type": "hello", "token": tokens[0]})
        assert closed_code(ws) == CLOSE_BAD_TOKEN
    with client.websocket_connect("/ws/nope") as ws:
        assert closed_code(ws) == CLOSE_NO_TABLE


def test_a1_acting_before_hello_closes(client: TestClient):
    table_id, _, _ = new_table(client)
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        ws.send_json({"type": "act", "seq": 1, "action": "stock"})
        assert closed_code(ws) == CLOSE_POLICY


def test_a1_a_socket_that_only_pings_is_closed_at_the_hello_deadline(client: TestClient,
                                                                    monkeypatch: pytest.MonkeyPatch):
    """A1: the hello is due within HELLO_TIMEOUT of the accept; pings (answered before hello) do
    not move that deadline, so a socket that never identifies itself cannot hold its slot."""
    import time

    from cardtable.server import routes_socket

    monkeypatch.setattr(routes_socket, "HELLO_TIMEOUT", 0.5)
    table_id, _, _ = new_table(client)
    with client.websocket_connect(f"/ws/{table_id}") as ws, pytest.raises(WebSocketDisconnect) as info:
        end = time.monotonic() + 30.0  # far past the 0.5 s deadline, however slow the machine
        while time.monotonic() < end:  # a ping and its pong, again and again: each a round trip
            ws.send_json({"type": "ping"})
            assert ws.receive_json()["type"] == "pong"
    assert info.value.code == CLOSE_POLICY


def test_a7_spectator_gets_spectator_view_and_cannot_act(client: TestClient):
    table_id, _, _ = new_table(client)
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        welcome = hello(ws)
        assert welcome["seat"] is None
        state, _ = receive_until(ws, "state")
        assert state["view"]["seat"] is None and state["view"]["legal_actions"] == []
        ws.send_json({"type": "act", "seq": 1, "action": "stock"})
        err, _ = receive_until(ws, "error")
        assert err["code"] == "spectator"


def test_p7_a_seat_field_is_rejected_and_the_token_decides(client: TestClient):
    table_id, _, tokens = new_table(client, {}, sit=(0, 1))
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        hello(ws, tokens[1])
        receive_until(ws, "state")
        ws.send_json({"type": "act", "seq": 1, "action": "stock", "seat": 0})
        err, _ = receive_until(ws, "error")
        assert err["code"] == "bad_message"
        ws.send_json({"type": "act", "seq": 1, "action": "stock"})  # seat 1 is not to move
        err, _ = receive_until(ws, "error")
        assert err["code"] == "illegal" and err["seq"] == 1


def test_p6_illegal_action_leaves_state_unchanged(client: TestClient):
    table_id, _, tokens = new_table(client)
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        hello(ws, tokens[0])
        first, _ = receive_until(ws, "state")
        for text in ("discard", "wild 3", "displace", "nonsense", "time-up"):
            ws.send_json({"type": "act", "seq": 1, "action": text})
            err, _ = receive_until(ws, "error")
            assert err["code"] in ("illegal", "bad_action"), err
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        hello(ws, tokens[0])
        again, _ = receive_until(ws, "state")
        assert again == first


@pytest.mark.parametrize("text", ["not json", "", "null", "[1,2]", "42", '"x"', "NaN", '{"type":1}',
                                  '{"type":"act","seq":"1","action":"stock"}', '{"type":"act","seq":true,"action":"s"}',
                                  '{"type":"act","seq":1}', '{"type":"hello","lang":"fr"}', '{"type":"zap"}',
                                  "[" * 5000])
def test_p1_p4_p5_bad_messages_get_error_frames(client: TestClient, text: str):
    table_id, _, tokens = new_table(client)
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        hello(ws, tokens[0])
        receive_until(ws, "state")
        if len(text) > MAX_FRAME:
            ws.send_text(text)
            assert closed_code(ws) == CLOSE_TOO_BIG
            return
        ws.send_text(text)
        err, _ = receive_until(ws, "error")
        assert err["code"] in ("bad_json", "bad_message")
        ws.send_json({"type": "ping"})  # the connection and the game go on
        receive_until(ws, "pong")
    refused = client.get("/api/health").json()["refused"]  # counted where an operator looks (P5)
    assert refused.get(err["code"], 0) >= 1, refused


def test_p1_too_many_bad_messages_close_1008(client: TestClient):
    table_id, _, tokens = new_table(client)
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        hello(ws, tokens[0])
        for _ in range(25):
            ws.send_text("{")
        assert closed_code(ws) == CLOSE_POLICY
    refused = client.get("/api/health").json()["refused"]
    assert refused["bad_json"] >= 20 and refused["closed_bad_messages"] == 1, refused


def test_p2_binary_frame_closes_1003(client: TestClient):
    table_id, _, tokens = new_table(client)
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        hello(ws, tokens[0])
        ws.send_bytes(b"\x00\x01")
        assert closed_code(ws) == CLOSE_UNSUPPORTED


def test_p3_frame_over_the_cap_closes_1009(client: TestClient):
    table_id, _, tokens = new_table(client)
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        hello(ws, tokens[0])
        ws.send_text(json.dumps({"type": "ping", "pad": "x" * MAX_FRAME}))
        assert closed_code(ws) == CLOSE_TOO_BIG


@pytest.fixture
def no_refill(db_path: Path) -> Iterator[TestClient]:
    """A server whose message bucket holds 40 and does not refill while a test runs: what it
    throttles does not depend on how fast the machine gets through the messages."""
    from cardtable.server.store import Store

    from .conftest import _client

    store = Store(db_path)
    with _client(store, bot_delay=0.0, rate=1e-6, burst=40) as c:
        yield c
    store.close()


def test_p8_flood_is_throttled_then_closed(no_refill: TestClient):
    client = no_refill
    table_id, _, tokens = new_table(client, {}, sit=(0, 1))
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        hello(ws, tokens[1])
        for i in range(80):
            ws.send_json({"type": "act", "seq": i + 1, "action": "stock"})
        codes = []
        with pytest.raises(WebSocketDisconnect) as info:
            for _ in range(500):
                frame = ws.receive_json()
                if frame["type"] == "error":
                    codes.append(frame["code"])
        assert info.value.code == CLOSE_POLICY
        assert "rate_limited" in codes


def test_p8_pings_are_not_rate_limited(client: TestClient):
    table_id, _, tokens = new_table(client)
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        hello(ws, tokens[0])
        for _ in range(100):
            ws.send_json({"type": "ping"})
        frames = [ws.receive_json() for _ in range(102)]
        assert sum(f["type"] == "pong" for f in frames) == 100


def test_p9_a_fast_human_spit_rate_is_never_throttled():
    now = [0.0]
    bucket = TokenBucket(20, 40, clock=lambda: now[0])
    for _ in range(50):  # 10 plays a second for 5 seconds
        assert bucket.take()
        now[0] += 0.1
    burst = [bucket.take() for _ in range(45)]
    assert burst.count(True) == 40  # a flood is cut at the burst


def test_p4_schema_is_closed():
    assert parse_message('{"type":"act","seq":3,"action":"stock"}')["seq"] == 3
    for bad in ['{"type":"act","seq":3,"action":"stock","x":1}', '{"type":"act","seq":0,"action":"stock"}',
                '{"type":"act","seq":1e3,"action":"stock"}', '{"type":"ping","t":1}',
                '{"type":"hello","since":-2}', '{"type":"hello","token":""}', '{"type":"act","seq":1,"action":""}',
                '{"type":"act","seq":9007199254740993,"action":"stock"}', 'Infinity', '{"type":"hello","since":NaN}',
                "[" * 1500 + "]" * 1500]:
        with pytest.raises(ProtocolError):
            parse_message(bad)


def test_r3_resends_are_applied_once(client: TestClient):
    table_id, _, tokens = new_table(client, {}, sit=(0, 1))
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        hello(ws, tokens[0])
        receive_until(ws, "state")
        acks = []
        for _ in range(10):
            ws.send_json({"type": "act", "seq": 1, "action": "stock"})
            ack, _ = receive_until(ws, "ack")
            acks.append(ack)
        assert acks[0]["version"] == 1 and "dup" not in acks[0]
        assert all(a["dup"] and a["version"] == 1 for a in acks[1:])
    assert client.get(f"/api/tables/{table_id}").json()["table"]["version"] == 1


def test_r3_an_older_seq_gets_its_own_result_and_a_refused_one_is_not_acknowledged(db_path: Path):
    """R3: a resend of any applied seq (not only the last) is answered with that move's version;
    a seq that was refused (or never sent) below the last applied one is an error, never an ack,
    whatever action it carries now; after a restart the log gives the same answers."""
    from cardtable.server.hub import Hub
    from cardtable.server.store import Store

    hub = Hub(Store(db_path))
    table, _ = hub.create("trash", None, {"target_size": 3})
    table.sit(0, "Ana")
    table.sit(1, "Ben")
    table.start(7)
    m = table.match
    assert m is not None
    mover = m.to_move()
    assert table.act(mover, 1, "wild 99")["code"] == "bad_action"  # seq 1 refused
    first = table.act(mover, 2, str(m.state.legal_actions(mover)[0]))
    assert first["type"] == "ack"
    while m.to_move() != mover:  # the other seat plays until it is the first one's turn again
        other = m.to_move()
        assert table.act(other, 100 + m.seq, str(m.state.legal_actions(other)[0]))["type"] == "ack"
    assert table.act(mover, 4, str(m.state.legal_actions(mover)[0]))["type"] == "ack"  # seq 3 never sent
    version = table.version
    legal = str(m.state.legal_actions(mover)[0]) if m.to_move() == mover else "stock"
    for seq in (1, 3):
        again = table.act(mover, seq, legal)
        assert again["type"] == "error" and again["code"] == "stale_seq", again
    assert table.act(mover, 2, legal) == {"type": "ack", "seq": 2, "version": first["version"], "dup": True}
    assert table.version == version  # nothing applied
    hub.close_all()
    table = Hub(Store(db_path)).get(table.id)  # a restart: the answers come from the log
    assert table.act(mover, 2, legal) == {"type": "ack", "seq": 2, "version": first["version"], "dup": True}
    assert table.act(mover, 3, legal)["code"] == "stale_seq"


def test_a5_the_newest_socket_wins(client: TestClient):
    table_id, _, tokens = new_table(client)
    with client.websocket_connect(f"/ws/{table_id}") as old:
        hello(old, tokens[0])
        receive_until(old, "state")
        with client.websocket_connect(f"/ws/{table_id}") as new:
            hello(new, tokens[0])
            receive_until(new, "state")
            assert closed_code(old) == CLOSE_REPLACED
            new.send_json({"type": "act", "seq": 1, "action": "stock"})
            ack, _ = receive_until(new, "ack")
            assert ack["version"] == 1


@pytest.mark.parametrize("origin", ["https://evil.example", "null", "http://good.example",
                                    "https://good.example:444", "https://good.example.evil", "http://testserver.evil"])
def test_a6_foreign_origins_are_refused_at_the_upgrade(client: TestClient, origin: str):
    table_id, _, _ = new_table(client)
    with pytest.raises(WebSocketDisconnect), client.websocket_connect(f"/ws/{table_id}", headers={"origin": origin}):
        pass
    r = client.post("/api/tables", json={"game": "trash"}, headers={"origin": origin})
    assert r.status_code == 403


@pytest.mark.parametrize("origin", ["https://good.example", "http://testserver"])
def test_a6_allowed_origins(client: TestClient, origin: str):
    table_id, _, _ = new_table(client)
    with client.websocket_connect(f"/ws/{table_id}", headers={"origin": origin}) as ws:
        hello(ws)


def back_after_a_move(client: TestClient, since: int | None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Seat 0 plays one move and goes; the bot plays on while it is away; seat 0 comes back with
    ``since`` (``None``: the version of the state it moved on). That state, and the frames of the
    return up to its state."""
    table_id, _, tokens = new_table(client, {1: "random"})
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        hello(ws, tokens[0])
        first, _ = my_turn_or_over(ws, 0)
        ws.send_json({"type": "act", "seq": 1, "action": first["view"]["legal_actions"][0]})
        receive_until(ws, "ack")
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        hello(ws, tokens[0], since=first["version"] if since is None else since)
        frames: list[dict[str, Any]] = []
        while not frames or frames[-1]["type"] != "state":
            frames.append(ws.receive_json())
    return first, frames


def test_r1_resume_sends_missed_events_then_the_snapshot(fast_client: TestClient):
    first, frames = back_after_a_move(fast_client, None)
    events = [f for f in frames if f["type"] == "events"]
    state = frames[-1]
    assert events and events[0]["since"] == first["version"]
    versions = [e["version"] for e in events[0]["events"]]
    assert versions == sorted(versions) and versions[0] == first["version"] + 1
    assert versions[-1] == state["version"]
    assert state["view"]["events"] == [
        {k: v for k, v in e.items() if k != "version"} for e in events[0]["events"] if e["version"] == versions[-1]
    ]


def test_r1_a_new_page_gets_the_recent_events_for_its_log(fast_client: TestClient):
    """R1: a page that has seen nothing (a reload: ``since`` -1) gets the events of the last
    RECENT versions before its snapshot, so its log ("What happened") still shows the deal it
    reloaded in; at a table where nothing was played it gets the snapshot alone."""
    from cardtable.server.fanout import RECENT

    client = fast_client
    first, frames = back_after_a_move(client, -1)
    events = [f for f in frames if f["type"] == "events"]
    state = frames[-1]
    assert len(events) == 1 and events[0]["since"] == max(0, state["version"] - RECENT)
    versions = [e["version"] for e in events[0]["events"]]
    assert versions[0] == events[0]["since"] + 1 and versions[-1] == state["version"]
    assert first["version"] + 1 in versions  # the page's own move is in its log again
    empty, _, fresh = new_table(client, start=False)
    with client.websocket_connect(f"/ws/{empty}") as ws:
        hello(ws, fresh[0], since=-1)
        assert ws.receive_json()["type"] == "table"  # no events, no state: nothing was played


def test_r4_since_in_the_future_gets_a_snapshot(client: TestClient):
    table_id, _, tokens = new_table(client)
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        hello(ws, tokens[0], since=10**9)
        frame = ws.receive_json()
        assert frame["type"] == "state"


def test_spanish_event_texts(client: TestClient):
    table_id, _, tokens = new_table(client)
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        hello(ws, tokens[0], lang="es")
        state, _ = receive_until(ws, "state")
        assert "empiezas" in state["view"]["events"][0]["text"]


def test_static_ui_and_catalogs_are_served(client: TestClient):
    assert client.get("/").status_code == 200
    assert client.get("/t/abc").status_code == 200
    assert client.get("/i18n/es.json").status_code == 200
    assert client.get("/i18n/xx.json").status_code == 404


def test_pages_forbid_inline_code_framing_and_referrers(client: TestClient):
    """A hardened page: only its own scripts, styles and socket (CSP), no framing, no referrer to
    other sites (the link names the table), and lobby answers never cached."""
    for path in ("/", "/t/abc", "/static/app.js", "/api/games"):
        headers = client.get(path).headers
        csp = headers["content-security-policy"]
        assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp and "unsafe" not in csp
        assert headers["x-content-type-options"] == "nosniff" and headers["referrer-policy"] == "no-referrer"
    assert client.get("/api/tables").headers["cache-control"] == "no-store"


def test_r2_ack_lost_then_resent_after_reconnect_is_applied_once(client: TestClient):
    table_id, _, tokens = new_table(client, {}, sit=(0, 1))
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        hello(ws, tokens[0])
        receive_until(ws, "state")
        ws.send_json({"type": "act", "seq": 5, "action": "stock"})
    # the socket dropped before the ack was read; the client resends on a new socket
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        welcome = hello(ws, tokens[0], since=0)
        assert welcome["seq"] == 5  # the server tells the client its last applied seq
        ws.send_json({"type": "act", "seq": 5, "action": "stock"})
        ack, _ = receive_until(ws, "ack")
        assert ack == {"type": "ack", "seq": 5, "version": 1, "dup": True}
    assert client.get(f"/api/tables/{table_id}").json()["table"]["version"] == 1


def test_p4_a_lone_surrogate_action_is_a_clean_error(client: TestClient):
    table_id, _, tokens = new_table(client)
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        hello(ws, tokens[0])
        receive_until(ws, "state")
        ws.send_text('{"type":"act","seq":1,"action":"\\ud800"}')
        err, _ = receive_until(ws, "error")
        assert err["code"] == "bad_action"
        ws.send_json({"type": "act", "seq": 2, "action": "stock"})
        ack, _ = receive_until(ws, "ack")
        assert ack["version"] == 1


def test_trv2_the_time_limit_ends_by_the_servers_clock_even_if_nobody_acts(client: TestClient):
    import time

    table_id, host, tokens = new_table(client, {}, sit=(0, 1), options={"time_limit": 1.0}, start=False)
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        hello(ws, tokens[0])  # connected before the start: the clock runs from the start's own state
        assert client.post(f"/api/tables/{table_id}/start", json={"host": host}).status_code == 200
        first, _ = receive_until(ws, "state")
        assert first["view"]["time_up"] is False
        t0 = time.monotonic()
        state, _ = receive_until(ws, "state")  # pushed by the timer
        assert state["view"]["time_up"] is True and state["version"] == 1
        assert time.monotonic() - t0 < 5
    table = client.app.state.hub.tables[table_id]  # type: ignore[attr-defined]
    assert [r.action for r in table.store.actions(table_id)] == ["time-up"]


def test_r5_a_stand_in_moves_for_a_player_away_past_the_hold(db_path):
    from cardtable.server.store import Store

    from .conftest import _client

    store = Store(db_path)
    with _client(store, bot_delay=0.0, hold=0.2, rate=1e6, burst=1e6) as client:
        table_id, _, tokens = new_table(client, {}, sit=(0, 1))  # seat 1 sits and never connects
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            hello(ws, tokens[0])
            play_first_legal_to_end(ws, 0)
        info = client.get(f"/api/tables/{table_id}").json()["table"]
        assert info["status"] == "over" and info["seats"][1]["auto"] is True
        actions = store.actions(table_id)
        assert {r.seat for r in actions} >= {0, 1}
    store.close()


def test_r5_no_stand_in_while_the_player_is_connected(db_path):
    import time

    from cardtable.server.store import Store

    from .conftest import _client

    store = Store(db_path)
    with _client(store, bot_delay=0.0, hold=0.1) as client:
        table_id, host, tokens = new_table(client, {}, sit=(0, 1), start=False)
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            hello(ws, tokens[0])  # connected before the start: never away, however slow the machine
            assert client.post(f"/api/tables/{table_id}/start", json={"host": host}).status_code == 200
            receive_until(ws, "state")
            time.sleep(0.4)  # seat 0 is to move, connected, thinking
            ws.send_json({"type": "ping"})
            receive_until(ws, "pong")
            assert client.get(f"/api/tables/{table_id}").json()["table"]["version"] == 0
    store.close()


def test_p8_the_rate_limit_is_the_seats_and_survives_a_reconnect(no_refill: TestClient):
    client = no_refill
    table_id, _, tokens = new_table(client, {}, sit=(0, 1))
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        hello(ws, tokens[1])
        for i in range(45):  # seat 1 is not to move: each is an illegal action, but each counts
            ws.send_json({"type": "act", "seq": i + 1, "action": "stock"})
        codes = [receive_until(ws, "error")[0]["code"] for _ in range(45)]
        assert "rate_limited" in codes
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        hello(ws, tokens[1])
        for i in range(20):  # a fresh bucket would take all 20 (burst 40); this one is empty
            ws.send_json({"type": "act", "seq": 100 + i, "action": "stock"})
        codes = [receive_until(ws, "error")[0]["code"] for _ in range(20)]
        assert "rate_limited" in codes  # a new socket does not refill the seat's bucket


@pytest.mark.parametrize("origin", ["https://testserver", "http://testserver:8080", "http://testserver:80x",
                                    "http://good.example", "https://good.example:8443", "https://good.example/x",
                                    "http://user@testserver", "HTTPS://testserver", "ws://testserver"])
def test_a6_origin_scheme_host_and_port_are_compared_exactly(client: TestClient, origin: str):
    """An ``https://`` variant of the page's ``http://`` origin (or of an allowed one), another port, a path:
    all refused, for the socket and for POSTs."""
    table_id, _, _ = new_table(client)
    with pytest.raises(WebSocketDisconnect), client.websocket_connect(f"/ws/{table_id}", headers={"origin": origin}):
        pass
    r = client.post("/api/tables", json={"game": "trash"}, headers={"origin": origin})
    assert r.status_code == 403


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "testserver.evil", "127.0.0.1.evil.example",
                                  "", "a b", "testserver@evil.example"])
def test_a6_dns_rebinding_an_unknown_host_is_refused_everywhere(client: TestClient, host: str):
    """Host and Origin both the attacker's name (which resolves to 127.0.0.1): nothing is served."""
    table_id, _, _ = new_table(client)
    headers = {"host": host, "origin": f"http://{host}"}
    assert client.get("/api/tables", headers=headers).status_code == 421
    assert client.post("/api/tables", json={"game": "trash"}, headers=headers).status_code == 421
    assert client.get(f"/api/tables/{table_id}", headers=headers).status_code == 421
    with pytest.raises(WebSocketDisconnect), client.websocket_connect(f"/ws/{table_id}", headers=headers):
        pass


@pytest.mark.parametrize("host", ["localhost:8000", "127.0.0.1", "[::1]:8000", "LOCALHOST.", "testserver"])
def test_a6_loopback_names_are_served_by_default(client: TestClient, host: str):
    r = client.post("/api/tables", json={"game": "trash"}, headers={"host": host, "origin": f"http://{host}"})
    assert r.status_code == 201, r.text
    with client.websocket_connect(f"/ws/{r.json()['table']['id']}",
                                  headers={"host": host, "origin": f"http://{host}"}) as ws:
        hello(ws)
