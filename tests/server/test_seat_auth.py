"""Impostors and stale sockets of a seat: A2, A3, R6 (docs/server-requirements.md), in process."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from starlette.websockets import WebSocketDisconnect

from cardtable.server.protocol import CLOSE_BAD_TOKEN, CLOSE_REPLACED

from .helpers import my_turn_or_over, new_table, receive_until
from .test_protocol import hello

if TYPE_CHECKING:
    from starlette.testclient import TestClient


def drain(ws: Any, limit: int = 10_000) -> tuple[list[dict[str, Any]], int]:
    """Every frame left on ``ws`` until the server closes it: (frames, close code)."""
    frames = []
    try:
        for _ in range(limit):
            frames.append(ws.receive_json())
    except WebSocketDisconnect as closed:
        return frames, closed.code
    raise AssertionError(f"still open after {limit} frames")


@pytest.mark.timeout(120)  # a socket the server failed to close would block the drain
def test_a2_an_impostor_that_keeps_its_socket_gets_nothing_while_the_seat_plays_and_reloads(client: TestClient):
    """A2: impostors with a wrong token (a made-up one, one a character off the seat's) keep their
    sockets and read nothing until the real player has connected, played, and reloaded on a
    second socket. All they ever get is the 4001 close: no welcome, no table, no state, no chat."""
    table_id, _, tokens = new_table(client, {1: "random"})
    wrong = tokens[0][:-1] + ("A" if tokens[0][-1] != "A" else "B")
    with client.websocket_connect(f"/ws/{table_id}") as made_up, \
            client.websocket_connect(f"/ws/{table_id}") as near:
        made_up.send_json({"type": "hello", "token": "x" * 32})
        near.send_json({"type": "hello", "token": wrong, "since": 0})
        with client.websocket_connect(f"/ws/{table_id}") as seat:
            hello(seat, tokens[0])
            first, _ = my_turn_or_over(seat, 0)
            seat.send_json({"type": "act", "seq": 1, "action": first["view"]["legal_actions"][0]})
            receive_until(seat, "ack")
            seat.send_json({"type": "chat", "text": "hello table"})
            receive_until(seat, "chat")
        with client.websocket_connect(f"/ws/{table_id}") as reloaded:  # the real player reloads
            welcome = hello(reloaded, tokens[0], since=first["version"])
            assert welcome["seat"] == 0
            receive_until(reloaded, "state")
        for impostor in (made_up, near):
            assert drain(impostor) == ([], CLOSE_BAD_TOKEN)


@pytest.mark.timeout(120)
def test_a3_a_resume_naming_another_seat_without_its_token_is_refused_and_sent_no_view(client: TestClient):
    """A3: a resume (``since``) that claims seat 0 by a field, or with a wrong token, is refused with
    nothing about the game sent (a schema error, the socket still waiting for a proper hello, or
    the 4001 close); without any token it is a
    spectator's resume and gets the spectators' view only, never seat 0's."""
    table_id, _, tokens = new_table(client, {1: "random"})
    with client.websocket_connect(f"/ws/{table_id}") as ws:  # seat 0 plays a move: there is a history
        hello(ws, tokens[0])
        first, _ = my_turn_or_over(ws, 0)
        ws.send_json({"type": "act", "seq": 1, "action": first["view"]["legal_actions"][0]})
        receive_until(ws, "ack")
    for claim in ({"seat": 0}, {"player": 0}, {"seat": 0, "token": "x" * 32}):
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            ws.send_json({"type": "hello", "since": 0, **claim})
            ws.send_json({"type": "ping"})  # answered before a hello too: the socket waits for one
            _, frames = receive_until(ws, "pong")
            assert [f["type"] for f in frames] == ["error", "pong"] and frames[0]["code"] == "bad_message", frames
    for token in ("x" * 32, tokens[0].swapcase(), tokens[0][:-2]):
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            ws.send_json({"type": "hello", "token": token, "since": 0})
            assert drain(ws) == ([], CLOSE_BAD_TOKEN)
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        assert hello(ws, since=0)["seat"] is None
        _, frames = receive_until(ws, "state")
        views = [f["view"] for f in frames if f["type"] == "state"]
        assert views and all(v["seat"] is None and v["legal_actions"] == [] for v in views)


@pytest.mark.timeout(120)
def test_r6_a_new_socket_wins_over_a_half_open_one_and_nothing_is_sent_twice(client: TestClient):
    """R6: the seat's old socket goes silent (half open: never read again, never closed by its
    client) and the same token connects on a new one. The new socket plays; the old one is closed
    with 4000 and got nothing about the new socket's action; the new one gets one ack and each
    state version once, in order."""
    table_id, _, tokens = new_table(client, {1: "random"})
    with client.websocket_connect(f"/ws/{table_id}") as old:
        hello(old, tokens[0])
        first, _ = my_turn_or_over(old, 0)
        with client.websocket_connect(f"/ws/{table_id}") as new:
            hello(new, tokens[0], since=first["version"])
            frame, seen = my_turn_or_over(new, 0)
            new.send_json({"type": "act", "seq": 1, "action": frame["view"]["legal_actions"][0],
                           "version": frame["version"]})
            ack, more = receive_until(new, "ack")
            state, rest = receive_until(new, "state")
            frames = seen + more + rest
            assert [f for f in frames if f["type"] == "ack"] == [ack] and ack["version"] == first["version"] + 1
            versions = [f["version"] for f in frames if f["type"] == "state"]
            assert versions == sorted(set(versions)) and state["version"] >= ack["version"]
            old_frames, code = drain(old)
            assert code == CLOSE_REPLACED
            assert not [f for f in old_frames if f["type"] == "ack" or f.get("version", -1) >= ack["version"]]
