"""Giving up a seat (A4) and the table's chat (P10)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import pytest

from cardtable.server.protocol import CLOSE_BAD_TOKEN, CLOSE_FREED, CLOSE_LEFT
from cardtable.server.talk import MAX_CHAT

from .helpers import new_table, receive_until
from .test_protocol import closed_code, hello

if TYPE_CHECKING:
    from starlette.testclient import TestClient


def post(client: TestClient, table_id: str, op: str, **body: object):  # type: ignore[no-untyped-def]
    return client.post(f"/api/tables/{table_id}/{op}", json=body)


def test_a4_leaving_an_open_table_frees_the_seat_and_kills_the_token(client: TestClient):
    table_id, _, tokens = new_table(client, {}, sit=(0,), start=False)
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        hello(ws, tokens[0])
        r = post(client, table_id, "leave", token=tokens[0])
        assert r.status_code == 200 and r.json()["seat"] == 0
        assert r.json()["table"]["seats"][0]["kind"] == "open"
        assert closed_code(ws) == CLOSE_LEFT
    with client.websocket_connect(f"/ws/{table_id}") as ws:  # the old token is dead
        ws.send_json({"type": "hello", "token": tokens[0]})
        assert closed_code(ws) == CLOSE_BAD_TOKEN
    assert post(client, table_id, "leave", token=tokens[0]).status_code == 403
    # somebody else takes the seat, with a new token
    r = post(client, table_id, "sit", seat=0, name="Bea")
    assert r.status_code == 200 and r.json()["token"] != tokens[0]


def test_a4_the_host_opens_a_seat_before_the_start(client: TestClient):
    table_id, host, tokens = new_table(client, {1: "random"}, sit=(0,), start=False)
    assert post(client, table_id, "free", host="nope", seat=1).status_code == 403
    r = post(client, table_id, "free", host=host, seat=1)
    assert r.status_code == 200 and r.json()["table"]["seats"][1]["kind"] == "open"
    assert post(client, table_id, "start", host=host).json()["error"] == "seats_open"
    r = post(client, table_id, "free", host=host, seat=0)  # a person's seat: their token dies
    assert r.status_code == 200
    assert post(client, table_id, "leave", token=tokens[0]).status_code == 403
    assert post(client, table_id, "free", host=host, seat=5).json()["error"] == "bad_seat"


def test_a4_a_person_whose_seat_the_host_opens_is_told_so(client: TestClient):
    table_id, host, tokens = new_table(client, {}, sit=(0, 1), start=False)
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        hello(ws, tokens[1])
        assert post(client, table_id, "free", host=host, seat=1).status_code == 200
        assert closed_code(ws) == CLOSE_FREED


def test_a4_r5_leaving_a_game_in_progress_hands_the_seat_to_a_bot_to_the_end(fast_client: TestClient):
    """Trex with three people: one leaves mid-game; the stand-in bot plays that seat to the end."""
    client = fast_client
    table_id, _, tokens = new_table(client, {3: "random"}, game="trex", sit=(0, 1, 2))
    table = client.app.state.hub.tables[table_id]  # type: ignore[attr-defined]
    r = post(client, table_id, "leave", token=tokens[2])
    assert r.status_code == 200 and r.json()["table"]["seats"][2] == {
        "seat": 2, "kind": "bot", "name": "medium", "online": False, "auto": False}
    with client.websocket_connect(f"/ws/{table_id}") as ws0, client.websocket_connect(f"/ws/{table_id}") as ws1:
        socks = {0: ws0, 1: ws1}
        for seat, ws in socks.items():
            hello(ws, tokens[seat])
        seqs = {0: 0, 1: 0}
        deadline = time.monotonic() + 120
        while table.match is not None and not table.match.is_over and time.monotonic() < deadline:
            seat = table.match.to_move()
            if seat not in socks:
                time.sleep(0.001)
                continue
            seqs[seat] += 1
            action = str(table.match.state.legal_actions(seat)[0])
            socks[seat].send_json({"type": "act", "seq": seqs[seat], "action": action})
            reply, _ = receive_until(socks[seat], "ack")
            assert reply["seq"] == seqs[seat]
        assert table.match.is_over
    assert post(client, table_id, "leave", token=tokens[0]).json()["error"] == "over"


def test_a4_leaving_spit_hands_the_seat_to_a_real_time_bot():
    from cardtable.server.hub import Hub
    from cardtable.server.store import Store

    hub = Hub(Store(":memory:"))
    table, _ = hub.create("spit", None, {"spit_delay": 0.0})
    tokens = [table.sit(seat, f"P{seat}") for seat in range(2)]
    table.start(seed=3)
    host = table.rt
    assert host is not None and host.next_due() is None  # two people: nothing scheduled yet
    assert table.leave(tokens[1]) == 1
    # the same host (queued actions and running timers stand), now with a bot that means to move
    assert table.rt is host and 1 in host.bots and table.row.seats[1].name == "medium"
    assert host.next_due() is not None


def test_p10_chat_is_text_cleaned_capped_and_shared_with_the_table(client: TestClient):
    table_id, _, tokens = new_table(client, {}, sit=(0, 1))
    with client.websocket_connect(f"/ws/{table_id}") as ws0, client.websocket_connect(f"/ws/{table_id}") as ws1, \
            client.websocket_connect(f"/ws/{table_id}") as watcher:
        hello(ws0, tokens[0])
        hello(ws1, tokens[1])
        hello(watcher)
        ws0.send_json({"type": "chat", "text": "<script>alert(1)</script>\x00\x1b[2J  hi\n" + "y" * 400})
        for ws in (ws0, ws1, watcher):
            frame, _ = receive_until(ws, "chat")
            [line] = frame["messages"]
            assert line["seat"] == 0 and line["name"] == "P0"
            assert line["text"].startswith("<script>alert(1)</script> [2J hi y")  # text, shown as text
            assert len(line["text"]) == MAX_CHAT and not any(ord(c) < 32 for c in line["text"])
        watcher.send_json({"type": "chat", "text": "from the rail"})
        assert receive_until(watcher, "error")[0]["code"] == "spectator"
        for bad in ({"type": "chat", "text": ""}, {"type": "chat", "text": 3}, {"type": "chat", "text": "x", "seat": 1},
                    {"type": "chat", "text": "x" * 1001}, {"type": "chat", "text": "\x00\x01"}):
            ws1.send_json(bad)
            assert receive_until(ws1, "error")[0]["code"] == "bad_message"
    with client.websocket_connect(f"/ws/{table_id}") as late:  # a newcomer gets the lines kept so far
        hello(late)
        frame, _ = receive_until(late, "chat")
        assert [m["seat"] for m in frame["messages"]] == [0]


def test_p10_chat_survives_a_restart(tmp_path):
    from cardtable.server.hub import Hub
    from cardtable.server.store import Store

    path = tmp_path / "s.sqlite3"
    hub = Hub(Store(path))
    table, _ = hub.create("trash", None, {})
    table.sit(0, "Ana")
    table.sit(1, "Ben")
    for i in range(60):
        assert table.chat(i % 2, f"line {i}") is None
    hub.store.close()
    again = Hub(Store(path)).get(table.id)
    lines = list(again.s.talk.log)
    assert len(lines) == 50 and lines[0] == {"seat": 0, "name": "Ana", "text": "line 10"}
    assert lines[-1] == {"seat": 1, "name": "Ben", "text": "line 59"}


def test_c10_three_people_race_for_the_last_seat_and_exactly_one_gets_it(db_path):
    import asyncio

    import httpx

    from cardtable.server.app import create_app
    from cardtable.server.store import Store

    async def main() -> list[int]:
        store = Store(db_path)
        app = create_app(store, bot_delay=0.0, allow_hosts=("testserver",))
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as http:
            made = (await http.post("/api/tables", json={"game": "trash"})).json()
            table_id = made["table"]["id"]
            await http.post(f"/api/tables/{table_id}/sit", json={"seat": 0, "name": "A"})
            replies = await asyncio.gather(*(
                http.post(f"/api/tables/{table_id}/sit", json={"seat": 1, "name": f"racer {i}"}) for i in range(3)))
            seats = (await http.get(f"/api/tables/{table_id}")).json()["table"]["seats"]
        store.close()
        assert seats[1]["name"] in {f"racer {i}" for i in range(3)}
        return sorted(r.status_code for r in replies)

    assert asyncio.run(main()) == [200, 409, 409]


def test_r8_the_others_see_a_player_go_offline_and_come_back(client: TestClient):
    table_id, _, tokens = new_table(client, {}, sit=(0, 1))
    with client.websocket_connect(f"/ws/{table_id}") as ws0:
        hello(ws0, tokens[0])
        with client.websocket_connect(f"/ws/{table_id}") as ws1:
            hello(ws1, tokens[1])
            frame, _ = receive_until(ws0, "table")
            while not frame["table"]["seats"][1]["online"]:
                frame, _ = receive_until(ws0, "table")
        start = time.monotonic()
        frame, _ = receive_until(ws0, "table")
        while frame["table"]["seats"][1]["online"]:
            frame, _ = receive_until(ws0, "table")
        assert time.monotonic() - start < 5.0  # told at once, not after the pings' 10 s timeout


def test_a7_the_table_counts_its_spectators(client: TestClient):
    table_id, _, tokens = new_table(client, {}, sit=(0, 1))

    def watchers_seen_by(ws, count: int) -> None:  # type: ignore[no-untyped-def]
        frame, _ = receive_until(ws, "table")
        while frame["table"]["watchers"] != count:
            frame, _ = receive_until(ws, "table")

    with client.websocket_connect(f"/ws/{table_id}") as ws0:
        assert hello(ws0, tokens[0])["table"]["watchers"] == 0
        with client.websocket_connect(f"/ws/{table_id}") as watcher:
            hello(watcher)
            watchers_seen_by(ws0, 1)
            assert client.get(f"/api/tables/{table_id}").json()["table"]["watchers"] == 1
        watchers_seen_by(ws0, 0)


@pytest.mark.parametrize(("game", "bots"), [("trash", {1: "random"}), ("trex", {1: "random", 2: "random", 3: "random"}),
                                             ("spit", {1: "beginner"})])
def test_a_seat_asks_for_a_hint_worked_out_from_its_own_view(client: TestClient, game: str, bots: dict[int, str]):
    table_id, _, tokens = new_table(client, bots, game=game)
    table = client.app.state.hub.tables[table_id]  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/{table_id}") as ws, client.websocket_connect(f"/ws/{table_id}") as watcher:
        hello(ws, tokens[0])
        hello(watcher)
        deadline = time.monotonic() + 20
        while not table.match.state.view(0).legal_actions:  # type: ignore[union-attr]
            assert time.monotonic() < deadline
            time.sleep(0.01)
        ws.send_json({"type": "hint"})
        frame, _ = receive_until(ws, "hint")
        assert frame["bot"] == "hard" and frame["version"] <= table.version
        assert isinstance(frame["action"], str) and frame["action"]
        table.game.parse_action(frame["action"])  # an action of the game
        watcher.send_json({"type": "hint"})
        assert receive_until(watcher, "error")[0]["code"] == "spectator"
        ws.send_json({"type": "hint", "seat": 1})
        assert receive_until(ws, "error")[0]["code"] == "bad_message"


def test_no_hint_when_it_is_not_your_move(client: TestClient):
    table_id, _, tokens = new_table(client, {}, sit=(0, 1))
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        hello(ws, tokens[1])  # seat 0 moves first in Trash
        ws.send_json({"type": "hint"})
        assert receive_until(ws, "error")[0]["code"] == "no_hint"
