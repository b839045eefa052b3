"""Replays and reviews of finished games are worked out in worker processes, once, and bounded
per address and in total, so that no number of such requests holds the event loop every game
shares (LD1: an honest player's p99 stays within its bound whatever visitors ask for)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from typing import Any

import pytest

from cardtable.server.offload import Busy, Offload
from cardtable.server.store import Store
from tests.server.conftest import _client
from tests.web.test_replay_api import finished

WAIT = 60.0  # a bound on every wait below: far past what the work takes on a loaded machine


class Gated:
    """Work that runs (in a thread) until the test opens its gate; who ran, in order."""

    def __init__(self) -> None:
        self.ran: list[Any] = []
        self.started = threading.Semaphore(0)
        self.gate = threading.Event()

    def __call__(self, value: Any) -> Any:
        self.ran.append(value)
        self.started.release()
        assert self.gate.wait(WAIT)
        return value


def offload_with_threads(workers: int = 4, **bounds: Any) -> Offload:
    return Offload(executor=concurrent.futures.ThreadPoolExecutor(workers), **bounds)


async def started(work: Gated, count: int) -> None:
    for _ in range(count):
        assert await asyncio.to_thread(work.started.acquire, True, WAIT)


def test_ld1_one_address_cannot_queue_more_than_its_share_of_work():
    """Twenty different replays asked at once by one address: two are worked out, the rest are
    refused at once (``Busy``), and nothing else is started."""
    work = Gated()

    async def scenario() -> None:
        offload = offload_with_threads(per_address=2)
        asks = [asyncio.ensure_future(offload.run(("replay", i), "10.0.0.1", len, work, f"v{i}")) for i in range(20)]
        await started(work, 2)
        done, pending = await asyncio.wait(asks, timeout=0.2)
        refused = [a for a in done if isinstance(a.exception(), Busy)]
        assert len(refused) == 18 and all(a.exception().scope == "address" for a in refused)  # type: ignore[union-attr]
        assert len(pending) == 2 and len(work.ran) == 2
        work.gate.set()
        assert sorted(await asyncio.gather(*pending)) == ["v0", "v1"]
        offload.close()

    asyncio.run(scenario())


def test_ld1_a_flood_from_one_address_does_not_make_another_wait_behind_it():
    """Reviews are not one at a time for the whole server: while one address's work runs,
    another address's review starts at once rather than queueing behind it."""
    work = Gated()

    async def scenario() -> None:
        offload = offload_with_threads(per_address=1)
        theirs = asyncio.ensure_future(offload.run(("review", "t", 0), "10.0.0.1", len, work, "theirs"))
        await started(work, 1)
        mine = asyncio.ensure_future(offload.run(("review", "t", 1), "10.0.0.2", len, work, "mine"))
        await started(work, 1)  # started while the first is still under way
        assert work.ran == ["theirs", "mine"]
        work.gate.set()
        assert await mine == "mine" and await theirs == "theirs"
        offload.close()

    asyncio.run(scenario())


def test_ld1_work_is_done_once_per_key_and_kept_even_if_its_asker_goes():
    work = Gated()

    async def scenario() -> None:
        offload = offload_with_threads(per_address=1, total=2)
        first = asyncio.ensure_future(offload.run(("review", "t", 1), "a", len, work, "r1"))
        await started(work, 1)
        first.cancel()  # the page went away: the work goes on
        again = asyncio.ensure_future(offload.run(("review", "t", 1), "b", len, work, "r1"))  # joins, costs nothing
        other = asyncio.ensure_future(offload.run(("review", "t", 2), "c", len, work, "r2"))
        await started(work, 1)
        with pytest.raises(Busy) as refused:  # two pieces under way: the server's bound
            await offload.run(("review", "t", 3), "d", len, work, "r3")
        assert refused.value.scope == "server"
        work.gate.set()
        assert await again == "r1" and await other == "r2"
        assert await offload.run(("review", "t", 1), "a", len, work, "r1") == "r1"
        assert work.ran == ["r1", "r2"] and offload.jobs == 2
        offload.close()

    asyncio.run(scenario())


def test_ld1_what_is_kept_stays_within_its_byte_budget():
    async def scenario() -> None:
        offload = offload_with_threads(budget=10)
        for i in range(5):
            await offload.run(i, "a", len, str, "x" * 4)  # 4 bytes each: two fit
        assert offload.kept(4) == "xxxx" and offload.kept(3) == "xxxx"
        assert offload.kept(2) is None and offload.kept(0) is None
        offload.close()

    asyncio.run(scenario())


def test_ld1_replay_views_are_never_built_in_the_server_process(client: Any, monkeypatch: Any):
    """The replay's views and the review come from a worker process: in the server's own process
    the functions that build them are never called."""
    from cardtable.server import replay, review

    def not_here(*args: Any) -> Any:
        raise AssertionError("built in the server process")

    table_id = finished(client, target_size=9)
    monkeypatch.setattr(replay, "seat_views", not_here)
    monkeypatch.setattr(review, "review", not_here)
    got = client.get(f"/api/tables/{table_id}/replay?seat=0&step=1")
    assert got.status_code == 200 and got.json()["step"] == 1 and got.json()["seat"] == 0
    reviewed = client.get(f"/api/tables/{table_id}/review?seat=1")
    assert reviewed.status_code == 200 and reviewed.json()["seat"] == 1


def test_ld1_a_refused_replay_says_when_to_come_back(db_path: Any):
    """The answer to an address over its bound: ``429`` with ``Retry-After`` and the ``busy``
    code (here every address's bound is zero pieces of work)."""
    store = Store(db_path)
    try:
        with _client(store, bot_delay=0.0, offload=Offload(per_address=0)) as client:
            table_id = finished(client, target_size=9)
            for path in ("replay?seat=0&step=1", "review?seat=0"):
                r = client.get(f"/api/tables/{table_id}/{path}")
                assert r.status_code == 429 and r.json()["error"] == "busy", r.text
                assert r.headers["retry-after"] == "1"
    finally:
        store.close()
