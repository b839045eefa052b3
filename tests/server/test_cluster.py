"""Two ``cardtable serve`` processes sharing one log, joined by a real Redis (docs/deploy.md): a
table created on one is played through the other, the lobby lists both nodes' tables, and when the
owner is killed the other node takes its tables over and the game goes on (S1, R1).

The log is a shared SQLite file, and for the failover and the Redis restart also a real PostgreSQL
(``--db postgresql://``), as a deployment runs it; the paused owner runs on PostgreSQL only."""

from __future__ import annotations

import asyncio
import random
import re
import signal
import socket
import threading
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any, Literal

import httpx
import pytest

from cardtable.server.client import GameClient

from .helpers import wait
from .netserver import Server
from .services import Redis, redis_binary


def _nodes(tmp_path: Path, redis_url: str, *names: str, limits: tuple[str, ...] = (),
           db_url: str | None = None) -> list[Server]:
    """Nodes sharing the SQLite file ``shared.sqlite3`` in ``tmp_path`` (or the database ``db_url``)."""
    db = tmp_path / "shared.sqlite3"
    shared = () if db_url is None else ("--db", db_url)  # the last --db wins over the file's
    return [Server(db, "--bus", redis_url, "--node", name, "--hold", "0", "--countdown", "0", "--rate", "1000",
                   "--burst", "1000", *limits, *shared).start()
            for name in names]


async def _first_moves(player: GameClient, moves: int) -> None:
    """``moves`` of the player's turns, each played with its first legal action."""
    for _ in range(moves):
        await player.wait_turn()
        await player.act(player.view["legal_actions"][0])  # type: ignore[index]


def _stop_living(*nodes: Server) -> None:
    """Stop the nodes a test has not killed."""
    for node in nodes:
        if node.proc is not None and node.proc.poll() is None:
            node.stop()


@pytest.fixture(params=["sqlite", "postgres"])
def shared_log(request: pytest.FixtureRequest, tmp_path: Path) -> str | None:
    """The log the nodes share: ``None`` for the SQLite file, else a new PostgreSQL database's URL."""
    if request.param == "sqlite":
        return None
    url: str = request.getfixturevalue("pg_url")
    return url


def _log(tmp_path: Path, db_url: str | None, table_id: str) -> dict[int, str]:
    """The table's actions in the shared log, by version."""
    query = "SELECT version, action FROM actions WHERE table_id = {} ORDER BY version"
    if db_url is None:
        import sqlite3

        db = sqlite3.connect(tmp_path / "shared.sqlite3")
        try:
            return dict(db.execute(query.format("?"), (table_id,)).fetchall())
        finally:
            db.close()
    import psycopg

    with psycopg.connect(db_url) as pg:
        return dict(pg.execute(query.format("%s"), (table_id,)).fetchall())  # type: ignore[arg-type]


def test_s1_a_table_made_on_one_node_is_played_through_another(tmp_path: Path, redis_url: str):
    a, b = _nodes(tmp_path, redis_url, "a", "b")
    try:
        table_id, tokens = a.table({1: "random"})
        wait("the other node lists the table", lambda: table_id in {t["id"] for t in b.get("/api/tables")["tables"]})
        assert b.get(f"/api/tables/{table_id}")["table"]["seats"][0]["online"] is False

        async def play() -> dict:  # type: ignore[type-arg]
            async with GameClient(b.ws, table_id, tokens[0]) as player, GameClient(a.ws, table_id) as watcher:
                outcome = await player.play_to_end(random.Random(4))
                await watcher.until(lambda f: f["type"] == "state" and f["view"]["outcome"] is not None)
                assert watcher.view is not None and watcher.view["outcome"] == outcome
                return outcome

        outcome = asyncio.run(play())
        assert outcome["returns"]
    finally:
        for node in (a, b):
            node.stop()


def test_r1_when_the_owner_dies_another_node_takes_its_table_and_the_game_goes_on(tmp_path: Path,
                                                                                   redis_url: str,
                                                                                   shared_log: str | None):
    a, b = _nodes(tmp_path, redis_url, "a", "b", db_url=shared_log)
    try:
        table_id, tokens = a.table({1: "random"})

        async def half_then_failover() -> dict:  # type: ignore[type-arg]
            async with GameClient(b.ws, table_id, tokens[0]) as player:
                await _first_moves(player, 3)
                version = player.version
            a.stop(signal.SIGKILL)
            t0 = time.monotonic()
            while True:  # the lease runs out; b takes the table over and replays it
                try:
                    table = b.client.get(f"{b.http}/api/tables/{table_id}", timeout=5).json()["table"]
                    if table["version"] >= version:
                        break
                except (httpx.HTTPError, KeyError):
                    pass
                assert time.monotonic() - t0 < 60, "no node took the table over"
                await asyncio.sleep(0.1)
            async with GameClient(b.ws, table_id, tokens[0]) as player:
                return await player.play_to_end(random.Random(5))

        outcome = asyncio.run(half_then_failover())
        assert outcome["returns"]
        log = _log(tmp_path, shared_log, table_id)
        assert sorted(log) == list(range(1, len(log) + 1))
        # the nodes' log (one file: they share the database's name) says who saw whom stop, and when
        assert re.search(r"^\d\d:\d\d:\d\d\.\d{3} cardtable serve: node b: node a stopped", b.log.read_text(), re.M)
    finally:
        _stop_living(a, b)


@pytest.mark.parametrize("shared_log", ["postgres"], indirect=True)
def test_s1_an_owner_paused_past_its_lease_never_writes_again(tmp_path: Path, redis_url: str,
                                                              shared_log: str | None):
    """SIGSTOP the owner longer than its lease: the other node takes the table over; when the
    paused one goes on, the log refuses its writes (fenced by the epoch) and it lets the table go.
    The log stays one line of versions, and the game finishes on the new owner.

    PostgreSQL only: a process paused inside a write to a SQLite file keeps the file's write lock
    until it goes on, and no other process can claim anything meanwhile (docs/deploy.md)."""
    a, b = _nodes(tmp_path, redis_url, "a", "b", db_url=shared_log)
    try:
        created = a.post("/api/tables", game="trash", options={})
        table_id, host = created["table"]["id"], created["host"]
        for seat in (0, 1):
            a.post(f"/api/tables/{table_id}/bot", host=host, seat=seat, bot="random")
        a.post(f"/api/tables/{table_id}/start", host=host)

        async def watch_pause_and_finish() -> None:
            async with GameClient(b.ws, table_id) as watcher:  # bots play while somebody watches
                await watcher.until(lambda f: f["type"] == "state" and f["version"] >= 3)
            assert a.proc is not None
            a.proc.send_signal(signal.SIGSTOP)
            t0 = time.monotonic()
            while True:  # b takes the table over once a's lease has run out
                health = b.client.get(f"{b.http}/api/health", params={"table": table_id}, timeout=5).json()
                if health.get("owner") == "b":
                    break
                assert time.monotonic() - t0 < 60, "no node took the table over"
                await asyncio.sleep(0.1)
            a.proc.send_signal(signal.SIGCONT)
            async with GameClient(b.ws, table_id) as watcher:
                await watcher.until(lambda f: f["type"] == "state" and f["view"]["outcome"] is not None)

        asyncio.run(watch_pause_and_finish())
        versions = list(_log(tmp_path, shared_log, table_id))
        assert versions == list(range(1, len(versions) + 1))
        record = b.client.get(f"{b.http}/api/tables/{table_id}/record", timeout=10)
        assert record.status_code == 200 and len(record.json()["actions"]) == len(versions)
    finally:
        for node in (a, b):
            if node.proc is not None and node.proc.poll() is None:
                node.proc.send_signal(signal.SIGCONT)
                node.stop()


def test_r1_a_redis_restart_mid_game_loses_no_acknowledged_action(tmp_path: Path, redis: Redis, redis_url: str,
                                                                   shared_log: str | None):
    """Redis goes away and comes back: the sockets to another node's table close, the page
    reconnects with ``since`` and goes on; every action that was acknowledged is in the log once."""
    from websockets.exceptions import ConnectionClosed

    a, b = _nodes(tmp_path, redis_url, "a", "b", db_url=shared_log)
    try:
        table_id, tokens = a.table({1: "random"})
        acked: dict[int, str] = {}

        async def play() -> None:
            player = GameClient(b.ws, table_id, tokens[0])
            await player.connect()
            rng = random.Random(9)
            restarted = False
            for _ in range(2000):
                try:
                    await player.wait_turn()
                    if player.over():
                        break
                    if len(acked) == 3 and not restarted:
                        redis.stop()
                        redis.start()
                        restarted = True
                    assert player.view is not None
                    action = rng.choice(player.view["legal_actions"])
                    reply = await player.act(action)
                    if reply["type"] == "ack" and reply.get("version") is not None and not reply.get("dup"):
                        acked[reply["version"]] = action
                except (ConnectionClosed, OSError):
                    for _ in range(600):  # reconnect (to any node) and resync, bounded
                        try:
                            await player.connect(since=player.version)
                            break
                        except (ConnectionClosed, OSError, RuntimeError):
                            await asyncio.sleep(0.1)
            assert player.over() and restarted
            await player.close()

        asyncio.run(play())
        log = _log(tmp_path, shared_log, table_id)
        assert sorted(log) == list(range(1, len(log) + 1))
        assert all(log.get(version) == action for version, action in acked.items())
    finally:
        for node in (a, b):
            node.stop()


def test_r1_a_node_that_dies_while_redis_restarts_empty_still_has_its_tables_taken_over(tmp_path: Path):
    """A Redis that keeps nothing on disk (as docs/deploy.md runs it) comes back empty while a node
    is dead: the living nodes announce the log's live tables again, and the dead node's table is
    taken over without anyone asking for it."""
    binary = redis_binary()
    if binary is None:
        pytest.skip("no redis-server")
    redis = Redis(binary, durable=False)
    redis.start()
    a, b = _nodes(tmp_path, redis.url(), "a", "b")
    try:
        table_id, _ = a.table({1: "random"})

        def lease() -> bytes:
            return redis.call("GET", f"ct:lease:{table_id}")

        wait("node a holds the table's lease", lambda: lease() == b"$1\r\na\r\n")
        a.stop(signal.SIGKILL)
        redis.stop()
        redis.start()  # empty: the lease, the live tables and the nodes are gone
        wait("node b takes the dead node's table over", lambda: lease() == b"$1\r\nb\r\n")
    finally:
        _stop_living(a, b)
        redis.close()


def test_p11_an_address_cannot_multiply_its_limits_by_the_number_of_nodes(tmp_path: Path, redis_url: str):
    """Open sockets and open tables per address are counted over the whole cluster."""
    from websockets.exceptions import ConnectionClosed, InvalidStatus

    a, b = _nodes(tmp_path, redis_url, "a", "b", limits=("--max-per-ip", "4", "--max-open-tables", "2"))
    try:
        first = a.post("/api/tables", game="trash", options={})["table"]["id"]
        b.post("/api/tables", game="trash", options={})
        refused = a.client.post(f"{a.http}/api/tables", json={"game": "trash", "options": {}}, timeout=5)
        assert refused.status_code == 429 and refused.json()["error"] == "too_many_open"

        async def sockets() -> None:
            held = []
            for node in (a, b, a, b):
                watcher = GameClient(node.ws, first)
                await watcher.connect()
                held.append(watcher)
            for node in (a, b):  # a fifth socket from this address, on either node
                extra = GameClient(node.ws, first)
                with pytest.raises((ConnectionClosed, InvalidStatus)):
                    await extra.connect()
                    await extra.recv()
            for watcher in held:
                await watcher.close()

        asyncio.run(sockets())
    finally:
        for node in (a, b):
            node.stop()


def test_r1_a_seat_whose_socket_was_on_a_dead_node_is_away(tmp_path: Path, redis_url: str):
    """The owner forgets the connections of a node that died: the seat shows offline (its person
    reconnects through another node)."""
    a, b = _nodes(tmp_path, redis_url, "a", "b")
    try:
        table_id, tokens = a.table({1: "random"})

        async def sit_through_b() -> None:
            player = GameClient(b.ws, table_id, tokens[0])
            await player.connect()
            seat = a.get(f"/api/tables/{table_id}")["table"]["seats"][0]
            assert seat["online"] is True
            b.stop(signal.SIGKILL)
            wait("the seat shows offline",
                 lambda: a.get(f"/api/tables/{table_id}")["table"]["seats"][0]["online"] is False)
            async with GameClient(a.ws, table_id, tokens[0]) as again:  # back through the living node
                await again.wait_turn()
                assert a.get(f"/api/tables/{table_id}")["table"]["seats"][0]["online"] is True

        asyncio.run(sit_through_b())
    finally:
        _stop_living(a, b)


def test_ld9_a_burst_of_requests_waits_for_redis_connections_and_never_starves_the_leases(redis_url: str):
    """LD9: hundreds of sockets opening at once on one node each ask Redis for the other nodes'
    counts; they share a bounded set of connections and wait for one (redis-py's own pool refuses
    the 101st at once), and while every shared connection is busy the node still renews and takes
    leases on connections of their own, so a burst cannot make it lose its tables."""
    from cardtable.server.cluster import REDIS_CONNECTIONS, Cluster

    async def main() -> None:
        node = Cluster(redis_url, node="burst")
        try:
            await node.redis.sadd("ct:nodes", "burst", "other")
            await node.redis.hset("ct:count:other", "sock:1.2.3.4", 3)
            counts = await asyncio.gather(*(node.limits.elsewhere("sock:1.2.3.4") for _ in range(300)))
            assert counts == [3] * 300
            key = f"ct:test:{random.random()}"
            held = [asyncio.ensure_future(node.redis.blpop([key], timeout=60)) for _ in range(REDIS_CONNECTIONS)]
            pool = node.redis.connection_pool
            for _ in range(6000):  # bounded: until every shared connection is taken by a waiting BLPOP
                if len(pool._in_use_connections) >= REDIS_CONNECTIONS:  # type: ignore[attr-defined]
                    break
                await asyncio.sleep(0.01)
            assert len(pool._in_use_connections) == REDIS_CONNECTIONS  # type: ignore[attr-defined]
            assert await asyncio.wait_for(node.acquire("burst-table"), 30)  # on the leases' connections
            await node.keeper.rpush(key, *range(REDIS_CONNECTIONS))
            assert len(await asyncio.gather(*held)) == REDIS_CONNECTIONS
            assert await node.owner("burst-table") == "burst"
        finally:
            await node.stop()

    asyncio.run(main())


async def _look(node: Any) -> None:
    """One look of ``node`` for tables to take over, made in a thread with a Redis connection of
    its own as its :class:`~cardtable.server.cluster.Looker` makes them, its findings handed to
    the loop."""
    import redis

    client = redis.Redis.from_url(node.url, decode_responses=True)
    try:
        found = await asyncio.to_thread(node.look, client)
    finally:
        client.close()
    node.looked(*found)


class LosesNothing:
    """A hub for a node's lease renewals alone: ``tables`` in memory (none by default), nothing
    being loaded, and no lease lost (a test fails if one is)."""

    def __init__(self, tables: dict[str, Any] | None = None) -> None:
        self.tables = tables or {}

    def loading(self, table_id: str) -> bool:
        return False

    def drop(self, table_id: str) -> None:
        raise AssertionError("no lease was lost")


class LoadsAnything:
    """A hub for a node's looks alone: every table it is asked to take over loads."""

    async def take_over(self, table_ids: list[str]) -> AsyncIterator[tuple[str, object]]:
        for table_id in table_ids:
            yield table_id, object()


def test_r1_the_living_nodes_share_a_dead_nodes_tables_and_each_takes_its_part_in_one_look(
        redis_url: str, monkeypatch: pytest.MonkeyPatch):
    """R1: ten live tables lose their owner; with two living nodes, the first look of one takes
    five of them (its share, rounded up) and its next looks leave the rest to the other, whose
    first look takes all five that are left, so both replay side by side and every table is taken
    in one look of each. A node alone takes everything at once."""
    from cardtable.server.cluster import Cluster
    from cardtable.server.cluster import node as node_module

    # nothing renews the leases here, and the looks must come within the round's grace: seconds
    # a loaded machine cannot run past between two looks
    monkeypatch.setattr(node_module, "LEASE_TTL", 30.0)
    monkeypatch.setattr(node_module, "ROUND_GRACE", 8.0)

    async def main() -> None:
        a, b = Cluster(redis_url, node="a"), Cluster(redis_url, node="b")
        a.hub = b.hub = LoadsAnything()  # type: ignore[assignment]
        try:
            tables = [f"t{i}" for i in range(10)]
            await a.keeper.sadd("ct:live", *tables)
            await a.keeper.sadd("ct:nodes", "a", "b", "dead")
            await a.keeper.hset("ct:count:a", "tables", 1)
            await a.keeper.hset("ct:count:b", "tables", 1)  # a and b live; "dead" has no counts
            await _look(a)
            assert len(a.owned) == 5
            await _look(a)
            assert len(a.owned) == 5  # b's turn
            await _look(b)
            assert len(b.owned) == 5 and a.owned | b.owned == set(tables)
            await a.keeper.delete(*[f"ct:lease:{t}" for t in tables])  # both died, but a
            await a.keeper.delete("ct:count:b")
            await _look(a)
            assert a.owned == set(tables)
        finally:
            for node in (a, b):
                await node.stop()

    asyncio.run(main())


def test_r1_a_node_whose_loop_is_busy_still_takes_its_share_of_a_dead_nodes_tables(redis_url: str):
    """R1: the looks are made by a thread of their own, so a node whose event loop is held (its
    own tables, a crowd of sockets coming back) takes a dead node's tables as soon as their leases
    run out, and replays them once its loop turns."""
    from cardtable.server.cluster import Cluster, Looker

    async def main() -> None:
        a = Cluster(redis_url, node="a")
        a.hub = LoadsAnything()  # type: ignore[assignment]
        looker = Looker(a, asyncio.get_running_loop())
        took, loaded = threading.Event(), asyncio.Event()
        look, load = a.look, a._load

        def looking(client: Any) -> Any:
            found = look(client)
            if a.owned == {"t1", "t2"}:
                took.set()
            return found

        async def loading(mine: list[str]) -> None:
            await load(mine)
            if not a._arriving:
                loaded.set()

        a.look, a._load = looking, loading  # type: ignore[method-assign]
        try:
            await a.keeper.sadd("ct:live", "t1", "t2")
            await a.keeper.sadd("ct:nodes", "a", "dead")
            await a.keeper.hset("ct:count:a", "up", 1)
            a.beat = time.monotonic() + 3600  # a heartbeat that stays fresh while the loop is held
            looker.start()
            assert took.wait(60), "the looker took nothing"  # the loop held: no await here
            assert set(a._arriving) == {"t1", "t2"}  # taken, not yet loaded: the loop has not turned
            await asyncio.wait_for(loaded.wait(), 60)  # the loop turns, and loads them
            assert not a._arriving and a.owned == {"t1", "t2"}  # loaded (no renewer here: no lease to look at)
        finally:
            await asyncio.to_thread(looker.stop)
            await a.stop()

    asyncio.run(main())


def test_r1_a_node_that_does_not_look_leaves_its_share_to_the_others_after_the_grace(
        redis_url: str, monkeypatch: pytest.MonkeyPatch):
    """R1: a living node that took its share takes the rest of a dead node's tables once the round
    is :data:`~cardtable.server.cluster.ROUND_GRACE` seconds old and another living node has not
    looked (its loop stuck): no table waits for it."""
    from cardtable.server.cluster import ROUND_TTL, Cluster
    from cardtable.server.cluster import node as node_module

    monkeypatch.setattr(node_module, "LEASE_TTL", 30.0)  # nothing renews the leases here
    grace = 5.0  # the second look comes within it, however slow the machine
    monkeypatch.setattr(node_module, "ROUND_GRACE", grace)

    async def main() -> None:
        a = Cluster(redis_url, node="a")
        a.hub = LoadsAnything()  # type: ignore[assignment]
        try:
            tables = [f"t{i}" for i in range(10)]
            await a.keeper.sadd("ct:live", *tables)
            await a.keeper.sadd("ct:nodes", "a", "b", "dead")
            await a.keeper.hset("ct:count:a", "tables", 1)
            await a.keeper.hset("ct:count:b", "tables", 1)
            await _look(a)
            assert len(a.owned) == 5
            # the round began longer ago than the grace: as its expiry tells
            await a.keeper.pexpire("ct:round:dead", int((ROUND_TTL - grace) * 1000) - 1)
            await _look(a)
            assert a.owned == set(tables)
        finally:
            await a.stop()

    asyncio.run(main())


def test_r1_sockets_to_a_dead_nodes_table_follow_it_once_its_lease_names_the_new_owner(redis_url: str):
    """R1: a look that finds a node dead sends this node's sockets to that node's tables after
    each table whose lease another node holds now: their attach reaches the new owner while it
    replays the table, before its news."""
    from cardtable.server.cluster import Cluster

    async def main() -> None:
        a = Cluster(redis_url, node="a")
        a.hub = LoadsAnything()  # type: ignore[assignment]
        sent = Sent()
        a.to_node = sent  # type: ignore[method-assign]
        try:
            await a.keeper.sadd("ct:live", "t1", "t2")
            await a.keeper.sadd("ct:nodes", "a", "b", "dead")
            await a.keeper.hset("ct:count:a", "tables", 1)
            await a.keeper.hset("ct:count:b", "tables", 1)
            await a.keeper.set("ct:lease:t1", "b")  # b took t1; t2 has an owner that lives
            await a.keeper.set("ct:lease:t2", "b")
            moving, _ = _socket_to(a, "t1", "dead", seat=0)
            staying, _ = _socket_to(a, "t2", "c", seat=0)
            await _look(a)
            await sent.until(lambda s: len(s.commands("b")) == 1)
            attach = sent.commands("b")[0]
            assert attach["kind"] == "Attach" and attach["table"] == "t1" and attach["fields"]["conn"] == moving.cid
            assert moving.owner_node == "b" and staying.owner_node == "c"
        finally:
            await a.stop()

    asyncio.run(main())


def test_r1_a_table_being_taken_over_is_loaded_once_whoever_asks_for_it_meanwhile(pg_url: str, redis_url: str):
    """R1: while a node takes a table over (its log read in the writer thread), sockets that
    arrive for it wait for that load and get the same table: it is claimed and replayed once, so
    no second copy of it runs with a stale epoch and no socket is left on one. Its lease is
    renewed meanwhile, not given up as the lease of a table that left memory."""
    import threading

    from cardtable.server.cluster import Cluster
    from cardtable.server.hub import Hub
    from cardtable.server.store import SeatRow, TableRow, open_log

    log = open_log(pg_url)
    log.create_table(TableRow("t1", "trash", "standard", {}, None, 7, "h" * 64, "open", time.time(),
                              seats=[SeatRow(0, "human", "Ada", "a" * 64), SeatRow(1, "human", "Bo", "b" * 64)]))
    log.start("t1", 99)
    gate, takes = threading.Event(), []
    real_take = log.take

    def gated_take(table_ids: list[str], chat: int) -> object:  # the take-over's read held back
        takes.append(table_ids)
        assert gate.wait(60)
        return real_take(table_ids, chat)

    log.take = gated_take  # type: ignore[assignment,method-assign]

    async def main() -> None:
        node = Cluster(redis_url, node="a")
        hub = Hub(log, cluster=node, hold=None)
        node.hub = hub
        real_owner, asked, answer = node.owner, [], asyncio.Event()

        async def owner(table_id: str) -> str | None:  # the sockets' look-up of the owner held back
            asked.append(table_id)
            await answer.wait()
            return await real_owner(table_id)

        async def until(done: Callable[[], bool]) -> None:
            for _ in range(3000):  # bounded
                if done():
                    return
                await asyncio.sleep(0.01)
            raise AssertionError("not reached")

        node.owner = owner  # type: ignore[method-assign]
        try:
            assert await node.acquire("t1")
            await node.keeper.set("ct:lease:t1", "a", px=60_000)  # no renewals here: a lease that lasts the test
            early = [asyncio.ensure_future(hub.locate("t1")) for _ in range(2)]
            await until(lambda: len(asked) == 2)  # two sockets arrived before the take-over began
            loading = hub.take_over(["t1"])
            first = asyncio.ensure_future(anext(loading))
            await until(lambda: bool(takes))  # its read is under way (and held)
            node._forget()  # the node keeps the lease of a table it is still loading
            assert "t1" in node.owned and await real_owner("t1") == "a"
            late = asyncio.ensure_future(hub.locate("t1"))  # one more arrives meanwhile
            answer.set()
            for _ in range(5):
                await asyncio.sleep(0)
            gate.set()
            found = await asyncio.gather(first, *early, late)
            assert found[0][1] is found[1] is found[2] is found[3] is hub.tables["t1"]
            assert log.epoch("t1") == 1 and takes == [["t1"]]  # claimed and read once
            await loading.aclose()
        finally:
            answer.set()
            gate.set()
            hub.close_all()
            await node.stop()

    try:
        asyncio.run(main())
    finally:
        log.close()


def test_ld9_a_node_keeps_its_leases_while_its_loop_is_busy_and_loses_them_when_it_is_stuck(redis_url: str):
    """LD9: the leases are renewed by a thread of their own, so a node whose event loop is held
    (a crowd, a take-over of many tables) for longer than a lease still holds its tables; a node
    whose loop has not beaten for LOOP_DEAD seconds stops renewing, and its tables go elsewhere."""
    from cardtable.server.cluster import LEASE_TTL, LOOP_DEAD, Cluster, LeaseRenewer

    async def main() -> None:
        node = Cluster(redis_url, node="busy")
        node.hub = LosesNothing()  # type: ignore[assignment]
        renewer = LeaseRenewer(node, asyncio.get_running_loop())
        try:
            assert await node.acquire("t1")
            node.beat = time.monotonic()
            renewer.start()
            time.sleep(2 * LEASE_TTL)  # the loop held for two leases' time (and under LOOP_DEAD)
            assert await node.owner("t1") == "busy"
            node.beat = time.monotonic() - LOOP_DEAD - 1  # the loop is stuck from now on
            for _ in range(3000):  # bounded: until the lease runs out
                if await node.owner("t1") is None:
                    break
                await asyncio.sleep(0.01)
            assert await node.owner("t1") is None
        finally:
            await asyncio.to_thread(renewer.stop)
            await node.stop()

    asyncio.run(main())


def test_r1_a_table_let_go_while_a_renewal_is_on_its_way_is_not_left_live_without_an_owner(redis_url: str):
    """R1: a node lets an ended table go while its renewer's round is on its way to Redis (the
    round read the tables it owns before). The lease and the table's place among the live tables
    end in the renewer's next round: the round on its way must not take the lease back after it
    ended, which left the table live with a lease nobody renewed, taken over for nothing by
    another node's look 0.6 s later."""
    from types import SimpleNamespace

    from cardtable.server.cluster import Cluster, LeaseRenewer

    async def main() -> None:
        node = Cluster(redis_url, node="a")
        ended = SimpleNamespace(row=SimpleNamespace(status="over"), ended=lambda: True)  # 'over' in the log
        node.hub = LosesNothing({"t1": ended})  # type: ignore[assignment]
        renewer = LeaseRenewer(node, asyncio.get_running_loop())
        pipeline = renewer.client.pipeline

        def racing(**kwargs: Any) -> Any:
            pipe = pipeline(**kwargs)
            execute = pipe.execute

            def late() -> Any:
                node._forget()  # the loop lets the table go now, the round's renewals already queued
                return execute()

            pipe.execute = late  # type: ignore[method-assign]
            return pipe

        try:
            assert await node.acquire("t1")
            renewer.client.pipeline = racing  # type: ignore[method-assign]
            renewer.renew()
            renewer.client.pipeline = pipeline  # type: ignore[method-assign]
            assert "t1" not in node.owned
            renewer.renew()  # the next round
            assert await node.owner("t1") is None and not await node.keeper.sismember("ct:live", "t1")
        finally:
            await node.stop()

    asyncio.run(main())


def test_r1_a_look_reads_every_lease_only_when_a_node_died_or_at_the_sweep(
        redis_url: str, monkeypatch: pytest.MonkeyPatch):
    """R1: while every node lives, a look asks Redis which nodes live and nothing more; the live
    tables' leases are looked up when a node's counts ran out (it died) or every SWEEP_EVERY
    seconds (a table nobody owns without a death: its lease lost in a Redis restart). A dead
    node is forgotten once all its tables have owners again."""
    from cardtable.server.cluster import Cluster
    from cardtable.server.cluster import node as node_module

    monkeypatch.setattr(node_module, "LEASE_TTL", 30.0)  # nothing renews the leases here

    async def main() -> None:
        node = Cluster(redis_url, node="a")
        node.hub = LoadsAnything()  # type: ignore[assignment]
        try:
            await node.keeper.sadd("ct:nodes", "a", "b")
            await node.keeper.hset("ct:count:a", "up", 1)
            await node.keeper.hset("ct:count:b", "up", 1)
            await node.keeper.sadd("ct:live", "t0")
            await _look(node)  # the first look sweeps: t0 has no owner
            assert node.owned == {"t0"}
            await node.keeper.sadd("ct:live", "t1")
            await _look(node)  # everyone lives and the sweep is ahead: leases not looked up
            assert node.owned == {"t0"}
            node._sweep_at = 0.0  # the sweep is due
            await _look(node)
            assert node.owned == {"t0", "t1"}
            await node.keeper.sadd("ct:nodes", "gone")  # a node died with no table left to take
            await _look(node)
            assert await node.keeper.smembers("ct:nodes") == {"a", "b"}
        finally:
            await node.stop()

    asyncio.run(main())


class Sent(list[tuple[str, dict[str, Any]]]):
    """What a node publishes to other nodes, with an event to wait for what a test expects."""

    def __init__(self) -> None:
        super().__init__()
        self.changed = asyncio.Event()

    def __call__(self, to: str, message: dict[str, Any]) -> None:
        self.append((to, message))
        self.changed.set()

    async def until(self, test: Callable[[list[tuple[str, dict[str, Any]]]], bool]) -> None:
        while not test(self):
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), 30)

    def commands(self, to: str) -> list[dict[str, Any]]:
        return [m for node, m in self if node == to and m.get("op") == "cmd"]


def _socket_to(node: Any, table_id: str, owner: str, seat: int | None) -> tuple[Any, Any]:
    """A socket of ``node`` to ``table_id``, owned by ``owner``: its :class:`RemoteTable` and connection."""
    from types import SimpleNamespace

    from cardtable.server.cluster import RemoteTable
    from cardtable.server.connection import Connection

    async def ignore(*args: object) -> None:
        return None

    remote = RemoteTable(node, SimpleNamespace(id=table_id), owner)  # type: ignore[arg-type]
    conn = Connection(ignore, ignore)
    remote.join(conn, seat)
    return remote, conn


def test_r1_news_of_a_moved_table_sends_its_sockets_after_it_with_the_version_they_saw(redis_url: str):
    """R1: when a table's new owner tells every node it has the table, a socket here that forwarded
    to the former owner follows it: its commands go to the new owner, it attaches there with the
    version of the last state it was sent (so it gets what it missed, without a new handshake), and
    the former owner's frames are no longer heard. A socket that already forwards to the new owner
    is left alone. News with no owner (Redis was lost) closes every socket to the table."""
    from cardtable.server.cluster import Cluster

    async def main() -> None:
        node = Cluster(redis_url, node="a")
        sent = Sent()
        node.to_node = sent  # type: ignore[method-assign]
        closed: list[str] = []
        node.bus.close = lambda cid, code, reason: closed.append(cid)  # type: ignore[method-assign]
        try:
            behind, behind_conn = _socket_to(node, "t1", "dead", seat=0)
            behind.holder = "digest of its token"  # the new owner checks it (H12)
            ahead, _ = _socket_to(node, "t1", "b", seat=None)
            other, _ = _socket_to(node, "t2", "b", seat=1)
            state = '{"type": "state", "version": 7}'
            node.bus.deliver({"op": "send", "to": behind.cid, "from": "dead", "text": state, "latest": "state",
                              "version": 7})
            assert behind.seen == 7 and len(behind_conn.queue) == 1
            node._moved("t1", "b")
            await sent.until(lambda s: len(s.commands("b")) == 1)
            attach = sent.commands("b")[0]
            assert attach["kind"] == "Attach" and attach["table"] == "t1"
            assert attach["fields"] == {"conn": behind.cid, "seat": 0, "since": 7, "lang": "en",
                                        "holder": "digest of its token"}
            assert behind.owner_node == "b" and ahead.owner_node == "b" and other.owner_node == "b"
            late = '{"type": "state", "version": 8}'  # the former owner's, cut off: not heard
            node.bus.deliver({"op": "send", "to": behind.cid, "from": "dead", "text": late, "latest": "state",
                              "version": 8})
            assert behind.seen == 7 and len(behind_conn.queue) == 1
            node._replies[attach["reply"]].set_result({"ok": None})
            node.bus.deliver({"op": "send", "to": behind.cid, "from": "b", "text": late, "latest": "state",
                              "version": 8})
            assert behind.seen == 8
            assert closed == []
            node._lost_redis()
            assert sorted(closed) == sorted([behind.cid, ahead.cid, other.cid])
        finally:
            await node.stop()

    asyncio.run(main())


def test_r1_a_socket_that_followed_its_table_here_follows_it_on_with_the_version_this_node_sent(redis_url: str):
    """R1: a socket whose table moved to the socket's own node gets that table's frames without
    Redis. When the table moves on (this node lost its lease), the socket attaches to the next
    owner with the version of the last state this node sent it, not the one the former owner
    sent (which would send again every event between the two)."""
    from cardtable.server.cluster import Cluster
    from cardtable.server.connection import Outgoing

    async def main() -> None:
        node = Cluster(redis_url, node="a")
        sent = Sent()
        node.to_node = sent  # type: ignore[method-assign]
        node._serve = lambda table_id, cmd: _ok()  # type: ignore[method-assign,assignment]
        try:
            remote, conn = _socket_to(node, "t1", "b", seat=0)
            node.bus.deliver({"op": "send", "to": remote.cid, "from": "b", "text": '{"type": "state", "version": 7}',
                              "latest": "state", "version": 7})
            node._moved("t1", "a")  # this node took the table over
            await asyncio.wait_for(_drained(remote), 30)
            node.bus.send(remote.cid, Outgoing({"type": "state", "version": 12}), "state")
            node.bus.send(remote.cid, Outgoing({"type": "table", "table": {}}), "table")
            assert remote.seen == 12 and len(conn.queue) == 2  # the state of version 7 replaced
            node._moved("t1", "c")
            await sent.until(lambda s: len(s.commands("c")) == 1)
            assert sent.commands("c")[0]["fields"]["since"] == 12
        finally:
            await node.stop()

    async def _ok() -> dict[str, Any]:
        return {"ok": None}

    async def _drained(remote: Any) -> None:
        while remote._tasks:
            await asyncio.gather(*remote._tasks)

    asyncio.run(main())


def test_r1_an_action_whose_owner_died_unanswered_goes_to_the_new_owner_and_a_chat_line_does_not(redis_url: str):
    """R1: an action forwarded to an owner that dies before answering is sent again, with the same
    seq (applied once: R2), to the table's new owner as soon as its lease names one, after the
    socket attaches there; its answer is the new owner's. A chat line is not sent twice: its socket
    closes and reconnects."""
    from cardtable.server.cluster import Cluster
    from cardtable.server.commands import Act, Chat
    from cardtable.server.ports import LogError

    async def main() -> None:
        node = Cluster(redis_url, node="a")
        sent = Sent()
        node.to_node = sent  # type: ignore[method-assign]
        try:
            await node.redis.set("ct:lease:t1", "dead")
            remote, _ = _socket_to(node, "t1", "dead", seat=0)
            acting = asyncio.ensure_future(remote.ask(Act(0, 5, "play 7H", 3, remote.cid)))
            chatting = asyncio.ensure_future(remote.ask(Chat(0, "hello", remote.cid)))
            await sent.until(lambda s: len(s.commands("dead")) == 2)
            await node.redis.set("ct:lease:t1", "b")  # the dead owner's lease ran out; b took the table
            await sent.until(lambda s: len(s.commands("b")) == 2)
            first, second = sent.commands("b")
            assert first["kind"] == "Attach" and first["fields"]["conn"] == remote.cid
            assert second["kind"] == "Act" and second["fields"] == sent.commands("dead")[0]["fields"]
            with pytest.raises(LogError):
                await asyncio.wait_for(chatting, 30)
            node._replies[first["reply"]].set_result({"ok": None})
            node._replies[second["reply"]].set_result({"ok": {"type": "ack", "seq": 5, "version": 4}})
            assert await asyncio.wait_for(acting, 30) == {"type": "ack", "seq": 5, "version": 4}
            assert remote.owner_node == "b"
        finally:
            await node.stop()

    asyncio.run(main())


def test_r1_the_commands_waiting_for_a_dead_owner_read_its_leases_together_and_then_follow_the_new_one(
        redis_url: str):
    """R1, LD9: sixty sockets of one node wait for the answers of a dead owner to their actions.
    While they wait, the node reads the leases of their tables in one round trip a poll for all
    of them (one each, ten times a second, kept a busy node's Redis connections and loop from the
    sockets coming back to it); once the leases name the new owner, every socket attaches there
    and sends its action again."""
    from cardtable.server.cluster import ANSWER_POLL, Cluster
    from cardtable.server.commands import Act

    async def main() -> None:
        node = Cluster(redis_url, node="a")
        sent = Sent()
        node.to_node = sent  # type: ignore[method-assign]
        reads: list[str] = []
        three_polls = asyncio.Event()  # set once three polls have read the leases

        def counting(name: str) -> Callable[..., Any]:
            real = getattr(node.redis, name)

            def counted(*args: Any) -> Any:
                reads.append(name)
                if reads.count("mget") >= 3:
                    three_polls.set()
                return real(*args)

            return counted

        for name in ("get", "mget"):
            setattr(node.redis, name, counting(name))
        tables = [f"w{i}" for i in range(60)]
        try:
            await node.redis.mset({f"ct:lease:{t}": "dead" for t in tables})
            remotes = [_socket_to(node, t, "dead", seat=0)[0] for t in tables]
            acting = [asyncio.ensure_future(r.ask(Act(0, 1, "play 7H", 3, r.cid))) for r in remotes]
            await sent.until(lambda s: len(s.commands("dead")) == len(tables))
            began = asyncio.get_running_loop().time()
            await asyncio.wait_for(three_polls.wait(), 60)
            polls = (asyncio.get_running_loop().time() - began) / ANSWER_POLL
            assert reads.count("get") == 0 and 3 <= reads.count("mget") <= polls + 2, (reads, polls)
            await node.redis.mset({f"ct:lease:{t}": "b" for t in tables})  # b took them over
            await sent.until(lambda s: len(s.commands("b")) == 2 * len(tables))
            for remote in remotes:
                mine = [m for m in sent.commands("b") if m["table"] == remote.id]
                assert [m["kind"] for m in mine] == ["Attach", "Act"] and remote.owner_node == "b"
                for m in mine:
                    node._replies[m["reply"]].set_result({"ok": {"type": "ack", "seq": 1, "version": 4}})
            assert all(a["version"] == 4 for a in await asyncio.wait_for(asyncio.gather(*acting), 30))
            assert not node._owner_checks  # nothing waits any more: the reads stop
        finally:
            await node.stop()

    asyncio.run(main())


def test_p11_sockets_opening_side_by_side_on_one_node_never_pass_the_cap_of_the_cluster(redis_url: str):
    """P11: an address holding two sockets on another node opens forty at once on this one with
    a cap of six: four open, each counted in this node's hash for the others; a closed one frees
    its place."""
    from cardtable.server.cluster import Cluster

    async def main() -> None:
        node = Cluster(redis_url, node="here")
        try:
            await node.redis.sadd("ct:nodes", "here", "there")
            await node.redis.hset("ct:count:there", "sock:5.6.7.8", 2)
            opened = await asyncio.gather(*(node.limits.open_socket("5.6.7.8", 6) for _ in range(40)))
            assert opened.count(True) == 4 and node.limits.sockets == {"5.6.7.8": 4}
            assert await node.redis.hget("ct:count:here", "sock:5.6.7.8") == "4"
            assert await node.limits.elsewhere("sock:5.6.7.8") == 2
            await node.limits.close_socket("5.6.7.8")
            assert await node.limits.open_socket("5.6.7.8", 6)
            assert not await node.limits.open_socket("5.6.7.8", 6)
        finally:
            await node.stop()

    asyncio.run(main())


def test_r1_a_socket_on_a_living_node_follows_its_table_through_the_owners_death(tmp_path: Path, redis_url: str):
    """R1 end to end: a person's socket on node b to a table node a owns stays open when a is
    killed; once b has taken the table over the same socket is welcomed again, gets the state,
    and the game is played to its end on it."""
    a, b = _nodes(tmp_path, redis_url, "a", "b")
    try:
        table_id, tokens = a.table({1: "random"})

        async def through_the_death() -> dict:  # type: ignore[type-arg]
            async with GameClient(b.ws, table_id, tokens[0]) as player:
                await _first_moves(player, 2)
                version = player.version
                a.stop(signal.SIGKILL)
                await asyncio.wait_for(player.until(lambda f: f["type"] == "welcome"), 60)
                state = await asyncio.wait_for(player.until(lambda f: f["type"] == "state"), 60)
                assert state["version"] >= version
                return await player.play_to_end(random.Random(6))

        outcome = asyncio.run(through_the_death())
        assert outcome["returns"]
        log = _log(tmp_path, None, table_id)
        assert sorted(log) == list(range(1, len(log) + 1))
    finally:
        _stop_living(a, b)


def test_r1_a_command_forwarded_to_the_new_owner_while_it_replays_the_table_waits_for_it(redis_url: str):
    """R1: a socket that reconnects while the new owner is still replaying the table forwards its
    commands there; the owner answers them once the table is in memory, instead of refusing them
    (which would send the socket round once more)."""
    from cardtable.server.cluster import Cluster

    class Loaded:
        async def ask(self, cmd: object) -> dict[str, str]:
            return {"answered": type(cmd).__name__}

    class Replayed(asyncio.Event):
        """The table's arrival, telling when something waits for it."""

        def __init__(self) -> None:
            super().__init__()
            self.waited = asyncio.Event()

        async def wait(self) -> Literal[True]:
            self.waited.set()
            return await super().wait()

    class Replaying:
        def __init__(self) -> None:
            self.tables: dict[str, Loaded] = {}

        async def arrived(self, table_id: str) -> None:
            return None

    async def main() -> None:
        node = Cluster(redis_url, node="a")
        hub = Replaying()
        node.hub = hub  # type: ignore[assignment]
        sent: list[tuple[str, dict[str, object]]] = []
        node.to_node = lambda to, message: sent.append((to, message))  # type: ignore[method-assign]
        try:
            node.owned.add("t1")
            replayed = Replayed()
            node._arriving["t1"] = replayed  # acquired, being replayed
            applying = asyncio.ensure_future(
                node._apply({"table": "t1", "kind": "Show", "fields": {}, "reply": "b:1"}))
            await asyncio.wait_for(replayed.waited.wait(), 30)  # the command waits for the replay
            assert not applying.done() and sent == []
            hub.tables["t1"] = Loaded()
            node._arriving.pop("t1").set()
            await asyncio.wait_for(applying, 30)
            assert sent == [("b", {"op": "reply", "id": "b:1", "ok": {"answered": "Show"}})]
        finally:
            await node.stop()

    asyncio.run(main())


def test_r1_a_take_over_replays_in_slices_and_lets_the_loop_turn_between_two(redis_url: str):
    """R1: a node taking many tables over replays them for :data:`REPLAY_SLICE` seconds at a time
    and lets its loop serve its other tables once between two slices, not after every table (a
    busy loop's turn takes tens of milliseconds: a turn per table left the last of 75 tables
    waiting over a second), and not only at the end (its own tables would wait for the whole
    take-over)."""
    from cardtable.server.cluster import REPLAY_SLICE, Cluster

    replay = 0.004  # seconds one table's replay holds the loop (the bound below uses the time taken)

    class Replays:
        """A hub whose replay of each table holds the loop for a few milliseconds, as a real one does."""

        async def take_over(self, table_ids: list[str]) -> AsyncIterator[tuple[str, object]]:
            for table_id in table_ids:
                done = time.perf_counter() + replay  # the replay's work: the loop runs nothing else meanwhile
                while time.perf_counter() < done:
                    pass
                yield table_id, object()

    async def main() -> None:
        node = Cluster(redis_url, node="a")
        node.hub = Replays()  # type: ignore[assignment]
        tables = [f"t{i}" for i in range(int(3 * REPLAY_SLICE / replay))]  # three slices or more
        turns = 0
        begun = asyncio.Event()

        async def other_tables() -> None:
            nonlocal turns
            begun.set()
            while True:
                await asyncio.sleep(0)  # one turn of the loop, the thing counted
                turns += 1

        try:
            node._arriving.update({t: asyncio.Event() for t in tables})  # as a look leaves them
            node.owned.update(tables)
            serving = asyncio.ensure_future(other_tables())
            await asyncio.wait_for(begun.wait(), 60)
            began, before = time.monotonic(), turns
            await node._load(tables)
            took, during = time.monotonic() - began, turns - before
            serving.cancel()
            assert not node._arriving and node.owned == set(tables)
            assert 1 <= during <= took / REPLAY_SLICE + 1, (during, took)
        finally:
            await node.stop()

    asyncio.run(main())


def test_ld8_a_node_that_starts_lists_no_open_table_older_than_keep(tmp_path: Path, redis: Redis, redis_url: str):
    """LD8, as one process does: an open table nobody has been at for longer than ``--keep`` (600 s)
    waits for its link in the log. A node starting on an empty Redis announces the log's games in
    progress and young open tables as the cluster's, not such an old one; its link still loads it."""
    import sqlite3

    (a,) = _nodes(tmp_path, redis_url, "a")
    try:
        old, young = (a.post("/api/tables", game="trash", options={})["table"]["id"] for _ in range(2))
    finally:
        a.stop()
    db = sqlite3.connect(tmp_path / "shared.sqlite3")
    db.execute("UPDATE tables SET created = created - 3600 WHERE id = ?", (old,))
    db.commit()
    db.close()
    assert redis.call("FLUSHALL").startswith(b"+OK")  # the cluster starts again from nothing
    (b,) = _nodes(tmp_path, redis_url, "b")
    try:
        def listed() -> set[str]:
            return {t["id"] for t in b.get("/api/tables")["tables"]}

        wait("the young open table is listed", lambda: young in listed())
        assert old not in listed()
        assert b.get(f"/api/tables/{old}")["table"]["id"] == old
    finally:
        b.stop()


def test_s10_a_bus_that_cannot_be_reached_or_a_node_name_in_use_is_refused_in_one_line(tmp_path: Path,
                                                                                      redis_url: str):
    """Bad configuration gets a clear error before the server starts: a Redis URL nothing answers
    at, and a second process with the name of a living node (each would take commands forwarded to
    the other); a node's name is free again once it has stopped."""
    import subprocess
    import sys

    def serve(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "cardtable.cli.main", "serve", "--port", "0",
                               "--db", f"sqlite:///{tmp_path / 'other.sqlite3'}", *args],
                              capture_output=True, text=True, timeout=120)

    with socket.socket() as closed:  # a port nothing listens at
        closed.bind(("127.0.0.1", 0))
        nowhere = f"redis://127.0.0.1:{closed.getsockname()[1]}/0"
    done = serve("--bus", nowhere)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.startswith("cardtable: --bus") and "Redis cannot be used" in done.stderr
    (a,) = _nodes(tmp_path, redis_url, "a")
    try:
        twin = serve("--bus", redis_url, "--node", "a")
        assert twin.returncode == 2 and "a node of that name is running" in twin.stderr, twin.stderr
    finally:
        a.stop()
    (again,) = _nodes(tmp_path, redis_url, "a")  # stopped: its name may be used again
    again.stop()


def test_h12_a4_a_dead_token_gets_nothing_through_a_node_that_read_the_table_before_it_died(
        tmp_path: Path, redis_url: str):
    """A node that does not own a table reads its row when a socket opens; the seat was found
    there at ``hello``, up to ten seconds later. P opens a socket through b, leaves seat 0 (its
    token dies), Q sits there and the game starts; P's ``hello`` with the dead token was welcomed
    as seat 0: Q's cards went to P and Q's socket was closed as replaced. The owner checks the
    token as it is now: P's socket is closed as an unknown token, and Q plays on."""
    a, b = _nodes(tmp_path, redis_url, "a", "b")
    try:
        created = a.post("/api/tables", game="trash", options={})
        table_id, host = created["table"]["id"], created["host"]
        dead = a.post(f"/api/tables/{table_id}/sit", seat=0, name="P")["token"]
        a.post(f"/api/tables/{table_id}/bot", host=host, seat=1, bot="random")

        async def scenario() -> None:
            import json

            from websockets.asyncio.client import connect
            from websockets.exceptions import ConnectionClosed

            async with connect(f"{b.ws}/ws/{table_id}") as stale:  # b reads the row: P holds seat 0
                a.post(f"/api/tables/{table_id}/leave", token=dead)
                alive = a.post(f"/api/tables/{table_id}/sit", seat=0, name="Q")["token"]
                a.post(f"/api/tables/{table_id}/start", host=host)
                async with GameClient(a.ws, table_id, alive) as q:
                    await q.wait_turn()
                    await stale.send(json.dumps({"type": "hello", "token": dead, "lang": "en"}))
                    with pytest.raises(ConnectionClosed) as closed:
                        for _ in range(10):  # until the socket closes: no welcome, no state before
                            frame = json.loads(await asyncio.wait_for(stale.recv(), 20))
                            assert frame.get("type") not in ("welcome", "state"), frame
                    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4001
                    await q.act(q.view["legal_actions"][0])  # type: ignore[index]  # Q still holds the seat
                    assert q.close_code is None

        asyncio.run(scenario())
    finally:
        _stop_living(a, b)


def test_r5_r8_after_a_redis_restart_the_owner_forgets_the_sockets_another_node_closed(
        tmp_path: Path, redis: Redis, redis_url: str):
    """Redis restarts: a node closes its sockets to other nodes' tables (their pages reconnect),
    and the detach each sent then was lost, so the owner showed the seat online and counted the
    spectators for good: no hold, no stand-in, the others waiting. The owner lets go of those
    connections when Redis is back: the seat is away and the watchers are gone."""
    from websockets.exceptions import ConnectionClosed

    a, b = _nodes(tmp_path, redis_url, "a", "b")
    try:
        table_id, tokens = a.table({1: "random"})

        async def scenario() -> None:
            player = GameClient(b.ws, table_id, tokens[0])
            watchers = [GameClient(b.ws, table_id) for _ in range(2)]
            for client in (player, *watchers):
                await client.connect()
            seat = a.get(f"/api/tables/{table_id}")["table"]["seats"][0]
            assert seat["online"] is True
            redis.stop()
            redis.start()
            for client in (player, *watchers):  # b closed them: Redis went away under them
                with pytest.raises((ConnectionClosed, OSError)):
                    for _ in range(1000):
                        await asyncio.wait_for(client.recv(), 60)
            wait("the owner shows the seat away and no watcher",
                 lambda: (lambda t: t["seats"][0]["online"] is False and not t.get("watchers"))(
                     a.get(f"/api/tables/{table_id}")["table"]))

        asyncio.run(scenario())
        assert not re.findall(r"node \w+ stopped.*", a.log.read_text())  # both nodes write this log
    finally:
        _stop_living(a, b)


def test_r1_a_renewal_after_redis_restarted_empty_makes_the_nodes_counts_again(redis: Redis, redis_url: str):
    """A node counts as living by its counts' hash (``ct:count:{node}``). Redis restarted empty:
    the renewer put the node back among the nodes at once, but the hash only came back with the
    loop's next refresh, and another node's look in between logged it as stopped. A renewal
    makes the hash again."""
    from cardtable.server.cluster import Cluster, LeaseRenewer

    async def main() -> None:
        node = Cluster(redis_url, node="a")
        node.hub = LosesNothing()  # type: ignore[assignment]
        renewer = LeaseRenewer(node, asyncio.get_running_loop())
        try:
            await node.keeper.flushall()  # as a Redis that restarted without its data
            renewer.renew()
            assert await node.keeper.exists("ct:count:a") and await node.keeper.sismember("ct:nodes", "a")
            assert await node.keeper.pttl("ct:count:a") > 0  # it runs out with the node, as before
        finally:
            await node.stop()

    asyncio.run(main())
