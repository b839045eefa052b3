"""Provably fair deals on the server (docs/fairness.md): the commit–reveal protocol over HTTP,
the start once every seed is in, the record ``cardtable verify`` accepts (and tampered copies
it rejects), seats that change, a restart that replays the same deals, and no trace of the
server seed in any frame or HTTP answer before the end."""

from __future__ import annotations

import copy
import hashlib
import json
import random
from typing import TYPE_CHECKING, Any

import pytest

from cardtable.records.fairness import FairnessError, verify
from cardtable.records.record import Record
from cardtable.server import fanout
from cardtable.server.hub import Hub
from cardtable.server.lobby import LobbyError
from cardtable.server.store import Store

from .helpers import play_first_legal_to_end
from .test_leaks import Capture
from .test_protocol import hello

if TYPE_CHECKING:
    from pathlib import Path

    from starlette.testclient import TestClient


def seed_and_commitment(rng: random.Random) -> tuple[str, str]:
    seed = rng.randbytes(32)
    return seed.hex(), hashlib.sha256(seed).hexdigest()


def secrets_of(table: Any) -> tuple[str, ...]:
    assert table.s.fair.deal is not None
    return table.s.fair.deal.secret_texts()


def test_h_fair_commit_reveal_over_http_then_the_record_verifies(fast_client: TestClient):
    client = fast_client
    rng = random.Random(16)
    created = client.post("/api/tables", json={"game": "trash", "options": {"target_size": 9}}).json()
    table_id, host = created["table"]["id"], created["host"]
    fair = created["table"]["fair"]
    assert fair["scheme"] == "cardtable-fair/1" and len(fair["server_commitment"]) == 64
    assert fair["seat_commitments"] == [None, None] and fair["waiting"] == [0, 1]
    seed, promised = seed_and_commitment(rng)
    r = client.post(f"/api/tables/{table_id}/sit", json={"seat": 0, "name": "Ada", "commitment": "xyz"})
    assert r.status_code == 400 and r.json()["error"] == "bad_commitment"
    assert client.get(f"/api/tables/{table_id}").json()["table"]["seats"][0]["kind"] == "open"  # nothing lost
    r = client.post(f"/api/tables/{table_id}/sit", json={"seat": 0, "name": "Ada", "commitment": promised})
    token = r.json()["token"]
    assert r.json()["table"]["fair"]["seat_commitments"][0] == promised
    r = client.post(f"/api/tables/{table_id}/reveal", json={"token": token, "seed": seed})
    assert r.status_code == 409 and r.json()["error"] == "not_committed"  # seat 1 has not committed yet
    r = client.post(f"/api/tables/{table_id}/bot", json={"host": host, "seat": 1, "bot": "random"})
    fair = r.json()["table"]["fair"]
    assert fair["waiting"] == [0] and fair["seat_seeds"][0] is None and fair["seat_seeds"][1] is not None
    r = client.post(f"/api/tables/{table_id}/start", json={"host": host})
    assert r.json()["table"]["status"] == "open" and r.json()["table"]["fair"]["starting"]  # waits for seat 0
    wrong = "00" * 32
    r = client.post(f"/api/tables/{table_id}/reveal", json={"token": token, "seed": wrong})
    assert r.status_code == 400 and r.json()["error"] == "bad_seed"
    r = client.post(f"/api/tables/{table_id}/reveal", json={"token": "nope", "seed": seed})
    assert r.status_code == 403
    r = client.post(f"/api/tables/{table_id}/reveal", json={"token": token, "seed": seed})
    assert r.json()["table"]["status"] == "playing"  # the last seed was in: the start goes ahead
    table = client.app.state.hub.tables[table_id]  # type: ignore[attr-defined]
    hidden = secrets_of(table)
    for path in ("", "/record", "/replay"):  # HTTP answers before the end: no trace of the server seed
        text = client.get(f"/api/tables/{table_id}{path}").text
        assert not any(s in text for s in hidden), path
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        welcome = hello(ws, token)
        assert not any(s in json.dumps(welcome) for s in hidden)
        frame = play_first_legal_to_end(ws, 0)
    assert frame["view"]["outcome"] is not None
    info = client.get(f"/api/tables/{table_id}").json()["table"]
    assert info["fair"]["server_seed"] == hidden[0]  # revealed once the game is over
    record = Record.from_json(client.get(f"/api/tables/{table_id}/record").json())
    assert record.fairness is not None and record.fairness.seat_seeds[0] == seed
    assert verify(record).game == "trash"


def finished_record(game: str, rng: random.Random, tmp_path: Path) -> tuple[Record, Any]:
    """A whole game of ``game`` on an in-process server: seat 0 a person who commits and reveals,
    the others bots played through the table's own action path; its record and the table."""
    hub = Hub(Store(tmp_path / f"{game}.sqlite3"))
    table, _ = hub.create(game, None, {"target_size": 6} if game == "trash" else {})
    seed, promised = seed_and_commitment(rng)
    token = table.sit(0, "Ada", promised)
    for seat in range(1, table.num_players):
        table.sit(seat, f"P{seat}")  # no commitment: the server makes the seat's seed
    table.reveal(token, seed)
    table.start()
    play_to_end(table, rng)
    return table.match.record(), table


def play_to_end(table: Any, rng: random.Random, limit: int = 20_000) -> None:
    """Random legal actions through :meth:`Table.act` (timers by the host) until the game is over."""
    match = table.match
    # each seat's seqs go on from its last applied one (a table replayed after a restart remembers them)
    seq = {s: table.s.flow.last_seq.get(s, (0, 0))[0] for s in range(table.num_players)}
    for _ in range(limit):
        if match.is_over:
            return
        state = match.state
        to_move = state.current_player()
        seats = [to_move] if to_move >= 0 else [s for s in range(table.num_players) if state.legal_actions(s)]
        if seats:
            seat = rng.choice(seats)
            seq[seat] += 1
            reply = table.act(seat, seq[seat], str(rng.choice(state.legal_actions(seat))))
            assert reply["type"] == "ack", reply
        else:  # only a timer can move (Spit's re-spit or slap timeout)
            action = rng.choice(list(state.legal_actions(None)))
            if table.rt is None or not any(a.accepted for a in table.rt.advance()):
                match._accept(-1, action)
        table.after_change()
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("game", ["trash", "trex", "spit"])
def test_h_fair_a_server_game_of_each_game_verifies_and_tampering_fails(game: str, tmp_path: Path):
    rng = random.Random(f"fair-{game}")
    record, table = finished_record(game, rng, tmp_path)
    data = record.to_json()
    assert "seed" not in data and data["fairness"]["server_seed"] == secrets_of(table)[0]
    assert verify(Record.from_json(json.loads(json.dumps(data)))).game == game

    def tampered(change: Any, message: str) -> None:
        bad = copy.deepcopy(data)
        change(bad)
        with pytest.raises(FairnessError, match=message):
            verify(Record.from_json(bad))

    def card(bad: dict[str, Any]) -> None:  # a changed card in the first deal
        cards = bad["fairness"]["deals"][0]["cards"]
        cards[0], cards[1] = cards[1], cards[0]

    def seat_seed(bad: dict[str, Any]) -> None:
        seeds = bad["fairness"]["seat_seeds"]
        seeds[0] = ("1" if seeds[0][0] != "1" else "2") + seeds[0][1:]

    def server_seed(bad: dict[str, Any]) -> None:
        bad["fairness"]["server_seed"] = "ab" * 32

    def action_byte(bad: dict[str, Any]) -> None:
        text = bad["actions"][-1]
        bad["actions"][-1] = text[:-1] + ("x" if text[-1] != "x" else "y")

    tampered(card, "card 1")
    tampered(seat_seed, "seat 0's seed does not match")
    tampered(server_seed, "the server seed does not match")
    tampered(action_byte, "an action was changed")


def test_h_fair_no_trace_of_the_server_seed_in_any_frame_before_the_end(tmp_path: Path):
    """The oracle: every frame each seat and a spectator get, from the table's creation to the
    end, is scanned for the server seed's hex (both cases) and base64; after the end the
    table frame carries it (the oracle looks for the right texts)."""
    rng = random.Random(161)
    for game in ("trash", "trex", "spit"):
        hub = Hub(Store(":memory:"))
        table, _ = hub.create(game, None, {"target_size": 6} if game == "trash" else {})
        watchers = {None: Capture()}
        table.attach(watchers[None], None, None)
        seeds = {}
        tokens = {}
        for seat in range(table.num_players):
            seeds[seat], promised = seed_and_commitment(rng)
            tokens[seat] = table.sit(seat, f"P{seat}", promised)
            watchers[seat] = Capture()
            table.attach(watchers[seat], seat, None)
        table.start()
        assert table.match is None  # every seed first
        for seat in range(table.num_players):
            table.reveal(tokens[seat], seeds[seat])
        assert table.match is not None
        hidden = secrets_of(table)
        play_to_end(table, rng)
        frames = [f for conn in watchers.values() for f in conn.frames]
        last_table = max(i for i, f in enumerate(watchers[None].frames) if f.startswith('{"type":"table"'))
        before_end = [f for conn in watchers.values() for f in conn.frames
                      if '"server_seed":null' in f or not f.startswith('{"type":"table"')]
        assert len(frames) > 50
        for text in before_end:
            assert not any(s in text for s in hidden), f"{game}: the server seed left early: {text[:200]}"
        assert hidden[0] in watchers[None].frames[last_table]  # revealed with the end


def test_h_fair_a_seat_that_changes_after_the_seeds_are_public_begins_again(tmp_path: Path):
    rng = random.Random(7)
    hub = Hub(Store(":memory:"))
    table, _ = hub.create("trex", None, {})
    first = table.public()["fair"]["server_commitment"]
    seed0, promised0 = seed_and_commitment(rng)
    token0 = table.sit(0, "Ada", promised0)
    table.add_bot(1, "random")
    table.free(1)  # before every seat committed: only that seat's commitment goes
    fair = table.public()["fair"]
    assert fair["server_commitment"] == first and fair["seat_commitments"][0] == promised0
    assert fair["seat_commitments"][1] is None
    for seat in (1, 2, 3):
        table.add_bot(seat, "random")
    assert table.public()["fair"]["seat_seeds"][1] is not None  # every seat committed: seeds public
    table.free(2)  # a change now: a new server seed, and every person commits again
    fair = table.public()["fair"]
    assert fair["server_commitment"] != first and fair["seat_commitments"][0] is None
    assert fair["seat_commitments"][2] is None and fair["seat_commitments"][1] is not None
    with pytest.raises(LobbyError) as refused:
        table.reveal(token0, seed0)
    assert refused.value.code == "not_committed"
    seed0, promised0 = seed_and_commitment(rng)
    table.commit(token0, promised0)
    with pytest.raises(LobbyError) as twice:
        table.commit(token0, promised0)
    assert twice.value.code == "committed"
    table.add_bot(2, "random")
    table.reveal(token0, seed0)
    assert table.s.fair.deal.ready()
    table.start()
    assert table.match is not None and table.match.fair is table.s.fair.deal


def test_h_fair_a_restart_mid_game_replays_the_same_cards_and_still_verifies(tmp_path: Path):
    rng = random.Random(99)
    path = tmp_path / "server.sqlite3"
    store = Store(path)
    hub = Hub(store)
    table, _ = hub.create("trash", None, {"target_size": 6})
    seed, promised = seed_and_commitment(rng)
    token = table.sit(0, "Ada", promised)
    table.sit(1, "Ben")
    table.reveal(token, seed)
    table.start()
    match = table.match
    for n in range(40):
        seat = match.state.current_player()
        table.act(seat, n + 1, str(rng.choice(match.state.legal_actions(seat))))
    views = {s: json.dumps(table.view_json(s, "en")) for s in (0, 1, None)}
    before = str(match.state)
    store.close()
    again = Hub(Store(path))
    back = again.get(table.id)
    assert back.match is not None and str(back.match.state) == before
    assert {s: json.dumps(back.view_json(s, "en")) for s in (0, 1, None)} == views
    assert back.s.fair.deal is not None and back.s.fair.deal.commitment() == table.s.fair.deal.commitment()
    play_to_end(back, rng)
    assert verify(back.match.record()).game == "trash"


def test_h_fair_a_resume_from_a_checkpoint_replays_the_fair_deals(tmp_path: Path):
    """Missed events after a reconnect are rebuilt from the fair deals (checkpoints every 64
    versions): each version's events are the ones the seat was sent live."""
    rng = random.Random(5)
    hub = Hub(Store(":memory:"))
    table, _ = hub.create("trex", None, {})
    for seat in range(4):
        table.sit(seat, f"P{seat}")
    table.start()
    match = table.match
    live = Capture()
    table.attach(live, 0, None)
    for n in range(150):
        seat = match.state.current_player()
        table.act(seat, n + 1, str(rng.choice(match.state.legal_actions(seat))))
        table.after_change()
    sent: dict[int, list[Any]] = {}
    for text in live.frames:
        frame = json.loads(text)
        if frame["type"] == "state":
            sent[frame["version"]] = frame["view"]["events"]
    missed = fanout.events_since(table.s, 0, 10, "en")
    assert table.s.fan.checkpoints  # the replay took checkpoints on the way
    again: dict[int, list[Any]] = {}
    for event in missed:
        again.setdefault(event.pop("version"), []).append(event)
    assert again and all(again[v] == sent[v] for v in again)


def test_h_fair_an_open_table_keeps_its_commitments_over_a_restart(tmp_path: Path):
    rng = random.Random(3)
    path = tmp_path / "server.sqlite3"
    store = Store(path)
    table, _ = Hub(store).create("spit", None, {})
    seed, promised = seed_and_commitment(rng)
    token = table.sit(0, "Ada", promised)
    table.add_bot(1, "medium")
    public = table.public()["fair"]
    store.close()
    back = Hub(Store(path)).get(table.id)
    assert back.public()["fair"] == public and public["waiting"] == [0]
    back.reveal(token, seed)  # the seed the page kept still opens the commitment made before
    back.start()
    assert back.match is not None and back.match.fair is not None


def test_h_fair_a_database_from_before_fair_deals_gains_the_column(tmp_path: Path):
    import sqlite3

    from .test_migrations import MAIN_DDL

    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path)
    schema = MAIN_DDL.replace(",\n    fair TEXT", "")
    assert "fair" not in schema
    old.executescript(schema)
    old.close()
    store = Store(path)
    table, _ = Hub(store).create("trash", None, {})
    assert store.table(table.id).fair == table.row.fair and table.public()["fair"] is not None
