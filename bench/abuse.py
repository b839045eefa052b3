"""Attacks on a running ``cardtable serve`` (docs/web.md, "Under attack"), with an honest player and an honest
visitor measured while each one runs.

Starts ``cardtable serve`` on 127.0.0.1 (a free port, a temporary database, default limits),
then runs each attack for ``--seconds`` (a baseline first, with no attack). All the while an
honest player (from 127.0.0.2) plays a Trash game against a server bot, acting as soon as it is
their turn, and pings an idle spectator socket; once per phase an honest visitor (127.0.0.2)
creates a table. Reported per phase: the honest action->ack p50/p99 (ms), the ping p99, whether
the honest table creation succeeded and how long it took, and what the attack achieved.

Attacks (each bounded by ``--seconds`` and its own counts; traffic to 127.0.0.1 only):

- ``spoofed-create``: table creations with a new ``X-Forwarded-For`` each, 20 at a time;
- ``expert-tables``: as many all-``expert`` Trex tables as the limits allow, each watched
  (bots alone nobody watches wait), from 127.0.0.3;
- ``slow-conns``: up to ``--slow`` connections that send half a request's headers and stop;
- ``socket-flood``: WebSockets opened and held, spoofed headers each;
- ``reconnects``: a spectator reconnecting with ``since`` one behind, again and again;
- ``chat-hint``: a seated attacker sending chat lines and hint requests as fast as it can;
- ``locked-store``: another process holds the database's write lock (honest actions are then
  answered ``server`` at once, and nothing waits: see the ping column);
- ``replay-flood``: 20 replay requests at a time, cycling a finished Trex game's 20 seat and
  language combinations (and more finished games), from one address;
- ``review-flood``: 20 review requests at a time over the seats of the finished games, from one address;
- ``undo-flood``: twenty undo tables of one address, each playing a move and undoing it once a
  second.

    .venv/bin/python bench/abuse.py                 # every attack, 8 s each
    .venv/bin/python bench/abuse.py --seconds 4 --only spoofed-create expert-tables
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import socket
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.server.netserver import Server

HONEST = "127.0.0.2"
ATTACKER = "127.0.0.3"


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] * 1000


class Honest:
    """The honest player: Trash against a server bot, acting at once on each turn, and pings."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.http = httpx.AsyncClient(base_url=server.http, timeout=10.0,
                                      transport=httpx.AsyncHTTPTransport(local_address=HONEST))
        self.acks: list[float] = []
        self.pings: list[float] = []
        self.errors: dict[str, int] = {}
        self.stop = asyncio.Event()
        self.playing = asyncio.Event()
        self.pinging = asyncio.Event()

    async def new_game(self) -> tuple[str, str]:
        made = (await self.http.post("/api/tables", json={"game": "trash"})).json()
        table_id, host = made["table"]["id"], made["host"]
        sat = await self.http.post(f"/api/tables/{table_id}/sit", json={"seat": 0, "name": "honest"})
        token = sat.json()["token"]
        await self.http.post(f"/api/tables/{table_id}/bot", json={"host": host, "seat": 1, "bot": "random"})
        await self.http.post(f"/api/tables/{table_id}/start", json={"host": host})
        return table_id, token

    async def play(self) -> None:
        while not self.stop.is_set():
            table_id, token = await self.new_game()
            async with websockets.connect(f"{self.server.ws}/ws/{table_id}") as ws:
                await ws.send(json.dumps({"type": "hello", "token": token}))
                self.playing.set()
                seq, sent, view = 0, 0.0, None
                while not self.stop.is_set():
                    frame = json.loads(await ws.recv())
                    if frame["type"] in ("ack", "error") and sent:
                        if frame["type"] == "ack":
                            self.acks.append(time.monotonic() - sent)
                        else:  # nothing changed (the store is locked...): try again in a moment
                            self.errors[frame["code"]] = self.errors.get(frame["code"], 0) + 1
                            await asyncio.sleep(0.1)
                            frame = {"type": "state", "view": view}
                        sent = 0.0
                    if frame["type"] != "state" or sent or frame["view"] is None:
                        continue
                    view = frame["view"]
                    if view["outcome"] is not None:
                        break
                    if view["current_player"] == 0 and view["legal_actions"]:
                        seq += 1
                        sent = time.monotonic()
                        await ws.send(json.dumps({"type": "act", "seq": seq, "action": view["legal_actions"][0]}))

    async def ping(self) -> None:
        table_id, _ = await self.new_game()
        async with websockets.connect(f"{self.server.ws}/ws/{table_id}") as ws:
            await ws.send(json.dumps({"type": "hello"}))
            self.pinging.set()
            while not self.stop.is_set():
                start = time.monotonic()
                await ws.send(json.dumps({"type": "ping"}))
                while json.loads(await ws.recv())["type"] != "pong":
                    pass
                self.pings.append(time.monotonic() - start)
                await asyncio.sleep(0.05)

    async def create(self) -> tuple[bool, float]:
        start = time.monotonic()
        r = await self.http.post("/api/tables", json={"game": "trash"})
        return r.status_code == 201, (time.monotonic() - start) * 1000


async def spoofed_create(server: Server, until: float) -> str:
    codes: dict[int, int] = {}
    async with httpx.AsyncClient(base_url=server.http, timeout=10.0) as http:
        async def one(i: int) -> None:
            while time.monotonic() < until:
                r = await http.post("/api/tables", json={"game": "trash"},
                                    headers={"x-forwarded-for": f"10.{i}.{len(codes)}.{int(time.monotonic()) % 256}"})
                codes[r.status_code] = codes.get(r.status_code, 0) + 1
        await asyncio.gather(*(one(i) for i in range(20)))
    return f"answers {dict(sorted(codes.items()))}"


async def expert_tables(server: Server, until: float) -> str:
    made, sockets = 0, []
    async with httpx.AsyncClient(base_url=server.http, timeout=10.0,
                                 transport=httpx.AsyncHTTPTransport(local_address=ATTACKER)) as http:
        for _ in range(60):
            r = await http.post("/api/tables", json={"game": "trex"})
            if r.status_code != 201:
                break
            table_id, host = r.json()["table"]["id"], r.json()["host"]
            for seat in range(4):
                await http.post(f"/api/tables/{table_id}/bot", json={"host": host, "seat": seat, "bot": "expert"})
            await http.post(f"/api/tables/{table_id}/start", json={"host": host})
            made += 1
            with contextlib.suppress(Exception):
                ws = await websockets.connect(f"{server.ws}/ws/{table_id}")
                await ws.send(json.dumps({"type": "hello"}))
                sockets.append(ws)
        while time.monotonic() < until:
            await asyncio.sleep(0.1)
    for ws in sockets:
        await ws.close()
    return f"{made} expert tables, {len(sockets)} watched"


async def slow_conns(server: Server, until: float, count: int) -> str:
    held, refused = [], 0
    loop = asyncio.get_running_loop()
    for _ in range(count):
        if time.monotonic() > until:
            break
        s = socket.socket()
        s.setblocking(False)
        try:
            await loop.sock_connect(s, ("127.0.0.1", server.port))
            await loop.sock_sendall(s, b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            held.append(s)
        except OSError:
            refused += 1
            s.close()
    while time.monotonic() < until:
        await asyncio.sleep(0.1)
    alive = 0
    for s in held:
        try:
            alive += s.recv(1) != b""
        except BlockingIOError:
            alive += 1
        except OSError:
            pass
        s.close()
    return f"{len(held)} opened, {alive} still open at the end"


def post(server: Server, address: str, path: str, **body: Any) -> dict[str, Any]:
    """A lobby request from ``address`` (each attack has its own: the per-address limits hold)."""
    with httpx.Client(base_url=server.http, timeout=10.0, transport=httpx.HTTPTransport(local_address=address)) as c:
        r = c.post(path, json=body)
        r.raise_for_status()
        return r.json()  # type: ignore[no-any-return]


async def socket_flood(server: Server, until: float) -> str:
    table_id = post(server, "127.0.0.4", "/api/tables", game="trash")["table"]["id"]
    held, refused = [], 0
    for i in range(400):
        if time.monotonic() > until:
            break
        try:
            held.append(await websockets.connect(f"{server.ws}/ws/{table_id}",
                                                 additional_headers={"x-forwarded-for": f"10.1.{i // 256}.{i % 256}"}))
        except Exception:
            refused += 1
    while time.monotonic() < until:
        await asyncio.sleep(0.1)
    for ws in held:
        await ws.close()
    return f"{len(held)} sockets accepted, {refused} refused"


async def reconnects(server: Server, until: float, table_id: str) -> str:
    count = with_events = 0
    async with websockets.connect(f"{server.ws}/ws/{table_id}") as watcher:  # bots alone play while watched
        await watcher.send(json.dumps({"type": "hello"}))
        while time.monotonic() < until:
            count, with_events = await _resume_once(server, table_id, count, with_events)
    return f"{count} resumes, {with_events} with replayed events"


async def _resume_once(server: Server, table_id: str, count: int, with_events: int) -> tuple[int, int]:
    for _ in range(1):
        async with websockets.connect(f"{server.ws}/ws/{table_id}") as ws:
            await ws.send(json.dumps({"type": "hello"}))
            version = json.loads(await ws.recv())["version"]
        async with websockets.connect(f"{server.ws}/ws/{table_id}") as ws:
            await ws.send(json.dumps({"type": "hello", "since": max(0, version - 1)}))
            for _ in range(4):
                kind = json.loads(await ws.recv())["type"]
                with_events += kind == "events"
                if kind == "state":
                    break
        count += 1
    return count, with_events


async def chat_hint(server: Server, until: float) -> str:
    made = post(server, "127.0.0.5", "/api/tables", game="trash")
    table_id, host = made["table"]["id"], made["host"]
    token = post(server, "127.0.0.5", f"/api/tables/{table_id}/sit", seat=0, name="loud")["token"]
    post(server, "127.0.0.5", f"/api/tables/{table_id}/bot", host=host, seat=1, bot="random")
    post(server, "127.0.0.5", f"/api/tables/{table_id}/start", host=host)
    sent = closed = 0
    while time.monotonic() < until:
        try:
            async with websockets.connect(f"{server.ws}/ws/{table_id}") as ws:
                await ws.send(json.dumps({"type": "hello", "token": token}))
                while time.monotonic() < until:
                    await ws.send(json.dumps({"type": "chat", "text": "spam " * 40}))
                    await ws.send(json.dumps({"type": "hint"}))
                    sent += 2
                    await asyncio.sleep(0)
        except websockets.ConnectionClosed:
            closed += 1
    return f"{sent} chat/hint messages sent, closed {closed} times"


async def locked_store(server: Server, until: float) -> str:
    def take() -> sqlite3.Connection:  # in a thread: the wait for the lock holds nothing here
        db = sqlite3.connect(server.db, isolation_level=None, timeout=30.0, check_same_thread=False)
        db.execute("BEGIN IMMEDIATE")
        db.execute("INSERT OR REPLACE INTO meta VALUES ('bench-lock', 'held')")
        return db

    db = await asyncio.to_thread(take)
    held = time.monotonic()
    while time.monotonic() < until:
        await asyncio.sleep(0.1)
    db.execute("ROLLBACK")
    db.close()
    return f"write lock held by another process for {time.monotonic() - held:.1f} s"


FLOODER = "127.0.0.6"


async def watch(server: Server, table_id: str) -> None:
    """A spectator reading every frame (bots alone play while watched) until the game is over."""
    async with websockets.connect(f"{server.ws}/ws/{table_id}") as ws:
        await ws.send(json.dumps({"type": "hello"}))
        async for raw in ws:
            frame = json.loads(raw)
            if frame["type"] == "state" and frame["view"] is not None and frame["view"]["outcome"] is not None:
                return


async def finished_games(server: Server, tables: list[tuple[str, int]], until: float) -> list[tuple[str, int]]:
    """Those of ``tables`` (id, seats) that are over by ``until``."""
    async with httpx.AsyncClient(base_url=server.http, timeout=10.0) as http:
        while time.monotonic() < until:
            status = [(await http.get(f"/api/tables/{t}")).json()["table"]["status"] for t, _ in tables]
            if all(s == "over" for s in status):
                break
            await asyncio.sleep(0.5)
        return [(t, n) for (t, n), s in zip(tables, status, strict=True) if s == "over"]


async def flood(server: Server, until: float, paths: list[str]) -> str:
    """Twenty requests at a time from one address, cycling ``paths``, until ``until``."""
    codes: dict[int, int] = {}
    async with httpx.AsyncClient(base_url=server.http, timeout=60.0,
                                 transport=httpx.AsyncHTTPTransport(local_address=FLOODER)) as http:
        async def one(i: int) -> None:
            n = i
            while time.monotonic() < until:
                r = await http.get(paths[n % len(paths)])
                codes[r.status_code] = codes.get(r.status_code, 0) + 1
                n += 20
        await asyncio.gather(*(one(i) for i in range(20)))
    return f"answers {dict(sorted(codes.items()))}"


def replay_paths(games: list[tuple[str, int]]) -> list[str]:
    return [f"/api/tables/{t}/replay?step=0&lang={lang}" + ("" if seat is None else f"&seat={seat}")
            for t, n in games for seat in (*range(n), None) for lang in ("en", "es", "pt", "ar")]


def review_paths(games: list[tuple[str, int]]) -> list[str]:
    return [f"/api/tables/{t}/review?seat={seat}" for t, n in games for seat in range(n)]


async def undo_flood(server: Server, until: float, tables: int = 20) -> str:
    undone = refused = 0
    codes: dict[str, int] = {}

    async def seated(http: httpx.AsyncClient) -> tuple[str, str]:
        """A new undo table of the flooder's, started: its id and the person's token."""

        async def post_json(path: str, **body: Any) -> dict[str, Any]:
            r = await http.post(path, json=body)
            r.raise_for_status()
            return r.json()  # type: ignore[no-any-return]

        made = await post_json("/api/tables", game="trash", undo=True)
        table_id, host = made["table"]["id"], made["host"]
        token = (await post_json(f"/api/tables/{table_id}/sit", seat=0, name="undoer"))["token"]
        await post_json(f"/api/tables/{table_id}/bot", host=host, seat=1, bot="random")
        await post_json(f"/api/tables/{table_id}/start", host=host)
        return table_id, token

    async def one(table_id: str, token: str) -> None:
        nonlocal undone, refused
        async with websockets.connect(f"{server.ws}/ws/{table_id}", local_addr=(FLOODER, 0)) as ws:
            await ws.send(json.dumps({"type": "hello", "token": token}))
            seq = 0
            while time.monotonic() < until:
                with contextlib.suppress(TimeoutError):
                    frame = json.loads(await asyncio.wait_for(ws.recv(), max(0.01, until - time.monotonic())))
                    if frame["type"] == "undo":
                        undone += 1
                    elif frame["type"] == "error" and "seq" not in frame:
                        refused += 1
                        codes[frame["code"]] = codes.get(frame["code"], 0) + 1
                    if frame["type"] != "state" or frame["view"] is None or frame["view"]["outcome"] is not None:
                        continue
                    view = frame["view"]
                    if view["current_player"] == 0 and view["legal_actions"]:
                        seq += 1
                        await ws.send(json.dumps({"type": "act", "seq": seq, "action": view["legal_actions"][-1]}))
                        await asyncio.sleep(1.0)
                        await ws.send(json.dumps({"type": "undo"}))

    async with httpx.AsyncClient(base_url=server.http, timeout=10.0,
                                 transport=httpx.AsyncHTTPTransport(local_address=FLOODER)) as http:
        made = [await seated(http) for _ in range(tables)]  # one after the other: the open-table cap holds
    failed = [r for r in await asyncio.gather(*(one(*t) for t in made), return_exceptions=True)
              if isinstance(r, BaseException)]
    return (f"{undone} undos done, {refused} refused {dict(sorted(codes.items()))}"
            + (f", {len(failed)} tables failed: {failed[0]!r}" if failed else ""))


async def phase(server: Server, name: str, attack: Callable[[float], Coroutine[Any, Any, str]] | None,
                seconds: float) -> dict[str, Any]:
    honest = Honest(server)
    tasks = [asyncio.create_task(honest.play()), asyncio.create_task(honest.ping())]
    await asyncio.wait_for(asyncio.gather(honest.playing.wait(), honest.pinging.wait()), 60.0)
    await asyncio.sleep(0.5)
    until = time.monotonic() + seconds
    attack_task: asyncio.Task[str] | None = asyncio.create_task(attack(until)) if attack else None
    await asyncio.sleep(seconds / 2)
    created, create_ms = await honest.create()
    what = await attack_task if attack_task else "none"
    honest.stop.set()
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await honest.http.aclose()
    return {"attack": name, "ack_p50": pct(honest.acks, 0.5), "ack_p99": pct(honest.acks, 0.99),
            "acks": len(honest.acks), "errors": honest.errors, "ping_p99": pct(honest.pings, 0.99),
            "created": created, "create_ms": create_ms, "what": what}


async def main(args: argparse.Namespace) -> list[dict[str, Any]]:
    tmp = Path(tempfile.mkdtemp())
    server = Server(tmp / "abuse.sqlite3", "--bot-delay", "0.05").start()
    try:
        long_game = server.table({0: "medium", 1: "medium"}, humans=(), game="spit")[0]
        warm = server.table({1: "random"}, humans=(0,))  # the bot workers start before anything is measured
        to_finish = [(server.table({s: "random" for s in range(4)}, humans=(), game="trex")[0], 4),
                     *((server.table({0: "random", 1: "random"}, humans=())[0], 2) for _ in range(3))]
        watchers = [asyncio.create_task(watch(server, table_id)) for table_id, _ in to_finish]
        await phase(server, "warm-up", None, 2.0)
        del warm
        games: list[tuple[str, int]] = []

        async def over() -> list[tuple[str, int]]:  # once, when the first flood needs them
            if not games:
                games.extend(await finished_games(server, to_finish, time.monotonic() + 300.0))
            return games

        async def replay_flood(until: float) -> str:
            return await flood(server, until, replay_paths(await over()))

        async def review_flood(until: float) -> str:
            return await flood(server, until, review_paths(await over()))
        attacks: dict[str, Callable[[float], Coroutine[Any, Any, str]] | None] = {
            "baseline": None,
            "spoofed-create": lambda until: spoofed_create(server, until),
            "expert-tables": lambda until: expert_tables(server, until),
            "slow-conns": lambda until: slow_conns(server, until, args.slow),
            "socket-flood": lambda until: socket_flood(server, until),
            "reconnects": lambda until: reconnects(server, until, long_game),
            "chat-hint": lambda until: chat_hint(server, until),
            "locked-store": lambda until: locked_store(server, until),
            "replay-flood": replay_flood,
            "review-flood": review_flood,
            "undo-flood": lambda until: undo_flood(server, until),
        }
        rows = []
        for name, attack in attacks.items():
            if args.only and name not in args.only and name != "baseline":
                continue
            if name.endswith("-flood") and name != "undo-flood":
                await over()  # the finished games are there before the flood's seconds start
            rows.append(await phase(server, name, attack, args.seconds))
            r = rows[-1]
            print(f"{name:15} ack p50 {r['ack_p50']:6.1f} ms  p99 {r['ack_p99']:7.1f} ms  ({r['acks']} acks, "
                  f"errors {r['errors']})  ping p99 {r['ping_p99']:6.1f} ms  honest create "
                  f"{'ok' if r['created'] else 'FAILED'} {r['create_ms']:.0f} ms  | {r['what']}", flush=True)
        for task in watchers:
            task.cancel()
        return rows
    finally:
        server.stop()


def markdown(rows: list[dict[str, Any]]) -> str:
    out = ["| attack | honest ack p50 / p99 (ms) | acks (errors) | ping p99 (ms) | honest create | the attack got |",
           "| --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        errors = ", ".join(f"{k} {v}" for k, v in r["errors"].items()) or "0"
        out.append(f"| {r['attack']} | {r['ack_p50']:.1f} / {r['ack_p99']:.1f} | {r['acks']} ({errors}) | "
                   f"{r['ping_p99']:.1f} | {'201' if r['created'] else 'failed'} in {r['create_ms']:.0f} ms | "
                   f"{r['what']} |")
    return "\n".join(out)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=8.0, help="seconds each attack runs (default 8)")
    parser.add_argument("--slow", type=int, default=3000, help="slow connections to try (default 3000)")
    parser.add_argument("--only", nargs="*", default=[], help="run only these attacks (and the baseline)")
    print(markdown(asyncio.run(main(parser.parse_args()))))
