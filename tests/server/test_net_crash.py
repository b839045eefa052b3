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


def _rank(card: str) -> int:
    return "A23456789TJQK".index(card[0]) + 1


def _race(view0: dict, view1: dict) -> tuple[str, str] | None:
    """A play of each seat onto one spit pile whose cards do not fit each other: whichever is
    applied first, the other no longer fits (one winner)."""
    for a in view0["legal_actions"]:
        for b in view1["legal_actions"]:
            pa, pb = a.split(), b.split()
            if pa[1] == pb[1] == "play" and pa[-1] == pb[-1]:
                gap = abs(_rank(pa[3]) - _rank(pb[3])) % 13
                if gap not in (1, 12):
                    return a, b
    return None


@pytest.mark.timeout(300)
def test_s8_a_crash_during_a_spit_race_decides_no_play_twice(tmp_path: Path):
    """Both seats play onto one spit pile at once, with cards that do not fit each other, and the
    server is killed (SIGKILL) before either hears back. After the restart at most one of the two
    is in the game; each seat resends its seq (R2): the one applied gets its own version again
    (``dup``), the other is refused as too late, and if neither was stored the first resend wins.
    Either way exactly one play is decided, once."""
    srv = Server(tmp_path / "server.sqlite3", *FAST, "--countdown", "0").start()
    try:

        async def race_once(table_id: str, tokens: dict[int, str]) -> bool:
            clients = {s: GameClient(srv.ws, table_id, t) for s, t in tokens.items()}
            for c in clients.values():
                await c.connect()
                await c.until(lambda f: f["type"] == "state")
            for c in clients.values():
                await c.wait_unpaused()
            found = _race(clients[0].view, clients[1].view)  # type: ignore[arg-type]
            if found is None or clients[0].version != clients[1].version:
                for c in clients.values():
                    await c.close()
                return False
            before = clients[0].version
            for seat, action in enumerate(found):
                await clients[seat].ws.send(json.dumps({"type": "act", "seq": 1, "action": action}))
            srv.stop(signal.SIGKILL)  # neither ack awaited
            srv.start()
            again = {s: GameClient(srv.ws, table_id, t) for s, t in tokens.items()}
            welcomes = {s: await c.connect(since=before) for s, c in again.items()}
            applied = [s for s, w in welcomes.items() if (w.get("seq") or 0) == 1]
            assert len(applied) <= 1 and {w["version"] for w in welcomes.values()} == {before + len(applied)}
            replies = {}
            for seat in (applied or [0]) + [s for s in (0, 1) if s not in (applied or [0])]:
                await again[seat].ws.send(json.dumps({"type": "act", "seq": 1, "action": found[seat]}))
                replies[seat] = await again[seat].until(lambda f: f["type"] in ("ack", "error") and f.get("seq") == 1)
            acks = [s for s, r in replies.items() if r["type"] == "ack"]
            assert len(acks) == 1 and replies[acks[0]]["version"] == before + 1, replies
            assert bool(replies[acks[0]].get("dup")) == bool(applied)
            loser = 1 - acks[0]
            assert replies[loser]["code"] in ("lost_race", "illegal"), replies
            watcher = GameClient(srv.ws, table_id)
            await watcher.connect()
            state = await watcher.until(lambda f: f["type"] == "state")
            assert state["version"] == before + 1  # one play decided, once
            for c in (*again.values(), watcher):
                await c.close()
            return True

        for _ in range(40):  # a deal with such a race (most have one)
            table_id, tokens = srv.table({}, humans=(0, 1), game="spit")
            if asyncio.run(asyncio.wait_for(race_once(table_id, tokens), 60)):
                break
        else:
            raise AssertionError("no deal with a race for one spit pile in 40 tables")
    finally:
        srv.stop()
