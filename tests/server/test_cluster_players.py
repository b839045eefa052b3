"""Players on PostgreSQL (docs/deploy.md, docs/play-online.md). Two ``cardtable serve`` nodes on one
PostgreSQL database and a real Redis share accounts, sessions and ratings: an account made
through one node is logged in on the other, a rated game played there is recorded once, and both
nodes' profiles and leaderboards show it. One node on PostgreSQL keeps its accounts and
tournaments across a restart."""

from __future__ import annotations

import asyncio
import random
import signal
from pathlib import Path
from types import SimpleNamespace

import httpx
import pytest

from cardtable.server.client import GameClient
from cardtable.server.cluster.adapters import RedisTickets
from cardtable.server.lobby import LobbyError
from cardtable.server.players.quickplay import Ticket

from .helpers import wait
from .netserver import Server
from .test_cluster import _first_moves, _nodes, _stop_living


def _people_nodes(tmp_path: Path, redis_url: str, pg_url: str, *extra: str) -> list[Server]:
    """Nodes "a" and "b" on ``pg_url``, whose seats wait 60 s for their people (a cluster test's
    ``--hold 0`` gives a seat whose person has not connected yet to a stand-in at once, and at a
    rated table three of its moves are abandoning: a loaded machine's slow connect would lose it)."""
    return _nodes(tmp_path, redis_url, "a", "b", db_url=pg_url, limits=("--hold", "60", *extra))

def test_p_cluster_an_account_made_on_one_node_plays_a_rated_game_through_the_other(
        tmp_path: Path, redis_url: str, pg_url: str):
    a, b = _people_nodes(tmp_path, redis_url, pg_url)
    try:
        on_a = httpx.Client(base_url=a.http, headers={"Origin": a.http}, timeout=30)
        made = on_a.post("/api/players/signup", json={"username": "Ana", "password": "correct horse"})
        assert made.status_code == 201, made.text
        on_b = httpx.Client(base_url=b.http, headers={"Origin": b.http}, cookies=on_a.cookies, timeout=30)
        me = on_b.get("/api/players/me").json()
        assert me["account"]["username"] == "Ana" and me["csrf"] == made.json()["csrf"]
        csrf = {"X-CSRF-Token": me["csrf"]}
        created = on_b.post("/api/tables", json={"game": "trash", "options": {"target_size": 9}, "rated": True,
                                                 "clock": None}, headers=csrf).json()
        table_id, host = created["table"]["id"], created["host"]
        token = on_b.post(f"/api/tables/{table_id}/sit", json={"seat": 0, "name": "Ana"}, headers=csrf).json()["token"]
        on_b.post(f"/api/tables/{table_id}/bot", json={"host": host, "seat": 1, "bot": "random"}, headers=csrf)
        assert on_b.post(f"/api/tables/{table_id}/start", json={"host": host}, headers=csrf).status_code == 200

        async def play() -> None:
            async with GameClient(a.ws, table_id, token) as player:
                await player.play_to_end(random.Random(3))

        asyncio.run(play())
        for node in (a, b):  # 'over' is written after the result, in a writer thread (S3)
            wait("the node says the game is over",
                 lambda node=node: node.get(f"/api/tables/{table_id}")["table"]["status"] == "over")
        for node in (a, b):
            wait("the node's profile shows the rated game",
                 lambda node=node: [r["table"] for r in node.get("/api/players/profile/Ana")["results"]] == [table_id])
            profile = node.get("/api/players/profile/Ana")
            assert profile["results"][0]["rated"] is True and profile["games"]["trash"]["rating"]["games"] == 1
            board = node.get("/api/players/leaderboard/trash")["rows"]
            assert {(r["username"], r["kind"], r["games"]) for r in board} == {("Ana", "person", 1),
                                                                                ("random", "bot", 1)}
        again = on_b.post("/api/players/signup", json={"username": "ana", "password": "correct horse"})
        assert again.status_code == 409 and again.json()["error"] == "name_taken"  # one name across the nodes
    finally:
        _stop_living(a, b)


def test_p_cluster_the_login_limit_of_a_name_counts_over_every_node(tmp_path: Path, redis_url: str, pg_url: str):
    """P (login limits) on a cluster: a name takes 5 logins at once, then one a minute, from the
    whole cluster: wrong passwords sent to two nodes in turn are refused with 429 at the sixth, as
    one process refuses them (not at the eleventh, two nodes' allowance)."""
    a, b = _people_nodes(tmp_path, redis_url, pg_url)
    try:
        on = [httpx.Client(base_url=n.http, headers={"Origin": n.http}, timeout=30) for n in (a, b)]
        made = on[0].post("/api/players/signup", json={"username": "Ana", "password": "correct horse"})
        assert made.status_code == 201
        wrong, right = ({"username": "ana", "password": p} for p in ("wrong horse", "correct horse"))
        codes = [on[i % 2].post("/api/players/login", json=wrong).status_code for i in range(6)]
        assert codes == [401] * 5 + [429]
        assert on[1].post("/api/players/login", json=right).status_code == 429
    finally:
        _stop_living(a, b)


def test_p_cluster_two_sits_of_one_account_sent_at_once_through_two_nodes_take_one_seat(
        tmp_path: Path, redis_url: str, pg_url: str):
    """P (one seat of a rated table per account) on a cluster: Ana's session sits at seats 0 and
    1 of a new rated Trex table at the same moment, one sit through each node, at five tables:
    each time one sit is taken and the other refused 409 one_seat."""
    a, b = _people_nodes(tmp_path, redis_url, pg_url)
    try:
        on_a = httpx.Client(base_url=a.http, headers={"Origin": a.http}, timeout=30)
        made = on_a.post("/api/players/signup", json={"username": "Ana", "password": "correct horse"})
        csrf = {"X-CSRF-Token": made.json()["csrf"]}
        on_b = httpx.Client(base_url=b.http, headers={"Origin": b.http, **csrf}, cookies=on_a.cookies, timeout=30)
        on_a.headers.update(csrf)
        for _ in range(5):
            table_id = on_a.post("/api/tables", json={"game": "trex", "rated": True}).json()["table"]["id"]

            async def both(table_id: str = table_id) -> list[int]:
                sits = [asyncio.to_thread(on.post, f"/api/tables/{table_id}/sit", json={"seat": seat, "name": "Ana"})
                        for seat, on in enumerate((on_a, on_b))]
                return sorted(r.status_code for r in await asyncio.gather(*sits))

            assert asyncio.run(both()) == [200, 409]
            seats = a.get(f"/api/tables/{table_id}")["table"]["seats"]
            assert sorted(s["kind"] for s in seats) == ["human", "open", "open", "open"]
    finally:
        _stop_living(a, b)


def test_p_cluster_an_account_deleted_through_one_node_is_renamed_at_the_table_another_node_plays(
        tmp_path: Path, redis_url: str, pg_url: str):
    """P (deleting an account) on a cluster: Ana plays a rated table that node b owns and deletes
    her account through node a. Her seat shows the anonymous label at once on both nodes, to a
    spectator's socket too, as the log has it; and a finished table of hers that a node had read
    before shows the label when it is read again there."""
    a, b = _people_nodes(tmp_path, redis_url, pg_url)
    try:
        on_a = httpx.Client(base_url=a.http, headers={"Origin": a.http}, timeout=30)
        made = on_a.post("/api/players/signup", json={"username": "Ana", "password": "correct horse"})
        csrf = {"X-CSRF-Token": made.json()["csrf"]}
        on_a.headers.update(csrf)
        on_b = httpx.Client(base_url=b.http, headers={"Origin": b.http, **csrf}, cookies=on_a.cookies, timeout=30)

        def table(start: bool) -> tuple[str, str]:
            created = on_b.post("/api/tables", json={"game": "trash", "rated": True, "clock": None,
                                                     "options": {"target_size": 9}}).json()
            table_id, host = created["table"]["id"], created["host"]
            token = on_b.post(f"/api/tables/{table_id}/sit", json={"seat": 0, "name": "Ana"}).json()["token"]
            on_b.post(f"/api/tables/{table_id}/bot", json={"host": host, "seat": 1, "bot": "random"})
            if start:
                assert on_b.post(f"/api/tables/{table_id}/start", json={"host": host}).status_code == 200
            return table_id, token

        finished, token = table(True)

        async def play_it() -> None:
            async with GameClient(b.ws, finished, token) as ana:
                await ana.play_to_end(random.Random(5))

        asyncio.run(play_it())
        wait("the finished game is over in the log", lambda: a.get(f"/api/tables/{finished}")["table"]["status"]
             == "over")  # node a holds a copy of it now
        live, token = table(True)
        assert a.get(f"/api/health?table={live}")["owner"] == "b"

        async def delete_while_watched() -> str:
            async with GameClient(b.ws, live) as watcher:
                await watcher.recv()
                deleted = await asyncio.to_thread(on_a.post, "/api/players/delete", json={"password": "correct horse"})
                assert deleted.status_code == 200 and deleted.json()["anonymized"] == 2, deleted.text
                label = str(b.get(f"/api/tables/{live}")["table"]["seats"][0]["name"])
                while watcher.table is None or watcher.table["seats"][0]["name"] != label:  # the socket is told
                    await asyncio.wait_for(watcher.recv(), 30)
                return label

        label = asyncio.run(delete_while_watched())
        assert label.startswith("anonymous")
        for node in (a, b):
            for table_id in (live, finished):
                assert node.get(f"/api/tables/{table_id}")["table"]["seats"][0]["name"] == label, (node, table_id)
    finally:
        _stop_living(a, b)


def test_p_quick_cluster_people_waiting_on_two_nodes_are_seated_together(tmp_path: Path, redis_url: str,
                                                                         pg_url: str):
    """P-quick on a cluster: quick play's queue is one for every node. Ana waits on node a and Ben
    joins on b: they are seated at one table, whose lease one node holds, and each plays through
    the node they joined on. A ticket is answered by any node, and a cancelled one leaves the
    queue that every node sees."""
    a, b = _people_nodes(tmp_path, redis_url, pg_url, "--quick-wait", "600")
    try:
        on_a, on_b = (httpx.Client(base_url=n.http, headers={"Origin": n.http}, timeout=30) for n in (a, b))
        ana = on_a.post("/api/quick", json={"game": "trash", "name": "Ana"})
        assert ana.status_code == 201 and ana.json()["status"] == "waiting" and ana.json()["waiting"] == 1, ana.text
        assert on_b.get(f"/api/quick/{ana.json()['ticket']}").json()["waiting"] == 1  # b answers a's ticket
        ben = on_b.post("/api/quick", json={"game": "trash", "name": "Ben"}).json()
        assert ben["status"] == "seated", ben
        seated = on_a.get(f"/api/quick/{ana.json()['ticket']}").json()
        assert seated["status"] == "seated" and seated["table"] == ben["table"]
        assert {seated["seat"], ben["seat"]} == {0, 1}
        table_id = ben["table"]
        owners = {on.get("/api/health", params={"table": table_id}).json().get("owner") for on in (on_a, on_b)}
        assert owners == {"b"}, owners  # the node that seated them writes the table

        async def play() -> None:
            async with GameClient(a.ws, table_id, seated["token"]) as p_ana, \
                    GameClient(b.ws, table_id, ben["token"]) as p_ben:
                await asyncio.gather(_first_moves(p_ana, 3), _first_moves(p_ben, 3))

        asyncio.run(play())
        table = a.get(f"/api/tables/{table_id}")["table"]
        assert table["rated"] and [s["name"] for s in table["seats"]] == ["Ana", "Ben"]
        cy = on_a.post("/api/quick", json={"game": "trash", "name": "Cy"}).json()
        assert on_b.post(f"/api/quick/{cy['ticket']}/cancel", json={}).json() == {"status": "cancelled"}
        assert on_a.get(f"/api/quick/{cy['ticket']}").status_code == 404
        dee = on_a.post("/api/quick", json={"game": "trash", "name": "Dee"}).json()
        assert dee["status"] == "waiting" and dee["waiting"] == 1  # Cy is gone from every node's queue
    finally:
        _stop_living(a, b)


def test_p_quick_cluster_joins_at_once_on_two_nodes_seat_each_person_once(tmp_path: Path, redis_url: str,
                                                                          pg_url: str):
    """P-quick on a cluster, at once: six people join a two-seat game at the same moment, three on
    each node. Both nodes seat from the one queue, one request at a time (each join that finds a
    second person waiting seats the pair): once every join is answered, three tables of two
    people, each person at exactly one seat, nobody left waiting and no bot."""
    a, b = _people_nodes(tmp_path, redis_url, pg_url, "--quick-wait", "600")
    try:
        async def join(node: Server, name: str) -> str:
            async with httpx.AsyncClient(base_url=node.http, headers={"Origin": node.http}, timeout=30) as on:
                answer = await on.post("/api/quick", json={"game": "trash", "name": name})
                assert answer.status_code == 201, answer.text
                return str(answer.json()["ticket"])

        async def everyone() -> list[str]:
            return await asyncio.gather(*(join((a, b)[i % 2], f"P{i}") for i in range(6)))

        tickets = asyncio.run(everyone())
        seats = [httpx.get(f"{a.http}/api/quick/{t}", timeout=30).json() for t in tickets]
        assert all(s["status"] == "seated" for s in seats), seats
        assert len({(s["table"], s["seat"]) for s in seats}) == 6
        tables = {s["table"] for s in seats}
        assert len(tables) == 3
        for table_id in tables:
            table = a.get(f"/api/tables/{table_id}")["table"]
            assert [s["kind"] for s in table["seats"]] == ["human", "human"], table["seats"]
    finally:
        _stop_living(a, b)


def test_p_quick_cluster_a_node_that_lost_the_queue_writes_nothing_and_a_held_queue_is_waited_for_boundedly(
        redis_url: str):
    """P-quick on a cluster, the queue's lock: a node whose hold expired (paused past
    ``RedisTickets.HELD``) while another node took the queue writes none of its changes and is
    told 503; a request finding the queue held waits at most ``WAIT_FOR_BOOK``, then is told 503."""
    import redis.asyncio as aioredis

    async def run() -> None:
        client = aioredis.Redis.from_url(redis_url, decode_responses=True)
        book = RedisTickets(SimpleNamespace(redis=client))  # type: ignore[arg-type]
        try:
            now = book.clock()
            async with book.holding() as held:
                held.tickets["x"] = Ticket("x", "trash", "standard", "X", None, 25.0, "a", now, now)
            with pytest.raises(LobbyError) as lost:
                async with book.holding() as held:
                    del held.tickets["x"]
                    held.tickets["y"] = Ticket("y", "trash", "standard", "Y", None, 25.0, "a", now, now)
                    await client.set("ct:quick:lock", "another node", px=600_000)  # ours expired; theirs now
                    await held.keep()
            assert lost.value.status == 503
            assert await client.hkeys("ct:quick") == ["x"]
            book.WAIT_FOR_BOOK = 0.2
            with pytest.raises(LobbyError) as busy:
                async with book.holding():
                    pass
            assert busy.value.status == 503 and busy.value.code == "busy"
            await client.delete("ct:quick:lock")  # the other node let go
            async with book.holding() as held:
                assert list(held.tickets) == ["x"] and held.tickets["x"].name == "X"
                held.tickets["z"] = Ticket("z", "trash", "standard", "Z", None, 25.0, "a", now, now)
                await held.keep()  # kept while still held
                assert sorted(await client.hkeys("ct:quick")) == ["x", "z"]
                assert await client.get("ct:quick:lock") is not None
            assert await client.get("ct:quick:lock") is None
        finally:
            await client.aclose()

    asyncio.run(run())


def test_t7_one_server_on_postgres_keeps_accounts_and_events_across_a_restart(tmp_path: Path, pg_url: str):
    """Players and tournaments on PostgreSQL, one process (``serve --db postgresql://``): an
    account and the Swiss event it made and entered are there after a SIGKILL and a restart."""
    node = Server(tmp_path / "unused.sqlite3", "--db", pg_url).start()
    try:
        ana = httpx.Client(base_url=node.http, headers={"Origin": node.http}, timeout=30)
        made = ana.post("/api/players/signup", json={"username": "Ana", "password": "correct horse"})
        assert made.status_code == 201, made.text
        csrf = {"X-CSRF-Token": made.json()["csrf"]}
        event = ana.post("/api/events", json={"name": "Friday Spit", "kind": "swiss", "game": "spit", "rounds": 2,
                                              "max_entrants": 4, "when_full": True}, headers=csrf)
        assert event.status_code == 201, event.text
        event_id = event.json()["event"]["id"]
        assert ana.post(f"/api/events/{event_id}/register", json={}, headers=csrf).json() == {"registered": True}
        node.restart(signal.SIGKILL)
        shown = ana.get(f"/api/events/{event_id}").json()
        assert shown["event"]["name"] == "Friday Spit" and [e["username"] for e in shown["entrants"]] == ["Ana"]
        assert ana.get("/api/players/me").json()["account"]["username"] == "Ana"  # the session too
    finally:
        _stop_living(node)
