"""Undo's bounds: an undo goes back to a kept copy of the position (it does not play the game
again from the deal), a flood of undos is bounded per address over all its tables (P8), and an
undo never takes back another person's own move, even once a stand-in plays their seat (P7)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from cardtable.server import lifecycle, routes_socket
from cardtable.server.hub import Hub
from cardtable.server.store import Store

from .helpers import receive_until
from .test_undo import bots_move, own_move, undo_table

if TYPE_CHECKING:
    from starlette.testclient import TestClient


@pytest.fixture(autouse=True)
def quick_undos(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lifecycle, "UNDO_RATE", (1e6, 1e6))


def test_p8_an_undo_does_not_read_the_game_back_from_the_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The undo goes back to the copy kept at the person's move: the log is written (the moves
    taken back move to ``undone``) but never read, so an undo costs the same at move 900 as at
    move 9. After a restart the copies are made again from the log, once."""
    store = Store(tmp_path / "s.sqlite3")
    table = undo_table(Hub(store))
    rng = random.Random(11)
    bots_move(table)
    choices: list[int] = []
    for seq in range(1, 400):
        if len(table.match.state.legal_actions(0)) > 1:
            choices.append(table.version)
        own_move(table, rng, seq)
        if len(choices) >= 3 or table.match.is_over:
            break
    assert len(choices) >= 2 and not table.match.is_over

    def no_reading(*args: Any) -> Any:
        raise AssertionError("the undo read the game back from the log")

    monkeypatch.setattr(store, "actions", no_reading)
    assert table.undo(0) is None and table.version == choices[-1]
    assert table.undo(0) is None and table.version == choices[-2]
    monkeypatch.undo()
    back = Hub(store).get(table.id)  # a restart: the points are found again from the log
    if len(choices) >= 3:
        assert back.undo(0) is None and back.version == choices[-3]
    else:
        assert back.undo(0)["code"] == "undo_nothing"


def test_p7_an_undo_never_takes_back_another_persons_move(tmp_path: Path):
    """Two people play; Ben chooses a move after Ada's last choice, then leaves and a stand-in
    plays his seat. Ada's undo would take Ben's own choice back with hers: it is refused. Once
    Ada chooses again, her undo goes back to that choice only."""
    hub = Hub(Store(tmp_path / "s.sqlite3"))
    table, _ = hub.create("trash", None, {}, undo=True)
    table.sit(0, "Ada")
    ben = table.sit(1, "Ben")
    table.start(seed=8)
    rng = random.Random(2)
    seqs = {0: 0, 1: 0}
    ada_chose = ben_chose_after = False
    for _ in range(3000):
        seat = table.match.to_move()
        legal = table.match.state.legal_actions(seat)
        chosen = len(legal) > 1
        seqs[seat] += 1
        assert table.act(seat, seqs[seat], str(rng.choice(legal)))["type"] == "ack"
        table.after_change()
        ada_chose |= seat == 0 and chosen
        ben_chose_after |= ada_chose and seat == 1 and chosen
        if ben_chose_after:
            break
    assert ben_chose_after and not table.match.is_over
    ben_moves = [r for r in table.store.actions(table.id) if r.seat == 1 and r.client_seq is not None]
    table.leave(ben)  # a stand-in plays seat 1 from now on
    bots_move(table)
    refused = table.undo(0)
    assert refused is not None and refused["code"] == "undo_people", refused
    assert [r for r in table.store.actions(table.id) if r.seat == 1 and r.client_seq is not None] == ben_moves
    for _ in range(400):  # Ada chooses again: that choice she may take back
        if table.match.is_over or len(table.match.state.legal_actions(0)) > 1:
            break
        own_move(table, rng, seqs[0] + 1)
        seqs[0] += 1
    assert not table.match.is_over
    point = table.version
    own_move(table, rng, seqs[0] + 1)
    assert table.undo(0) is None and table.version == point
    assert [r for r in table.store.actions(table.id) if r.seat == 1 and r.client_seq is not None] == ben_moves


def undo_table_over_http(client: TestClient) -> tuple[str, str]:
    """A started undo table made through the lobby API, Ada at seat 0 against a random bot: its
    id and Ada's token."""
    r = client.post("/api/tables", json={"game": "trash", "undo": True})
    table_id, host = r.json()["table"]["id"], r.json()["host"]
    token = client.post(f"/api/tables/{table_id}/sit", json={"seat": 0, "name": "Ada"}).json()["token"]
    client.post(f"/api/tables/{table_id}/bot", json={"host": host, "seat": 1, "bot": "random"})
    client.post(f"/api/tables/{table_id}/start", json={"host": host})
    return table_id, token


def test_p8_undos_are_bounded_per_address_over_all_its_tables(db_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Each seat's own bound is wide open here; the address's bound (three at once) still cuts a
    flood spread over three tables short, with the seat's ``rate_limited`` error."""
    from .conftest import _client

    monkeypatch.setattr(routes_socket, "UNDO_PER_ADDRESS", (1e-6, 3.0))
    store = Store(db_path)
    try:
        with _client(store, bot_delay=0.0) as client:
            codes: list[str] = []
            for _ in range(3):
                table_id, token = undo_table_over_http(client)
                with client.websocket_connect(f"/ws/{table_id}") as ws:
                    ws.send_json({"type": "hello", "token": token})
                    receive_until(ws, "state")
                    for _ in range(2):
                        ws.send_json({"type": "undo"})
                        codes.append(receive_until(ws, "error")[0]["code"])
    finally:
        store.close()
    assert codes.count("rate_limited") == 3 and codes[:3] == ["undo_nothing"] * 3, codes


def test_p8_the_socket_client_sees_the_same_undo_refusals(client: TestClient):
    """The page's refusals stay as they were: nothing to take back is ``undo_nothing``."""
    table_id, token = undo_table_over_http(client)
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        ws.send_json({"type": "hello", "token": token})
        receive_until(ws, "state")
        ws.send_json({"type": "undo"})
        assert receive_until(ws, "error")[0]["code"] == "undo_nothing"
