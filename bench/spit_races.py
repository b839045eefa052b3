"""C4: race symmetry on a real server. Two WebSocket clients on one Spit table,
barrier-synchronised, each send a valid play onto the same spit pile at the same
moment; the server's arrival order picks the winner (SP-13) and the other gets
``lost_race``. Over many trials each seat should win 50% ± 4%.

    python bench/spit_races.py [--trials 2000] [--clients asyncio|processes] [--seconds 150]

Starts ``cardtable serve`` on 127.0.0.1 with a temporary database. Tables are
two-person Spit tables without bots (nothing moves but the two clients); the
lobby's ``start`` takes no seed, so tables are created until the first views
offer both seats a play onto the same spit pile, and a table is raced again
while its new views offer another such pair (a race always has exactly one
winner: two cards that both fit a top never fit each other). New tables are
made in the background while the current one races.

``--clients asyncio``: both clients in this process wait at one barrier (an
``asyncio.Event`` set once both wait) and send; which one is released first alternates from trial
to trial (so a server that honours arrival order gives 50% by construction, and
one that favours a seat, a connection or a dict order does not).
``--clients processes``: each client in a process of its own (the seat each
process holds alternates by table), released together by a
``multiprocessing.Barrier``: the operating system decides who sends first (the
process that reaches the barrier last tends to, so which process is told first
alternates from race to race, and the seat each process holds alternates by
table).

Reports each seat's win share with a 95% Wilson interval, the share won by the
client that sent first (its send time, from the shared monotonic clock) and by
the seat that connected first (and how often each of them sent first: when the
two columns agree, the server simply follows arrival order and any lean is the
load generator's), errors other than ``lost_race`` (must be 0), and
a verdict: PASS when each seat's share is within 50% ± 4%.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing as mp
import random
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx
from tests.server.netserver import Server

from cardtable.server.client import GameClient
from cardtable.stats import wilson

TOLERANCE = 0.04


def race_pair(legal0: list[str], legal1: list[str], rng: random.Random) -> tuple[str, str] | None:
    """A play for each seat onto one spit pile, if both have one onto the same pile."""
    mine: dict[str, list[str]] = {}
    theirs: dict[str, list[str]] = {}
    for legal, out in ((legal0, mine), (legal1, theirs)):
        for a in legal:
            parts = a.split()
            if parts[1] == "play":
                out.setdefault(parts[-1], []).append(a)
    both = sorted(set(mine) & set(theirs))
    if not both:
        return None
    pile = rng.choice(both)
    return rng.choice(mine[pile]), rng.choice(theirs[pile])


@dataclass
class Tally:
    races: list[dict[str, int]] = field(default_factory=list)  # per race: the winner and who was what
    errors: Counter[str] = field(default_factory=Counter)  # error codes other than the loser's lost_race
    gaps_us: list[float] = field(default_factory=list)  # |send0 - send1|
    tables: int = 0
    tables_without_race: int = 0

    @property
    def trials(self) -> int:
        return len(self.races)

    def record(self, replies: dict[int, dict[str, Any]], sent: dict[int, int], first_connected: int,
               released_first: int | None = None, process0: int | None = None) -> None:
        acked = [s for s, r in replies.items() if r["type"] == "ack"]
        for r in replies.values():
            if r["type"] == "error" and r["code"] != "lost_race":
                self.errors[r["code"]] += 1
        if len(acked) == 2:  # never expected: two cards that fit one top never fit each other
            self.errors["both_accepted"] += 1
            winner = min(acked, key=lambda s: replies[s]["version"])
        elif len(acked) == 1:
            winner = acked[0]
        else:
            self.errors["none_accepted"] += 1
            return
        race = {"winner": winner, "seat 0": 0, "seat 1": 1, "first sender": min(sent, key=lambda s: sent[s]),
                "first connected": first_connected}
        if released_first is not None:
            race["released first"] = released_first
        if process0 is not None:
            race["process 0"] = process0
        self.races.append(race)
        self.gaps_us.append(abs(sent[0] - sent[1]) / 1000)

    def share(self, key: str, of: str = "winner") -> int:
        """How many races the seat named by ``key`` won (or, with ``of="first sender"``, sent first)."""
        return sum(r[of] == r[key] for r in self.races)


class Lobby:
    def __init__(self, http: httpx.AsyncClient) -> None:
        self.http = http

    async def post(self, path: str, **body: object) -> dict[str, Any]:
        r = await self.http.post(path, json=body)
        r.raise_for_status()
        data: dict[str, Any] = r.json()
        return data

    async def table(self) -> tuple[str, dict[int, str]]:
        created = await self.post("/api/tables", game="spit", options={})
        table_id, host = created["table"]["id"], created["host"]
        tokens = {s: (await self.post(f"/api/tables/{table_id}/sit", seat=s, name=f"P{s}"))["token"] for s in (0, 1)}
        await self.post(f"/api/tables/{table_id}/start", host=host)
        return table_id, tokens


# ------------------------------------------------------------------ asyncio clients
async def connect_pair(srv: Server, table_id: str, tokens: dict[int, str], first: int) -> dict[int, GameClient]:
    clients = {s: GameClient(srv.ws, table_id, tokens[s]) for s in (0, 1)}
    for s in (first, 1 - first):
        await clients[s].connect()
    for c in clients.values():
        await c.until(lambda f: f["type"] == "state")
    return clients


async def settle(clients: dict[int, GameClient]) -> None:
    """Both clients read up to the same (the table's latest) version."""
    for c in clients.values():
        await c.drain()
    target = max(c.version for c in clients.values())
    for c in clients.values():
        if c.version < target:
            await c.until(lambda f: f["type"] == "state" and f["version"] >= target)


async def race(clients: dict[int, GameClient], pair: tuple[str, str],
               released_first: int) -> tuple[dict[int, dict[str, Any]], dict[int, int]]:
    """Both clients wait at a barrier (an event set once both are waiting) and send their
    play on the version they see; the waiters wake in the order they began waiting, so
    ``released_first`` sends first. Their replies and monotonic send times."""
    go = asyncio.Event()
    waiting: list[int] = []
    sent: dict[int, int] = {}

    async def one(seat: int) -> dict[str, Any]:
        c = clients[seat]
        c.seq += 1
        seq = c.seq
        text = json.dumps({"type": "act", "seq": seq, "action": pair[seat], "version": c.version})
        waiting.append(seat)
        await go.wait()
        sent[seat] = time.monotonic_ns()
        await c.ws.send(text)
        return await c.until(lambda f: f["type"] in ("ack", "error") and f.get("seq") == seq)

    order = (released_first, 1 - released_first)
    tasks = [asyncio.create_task(one(s)) for s in order]
    while len(waiting) < 2:
        await asyncio.sleep(0)
    go.set()
    results = await asyncio.gather(*tasks)
    return dict(zip(order, results, strict=True)), sent


async def run_asyncio(srv: Server, args: argparse.Namespace, tally: Tally, deadline: float) -> None:
    rng = random.Random(args.seed)
    async with httpx.AsyncClient(base_url=srv.http, timeout=10.0) as http:
        lobby = Lobby(http)
        ready: asyncio.Queue[tuple[str, dict[int, str]]] = asyncio.Queue(maxsize=4)

        async def make_tables() -> None:
            while True:
                await ready.put(await lobby.table())

        maker = asyncio.create_task(make_tables())
        try:
            while tally.trials < args.trials and time.monotonic() < deadline:
                table_id, tokens = await ready.get()
                first_connected = tally.tables % 2
                tally.tables += 1
                clients = await connect_pair(srv, table_id, tokens, first_connected)
                raced = False
                while tally.trials < args.trials and time.monotonic() < deadline:
                    await settle(clients)
                    v0, v1 = clients[0].view, clients[1].view
                    assert v0 is not None and v1 is not None and clients[0].version == clients[1].version
                    pair = race_pair(v0["legal_actions"], v1["legal_actions"], rng)
                    if pair is None:
                        break
                    raced = True
                    released_first = tally.trials % 2  # alternate which client the barrier lets go first
                    replies, sent = await race(clients, pair, released_first)
                    tally.record(replies, sent, first_connected, released_first)
                tally.tables_without_race += not raced
                for c in clients.values():
                    await c.close()
        finally:
            maker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await maker


# ---------------------------------------------------------------- process clients
def worker(ws_base: str, conn: Any, barrier: Any) -> None:
    """One client in a process of its own, driven over a pipe: connect, race, settle, close."""
    from websockets.sync.client import connect

    ws: Any = None
    version = -1
    view: dict[str, Any] = {}
    seq = 0

    def recv() -> dict[str, Any]:
        nonlocal version, view
        frame: dict[str, Any] = json.loads(ws.recv())
        if frame["type"] == "state":
            version, view = frame["version"], frame["view"]
        return frame

    def until_version(v: int) -> None:
        while version < v:
            recv()

    while True:
        cmd = conn.recv()
        if cmd[0] == "connect":
            _, table_id, token = cmd
            ws = connect(f"{ws_base}/ws/{table_id}", max_size=2**20, compression=None)
            ws.send(json.dumps({"type": "hello", "token": token}))
            version, seq = -1, 0
            while version < 0:
                recv()
            conn.send(None)
        elif cmd[0] == "view":
            until_version(cmd[1])
            with contextlib.suppress(TimeoutError):
                while True:  # whatever else has arrived already
                    frame = json.loads(ws.recv(timeout=0.002))
                    if frame["type"] == "state":
                        version, view = frame["version"], frame["view"]
            conn.send((version, view["legal_actions"]))
        elif cmd[0] == "race":
            seq += 1
            text = json.dumps({"type": "act", "seq": seq, "action": cmd[1], "version": version})
            barrier.wait()
            sent = time.monotonic_ns()
            ws.send(text)
            while True:
                frame = recv()
                if frame["type"] in ("ack", "error") and frame.get("seq") == seq:
                    break
            conn.send((frame, sent))
        elif cmd[0] == "close":
            ws.close()
            conn.send(None)
        else:
            return


def run_processes(srv: Server, args: argparse.Namespace, tally: Tally, deadline: float) -> None:
    ctx = mp.get_context("spawn")
    barrier = ctx.Barrier(2)
    pipes = [ctx.Pipe() for _ in range(2)]
    procs = [ctx.Process(target=worker, args=(srv.ws, child, barrier), daemon=True) for _, child in pipes]
    for p in procs:
        p.start()
    ends = [parent for parent, _ in pipes]
    rng = random.Random(args.seed)

    def call_all(cmds: list[tuple[Any, ...]], first: int = 0) -> list[Any]:
        for i in (first, 1 - first):
            ends[i].send(cmds[i])
        return [end.recv() for end in ends]

    try:
        with httpx.Client(base_url=srv.http, timeout=10.0) as http:

            def post(path: str, **body: object) -> dict[str, Any]:
                r = http.post(path, json=body)
                r.raise_for_status()
                data: dict[str, Any] = r.json()
                return data

            while tally.trials < args.trials and time.monotonic() < deadline:
                created = post("/api/tables", game="spit", options={})
                table_id, host = created["table"]["id"], created["host"]
                tokens = {s: post(f"/api/tables/{table_id}/sit", seat=s, name=f"P{s}")["token"] for s in (0, 1)}
                post(f"/api/tables/{table_id}/start", host=host)
                # process i holds seat (i + table number) % 2, so neither process owns a seat;
                # which seat connects first alternates every second table, apart from that
                first_connected = (tally.tables // 2) % 2
                holder = {(i + tally.tables) % 2: i for i in range(2)}
                tally.tables += 1
                for s in (first_connected, 1 - first_connected):
                    ends[holder[s]].send(("connect", table_id, tokens[s]))
                    ends[holder[s]].recv()
                raced = False
                version = 0
                while tally.trials < args.trials and time.monotonic() < deadline:
                    seen = call_all([("view", version), ("view", version)])
                    versions = {holder_seat: seen[i][0] for holder_seat, i in holder.items()}
                    version = max(versions.values())
                    if versions[0] != versions[1]:
                        continue
                    legal = {s: seen[holder[s]][1] for s in (0, 1)}
                    pair = race_pair(legal[0], legal[1], rng)
                    if pair is None:
                        break
                    raced = True
                    # the process told last reaches the barrier last and tends to send first:
                    # which one is told first alternates from race to race
                    out = call_all([("race", pair[s]) for s in sorted(holder, key=lambda s: holder[s])],
                                   first=tally.trials % 2)
                    replies = {s: out[holder[s]][0] for s in (0, 1)}
                    sent = {s: out[holder[s]][1] for s in (0, 1)}
                    tally.record(replies, sent, first_connected, None, process0=min(holder, key=holder.__getitem__))
                    version = max(r.get("version") or 0 for r in replies.values())
                tally.tables_without_race += not raced
                call_all([("close",), ("close",)])
    finally:
        for end in ends:
            with contextlib.suppress(Exception):
                end.send(("quit",))
        for p in procs:
            p.join(5)
            if p.is_alive():
                p.terminate()


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--trials", type=int, default=2000, help="races to run (default 2000)")
    p.add_argument("--seconds", type=float, default=150.0, help="stop after this long even if short (default 150)")
    p.add_argument("--clients", choices=("asyncio", "processes"), default="asyncio",
                   help="both clients in this process behind one barrier (default), or one process each")
    p.add_argument("--seed", type=int, default=0, help="seed of the choice of pile and card")
    args = p.parse_args()
    tally = Tally()
    with tempfile.TemporaryDirectory() as tmp:
        srv = Server(Path(tmp) / "races.sqlite3", "--rate", "1000000", "--burst", "1000000", "--max-per-ip", "100000",
                     "--create-rate", "100000",
                     "--countdown", "0").start()  # arbitration only: no wait for the second player (R9)
        t0 = time.monotonic()
        try:
            if args.clients == "asyncio":
                asyncio.run(run_asyncio(srv, args, tally, t0 + args.seconds))
            else:
                run_processes(srv, args, tally, t0 + args.seconds)
        finally:
            wall = time.monotonic() - t0
            srv.stop()
    n = tally.trials
    print(f"C4 race symmetry: {n} races on {tally.tables} tables ({tally.tables_without_race} without a race), "
          f"clients: {args.clients}, {wall:.0f} s")
    print(f"{'':>16}  {'won':>5}  {'share':>6}  {'95% CI':>15}  {'sent first':>10}")
    for key in tally.races[0] if tally.races else ():
        if key == "winner":
            continue
        won = tally.share(key)
        lo, hi = wilson(won, n)
        first = tally.share(key, "first sender") / n
        print(f"{key:>16}  {won:>5}  {won / n:>6.1%}  {lo:>6.1%} – {hi:>6.1%}  {first:>10.1%}")
    gaps = sorted(tally.gaps_us)
    if gaps:
        print(f"send gap between the two clients: median {gaps[len(gaps) // 2]:.0f} µs, "
              f"p90 {gaps[int(0.9 * (len(gaps) - 1))]:.0f} µs")
    print(f"errors other than the loser's lost_race: {dict(tally.errors) or 0}")
    share = tally.share("seat 0") / max(n, 1)
    ok = n > 0 and abs(share - 0.5) <= TOLERANCE and not tally.errors
    short = f"; short of the {args.trials} asked for: the time ran out" if n < args.trials else ""
    print(f"verdict: {'PASS' if ok else 'FAIL'}: seat 0 wins {share:.1%} of {n} races (target 50% ± "
          f"{TOLERANCE:.0%}, C4 asks 2,000 races{short}), errors {sum(tally.errors.values())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
