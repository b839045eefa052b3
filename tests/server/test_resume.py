"""A reconnect with ``since`` costs the server a bounded replay, and resumes are
rate-limited per address (R1, R4)."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from cardtable.i18n import event_text
from cardtable.server import fanout
from cardtable.server.encode import jsonable
from cardtable.server.fanout import CHECKPOINT_EVERY, MAX_RESUME
from cardtable.server.hub import Hub
from cardtable.server.store import Store
from cardtable.server.tables import Table

from .helpers import new_table, receive_until
from .test_protocol import hello


def _bot_game(game: str, seats: int, seed: int) -> Table:
    hub = Hub(Store(":memory:"))
    table, _ = hub.create(game, None, {})
    for seat in range(seats):
        table.add_bot(seat, "random")
    table.start(seed=seed)
    while table.step_bot():
        pass
    assert table.match is not None and table.match.is_over
    return table


def _from_the_start(table: Table, seat: int | None, since: int, lang: str) -> list[dict[str, Any]]:
    """The events since ``since`` as the whole game replayed from its seed shows them."""
    assert table.match is not None
    state = table.game.new_state(seed=table.row.seed)
    out = []
    for number, action in enumerate(table.match.state.history, 1):
        state.play(action)
        if number > since:
            view = state.view(seat)
            for event in view.events:
                data = jsonable(event)
                if lang != "en":
                    data["text"] = event_text(table.row.game, event, view, lang)
                out.append({**data, "version": number})
    return out


@pytest.mark.parametrize(("game", "seats"), [("trash", 2), ("trex", 4)])
def test_h5_r1_events_from_a_checkpoint_are_the_events_of_the_whole_replay(game: str, seats: int):
    table = _bot_game(game, seats, seed=7)
    rng = random.Random(3)
    version = table.version
    for _ in range(12):
        since = rng.randrange(max(0, version - MAX_RESUME), version)
        seat = rng.choice([None, *range(seats)])
        lang = rng.choice(["en", "es"])
        assert fanout.events_since(table.s, seat, since, lang) == _from_the_start(table, seat, since, lang)


def test_r4_a_resume_one_version_behind_replays_a_bounded_number_of_actions():
    table = _bot_game("trex", 4, seed=11)  # a whole Trex game: twenty deals, about a thousand actions
    version = table.version
    assert version > 4 * CHECKPOINT_EVERY
    fanout.events_since(table.s, 0, version - 1, "en")  # the first resume passes the checkpoints
    for since in (version - 1, version - 2, version - 100):
        before = table.s.fan.replayed
        assert fanout.events_since(table.s, 0, since, "en")
        assert table.s.fan.replayed - before <= CHECKPOINT_EVERY + (version - since)
    before = table.s.fan.replayed
    assert fanout.events_since(table.s, 0, version - MAX_RESUME - 1, "en") == []  # the state alone will do
    assert table.s.fan.replayed == before



def test_r4_the_first_resume_after_a_table_is_loaded_from_the_log_is_bounded_too(tmp_path: Path):
    """R4 (and R1 after a take-over): a table read back from the log takes its checkpoints while
    it is replayed, so the first page back with ``since`` (every page after a cluster node took
    the table over) replays at most a checkpoint's distance, not the whole game, and gets the same
    events as the whole replay."""
    store = Store(tmp_path / "s.sqlite3")
    hub = Hub(store)
    table, _ = hub.create("trex", None, {})
    for seat in range(4):
        table.add_bot(seat, "random")
    table.start(seed=11)
    while table.step_bot():
        pass
    version = table.version
    assert version > 4 * CHECKPOINT_EVERY
    loaded = Hub(store).find(table.id)  # as a restarted or taking-over process reads it
    assert loaded is not None and loaded.version == version
    since = version - 3
    assert fanout.events_since(loaded.s, 1, since, "en") == _from_the_start(loaded, 1, since, "en")
    assert loaded.s.fan.replayed <= CHECKPOINT_EVERY + 3

def test_r4_resumes_with_missed_events_are_rate_limited_per_address(fast_client: TestClient):
    table_id, _, _ = new_table(fast_client, {0: "random", 1: "random"}, sit=())
    table = fast_client.app.state.hub.tables[table_id]  # type: ignore[attr-defined]
    with fast_client.websocket_connect(f"/ws/{table_id}") as watcher:  # bots alone play while watched
        hello(watcher)
        while table.match is None or table.version < 5:
            time.sleep(0.01)
    with_events = 0
    start = time.monotonic()
    for _ in range(40):  # a spectator reconnecting again and again, one version behind
        with fast_client.websocket_connect(f"/ws/{table_id}") as ws:
            hello(ws, since=max(0, table.version - 1))
            _, frames = receive_until(ws, "state")
            with_events += any(f["type"] == "events" for f in frames)
    refilled = 2.0 * (time.monotonic() - start)  # two a second
    assert 20 <= with_events <= 20 + refilled + 1, (with_events, refilled)  # the burst and the refill; then snapshots
    assert with_events < 40
