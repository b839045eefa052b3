"""Undo against bots (docs/web.md): a table option, for one person against bots only, never
in Spit; the person's last move and the bots' replies are taken back, committed, kept over a
restart, shown to everyone from ``state.view(seat)`` alone, and the finished game's record
(without the moves taken back) still verifies."""

from __future__ import annotations

import asyncio
import json
import random
import signal
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from cardtable.records.fairness import verify
from cardtable.records.record import Record
from cardtable.server import lifecycle
from cardtable.server.client import GameClient
from cardtable.server.encode import view_json
from cardtable.server.hub import Hub
from cardtable.server.lobby import LobbyError
from cardtable.server.state import TableState
from cardtable.server.store import Store

from .helpers import receive_until
from .netserver import Server
from .test_leaks import FORBIDDEN_KEYS, Capture, cards_in, shown

if TYPE_CHECKING:
    from starlette.testclient import TestClient


UNDO_RATE = lifecycle.UNDO_RATE


@pytest.fixture(autouse=True)
def quick_undos(monkeypatch: pytest.MonkeyPatch) -> None:
    """Scripted players undo faster than a person: no undo rate limit but where it is tested."""
    monkeypatch.setattr(lifecycle, "UNDO_RATE", (1e6, 1e6))


def undo_table(hub: Hub, game: str = "trash", bots: int = 1, undo: bool = True, **options: Any) -> Any:
    table, _ = hub.create(game, None, options, undo=undo)
    table.sit(0, "Ada")
    for seat in range(1, table.num_players):
        table.add_bot(seat, "random" if seat <= bots else "sensible")
    table.start()
    return table


def bots_move(table: Any) -> None:
    """The bots move (synchronously) until the person is to move or the game is over."""
    while table.step_bot():
        pass


def own_move(table: Any, rng: random.Random, seq: int) -> dict[str, Any]:
    """Seat 0 plays a random legal action (a real choice when it has one); the ack."""
    state = table.match.state
    reply = table.act(0, seq, str(rng.choice(state.legal_actions(0))))
    assert reply["type"] == "ack", reply
    table.after_change()
    bots_move(table)
    return reply


def test_undo_takes_back_the_persons_move_and_the_bots_replies(tmp_path: Path):
    hub = Hub(Store(tmp_path / "s.sqlite3"))
    table = undo_table(hub, players=3, bots=2)
    rng = random.Random(3)
    bots_move(table)
    seen = Capture()
    watcher = Capture()
    table.attach(seen, 0, None)
    table.attach(watcher, None, None)
    views: dict[int, str] = {}
    for seq in range(1, 200):  # (the deal is random) until the person's last choice had the bots answer
        if len(table.match.state.legal_actions(0)) > 1:
            views[table.version] = json.dumps(table.view_json(0, "en"))
        own_move(table, rng, seq)
        assert not table.match.is_over
        if seq >= 14 and views and table.version > max(views) + 1:
            break
    point = max(views)
    before = table.version
    assert before > point + 1  # the bots answered
    mark = len(seen.frames)
    assert table.undo(0) is None
    assert table.version == point
    assert json.dumps(table.view_json(0, "en")) == views[point]
    frames = [json.loads(f) for f in seen.frames[mark:]]
    undo = next(f for f in frames if f["type"] == "undo")
    assert undo["seat"] == 0 and undo["version"] == point and undo["taken"] == before - point
    assert isinstance(undo["move"], str)  # the person's own move, named to them
    state = [f for f in frames if f["type"] == "state"][-1]
    assert state["version"] == point and json.dumps(state["view"]) == views[point]
    spectator = [json.loads(f) for f in watcher.frames if '"type":"undo"' in f][-1]
    assert "move" not in spectator and spectator["taken"] == before - point
    # the next undo goes one own move further back
    earlier = sorted(v for v in views if v < point)
    if earlier:
        assert table.undo(0) is None and table.version == earlier[-1]


def test_undo_is_refused_with_a_reason_when_not_allowed(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(lifecycle, "UNDO_RATE", UNDO_RATE)
    hub = Hub(Store(tmp_path / "s.sqlite3"))
    plain = undo_table(hub, undo=False)
    assert plain.undo(0)["code"] == "undo_off"
    table = undo_table(hub)
    bots_move(table)
    assert [table.undo(0)["code"] for _ in range(6)] == ["undo_nothing"] * 5 + ["rate_limited"]  # nothing yet;
    # then a flood is cut short: each undo replays the game (UNDO_RATE)
    two, _ = hub.create("trash", None, {"players": 3}, undo=True)
    two.sit(0, "Ada")
    two.sit(1, "Ben")  # a second person joins
    two.add_bot(2, "random")
    two.start()
    n = 0
    while two.match.state.current_player() != 0:
        seat = two.match.state.current_player()
        if not two.step_bot():
            n += 1
            two.act(seat, n, str(two.match.state.legal_actions(seat)[0]))
    two.act(0, 1, str(two.match.state.legal_actions(0)[0]))
    refused = two.undo(0)
    assert refused["code"] == "undo_people" and "another person" in refused["message"]
    with pytest.raises(LobbyError) as spit:
        hub.create("spit", None, {}, undo=True)
    assert spit.value.code == "undo_realtime"
    with pytest.raises(LobbyError):
        hub.create("trash", None, {}, undo="yes")


def test_the_undo_message_is_checked_over_the_socket(client: TestClient):
    r = client.post("/api/tables", json={"game": "trash", "undo": True})
    assert r.status_code == 201 and r.json()["table"]["undo"] is True
    table_id, host = r.json()["table"]["id"], r.json()["host"]
    token = client.post(f"/api/tables/{table_id}/sit", json={"seat": 0, "name": "Ada"}).json()["token"]
    client.post(f"/api/tables/{table_id}/bot", json={"host": host, "seat": 1, "bot": "random"})
    assert client.post(f"/api/tables/{table_id}/start", json={"host": host}).status_code == 200
    r = client.post("/api/tables", json={"game": "spit", "undo": True})
    assert r.status_code == 400 and r.json()["error"] == "undo_realtime"
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        ws.send_json({"type": "hello", "token": token})
        state, _ = receive_until(ws, "state")
        while state["view"]["current_player"] != 0:
            state, _ = receive_until(ws, "state")
        ws.send_json({"type": "undo", "steps": 2})
        assert receive_until(ws, "error")[0]["code"] == "bad_message"
        version = state["version"]
        legal = list(state["view"]["legal_actions"])
        ws.send_json({"type": "act", "seq": 1, "action": legal[0]})
        receive_until(ws, "ack")
        while True:  # the bot's reply, until the person is to move again
            state, _ = receive_until(ws, "state")
            if state["view"]["current_player"] == 0 or state["view"]["outcome"] is not None:
                break
        ws.send_json({"type": "undo"})
        frame = ws.receive_json()
        while frame["type"] not in ("undo", "error"):
            frame = ws.receive_json()
        if len(legal) > 1:  # the first move was a choice: it is taken back
            assert frame["type"] == "undo" and frame["version"] == version
            state, _ = receive_until(ws, "state")
            assert state["version"] == version and state["view"]["legal_actions"] == legal
        else:
            assert frame["code"] == "undo_nothing"
    with client.websocket_connect(f"/ws/{table_id}") as ws:  # a spectator may not
        ws.send_json({"type": "hello"})
        receive_until(ws, "state")
        ws.send_json({"type": "undo"})
        assert receive_until(ws, "error")[0]["code"] == "spectator"


def test_an_undo_is_kept_over_a_restart_and_the_record_verifies(tmp_path: Path):
    path = tmp_path / "s.sqlite3"
    store = Store(path)
    hub = Hub(store)
    table = undo_table(hub, game="trex", bots=3)
    rng = random.Random(8)
    bots_move(table)
    for seq in range(1, 12):
        own_move(table, rng, seq)
    assert table.undo(0) is None
    back_to = table.version
    views = {s: json.dumps(table.view_json(s, "en")) for s in (0, 1, None)}
    last_seq = table.s.flow.last_seq[0]
    store.close()
    again = Hub(Store(path))
    back = again.get(table.id)
    assert back.version == back_to
    assert {s: json.dumps(back.view_json(s, "en")) for s in (0, 1, None)} == views
    assert back.s.flow.last_seq[0][0] == last_seq[0]  # a resend of the move taken back is not played again
    assert back.act(0, last_seq[0], "anything")["dup"] is True
    seq = last_seq[0]
    undos = 0
    while not back.match.is_over:
        seq += 1
        assert seq < 10_000, "the game does not end"
        back.act(0, seq, str(rng.choice(back.match.state.legal_actions(0))))
        back.after_change()
        if seq % 7 == 0 and undos < 3 and not back.match.is_over:  # a few more undos (within UNDO_RATE), then play on:
            assert back.undo(0) is None  # an undo may take back more than 7 moves (one-answer moves too)
            undos += 1
        bots_move(back)
    record = back.match.record()
    assert len(record.actions) == back.version  # the record holds the line as played, no move taken back
    assert verify(Record.from_json(json.loads(json.dumps(record.to_json())))).game == "trex"
    assert back.undo(0)["code"] == "over"


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["graceful", "sigkill"])
def test_a_real_server_restarts_at_the_undone_position(tmp_path: Path, sig: int):
    """Over real WebSockets: undo, then a restart (graceful, or SIGKILL right after the undo
    frame) comes back to the undone position; the game goes on to the end and the downloaded
    record verifies."""
    srv = Server(tmp_path / "server.sqlite3", "--rate", "100000", "--burst", "100000").start()
    try:
        created = srv.post("/api/tables", game="trash", options={"players": 3}, undo=True)
        table_id, host = created["table"]["id"], created["host"]
        token = srv.post(f"/api/tables/{table_id}/sit", seat=0, name="Ada")["token"]
        for seat in (1, 2):
            srv.post(f"/api/tables/{table_id}/bot", host=host, seat=seat, bot="random")
        srv.post(f"/api/tables/{table_id}/start", host=host)
        rng = random.Random(4)

        async def before() -> tuple[int, dict[str, Any]]:
            c = GameClient(srv.ws, table_id, token)
            await c.connect()
            undone = None
            for _ in range(30):
                await c.wait_turn()
                assert c.view is not None
                if len(c.view["legal_actions"]) > 1:
                    undone = (c.version, position(c.view))
                assert (await c.act(rng.choice(c.view["legal_actions"])))["type"] == "ack"
            await c.wait_turn()
            reply = await c.undo()
            assert reply["type"] == "undo" and undone is not None
            assert (c.version, position(c.view)) == undone
            if sig == signal.SIGKILL:
                srv.stop(signal.SIGKILL)
            else:
                await c.close()
            return undone

        version, view = run(before())
        if sig == signal.SIGKILL:
            srv.start()
        else:
            srv.restart(signal.SIGTERM)

        async def after() -> None:
            c = GameClient(srv.ws, table_id, token)
            await c.connect()
            state = await c.until(lambda f: f["type"] == "state")
            assert state["version"] == version and position(state["view"]) == view
            await c.play_to_end(rng)
            await c.close()

        run(after())
        record = srv.get(f"/api/tables/{table_id}/record")
        assert verify(Record.from_json(record)).game == "trash"
    finally:
        if srv.proc is not None and srv.proc.poll() is None:
            srv.stop()


def position(view: dict[str, Any]) -> dict[str, Any]:
    """A view without its events (a state frame carries those of the frames it replaced)."""
    return {k: v for k, v in view.items() if k != "events"}


def run(coro: Any) -> Any:
    return asyncio.run(asyncio.wait_for(coro, 120))


def test_no_hidden_card_on_the_wire_around_undos():
    """The leak oracle of tests/server/test_leaks.py over Trash games with undos: after an undo,
    every frame carries only the cards shown on the line of play as it now stands (what the
    undone line showed is not allowed again), and no forbidden key."""
    assert undo_games(30) > 20


def test_the_undo_oracle_catches_a_stale_view(monkeypatch: pytest.MonkeyPatch):
    """Not vacuous: a server that redrew a page from the position taken back would fail it."""
    real = lifecycle.undo

    def stale(s: TableState, seat: int) -> dict[str, Any] | None:
        old = s.match
        reply = real(s, seat)
        seats = {conn: seat for seat, conn in s.players.items()}
        for conn in s.connections():
            s.fx.send(conn, {"type": "state", "version": s.version, "view": view_json(old.state.view(seats.get(conn)))})
        return reply

    monkeypatch.setattr(lifecycle, "undo", stale)
    with pytest.raises(AssertionError, match="hidden cards"):
        undo_games(30)


def undo_games(games: int) -> int:
    """Random Trash games of seat 0 against bots with random undos, every frame checked; the undos."""
    hub = Hub(Store(":memory:"))
    rng = random.Random(15)
    return sum(UndoGame(hub, rng).play() for _ in range(games))


class UndoGame:
    """One game under the oracle: the cards allowed at each version of the line as it stands."""

    moves = 0  # seat 0's client seqs, rising over every game

    def __init__(self, hub: Hub, rng: random.Random) -> None:
        self.rng = rng
        self.table = undo_table(hub, players=rng.choice((2, 3)), bots=3)
        self.conns = {0: Capture(), None: Capture()}
        for seat, conn in self.conns.items():
            self.table.attach(conn, seat, None)
        self.marks = dict.fromkeys(self.conns, 0)
        self.seen_at: dict[int, set[str]] = {self.table.version: shown(self.table.match.state)}

    def check(self, allowed: set[str]) -> None:
        for seat, conn in self.conns.items():
            for text in conn.frames[self.marks[seat]:]:
                leaked = cards_in(text) - allowed
                assert not leaked, f"seat {seat} was sent hidden cards {leaked}: {text[:300]}"
                assert not FORBIDDEN_KEYS.search(text), text[:300]
            self.marks[seat] = len(conn.frames)

    def step(self) -> None:
        table = self.table
        state = table.match.state
        before = {str(c) for c in _down_and_top(state)}
        previous = self.seen_at[table.version]
        hands = state.hands_played
        if state.current_player() == 0:
            UndoGame.moves += 1
            reply = table.act(0, UndoGame.moves, str(self.rng.choice(state.legal_actions(0))))
            assert reply["type"] == "ack"
            table.after_change()
        else:
            assert table.step_bot()
        allowed = previous | shown(state)
        if state.hands_played != hands or table.match.is_over:
            allowed |= before  # a hand ended inside this action (as in test_leaks)
        self.seen_at[table.version] = allowed
        self.check(allowed)

    def play(self) -> int:
        table, undos = self.table, 0
        self.check(self.seen_at[table.version])
        while not table.match.is_over:
            if table.match.state.current_player() == 0 and self.rng.random() < 0.15 and table.undo(0) is None:
                undos += 1
                for v in [v for v in self.seen_at if v > table.version]:
                    del self.seen_at[v]  # what the line taken back showed is not allowed any more
                self.check(self.seen_at[table.version] | shown(table.match.state))
            else:
                self.step()
        return undos


def _down_and_top(state: Any) -> list[Any]:
    from cardtable.core.cards import Card

    cards = [Card.from_id(c) for c in state.down[state.turn][1:] if c >= 0]
    if state.stock:
        cards.append(Card.from_id(state.stock[-1]))
    return cards
