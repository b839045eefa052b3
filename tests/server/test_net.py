"""[net] tests: a real uvicorn (``cardtable serve``) on 127.0.0.1 and WebSocket clients.

Whole Trash games, a whole Trex game and a whole Spit game against bots, the Origin check and the frame cap at the real
upgrade, and restarts (graceful and SIGKILL) that lose no acknowledged action.
"""

from __future__ import annotations

import asyncio
import random
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus

from cardtable.server.client import GameClient
from cardtable.server.protocol import CLOSE_BAD_TOKEN, CLOSE_TOO_BIG

from .netserver import Server

FAST = ("--rate", "100000", "--burst", "100000", "--countdown", "0.5")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("net") / "server.sqlite3", *FAST).start()
    yield srv
    srv.stop()


def run(coro):  # type: ignore[no-untyped-def]
    return asyncio.run(asyncio.wait_for(coro, 120))


def test_whole_trash_games_against_bots_over_real_websockets(server: Server):
    async def one(i: int) -> dict:  # type: ignore[type-arg]
        bots = {1: "sensible"} if i % 2 else {1: "random", 2: "stock"}
        table_id, tokens = server.table(bots, players=len(bots) + 1)
        async with GameClient(server.ws, table_id, tokens[0]) as player, GameClient(server.ws, table_id) as watcher:
            outcome = await player.play_to_end(random.Random(i))
            await watcher.until(lambda f: f["type"] == "state" and f["view"]["outcome"] is not None)
            assert watcher.view is not None and watcher.view["outcome"] == outcome
            assert watcher.version == player.version
            return outcome

    async def main() -> list[dict]:  # type: ignore[type-arg]
        return await asyncio.gather(*(one(i) for i in range(4)))

    outcomes = run(main())
    assert all(o["reason"] for o in outcomes)


def test_a_whole_trex_game_against_three_bots_over_real_websockets(server: Server):
    """Twenty deals (TX-5) between a WebSocket player and three server bots, watched by a spectator."""

    async def main() -> dict:  # type: ignore[type-arg]
        table_id, tokens = server.table({1: "medium", 2: "hard", 3: "easy"}, game="trex")
        async with GameClient(server.ws, table_id, tokens[0]) as player, GameClient(server.ws, table_id) as watcher:
            outcome = await player.play_to_end(random.Random(7))
            await watcher.until(lambda f: f["type"] == "state" and f["view"]["outcome"] is not None)
            assert watcher.view is not None and watcher.view["outcome"] == outcome
            assert len(watcher.view["deal_scores"]) == 20
            return outcome

    outcome = run(main())
    assert outcome["reason"] and len(outcome["returns"]) == 4


def _spit_player(view: dict, rng: random.Random) -> str:  # type: ignore[type-arg]
    """A quick person: slap or play when they can, else fill a space, else anything legal."""
    legal = view["legal_actions"]
    for kind in (" slap", " play ", " fill "):
        found = [a for a in legal if kind in a]
        if found:
            return rng.choice(found)
    return str(rng.choice(legal))


def test_sp13_a_whole_spit_game_against_a_bot_over_real_websockets(server: Server):
    """Three rounds (SP-26 ``max_rounds``) between a WebSocket player and the expert bot moving on
    the server's clock, with a spectator reading all along: races are refused as ``lost_race``
    (never ``illegal``), and player and spectator end on the same outcome and version."""

    async def main() -> tuple[dict, GameClient, GameClient]:  # type: ignore[type-arg]
        table_id, tokens = server.table({1: "expert"}, game="spit", max_rounds=3, spit_delay=0.2, slap_timeout=1.0)
        async with GameClient(server.ws, table_id, tokens[0]) as player, GameClient(server.ws, table_id) as watcher:
            watching = asyncio.create_task(
                watcher.until(lambda f: f["type"] == "state" and f["view"]["outcome"] is not None))
            outcome = await player.play_to_end(random.Random(3), choose=_spit_player, think=0.15)
            await watching
            return outcome, player, watcher

    outcome, player, watcher = run(main())
    assert watcher.view is not None and watcher.view["outcome"] == outcome
    assert watcher.version == player.version
    assert outcome["reason"] and len(outcome["returns"]) == 2
    view = watcher.view
    assert view["round"] <= 3 and sum(view["cards_held"]) + sum(view["spit_sizes"]) == 52, view
    acts = [f for f in player.frames if f["type"] in ("ack", "error")]
    assert all(f["type"] == "ack" or f["code"] == "lost_race" for f in acts)
    assert sum(f["type"] == "ack" for f in acts) >= 10


def test_a6_origin_is_checked_at_the_real_upgrade(server: Server):
    table_id, _ = server.table({1: "random"})

    async def main() -> None:
        with pytest.raises(InvalidStatus) as info:
            await GameClient(server.ws, table_id, origin="https://evil.example").connect()
        assert info.value.response.status_code == 403
        ok = GameClient(server.ws, table_id, origin=server.http)
        await ok.connect()
        await ok.close()

    run(main())


def test_a1_p3_bad_token_and_a_16_mib_frame_over_the_wire(server: Server):
    table_id, tokens = server.table({1: "random"})

    async def main() -> None:
        bad = GameClient(server.ws, table_id, "A" * 32)
        with pytest.raises(ConnectionClosed):
            await bad.connect()
        assert bad.close_code == CLOSE_BAD_TOKEN and bad.frames == []
        big = GameClient(server.ws, table_id, tokens[0])
        await big.connect()
        with pytest.raises(ConnectionClosed) as info:
            await big.ws.send("x" * (16 * 2**20))
            while True:
                await big.recv()
        assert info.value.rcvd is not None and info.value.rcvd.code == CLOSE_TOO_BIG
        async with GameClient(server.ws, table_id, tokens[0]) as again:  # the server is alive
            await again.wait_turn()

    run(main())


async def _play_some(client: GameClient, rng: random.Random, count: int) -> list[tuple[int, str]]:
    """Up to ``count`` acknowledged actions: (version, action)."""
    done = []
    while len(done) < count:
        await client.wait_turn()
        if client.over():
            break
        assert client.view is not None
        action = rng.choice(client.view["legal_actions"])
        reply = await client.act(action)
        assert reply["type"] == "ack", reply
        done.append((reply["version"], action))
    return done


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["s1_graceful", "s3_sigkill"])
def test_s1_s3_restart_loses_no_acknowledged_action(tmp_path: Path, sig: int):
    """Two human seats (no bot moves between the last ack and the kill): after the
    restart each seat's snapshot is exactly the last state it saw, and the events
    resumed from version 0 contain every acknowledged action."""
    srv = Server(tmp_path / "server.sqlite3", *FAST).start()
    try:
        table_id, tokens = srv.table({}, humans=(0, 1))
        rng = random.Random(7)

        async def before() -> tuple[list[tuple[int, str]], dict[int, dict]]:  # type: ignore[type-arg]
            clients = {s: GameClient(srv.ws, table_id, t) for s, t in tokens.items()}
            for c in clients.values():
                await c.connect()
            for c in clients.values():
                await c.until(lambda f: f["type"] == "state")
            acked: list[tuple[int, str]] = []
            while len(acked) < 24:
                mover = next(c for c in clients.values() if c.my_turn())
                acked += await _play_some(mover, rng, 1)
                for c in clients.values():  # drain to the latest state
                    while c.version < acked[-1][0]:
                        await c.recv()
            last = {s: c.view for s, c in clients.items()}
            if sig == signal.SIGKILL:
                srv.stop(signal.SIGKILL)  # right after the last ack, no goodbye
            return acked, last  # type: ignore[return-value]

        acked, last = run(before())
        assert len(acked) >= 20
        if sig == signal.SIGKILL:
            srv.start()
        else:
            srv.restart(signal.SIGTERM)

        async def after() -> None:
            for seat, token in tokens.items():
                c = GameClient(srv.ws, table_id, token)
                await c.connect(since=0)
                events = await c.recv()
                state = await c.recv()
                assert events["type"] == "events" and state["type"] == "state"
                assert state["version"] == acked[-1][0]
                assert state["view"] == last[seat]
                versions = {e["version"] for e in events["events"]}
                assert {v for v, _ in acked} <= versions
                await c.close()
            # and the game goes on to the end
            clients = [GameClient(srv.ws, table_id, t) for t in tokens.values()]
            for c in clients:
                await c.connect()

            async def loop(c: GameClient) -> None:
                while not c.over():
                    await c.wait_turn()
                    if c.over():
                        return
                    assert c.view is not None
                    reply = await c.act(rng.choice(c.view["legal_actions"]))
                    assert reply["type"] == "ack"

            await asyncio.gather(*(loop(c) for c in clients))

        run(after())
    finally:
        if srv.proc is not None and srv.proc.poll() is None:
            srv.stop()


def test_s1_graceful_restart_closes_1012_and_bots_resume(tmp_path: Path):
    srv = Server(tmp_path / "server.sqlite3", *FAST).start()
    try:
        table_id, tokens = srv.table({1: "sensible"})

        async def before() -> int:
            c = GameClient(srv.ws, table_id, tokens[0])
            await c.connect()
            await _play_some(c, random.Random(1), 10)
            version = c.version
            srv.proc.send_signal(signal.SIGTERM)  # type: ignore[union-attr]
            with pytest.raises(ConnectionClosed):
                while True:
                    await c.recv()
            assert c.close_code in (1012, 1001)
            return version

        version = run(before())
        srv.proc.wait(15)  # type: ignore[union-attr]
        srv.start()

        async def after() -> None:
            c = GameClient(srv.ws, table_id, tokens[0])
            await c.connect(since=version)
            assert (await c.recv())["type"] in ("events", "state")
            await c.play_to_end(random.Random(2))

        run(after())
    finally:
        if srv.proc is not None and srv.proc.poll() is None:
            srv.stop()
