"""Failover of a cluster of server processes (docs/deploy.md): tables resume, nothing is lost.

Starts a throwaway Redis and ``--nodes`` ``cardtable serve --bus`` processes sharing one log, opens
``--tables`` playing tables (Trash, Trex and Spit, one person each, scripted over WebSockets
through a random node, server bots in the other seats), and SIGKILLs the node that owns the most
tables ``--kills`` times, starting a new node ``--restart-after`` seconds after each. Each
person plays random legal actions (Spit: the quick person of bench/server.py), reconnects through
a living node with ``since`` when its socket closes, and resends an action whose answer it lost
(the same ``seq``: applied once).

Reported:

- the gap of each table whose owner was killed: from the kill to the first state its person
  receives again (the table is served: resumed), against the target p99 <= 2 s, and from the kill
  to the first state with a newer version (the game moved on: that includes a think); and where
  it goes: for a table whose person's socket was on a living node, which followed the table to its
  new owner, the gap alone; for one served through a new socket (the old one was on the killed
  node), the kill to that socket's connect, the connect to the owner's welcome (the table taken
  over, replayed and answering) and the welcome to the state;
- acknowledged actions lost (an ``ack`` whose version is not that action in the log: must be 0),
  duplicated or missing versions in the log (must be 0), games finished;
- hidden cards in any state frame (the leak oracle over the cluster: a card in a frame at version
  v must be one the seat could see at some version <= v, from the finished game's record).

    .venv/bin/python bench/cluster.py                          # 3 nodes, 300 tables, 3 kills
    .venv/bin/python bench/cluster.py --tables 30 --kills 1    # a quick look
    .venv/bin/python bench/cluster.py --log postgres           # the log on a throwaway PostgreSQL
    .venv/bin/python bench/cluster.py --save RUN1.json         # keep every gap, then:
    .venv/bin/python bench/cluster.py --merge RUN1.json RUN2.json   # several runs' gaps pooled

Unfinished games are listed with the version they reached, for a look at why.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import signal
import sqlite3
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
from tests.server.netserver import Server  # noqa: E402
from tests.server.services import Postgres, Redis, postgres_bindir, redis_binary  # noqa: E402
from tests.server.test_leaks import cards_in  # noqa: E402

from cardtable.records.record import Record  # noqa: E402
from cardtable.server.client import GameClient  # noqa: E402
from cardtable.server.cluster import utc_stamp  # noqa: E402
from cardtable.server.collector import Collector  # noqa: E402
from cardtable.server.encode import view_json  # noqa: E402

UNCAPPED = ("--rate", "1000000", "--burst", "1000000", "--max-per-ip", "100000", "--create-rate", "100000",
            "--max-open-tables", "100000", "--max-open-per-host", "100000", "--max-conn-per-ip", "100000")
BOTS = {"trash": {1: "sensible"}, "trex": {1: "hard", 2: "hard", 3: "hard"}, "spit": {1: "medium"}}


@dataclass
class Person:
    table_id: str
    game: str
    token: str
    acked: dict[int, str] = field(default_factory=dict)
    states: list[tuple[float, int, str]] = field(default_factory=list)  # (when, version, view JSON)
    reconnects: int = 0
    over: bool = False
    lost: list[float] = field(default_factory=list)  # when its socket was lost (closed, or no answer)
    joined: list[float] = field(default_factory=list)  # when a socket was welcomed (by the table's owner)
    began: list[float] = field(default_factory=list)  # when a connect began
    why: list[str] = field(default_factory=list)  # why each socket was lost (loss_reason)


def spit_choice(view: dict[str, Any], rng: random.Random) -> str:
    legal = view["legal_actions"]
    for kind in (" slap", " play ", " fill "):
        found = [a for a in legal if kind in a]
        if found:
            return str(rng.choice(found))
    rest = [a for a in legal if not a.endswith(" unspit")] or legal
    return str(rng.choice(rest))


class Watched(GameClient):
    """A person's client that keeps every state it receives, with when (the gaps, the oracle)."""

    def __init__(self, person: Person, base: str) -> None:
        super().__init__(base, person.table_id, person.token)
        self.person = person

    async def recv(self) -> dict[str, Any]:
        frame = await super().recv()
        if frame["type"] == "state":
            self.person.states.append((time.monotonic(), frame["version"], json.dumps(frame["view"])))
        return frame


def loss_reason(exc: BaseException) -> str:
    """A lost socket in a few words: its close code, or the kind of error."""
    from websockets.exceptions import ConnectionClosed

    if isinstance(exc, ConnectionClosed):
        return f"closed {exc.rcvd.code if exc.rcvd is not None else 'without a close frame'}"
    return type(exc).__name__


ANSWER = 30.0
"""Seconds a person waits for the answer to an action before reconnecting (and sending it again)."""


async def play(p: Person, nodes: list[Server], rng: random.Random, think: float, deadline: float) -> None:
    """One person: random legal actions until the game is over, reconnecting through any living node."""
    from websockets.exceptions import ConnectionClosed, InvalidStatus

    client: Watched | None = None
    seq = 0
    pending: tuple[int, str] | None = None  # an action sent whose answer was lost
    while time.monotonic() < deadline:
        try:
            if client is None:
                living = [n for n in nodes if n.proc is not None and n.proc.poll() is None]
                client = Watched(p, rng.choice(living).ws)
                p.began.append(time.monotonic())
                await asyncio.wait_for(client.connect(since=None if not p.states else p.states[-1][1]), ANSWER)
                p.joined.append(time.monotonic())
                client.seq = max(client.seq, seq)
            if pending is not None:  # sent again with the same seq: answered with its first result
                sent, action = pending
                await client.ws.send(json.dumps({"type": "act", "seq": sent, "action": action}))
                def answered(f: dict[str, Any], s: int = sent) -> bool:
                    return f["type"] in ("ack", "error") and f.get("seq") == s

                reply = await asyncio.wait_for(client.until(answered), ANSWER)
                if reply["type"] == "ack" and reply.get("version") is not None:
                    p.acked[reply["version"]] = action
                pending = None
            if client.over():
                p.over = True
                await client.close()
                return
            if not client.my_turn() or client.paused():
                with contextlib.suppress(TimeoutError):  # nothing new: look at the clock again
                    await asyncio.wait_for(client.recv(), 2.0)
                continue
            await asyncio.sleep(think * (0.5 + rng.random()))
            await client.drain()
            if not client.my_turn() or client.paused():
                continue
            assert client.view is not None
            view = client.view
            action = spit_choice(view, rng) if p.game == "spit" else str(rng.choice(view["legal_actions"]))
            seq = client.seq + 1
            pending = (seq, action)
            reply = await asyncio.wait_for(client.act(action), ANSWER)  # sends with seq = client.seq + 1
            pending = None
            if reply["type"] == "ack" and reply.get("version") is not None and not reply.get("dup"):
                p.acked[reply["version"]] = action
        except (ConnectionClosed, InvalidStatus, OSError, RuntimeError, TimeoutError) as exc:
            p.lost.append(time.monotonic())
            p.why.append(loss_reason(exc))
            if client is not None:  # an answer that never came counts as a lost connection
                with contextlib.suppress(Exception):
                    await client.close()
            client = None
            p.reconnects += 1
            await asyncio.sleep(0.05)


async def loop_lag(lags: list[float], every: float = 0.05) -> None:
    """How late this process's event loop wakes from a sleep of ``every`` seconds, every time: the
    people's clocks read late by as much when it is busy."""
    while True:
        began = time.monotonic()
        await asyncio.sleep(every)
        lags.append(time.monotonic() - began - every)


def log_reader(db: Path, url: str | None) -> Any:
    """``table_id -> {version: action}`` from the shared log (the file, or PostgreSQL at ``url``)."""
    query = "SELECT version, action FROM actions WHERE table_id = {}"
    if url is None:
        def read_sqlite(table_id: str) -> dict[int, str]:
            with contextlib.closing(sqlite3.connect(db)) as log:
                return dict(log.execute(query.format("?"), (table_id,)).fetchall())
        return read_sqlite
    import psycopg

    def read_pg(table_id: str) -> dict[int, str]:
        with psycopg.connect(url) as pg:
            return dict(pg.execute(query.format("%s"), (table_id,)).fetchall())
    return read_pg


def leaks(p: Person, record: Record) -> int:
    """State frames with a card the seat could not see at that version or before."""
    seen: list[set[str]] = []
    allowed: set[str] = set()
    for _, state in record.steps():
        allowed = allowed | cards_in(json.dumps(view_json(state.view(0))))
        seen.append(allowed)
    return sum(1 for _, version, text in p.states if version < len(seen) and not cards_in(text) <= seen[version])


async def owners(nodes: list[Server], table_ids: list[str]) -> dict[str, str | None]:
    living = next(n for n in nodes if n.proc is not None and n.proc.poll() is None)
    sem = asyncio.Semaphore(20)  # a few at a time: the node serves the game meanwhile

    async def owner(http: httpx.AsyncClient, table_id: str) -> str | None:
        async with sem:
            answer = await http.get("/api/health", params={"table": table_id})
        if answer.status_code != 200:  # the node is busy or starting (503): not counted this time
            return None
        found = answer.json().get("owner")
        return None if found is None else str(found)

    async with httpx.AsyncClient(base_url=living.http, timeout=30) as http:
        found = await asyncio.gather(*(owner(http, t) for t in table_ids))
    return dict(zip(table_ids, found, strict=True))


def pct(values: list[float], q: float) -> float | None:
    """The ``q`` quantile of ``values`` (the nearest rank), in seconds to 0.01."""
    values = sorted(values)
    return round(values[min(len(values) - 1, int(q * len(values)))], 2) if values else None


def compile_bytecode() -> None:
    """The package compiled to bytecode, as an installed package ships it, whatever
    ``PYTHONDONTWRITEBYTECODE`` says: the nodes started then do not compile its modules each time,
    a third of a replacement node's start-up, which takes the cores from the take-over."""
    import compileall

    import cardtable

    compileall.compile_dir(str(Path(cardtable.__file__).parent), quiet=1)


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    compile_bytecode()
    with tempfile.TemporaryDirectory() as tmp:
        binary = redis_binary()
        if binary is None:
            raise SystemExit("bench/cluster.py needs redis-server: make services")
        redis = Redis(binary, durable=args.durable_redis)
        redis.start()
        pg: Postgres | None = None
        db_url: str | None = None
        if args.log == "postgres":
            bindir = postgres_bindir()
            if bindir is None:
                raise SystemExit("bench/cluster.py --log postgres needs PostgreSQL: make services")
            pg = Postgres(bindir)
            pg.start()
            db_url = pg.new_database()
        db = Path(tmp) / "cluster.sqlite3"
        extra = (*UNCAPPED, "--bot-delay", str(args.think), "--countdown", "1", "--bus", redis.url(),
                 *(("--db", db_url) if db_url else ()))
        names = [f"n{i}" for i in range(args.nodes)]
        nodes = [Server(db, *extra, "--node", name).start() for name in names]
        try:
            people: list[Person] = []
            games = ["trash", "trex", "spit"]
            for i in range(args.tables):
                node, game = nodes[i % len(nodes)], games[i % 3]
                table_id, tokens = node.table(BOTS[game], game=game)
                people.append(Person(table_id, game, tokens[0]))
            deadline = time.monotonic() + args.seconds
            players = [asyncio.create_task(play(p, nodes, random.Random(rng.random()), args.think, deadline))
                       for p in people]
            lags: list[float] = []  # how late this process's own loop woke: it measures every gap
            watch = asyncio.create_task(loop_lag(lags))
            # the server's collection policy here too: the frames kept for the oracle grow the heap
            # to millions of objects, and a whole-heap collection of them held this loop 3.7 s
            collect = asyncio.create_task(Collector(sweep_every=float("inf")).run())
            kills: list[tuple[float, float, str, set[str]]] = []  # (monotonic, wall clock, node, its tables)
            for k in range(args.kills):
                await asyncio.sleep(args.every)
                held = await owners(nodes, [p.table_id for p in people if not p.over])
                counts: dict[str, int] = {}
                for owner in held.values():
                    if owner:
                        counts[owner] = counts.get(owner, 0) + 1
                victim_name = max(counts, key=lambda n: counts[n])
                index = names.index(victim_name)
                victim = nodes[index]
                assert victim.proc is not None
                at, wall = time.monotonic(), time.time()
                victim.proc.send_signal(signal.SIGKILL)
                victim.proc.wait()
                kills.append((at, wall, victim_name, {t for t, o in held.items() if o == victim_name}))
                names[index] = f"{victim_name}r{k + 1}"  # a new node in its place (no dot: ids use one)
                await asyncio.sleep(args.restart_after)  # a supervisor's restart delay (none by default)
                # started in a thread: this loop keeps reading the people's frames meanwhile
                nodes[index] = await asyncio.to_thread(Server(db, *extra, "--node", names[index]).start)
            await asyncio.gather(*players)
            watch.cancel()
            collect.cancel()
            gaps: list[float] = []
            moved: list[float] = []
            lost_at: list[float] = []
            tries: list[int] = []
            kept: list[float] = []  # the gaps of the tables whose socket was on a living node
            began, welcomed, then_served = [], [], []  # the others: kill to connect, to welcome, to state
            reasons: dict[str, int] = {}  # why the sockets of the tables hit were lost before being served
            per_kill: list[str] = []
            kill_p99: list[float | None] = []
            for k, (at, wall, victim_name, tables) in enumerate(kills):
                first = len(gaps)
                for p in people:
                    if p.table_id in tables:
                        before = max((v for t, v, _ in p.states if t <= at), default=0)
                        served = next((t for t, v, _ in p.states if t > at and v >= before), None)
                        after = next((t for t, v, _ in p.states if t > at and v > before), None)
                        if served is not None:
                            gaps.append(served - at)
                            # where the gap went: the first socket lost after the kill, how many
                            # were lost before it was served, and the socket that served it
                            losses = [t for t in p.lost if at < t <= served]
                            lost_at.append(losses[0] - at if losses else 0.0)
                            for t, why in zip(p.lost, p.why, strict=True):
                                if at < t <= served:
                                    reasons[why] = reasons.get(why, 0) + 1
                            tries.append(len(losses))
                            # the socket that served it: one opened after the kill, or one that followed
                            # the table from a living node
                            connect = max((t for t in p.began if at < t <= served), default=None)
                            if connect is None:
                                kept.append(served - at)
                            else:
                                welcome = next((t for t in p.joined if t >= connect), served)
                                began.append(connect - at)
                                welcomed.append(welcome - connect)
                                then_served.append(served - welcome)
                        if after is not None:
                            moved.append(after - at)
                mine = gaps[first:]
                kill_p99.append(pct(mine, 0.99))
                per_kill.append(f"kill {k + 1} (node {victim_name} at {utc_stamp(wall)} UTC, as in the nodes' log): "
                                f"{len(tables)} tables, kill to served again p50 {pct(mine, 0.5)} s, "
                                f"p99 {pct(mine, 0.99)} s")
            read = log_reader(db, db_url)
            lost = duplicated = leaked = finished = 0
            unfinished: list[str] = []
            async with httpx.AsyncClient(base_url=nodes[0].http, timeout=30) as http:
                for p in people:
                    rows = read(p.table_id)
                    duplicated += 0 if sorted(rows) == list(range(1, len(rows) + 1)) else 1
                    lost += sum(1 for v, a in p.acked.items() if rows.get(v) != a)
                    record = await http.get(f"/api/tables/{p.table_id}/record")
                    if record.status_code == 200:
                        finished += 1
                        leaked += leaks(p, Record.from_json(record.json()))
                    else:
                        shown = (await http.get(f"/api/tables/{p.table_id}")).json().get("table", {})
                        unfinished.append(f"{p.game} {p.table_id} at version {max(rows, default=0)}: status "
                                          f"{shown.get('status')}, pause {shown.get('pause')}, seats "
                                          f"{[(s['kind'], s['online']) for s in shown.get('seats', [])]}, "
                                          f"person over {p.over}, reconnects {p.reconnects}")
        finally:
            for node in nodes:
                if node.proc is not None and node.proc.poll() is None:
                    node.stop()
            if args.node_log is not None and nodes[0].log.exists():
                args.node_log.write_bytes(nodes[0].log.read_bytes())
            redis.close()
            if pg is not None:
                pg.close()
    return {
        "nodes": args.nodes, "tables": args.tables, "kills": len(kills), "restart_after_s": args.restart_after,
        "tables_hit": sum(len(t) for *_, t in kills), "gaps_measured": len(gaps),
        "gap_p50_s": round(statistics.median(gaps), 2) if gaps else None,
        "gap_p99_s": pct(gaps, 0.99), "gap_max_s": pct(gaps, 1.0),
        "gaps_s": [round(g, 3) for g in gaps], "kill_p99_s": kill_p99, "seed": args.seed,
        "moved_p50_s": round(statistics.median(moved), 2) if moved else None,
        "moved_p99_s": pct(moved, 0.99),
        "first_loss_p50_s": pct(lost_at, 0.5), "first_loss_p99_s": pct(lost_at, 0.99),
        "sockets_lost_p50": pct([float(t) for t in tries], 0.5), "sockets_lost_max": max(tries, default=None),
        "losses_by_reason": reasons,
        "client_lag_p50_s": pct(lags, 0.5), "client_lag_p99_s": pct(lags, 0.99), "client_lag_max_s": pct(lags, 1.0),
        "kept_sockets": len(kept), "kept_gap_p50_s": pct(kept, 0.5), "kept_gap_p99_s": pct(kept, 0.99),
        "new_sockets": len(began), "connect_began_p50_s": pct(began, 0.5), "connect_began_p99_s": pct(began, 0.99),
        "welcomed_p50_s": pct(welcomed, 0.5), "welcomed_p99_s": pct(welcomed, 0.99),
        "then_served_p50_s": pct(then_served, 0.5), "then_served_p99_s": pct(then_served, 0.99),
        "log": args.log, "redis": "durable (every write flushed)" if args.durable_redis else "in memory",
        "unfinished": unfinished, "per_kill": per_kill,
        "acked": sum(len(p.acked) for p in people), "acked_lost": lost, "logs_with_gaps_or_duplicates": duplicated,
        "frames_with_hidden_cards": leaked, "finished": finished, "reconnects": sum(p.reconnects for p in people),
    }


def merge(paths: list[str]) -> int:
    """Saved runs (``--save``) pooled: one run's p99 is its few slowest tables, so the gaps of
    several runs are put together and their p99 read once more, beside each run's."""
    runs = [json.loads(Path(path).read_text()) for path in paths]
    if not runs:
        raise SystemExit("--merge wants the files of runs saved with --save")
    shapes = {(r["nodes"], r["tables"], r["kills"], r["restart_after_s"], r["log"]) for r in runs}
    if len(shapes) > 1:
        raise SystemExit(f"--merge wants runs of the same shape (nodes, tables, kills, restart, log): {sorted(shapes)}")
    gaps = [g for r in runs for g in r["gaps_s"]]
    total = {key: sum(r[key] for r in runs) for key in
             ("tables_hit", "acked", "acked_lost", "logs_with_gaps_or_duplicates", "frames_with_hidden_cards",
              "finished", "tables")}
    print(f"{len(runs)} run{'' if len(runs) == 1 else 's'} of {runs[0]['nodes']} nodes, {runs[0]['tables']} tables, "
          f"{runs[0]['kills']} kills "
          f"(log {runs[0]['log']}; each replacement node started {runs[0]['restart_after_s']} s after its kill): "
          f"{total['tables_hit']} tables hit")
    print(f"  kill to served again, all runs' gaps together: p50 {pct(gaps, 0.5)} s, p99 {pct(gaps, 0.99)} s, "
          f"max {pct(gaps, 1.0)} s ({len(gaps)} measured; target p99 <= 2 s)")
    for path, r in zip(paths, runs, strict=True):
        print(f"    {path} (seed {r.get('seed')}): p50 {r['gap_p50_s']} s, p99 {r['gap_p99_s']} s, "
              f"max {r['gap_max_s']} s;"
              f" each kill's p99 {', '.join(f'{q} s' for q in r['kill_p99_s'])}")
    print(f"  acknowledged actions {total['acked']}, lost {total['acked_lost']}; logs with gaps or duplicates "
          f"{total['logs_with_gaps_or_duplicates']}; frames with hidden cards {total['frames_with_hidden_cards']}; "
          f"games finished {total['finished']} of {total['tables']}")
    return 0


def main() -> int:
    if sys.argv[1:2] == ["--merge"]:
        return merge(sys.argv[2:])
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="--merge RUN1.json RUN2.json ... (alone) pools runs saved with --save")
    p.add_argument("--nodes", type=int, default=3)
    p.add_argument("--tables", type=int, default=300)
    p.add_argument("--kills", type=int, default=3)
    p.add_argument("--every", type=float, default=15.0, help="seconds between two kills (default 15)")
    p.add_argument("--seconds", type=float, default=600.0, help="a game still running then is counted unfinished")
    p.add_argument("--think", type=float, default=0.3, help="mean seconds a person and a bot take to move")
    p.add_argument("--restart-after", type=float, default=0.0,
                   help="seconds from a kill to the start of the node that replaces it (default 0: at once, as a "
                        "supervisor restarts it, its start-up taking CPU from the take-over)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--log", choices=("sqlite", "postgres"), default="sqlite",
                   help="the shared action log: one SQLite file (default) or a throwaway PostgreSQL")
    p.add_argument("--durable-redis", action="store_true",
                   help="Redis flushes every write to disk before it replies (the tests' Redis); by default it "
                        "keeps nothing on disk, as docs/deploy.md runs it")
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    p.add_argument("--save", type=Path, help="also write the figures, every gap included, to this file (--merge)")
    p.add_argument("--node-log", type=Path, help="copy the nodes' log (their stderr) to this file at the end")
    args = p.parse_args()
    if args.nodes < 2:
        p.error("--nodes: at least 2 (one is killed)")
    r = asyncio.run(main_async(args))
    if args.save is not None:
        args.save.write_text(json.dumps(r))
    if args.json:
        print(json.dumps(r))
        return 0
    print(f"{r['nodes']} nodes, {r['tables']} tables, {r['kills']} kills hitting {r['tables_hit']} tables")
    print(f"  log: {r['log']}; Redis {r['redis']}; "
          f"each replacement node started {r['restart_after_s']} s after its kill")
    print(f"  kill to served again: p50 {r['gap_p50_s']} s, p99 {r['gap_p99_s']} s, max {r['gap_max_s']} s "
          f"({r['gaps_measured']} measured; target p99 <= 2 s)")
    for line in r["per_kill"]:
        print(f"    {line}")
    print(f"  kill to the next move: p50 {r['moved_p50_s']} s, p99 {r['moved_p99_s']} s")
    print(f"  the load generator's own loop woke late by p50 {r['client_lag_p50_s']} s, p99 {r['client_lag_p99_s']} s, "
          f"max {r['client_lag_max_s']} s (every gap is read on its clock)")
    print(f"  where the gap goes: kill to the first socket lost p50 {r['first_loss_p50_s']} s, p99 "
          f"{r['first_loss_p99_s']} s; sockets lost before being served p50 {r['sockets_lost_p50']}, max "
          f"{r['sockets_lost_max']}; sockets lost by reason {r['losses_by_reason']}")
    print(f"    served through a socket on a living node that followed its table ({r['kept_sockets']} tables): "
          f"kill to served again p50 {r['kept_gap_p50_s']} s, p99 {r['kept_gap_p99_s']} s")
    print(f"    served through a new socket ({r['new_sockets']} tables): kill to its connect p50 "
          f"{r['connect_began_p50_s']} s, p99 {r['connect_began_p99_s']} s; connect to the owner's welcome p50 "
          f"{r['welcomed_p50_s']} s, p99 {r['welcomed_p99_s']} s; welcome to the state p50 {r['then_served_p50_s']} s, "
          f"p99 {r['then_served_p99_s']} s")
    print(f"  acknowledged actions {r['acked']}, lost {r['acked_lost']}; logs with gaps or duplicates "
          f"{r['logs_with_gaps_or_duplicates']}; frames with hidden cards {r['frames_with_hidden_cards']}; "
          f"games finished {r['finished']} of {r['tables']}; reconnects {r['reconnects']}")
    for line in r["unfinished"]:
        print(f"  unfinished: {line}")
    ok = not (r["acked_lost"] or r["logs_with_gaps_or_duplicates"] or r["frames_with_hidden_cards"])
    print(f"verdict: {'PASS' if ok and r['finished'] == r['tables'] else 'FAIL'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
