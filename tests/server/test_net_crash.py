"""S4 over a real server: a crash between receiving an action and storing it."""

from __future__ import annotations

import asyncio
import json
import signal
from pathlib import Path

import pytest

from cardtable.server.client import GameClient

from .netserver import Server

FAST = ("--rate", "100000", "--burst", "100000")


@pytest.mark.timeout(300)
def test_s4_an_action_cut_off_by_a_crash_is_absent_or_there_once_and_a_resend_applies_it_once(tmp_path: Path):
    """The mover sends its action and the server is killed (SIGKILL) at once, before the client
    hears anything: the action may or may not have been stored. After the restart the seat's
    welcome says which (its last applied ``seq``), the client resends the same ``seq`` (R2), and
    either way the action is in the game exactly once: one version more than before, once in the
    events every seat resumes, and a duplicate ``ack`` when it had been stored already."""
    srv = Server(tmp_path / "server.sqlite3", *FAST).start()
    try:
        table_id, tokens = srv.table({}, humans=(0, 1))

        async def crash_once() -> bool:
            clients = {s: GameClient(srv.ws, table_id, t) for s, t in tokens.items()}
            for c in clients.values():
                await c.connect()
                await c.until(lambda f: f["type"] == "state")
            mover = next(c for c in clients.values() if c.my_turn())
            assert mover.view is not None and mover.seat is not None
            before, seq, action = mover.version, mover.seq + 1, mover.view["legal_actions"][0]
            await mover.ws.send(json.dumps({"type": "act", "seq": seq, "action": action}))
            srv.stop(signal.SIGKILL)  # no ack awaited: the store may or may not hold it
            srv.start()
            again = GameClient(srv.ws, table_id, tokens[mover.seat])
            welcome = await again.connect(since=before)
            stored = welcome["seq"] == seq
            assert welcome["seq"] in (seq - 1, seq) and welcome["version"] == before + int(stored)
            await again.ws.send(json.dumps({"type": "act", "seq": seq, "action": action}))
            reply = await again.until(lambda f: f["type"] in ("ack", "error") and f.get("seq") == seq)
            assert reply["type"] == "ack" and reply["version"] == before + 1, reply
            assert bool(reply.get("dup")) == stored
            while again.version < before + 1:  # (stored: the state came with the welcome)
                await again.recv()
            for token in tokens.values():  # every seat resumes the same history, with it once
                c = GameClient(srv.ws, table_id, token)
                await c.connect(since=before)
                missed = await c.recv()
                state = await c.recv()
                assert missed["type"] == "events" and state["type"] == "state", (missed, state)
                assert state["version"] == before + 1
                assert {e["version"] for e in missed["events"]} == {before + 1}
                await c.close()
            await again.close()
            return stored

        outcomes = [asyncio.run(asyncio.wait_for(crash_once(), 60)) for _ in range(4)]
        assert len(outcomes) == 4  # stored or not, each crash kept the game whole
    finally:
        srv.stop()
