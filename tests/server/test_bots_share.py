"""Bots think off the event loop, addresses take turns, and bots alone that
nobody watches wait."""

from __future__ import annotations

import asyncio
import concurrent.futures
import random
import time
from pathlib import Path
from typing import Any

from cardtable.server.botpool import BotPool
from cardtable.server.store import Store

from .conftest import _client
from .helpers import new_table
from .test_protocol import hello


class Recorder:
    """A picklable stand-in bot that notes who asked and answers at once."""

    def __init__(self, name: str) -> None:
        self.name = name

    def act(self, view: Any, rng: random.Random) -> str:
        return self.name


def test_ld3_owners_take_turns_for_the_bot_workers():
    """One address with many tables waiting does not push another address's one move to the back."""
    pool = BotPool(1)
    pool._executor = concurrent.futures.ThreadPoolExecutor(1)  # type: ignore[assignment]  (in-process, same queue)
    order: list[str] = []

    async def move(owner: str, name: str) -> None:
        action, _, _, _ = await pool.think(owner, Recorder(name), None, random.Random(0))
        order.append(action)

    async def main() -> None:
        jobs = [move("flood", f"flood {i}") for i in range(6)] + [move("honest", "honest")]
        await asyncio.gather(*jobs)

    asyncio.run(main())
    pool.close()
    assert order.index("honest") <= 2, order  # its turn comes after one flood move, not six
    assert pool.jobs == 7 and pool._busy == 0


def _wait(test: Any, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not test():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def test_ld3_bots_alone_wait_while_nobody_watches_and_go_on_when_somebody_does(db_path: Path):
    store = Store(db_path)
    with _client(store, bot_delay=0.0, countdown=0.2) as client:
        for game, bots in (("trash", {0: "random", 1: "random"}), ("spit", {0: "medium", 1: "medium"})):
            table_id, _, _ = new_table(client, bots, game=game, sit=())
            table = client.app.state.hub.tables[table_id]  # type: ignore[attr-defined]
            time.sleep(0.5)
            assert table.version == 0, game  # nobody watches: nothing is worked out
            with client.websocket_connect(f"/ws/{table_id}") as ws:
                hello(ws)
                _wait(lambda: table.version > 3, 90.0)  # noqa: B023
            # the table has seen the watcher leave, and what it was doing then (a move being saved)
            # is done: from now on a bot's answer is dropped and the real-time driver parks
            _wait(lambda: table.unwatched() and not table.actor.pending())  # noqa: B023
            version = table.version
            time.sleep(0.8)
            assert table.version == version or table.match.is_over, game  # the watcher left: it waits again
    store.close()


class Delegating:
    """Like the bots' adapter: attributes go to ``inner``, so unpickling it recurses."""

    def __init__(self, core: Recorder) -> None:
        self.core = core

    def __getattr__(self, name: str) -> Any:
        return getattr(self.core, name)

    def act(self, view: Any, rng: random.Random) -> str:
        return self.core.act(view, rng)


def test_ld3_a_bot_that_cannot_make_the_trip_thinks_in_the_server_and_the_table_goes_on():
    pool = BotPool(1)
    pool._executor = concurrent.futures.ThreadPoolExecutor(1)  # type: ignore[assignment]  (unpickles like a worker)

    async def main() -> list[str]:
        return [(await pool.think("a", Delegating(Recorder("moved")), None, random.Random(0)))[0] for _ in range(3)]

    assert asyncio.run(main()) == ["moved"] * 3
    pool.close()
    assert Delegating in pool.unpoolable and pool.fallbacks == 3


def test_ld3_expert_bots_think_in_the_worker_processes_and_the_loop_keeps_answering(db_path: Path):
    """Real ``expert`` Trex bots go to the pool (pickled there and back, search memory and all);
    the event loop answers the lobby meanwhile and nothing falls back to thinking on it."""
    store = Store(db_path)
    with _client(store, bot_delay=0.0, bot_workers=1) as client:
        table_id, _, _ = new_table(client, {s: "expert" for s in range(4)}, game="trex", sit=())
        hub = client.app.state.hub  # type: ignore[attr-defined]
        table, pool = hub.tables[table_id], hub.pool
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            hello(ws)
            answers = 0
            deadline = time.monotonic() + 240.0
            while pool.jobs < 6:
                assert time.monotonic() < deadline, "the experts did not move"
                assert client.get("/api/tables").status_code == 200  # served while the experts think
                answers += 1
                time.sleep(0.05)
        assert table.version >= 5 and answers > 0
        assert pool.fallbacks == 0 and not pool.unpoolable, pool.unpoolable
    store.close()
