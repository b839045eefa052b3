"""C9 over a real server: four Trex seats and fifty spectators at once."""

from __future__ import annotations

import asyncio
import json
import random
import time
from pathlib import Path
from typing import Any

import pytest

from cardtable.server.client import GameClient
from cardtable.server.store import Store

from .netserver import Server

ARGS = ("--rate", "100000", "--burst", "100000", "--max-per-ip", "100", "--max-conn-per-ip", "200")


def without_events(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k != "events"}


@pytest.mark.timeout(300)
def test_c9_four_trex_seats_and_fifty_spectators_see_whole_changes_one_version_at_a_time(tmp_path: Path):
    """C9: four people play Trex as fast as the server answers them while fifty spectators read
    along, for a few seconds. The table does one thing at a time: the log's versions are 1, 2, 3…
    with no gap or repeat; every reader's states come in rising versions; and every spectator that
    received a version received the same view of it (no spectator saw a change half made)."""
    srv = Server(tmp_path / "server.sqlite3", *ARGS).start()
    try:
        table_id, tokens = srv.table({}, humans=(0, 1, 2, 3), game="trex")
        rng = random.Random(9)
        stop_at = time.monotonic() + 6.0

        async def seat(token: str) -> list[dict[str, Any]]:
            c = GameClient(srv.ws, table_id, token)
            await c.connect()
            while time.monotonic() < stop_at and not c.over():
                try:  # the others stop at stop_at too: a turn may never come
                    await asyncio.wait_for(c.wait_turn(), max(0.05, stop_at - time.monotonic()))
                except TimeoutError:
                    break
                if c.over() or time.monotonic() >= stop_at:
                    break
                assert c.view is not None
                reply = await c.act(rng.choice(c.view["legal_actions"]))
                assert reply["type"] == "ack", reply
            await c.close()
            return [f for f in c.frames if f["type"] == "state"]

        async def spectator() -> list[dict[str, Any]]:
            from websockets.asyncio.client import connect

            states = []
            async with connect(f"{srv.ws}/ws/{table_id}", max_size=2**20) as ws:
                await ws.send(json.dumps({"type": "hello"}))
                while time.monotonic() < stop_at + 1.0:
                    left = max(0.05, stop_at + 1.0 - time.monotonic())
                    try:
                        frame = json.loads(await asyncio.wait_for(ws.recv(), left))
                    except TimeoutError:
                        break
                    if frame["type"] == "state":
                        states.append(frame)
            return states

        async def main() -> tuple[list[list[dict[str, Any]]], list[list[dict[str, Any]]]]:
            watchers = [asyncio.create_task(spectator()) for _ in range(50)]
            players = await asyncio.gather(*(seat(t) for t in tokens.values()))
            return list(players), list(await asyncio.gather(*watchers))

        players, watchers = asyncio.run(asyncio.wait_for(main(), 120))
    finally:
        srv.stop()
    store = Store(srv.db)
    versions = [row.version for row in store.actions(table_id)]
    store.close()
    assert len(versions) >= 20, "too few moves to tell anything"
    assert versions == list(range(1, len(versions) + 1))
    seen: dict[int, dict[str, Any]] = {}
    for states in [*players, *watchers]:
        got = [s["version"] for s in states]
        assert got == sorted(set(got)) and set(got) <= {0, *versions}, got
    for states in watchers:
        assert states, "a spectator read nothing"
        for s in states:
            view = without_events(s["view"])
            assert seen.setdefault(s["version"], view) == view, f"two views of version {s['version']}"
