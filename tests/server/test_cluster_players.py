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

import httpx

from cardtable.server.client import GameClient

from .helpers import wait
from .netserver import Server
from .test_cluster import _nodes, _stop_living


def test_p_cluster_an_account_made_on_one_node_plays_a_rated_game_through_the_other(
        tmp_path: Path, redis_url: str, pg_url: str):
    a, b = _nodes(tmp_path, redis_url, "a", "b", db_url=pg_url)
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
    a, b = _nodes(tmp_path, redis_url, "a", "b", db_url=pg_url)
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
