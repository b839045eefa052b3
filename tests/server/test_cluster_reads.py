"""What a node that does not own a table may do with it (docs/deploy.md): two ``cardtable serve``
nodes on one PostgreSQL database and a real Redis. Asking one node for the record, replay or
review of a game another node is playing is answered 409 ``in_progress`` and changes nothing:
the owner keeps the table, its epoch in the log stays, and its player's next move is
acknowledged (S1: a table is one writer)."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import httpx
import psycopg

from cardtable.server.client import GameClient

from .netserver import Server
from .test_cluster import _nodes, _stop_living


def _epoch(pg_url: str, table_id: str) -> int:
    with psycopg.connect(pg_url) as conn:
        row = conn.execute("SELECT epoch FROM leases WHERE table_id = %s", (table_id,)).fetchone()
    assert row is not None
    return int(row[0])


def _started_on(node: Server) -> tuple[str, str]:
    """A casual Trash table made through ``node`` (which owns it), Ana at seat 0 against the
    random bot, started: its id and Ana's token."""
    on = httpx.Client(base_url=node.http, headers={"Origin": node.http}, timeout=30)
    made = on.post("/api/tables", json={"game": "trash", "options": {"target_size": 9}}).json()
    table_id, host = made["table"]["id"], made["host"]
    token = on.post(f"/api/tables/{table_id}/sit", json={"seat": 0, "name": "Ana"}).json()["token"]
    on.post(f"/api/tables/{table_id}/bot", json={"host": host, "seat": 1, "bot": "random"})
    assert on.post(f"/api/tables/{table_id}/start", json={"host": host}).status_code == 200
    return table_id, str(token)


def test_s1_reading_a_game_in_progress_through_another_node_never_takes_the_table(
        tmp_path: Path, redis_url: str, pg_url: str):
    a, b = _nodes(tmp_path, redis_url, "a", "b", db_url=pg_url, limits=("--hold", "60"))  # Ana away: no stand-in
    try:
        table_id, token = _started_on(a)

        async def play() -> None:
            async with GameClient(a.ws, table_id, token) as ana:
                await ana.wait_turn()
                await ana.act(ana.view["legal_actions"][0])  # type: ignore[index]
                before = _epoch(pg_url, table_id)
                for path in ("record", "replay?seat=0", "review?seat=0"):
                    asked = await asyncio.to_thread(b.client.get, f"{b.http}/api/tables/{table_id}/{path}")
                    assert asked.status_code == 409 and asked.json()["error"] == "in_progress", asked.text
                assert _epoch(pg_url, table_id) == before  # nobody claimed the table in the log
                health = b.get(f"/api/health?table={table_id}")
                assert health["owner"] == "a" and health["tables"] == 0, health  # b holds no copy
                await ana.wait_turn()
                await asyncio.wait_for(ana.act(ana.view["legal_actions"][0]), 30)  # type: ignore[index]

        asyncio.run(play())
    finally:
        _stop_living(a, b)


def test_r1_a_game_that_ends_is_shown_by_every_node_without_a_gap(tmp_path: Path, redis_url: str, pg_url: str):
    """R1 at a game's end on a cluster: while Ana plays a table of node b to its end, node a is
    asked for the table's summary again and again. Every answer is 200, before the end, at it and
    after it: the owner lets the table go only once ``over`` is in the log, and still answers for a
    finished table it let go (a summary asked of it then had waited for a new owner that never
    comes, and answered 503)."""
    a, b = _nodes(tmp_path, redis_url, "a", "b", db_url=pg_url, limits=("--hold", "60"))
    try:
        table_id, token = _started_on(b)
        answers: list[tuple[int, str]] = []

        def ask_a() -> None:
            after_end = 0
            while after_end < 20:  # the end, then twenty answers more
                r = a.client.get(f"{a.http}/api/tables/{table_id}", timeout=30)
                status = r.json()["table"]["status"] if r.status_code == 200 else r.text
                answers.append((r.status_code, status))
                after_end += status == "over"

        async def play() -> None:
            asking = asyncio.create_task(asyncio.to_thread(ask_a))
            async with GameClient(b.ws, table_id, token) as ana:
                await ana.play_to_end(random.Random(2))
            await asyncio.wait_for(asking, 120)

        asyncio.run(play())
        assert all(code == 200 for code, _ in answers), [x for x in answers if x[0] != 200][:3]
    finally:
        _stop_living(a, b)
