"""LD1 load benchmark of the web server: N concurrent games of a mix of Trash, Trex
and Spit over real WebSockets on loopback.

Starts ``cardtable serve`` on 127.0.0.1 (a free port, a temporary database) and
keeps ``--games`` tables live for ``--seconds`` (a game that ends is replaced by
a new table), split by ``--mix`` (default the LD1 mix: 40% Trash, 30% Trex, 30%
Spit):

- Trash: ``--trash-humans`` WebSocket clients (default 2) and a server bot in
  any other seat; each client plays a random legal action ``--think`` seconds
  (× 0.5–1.5) after its turn came.
- Trex: ``--trex-humans`` clients (default 1) and server bots (``--trex-bot``),
  paced by the server's ``--bot-delay`` (default: the think time).
- Spit, in real time: ``--spit-humans`` clients (default 1) against a server
  bot (``--spit-bot``, default ``expert``) that moves with its reaction-time
  model; a client looks at each new state, waits ``--spit-think`` (× 0.5–1.5),
  reads what arrived meanwhile and plays (slap, play, fill, else anything but
  ``unspit``) on the version it saw. A play overtaken by another arrival is
  answered ``lost_race``: normal in Spit, counted apart.

Each socket has a reader task that timestamps every frame as it arrives, so the
figures do not include the client's own thinking: action->ack is from the
``act`` send to its ``ack`` (or error); action->opponent update is from that
send to the first ``state`` frame with the acked version (or later) on every
other human socket of the table (tables with two or more humans: by default
the Trash ones). Reported per game and overall: p50/p99 of both, client actions
and all accepted actions a second (bots and Spit timers included), error codes
other than ``lost_race`` (must be 0), ``lost_race`` count, finished games,
server CPU seconds (from /proc) and this process's CPU (the load generator
shares the machine's cores). Target (LD1): p99 ack <= 50 ms, p99 opponent
update <= 75 ms, 0 errors. Two controls tell the machine's stalls from the
server's: how late the load generator's event loop wakes from a 10 ms sleep,
and ping round trips on an idle spectator socket (pings skip the game); when
other processes load the machine, their p99 rises with the ack p99. Traffic goes to 127.0.0.1 only; the run is bounded
by --games and --seconds.

    .venv/bin/python bench/server.py                                   # LD1: 100 games, 60 s, think 0.3 s
    .venv/bin/python bench/server.py --trex-humans 4 --spit-humans 2   # LD1's 260 sockets, all people
    .venv/bin/python bench/server.py --mix trash=100 --think 0         # Trash saturation
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import gc
import json
import os
import random
import statistics
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

GAMES = ("trash", "trex", "spit")
ACK_TARGET_MS = 50.0
UPDATE_TARGET_MS = 75.0


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        parts = f.read().rsplit(")", 1)[1].split()
    return (int(parts[11]) + int(parts[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def parse_mix(text: str, games: int) -> dict[str, int]:
    """``trash=40,trex=30,spit=30`` (weights) as table counts summing to ``games``
    (largest remainders)."""
    weights: dict[str, float] = {}
    for part in text.split(","):
        name, _, weight = part.partition("=")
        name = name.strip()
        if name not in GAMES or not weight:
            raise argparse.ArgumentTypeError(f"--mix: name=weight with names {', '.join(GAMES)}; got {part!r}")
        weights[name] = float(weight)
    total = sum(weights.values())
    if total <= 0:
        raise argparse.ArgumentTypeError("--mix: the weights add up to nothing")
    exact = {n: games * w / total for n, w in weights.items()}
    counts = {n: int(x) for n, x in exact.items()}
    for n in sorted(exact, key=lambda n: counts[n] - exact[n])[: games - sum(counts.values())]:
        counts[n] += 1
    return counts


@dataclass
class Stats:
    """One game type's figures."""

    ack: list[float] = field(default_factory=list)  # seconds
    update: list[float] = field(default_factory=list)
    client_actions: int = 0
    all_actions: int = 0
    lost_race: int = 0
    paused: int = 0
    queued: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    tables: int = 0
    finished: int = 0
    sockets: int = 0


class Player(GameClient):
    """A seat's client whose reader task timestamps every frame as it arrives."""

    def __init__(self, base: str, table_id: str, token: str) -> None:
        super().__init__(base, table_id, token)
        self.arrivals: list[tuple[int, float]] = []  # (state version, perf_counter) in arrival order
        self.sent: list[tuple[float, int]] = []  # (send time, acked version) of this seat's accepted actions
        self.changed = asyncio.Event()
        self.waiting: dict[int, asyncio.Future[tuple[dict[str, Any], float]]] = {}
        self.reader: asyncio.Task[None] | None = None
        self.gone = False

    async def start(self) -> None:
        await self.connect()
        self.reader = asyncio.create_task(self._read())
        while self.view is None and not self.gone:
            await self.next_change()

    async def _read(self) -> None:
        try:
            while True:
                frame = await self.recv()
                now = time.perf_counter()
                self.frames.clear()  # nothing is kept but the newest view
                kind = frame["type"]
                if kind == "state":
                    self.arrivals.append((frame["version"], now))
                    self.changed.set()
                elif kind == "table":  # e.g. a Spit table's pause starts or ends
                    self.changed.set()
                elif kind in ("ack", "error") and "seq" in frame:
                    waiter = self.waiting.pop(frame["seq"], None)
                    if waiter is not None and not waiter.done():
                        waiter.set_result((frame, now))
        except Exception:  # closed (at the end, or by the server: then the run says so)
            self.gone = True
            self.changed.set()
            for waiter in self.waiting.values():
                if not waiter.done():
                    waiter.set_exception(ConnectionError(f"socket closed ({self.close_code})"))

    async def next_change(self, timeout: float | None = None) -> None:
        """Until a new state arrives (or ``timeout`` seconds pass)."""
        self.changed.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.changed.wait(), timeout)

    async def send_act(self, action: str) -> tuple[dict[str, Any], float, float]:
        """Send ``action`` on the version seen; the reply, its send and arrival times."""
        self.seq += 1
        seq = self.seq
        msg = {"type": "act", "seq": seq, "action": action, "version": self.version}
        waiter: asyncio.Future[tuple[dict[str, Any], float]] = asyncio.get_running_loop().create_future()
        self.waiting[seq] = waiter
        t0 = time.perf_counter()
        await self.ws.send(json.dumps(msg))
        reply, t1 = await waiter
        if reply["type"] == "ack" and isinstance(reply.get("version"), int) and not reply.get("dup"):
            self.sent.append((t0, reply["version"]))
        return reply, t0, t1

    async def stop(self) -> None:
        with contextlib.suppress(Exception):
            await self.close()
        if self.reader is not None:
            self.reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.reader


def record(st: Stats, reply: dict[str, Any], t0: float, t1: float) -> None:
    st.ack.append(t1 - t0)
    st.client_actions += 1
    if reply["type"] == "error":
        if reply["code"] == "lost_race":
            st.lost_race += 1
        elif reply["code"] == "paused":  # sent just as the table paused: normal, counted apart
            st.paused += 1
        else:
            st.errors[reply["code"]] += 1
    elif reply.get("queued"):
        st.queued += 1


async def turn_player(p: Player, rng: random.Random, deadline: float, think: float, st: Stats) -> None:
    """Trash, Trex: a random legal action ``think`` seconds (× 0.5–1.5) after the turn came."""
    while time.monotonic() < deadline and not p.gone:
        if not p.my_turn():
            if p.over():
                return
            await p.next_change(max(0.0, deadline - time.monotonic()))
            continue
        if think > 0:
            await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            if not p.my_turn() or time.monotonic() >= deadline:
                continue
        assert p.view is not None
        reply, t0, t1 = await p.send_act(rng.choice(p.view["legal_actions"]))
        record(st, reply, t0, t1)
        if reply["type"] == "error":  # counted; look again after the next change
            await p.next_change(1.0)
            continue
        version = reply.get("version")
        while isinstance(version, int) and p.version < version and not p.gone:  # the state it names
            await p.next_change(1.0)


def spit_choice(view: dict[str, Any], rng: random.Random) -> str | None:
    """A quick person: slap or play when they can, else fill a space, else anything but unspit."""
    legal = view["legal_actions"]
    for kind in (" slap", " play ", " fill "):
        found = [a for a in legal if kind in a]
        if found:
            return str(rng.choice(found))
    rest = [a for a in legal if not a.endswith(" unspit")]
    return rng.choice(rest) if rest else None


async def spit_player(p: Player, rng: random.Random, deadline: float, think: float, st: Stats) -> None:
    """Spit: look at each new state, react after ``think`` seconds, play on the version seen."""
    while time.monotonic() < deadline and not p.gone and not p.over():
        assert p.view is not None
        if p.paused():  # the table waits for a player, or counts down (R9): nothing to send
            await p.next_change(1.0)
            continue
        if spit_choice(p.view, rng) is None:
            await p.next_change(max(0.0, deadline - time.monotonic()))
            continue
        if think > 0:
            await asyncio.sleep(think * rng.uniform(0.5, 1.5))
        # the reader has kept the view up to date meanwhile: choose on the newest state
        action = spit_choice(p.view, rng) if not p.over() else None
        if action is None or time.monotonic() >= deadline:
            continue
        before = p.version
        reply, t0, t1 = await p.send_act(action)
        record(st, reply, t0, t1)
        if p.version == before and not p.gone:  # wait for the change (ours or the one we lost to)
            await p.next_change(2.0)


@dataclass
class Setup:
    humans: dict[str, int]
    bots: dict[str, str]
    think: dict[str, float]


SETUP_TRIES = 5
"""Times a set-up request answered 503 is sent."""


class Lobby:
    def __init__(self, http: httpx.AsyncClient) -> None:
        self.http = http

    async def post(self, path: str, **body: object) -> dict[str, Any]:
        """The lobby's answer; a 503 (a write to the log failed, nothing changed) is asked again,
        up to :data:`SETUP_TRIES` times, as a client would on a saturated machine."""
        for attempt in range(1, SETUP_TRIES + 1):
            r = await self.http.post(path, json=body)
            if r.status_code != 503 or attempt == SETUP_TRIES:
                break
            await asyncio.sleep(0.2 * attempt)
        r.raise_for_status()
        data: dict[str, Any] = r.json()
        return data

    async def table(self, game: str, humans: int, bot: str) -> tuple[str, dict[int, str]]:
        created = await self.post("/api/tables", game=game, options={})
        table_id, host = created["table"]["id"], created["host"]
        seats = len(created["table"]["seats"])
        tokens = {s: (await self.post(f"/api/tables/{table_id}/sit", seat=s, name=f"P{s}"))["token"]
                  for s in range(min(humans, seats))}
        for s in range(len(tokens), seats):
            await self.post(f"/api/tables/{table_id}/bot", host=host, seat=s, bot=bot)
        await self.post(f"/api/tables/{table_id}/start", host=host)
        return table_id, tokens


async def open_table(srv: Server, lobby: Lobby, game: str, setup: Setup, sem: asyncio.Semaphore) -> list[Player]:
    async with sem:
        table_id, tokens = await lobby.table(game, setup.humans[game], setup.bots[game])
        players = [Player(srv.ws, table_id, token) for token in tokens.values()]
        for p in players:
            await p.start()
        return players


def finish_table(st: Stats, players: list[Player], base_version: int, since: float, until: float) -> None:
    """Count a table's actions and match each accepted client action with the other humans' updates."""
    final = max((p.arrivals[-1][0] for p in players if p.arrivals), default=base_version)
    st.all_actions += max(0, final - base_version)
    st.finished += any(p.over() for p in players)
    for p in players:
        for t0, version in p.sent:
            if not since <= t0 < until:
                continue
            for other in players:
                if other is p:
                    continue
                i = bisect.bisect_left(other.arrivals, (version, float("-inf")))
                if i < len(other.arrivals):
                    st.update.append(other.arrivals[i][1] - t0)


async def slot(srv: Server, lobby: Lobby, game: str, index: int, players: list[Player], setup: Setup,
               deadline: float, st: Stats, sem: asyncio.Semaphore, window: tuple[float, float]) -> None:
    """Keep one table of ``game`` live until the deadline: when a game ends, open a new table."""
    rng = random.Random(f"{game}-{index}")
    play = spit_player if game == "spit" else turn_player
    base = max(p.version for p in players)
    while True:
        tasks = [asyncio.create_task(play(p, random.Random(rng.random()), deadline, setup.think[game], st))
                 for p in players]
        done, pending = await asyncio.wait(tasks, timeout=max(0.0, deadline - time.monotonic()) + 5.0)
        for t in pending:
            t.cancel()
        for t in done:
            if t.exception() is not None:
                st.errors[type(t.exception()).__name__] += 1
        for p in players:
            await p.stop()
        finish_table(st, players, base, *window)
        if time.monotonic() >= deadline - 1.0:
            return
        players = await open_table(srv, lobby, game, setup, sem)
        st.tables += 1
        st.sockets += len(players)
        base = 0


async def loop_lag(samples: list[float], deadline: float) -> None:
    """Control: how late this process's event loop wakes from a 10 ms sleep (the machine's
    other load and the load generator's own work both show here)."""
    while time.monotonic() < deadline:
        t = time.perf_counter()
        await asyncio.sleep(0.01)
        samples.append(time.perf_counter() - t - 0.01)


async def pinger(srv: Server, samples: list[float], deadline: float) -> None:
    """Control: ping round trips every 50 ms of a spectator socket on a table that never starts
    (pings skip the game, and no state frames are paced for it: this is the server's and the
    machine's responsiveness alone)."""
    created = (await asyncio.to_thread(srv.post, "/api/tables", game="trash"))["table"]["id"]
    c = GameClient(srv.ws, created)
    await c.connect()
    try:
        while time.monotonic() < deadline:
            t = time.perf_counter()
            await c.ws.send('{"type":"ping"}')
            await c.until(lambda f: f["type"] == "pong")
            samples.append(time.perf_counter() - t)
            c.frames.clear()
            await asyncio.sleep(0.05)
    finally:
        await c.close()


UNCAPPED = ("--rate", "1000000", "--burst", "1000000", "--max-per-ip", "100000", "--create-rate", "100000",
            "--max-conn-per-ip", "100000", "--max-open-tables", "100000", "--max-open-per-host", "100000")
"""Flags that lift the per-address and per-host limits for a load generator on one address."""


def cluster_flags(args: argparse.Namespace, services: contextlib.ExitStack) -> tuple[str, ...]:
    """With ``--cluster``: a throwaway PostgreSQL and Redis (stopped with ``services``) and the
    flags that join a node to them; without: nothing (one process on its SQLite file)."""
    if not args.cluster:
        return ()
    from tests.server.services import Postgres, Redis, postgres_bindir, redis_binary

    bindir, binary = postgres_bindir(), redis_binary()
    if bindir is None or binary is None:
        raise SystemExit("bench/server.py --cluster needs PostgreSQL and Redis: make services")
    pg, redis = Postgres(bindir), Redis(binary)
    for service in (pg, redis):
        service.start()
        services.callback(service.close)
    return ("--db", pg.new_database(), "--bus", redis.url())


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    counts = parse_mix(args.mix, args.games)
    setup = Setup(
        humans={"trash": args.trash_humans, "trex": args.trex_humans, "spit": args.spit_humans},
        bots={"trash": args.trash_bot, "trex": args.trex_bot, "spit": args.spit_bot},
        think={"trash": args.think, "trex": args.think, "spit": args.spit_think},
    )
    bot_delay = args.think if args.bot_delay is None else args.bot_delay
    stats = {g: Stats() for g in counts}
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as services:
        # every client comes from 127.0.0.1: the per-address caps of a public server are lifted
        flags = (*UNCAPPED, "--bot-delay", str(bot_delay), "--sync", args.sync, *cluster_flags(args, services))
        nodes = [Server(Path(tmp) / "bench.sqlite3", *flags,
                        *(("--node", f"n{i}") if args.cluster else ())).start(timeout=60)
                 for i in range(args.nodes)]
        try:
            https = [httpx.AsyncClient(base_url=n.http, timeout=30.0) for n in nodes]
            lobbies = [Lobby(http) for http in https]
            sem = asyncio.Semaphore(10)
            order = [(g, i) for g, n in counts.items() for i in range(n)]
            # table k lives on node k mod N (its owner), and its people's sockets go there
            where = [(nodes[k % len(nodes)], lobbies[k % len(nodes)]) for k in range(len(order))]
            opened = await asyncio.gather(*(open_table(node, lobby, g, setup, sem)
                                            for (g, _), (node, lobby) in zip(order, where, strict=True)))
            for (g, _), players in zip(order, opened, strict=True):
                stats[g].tables += 1
                stats[g].sockets += len(players)
            sockets_at_start = sum(len(p) for p in opened)
            gc.collect()
            gc.freeze()  # keep the load generator's own collector pauses out of the figures
            load0 = os.getloadavg()
            pids = [n.proc.pid for n in nodes if n.proc is not None]
            cpu0 = sum(cpu_seconds(pid) for pid in pids)
            me0 = time.process_time()
            t0 = time.monotonic()
            since = time.perf_counter()
            deadline = t0 + args.seconds
            window = (since, since + args.seconds)  # on perf_counter, the clock of the frame times
            lags: list[float] = []
            pings: list[float] = []
            controls = [asyncio.create_task(loop_lag(lags, deadline)),
                        asyncio.create_task(pinger(nodes[0], pings, deadline))]
            await asyncio.gather(*(
                slot(node, lobby, g, i, players, setup, deadline, stats[g], sem, window)
                for (g, i), players, (node, lobby) in zip(order, opened, where, strict=True)))
            await asyncio.gather(*controls)
            wall = min(time.monotonic(), deadline + 5.0) - t0
            server_cpu = sum(cpu_seconds(pid) for pid in pids) - cpu0
            client_cpu = time.process_time() - me0
            load1 = os.getloadavg()
            for http in https:
                await http.aclose()
        finally:
            for node in nodes:
                node.stop()

    def figures(st: Stats) -> dict[str, Any]:
        return {
            "tables": st.tables,
            "sockets": st.sockets,
            "finished": st.finished,
            "client_actions": st.client_actions,
            "client_actions_per_s": round(st.client_actions / args.seconds, 1),
            "actions_per_s": round(st.all_actions / args.seconds, 1),
            "ack_p50_ms": round(1000 * statistics.median(st.ack), 2) if st.ack else None,
            "ack_p99_ms": round(1000 * percentile(st.ack, 0.99), 2) if st.ack else None,
            "ack_max_ms": round(1000 * max(st.ack), 2) if st.ack else None,
            "update_n": len(st.update),
            "update_p50_ms": round(1000 * statistics.median(st.update), 2) if st.update else None,
            "update_p99_ms": round(1000 * percentile(st.update, 0.99), 2) if st.update else None,
            "lost_race": st.lost_race,
            "paused": st.paused,
            "queued": st.queued,
            "errors": dict(st.errors),
        }

    total = Stats(
        ack=[x for s in stats.values() for x in s.ack],
        update=[x for s in stats.values() for x in s.update],
        client_actions=sum(s.client_actions for s in stats.values()),
        all_actions=sum(s.all_actions for s in stats.values()),
        lost_race=sum(s.lost_race for s in stats.values()),
        paused=sum(s.paused for s in stats.values()),
        queued=sum(s.queued for s in stats.values()),
        errors=sum((s.errors for s in stats.values()), Counter()),
        tables=sum(s.tables for s in stats.values()),
        finished=sum(s.finished for s in stats.values()),
        sockets=sum(s.sockets for s in stats.values()),
    )
    return {
        "games": args.games,
        "nodes": args.nodes,
        "cluster": args.cluster,
        "mix": counts,
        "sockets_live": sockets_at_start,
        "humans": setup.humans,
        "bots": setup.bots,
        "think_s": args.think,
        "spit_think_s": args.spit_think,
        "bot_delay_s": bot_delay,
        "sync": args.sync,
        "seconds": args.seconds,
        "wall_s": round(wall, 2),
        "per_game": {g: figures(s) for g, s in stats.items()},
        "all": figures(total),
        "loop_lag_p99_ms": round(1000 * percentile(lags, 0.99), 2) if lags else None,
        "loop_lag_max_ms": round(1000 * max(lags), 2) if lags else None,
        "ping_p50_ms": round(1000 * statistics.median(pings), 2) if pings else None,
        "ping_p99_ms": round(1000 * percentile(pings, 0.99), 2) if pings else None,
        "server_cpu_s": round(server_cpu, 2),
        "server_cores": round(server_cpu / wall, 3),
        "client_cpu_s": round(client_cpu, 2),
        "client_cores": round(client_cpu / wall, 3),
        "loadavg_before": [round(x, 2) for x in load0],
        "loadavg_after": [round(x, 2) for x in load1],
        "cpus": os.cpu_count(),
    }


def report(r: dict[str, Any]) -> None:
    humans = ", ".join(f"{g} {r['humans'][g]} human(s) + {r['bots'][g]}" for g in r["mix"])
    where = f"{r['nodes']} cluster node(s), PostgreSQL + Redis" if r["cluster"] else "one process, SQLite"
    print(f"LD1 server load ({where}): {r['games']} games ({', '.join(f'{g} {n}' for g, n in r['mix'].items())}), "
          f"{r['sockets_live']} sockets, {r['seconds']:.0f} s, think {r['think_s']} s (Spit {r['spit_think_s']} s), "
          f"bot delay {r['bot_delay_s']} s, sync {r['sync']}")
    print(f"  seats: {humans}")
    head = ("game", "tables", "done", "acts", "acts/s", "all/s", "ack p50", "ack p99", "ack max", "upd n",
            "upd p50", "upd p99", "lost_race", "errors")
    print("  ".join(f"{h:>9}" for h in head))

    def ms(x: float | None) -> str:
        return "-" if x is None else f"{x:.1f}"

    for name, f in [*r["per_game"].items(), ("all", r["all"])]:
        cells = [name, f["tables"], f["finished"], f["client_actions"], f["client_actions_per_s"], f["actions_per_s"],
                 ms(f["ack_p50_ms"]), ms(f["ack_p99_ms"]), ms(f["ack_max_ms"]), f["update_n"],
                 ms(f["update_p50_ms"]), ms(f["update_p99_ms"]), f["lost_race"], sum(f["errors"].values())]
        print("  ".join(f"{c!s:>9}" for c in cells))
    errors = r["all"]["errors"]
    if errors:
        print(f"  errors by code: {errors}")
    print(f"  server CPU {r['server_cpu_s']} s ({r['server_cores']} core), load generator CPU {r['client_cpu_s']} s "
          f"({r['client_cores']} core), {r['cpus']} CPUs, load average {r['loadavg_before'][0]} -> "
          f"{r['loadavg_after'][0]}")
    print(f"  controls: load generator loop lag p99 {r['loop_lag_p99_ms']} ms (max {r['loop_lag_max_ms']}), "
          f"ping round trip on an idle spectator socket p50 {r['ping_p50_ms']} ms, p99 {r['ping_p99_ms']} ms")
    a = r["all"]
    ack_ok = a["ack_p99_ms"] is not None and a["ack_p99_ms"] <= ACK_TARGET_MS
    upd_ok = a["update_p99_ms"] is None or a["update_p99_ms"] <= UPDATE_TARGET_MS
    ok = ack_ok and upd_ok and not errors
    upd = "not measured (no table with two humans)" if a["update_p99_ms"] is None else f"{a['update_p99_ms']} ms"
    print(f"verdict: {'PASS' if ok else 'FAIL'}: p99 ack {a['ack_p99_ms']} ms (target <= {ACK_TARGET_MS:.0f}), "
          f"p99 opponent update {upd} (target <= {UPDATE_TARGET_MS:.0f}), errors {sum(errors.values())} (target 0), "
          f"lost_race {a['lost_race']} (normal in Spit)")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=100, help="concurrent games (default 100)")
    p.add_argument("--seconds", type=float, default=60.0, help="stop after this long (default 60)")
    p.add_argument("--mix", default="trash=40,trex=30,spit=30",
                   help="weights of the game types (default the LD1 mix trash=40,trex=30,spit=30)")
    p.add_argument("--think", type=float, default=0.3,
                   help="Trash/Trex: mean seconds a client waits before each action (0: as fast as it can, a "
                        "saturation test; default 0.3)")
    p.add_argument("--spit-think", type=float, default=0.3,
                   help="Spit: mean seconds a client takes to react to a new state (default 0.3)")
    p.add_argument("--bot-delay", type=float, default=None,
                   help="the server's --bot-delay for Trash/Trex bots (default: the think time)")
    p.add_argument("--trash-humans", type=int, choices=(1, 2), default=2, help="clients per Trash table (default 2)")
    p.add_argument("--trex-humans", type=int, choices=(1, 2, 3, 4), default=1,
                   help="clients per Trex table, bots in the others (default 1)")
    p.add_argument("--spit-humans", type=int, choices=(1, 2), default=1, help="clients per Spit table (default 1)")
    p.add_argument("--trash-bot", default="sensible", help="server bot in Trash seats without a client")
    p.add_argument("--trex-bot", default="hard", help="server bot in Trex seats without a client")
    p.add_argument("--spit-bot", default="expert", help="server bot in a Spit seat without a client")
    p.add_argument("--server-bots", action="store_true", help="the same as --trash-humans 1 (older name)")
    p.add_argument("--sync", choices=("NORMAL", "FULL"), default="NORMAL", help="SQLite synchronous setting")
    p.add_argument("--json", action="store_true", help="print JSON only")
    p.add_argument("--cluster", action="store_true",
                   help="run the server as a cluster: a throwaway PostgreSQL log and Redis bus (make services)")
    p.add_argument("--nodes", type=int, default=1,
                   help="server processes (with --cluster; default 1): table k is opened on node k mod N")
    p.add_argument("--server-src", type=Path, default=None,
                   help="run the server from this source folder (another checkout's src/: a before/after run)")
    args = p.parse_args()
    if args.server_src is not None:  # the server subprocess imports cardtable from there
        os.environ["PYTHONPATH"] = str(args.server_src.resolve())
    if args.server_bots:
        args.trash_humans = 1
    if args.nodes < 1 or (args.nodes > 1 and not args.cluster):
        p.error("--nodes: 1, or more with --cluster (processes share a log only in a cluster)")
    try:
        parse_mix(args.mix, args.games)
    except argparse.ArgumentTypeError as exc:
        p.error(str(exc))
    result = asyncio.run(main_async(args))
    if args.json:
        print(json.dumps(result))
    else:
        report(result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
