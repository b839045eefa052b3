"""LD6: one Spit game watched by many spectators.

Starts ``cardtable serve`` on 127.0.0.1 and plays a Spit game, one WebSocket person
(quick: 0.15 s to react) against the ``expert`` bot, first with no spectators and then
with ``--spectators`` of them reading every frame from a process of their own (so the
load generator's reading does not delay the player's client). Reports
the player's action->ack p50/p99 in both runs (LD6 asks that the spectators change it by
no more than 10%) and how late the spectators see each accepted action (from the
player's send to a spectator's ``state`` of that version).

    .venv/bin/python bench/fanout.py --spectators 200 --seconds 20
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.server.netserver import Server

from cardtable.server.client import GameClient


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        parts = f.read().rsplit(")", 1)[1].split()
    return (int(parts[11]) + int(parts[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def choose(view: dict, rng: random.Random) -> str:  # type: ignore[type-arg]
    legal = view["legal_actions"]
    for kind in (" slap", " play ", " fill "):
        found = [a for a in legal if kind in a]
        if found:
            return str(rng.choice(found))
    return str(rng.choice(legal))


class Watcher(GameClient):
    """A spectator that reads every frame and notes when each state version arrived."""

    def __init__(self, base: str, table_id: str) -> None:
        super().__init__(base, table_id)
        self.seen: dict[int, float] = {}

    async def watch(self) -> None:
        try:
            while True:
                frame = await self.recv()
                self.frames.clear()
                if frame["type"] == "state":
                    self.seen.setdefault(frame["version"], time.perf_counter())
        except Exception:  # closed at the end
            return


async def watch_table(base: str, table_id: str, count: int, stop: float) -> dict[int, list[float]]:
    """``count`` spectators on one table until ``stop`` (monotonic); when each saw each version."""
    watchers = [Watcher(base, table_id) for _ in range(count)]
    for w in watchers:
        await w.connect()
    tasks = [asyncio.create_task(w.watch()) for w in watchers]
    await asyncio.sleep(max(0.0, stop - time.monotonic()))
    for w in watchers:
        await w.close()
    for t in tasks:
        t.cancel()
    seen: dict[int, list[float]] = {}
    for w in watchers:
        for version, at in w.seen.items():
            seen.setdefault(version, []).append(at)
    return seen


def spectators_process(base: str, table_id: str, count: int, stop: float, out: Any) -> None:
    """The spectators in a process of their own, so their reading does not delay the player's."""
    begin = time.process_time()
    seen = asyncio.run(watch_table(base, table_id, count, stop))
    out.put((seen, time.process_time() - begin))


async def play(
    srv: Server, table_id: str, token: str, stop: float, seed: int
) -> tuple[list[float], list[float], list[tuple[float, int]]]:
    rng = random.Random(seed)
    acks: list[float] = []
    sent: list[tuple[float, int]] = []
    player = GameClient(srv.ws, table_id, token)
    await player.connect()
    while time.monotonic() < stop and not player.over():
        await player.wait_turn()
        if player.over():
            break
        if player.paused():
            await player.wait_unpaused()
            continue
        await asyncio.sleep(0.15)
        await player.drain()
        if not player.my_turn() or player.paused():
            continue
        assert player.view is not None
        t0 = time.perf_counter()
        reply = await player.act(choose(player.view, rng))  # returns once its state has come too
        acks.append(time.perf_counter() - t0)
        if reply["type"] == "ack" and isinstance(reply.get("version"), int):
            sent.append((t0, reply["version"]))
    await player.close()
    return player.latencies, acks, sent


def run(srv: Server, spectators: int, seconds: float, seed: int) -> dict[str, float]:
    """One Spit game for ``seconds`` (or to its end) with ``spectators`` watching from another process."""
    table_id, tokens = srv.table({1: "expert"}, game="spit", spit_delay=0.2)
    stop = time.monotonic() + seconds
    child = None
    out: Any = None
    if spectators:
        out = multiprocessing.Queue()
        child = multiprocessing.Process(target=spectators_process, args=(srv.ws, table_id, spectators, stop + 1, out))
        child.start()
        time.sleep(1.0 + spectators * 0.005)  # connected before the player starts
    assert srv.proc is not None
    cpu0, t0 = cpu_seconds(srv.proc.pid), time.monotonic()
    acks, own_state, sent = asyncio.run(play(srv, table_id, tokens[0], stop, seed))
    server_cpu = (cpu_seconds(srv.proc.pid) - cpu0) / (time.monotonic() - t0)
    lags: list[float] = []
    watchers_cpu = 0.0
    if child is not None:
        seen, watchers_cpu = out.get(timeout=120)
        child.join()
        for t0, version in sent:  # perf_counter is the same clock in both processes (CLOCK_MONOTONIC)
            lags += [at - t0 for at in seen.get(version, [])]
    return {
        "actions": len(acks),
        "ack_p50_ms": 1000 * statistics.median(acks),
        "ack_p99_ms": 1000 * percentile(acks, 0.99),
        "state_p99_ms": 1000 * percentile(own_state, 0.99),
        "spectator_p50_ms": 1000 * statistics.median(lags) if lags else float("nan"),
        "spectator_p99_ms": 1000 * percentile(lags, 0.99) if lags else float("nan"),
        "spectator_frames": len(lags),
        "server_cpu": server_cpu,
        "watchers_cpu": watchers_cpu / (seconds + 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--spectators", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20.0, help="per run (one without spectators, one with)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        srv = Server(Path(tmp) / "fanout.sqlite3", "--max-per-ip", str(args.spectators + 50),
                     "--max-conn-per-ip", str(args.spectators + 50), "--countdown", "0.2").start()
        try:
            alone = run(srv, 0, args.seconds, 1)
            watched = run(srv, args.spectators, args.seconds, 1)
        finally:
            srv.stop()
    print(f"LD6: one Spit game (a person at 0.15 s against the expert bot), {args.seconds:.0f} s a run")
    print(f"{'spectators':>11} {'actions':>8} {'ack p50':>8} {'ack p99':>8} {'state p99':>10} "
          f"{'watch p50':>10} {'watch p99':>10} {'frames':>8} {'server':>8} {'watchers':>9}")
    for n, r in ((0, alone), (args.spectators, watched)):
        print(f"{n:>11} {r['actions']:>8} {r['ack_p50_ms']:>8.2f} {r['ack_p99_ms']:>8.2f} {r['state_p99_ms']:>10.2f} "
              f"{r['spectator_p50_ms']:>10.2f} {r['spectator_p99_ms']:>10.2f} {r['spectator_frames']:>8} "
              f"{r['server_cpu']:>7.2f}c {r['watchers_cpu']:>8.2f}c")
    change = watched["ack_p99_ms"] / alone["ack_p99_ms"] - 1
    verdict = "PASS" if change <= 0.10 else "FAIL"
    print(f"verdict: {verdict}: the player's ack p99 changes by {change:+.0%} with {args.spectators} spectators "
          f"(LD6: at most +10%); spectators see an action {watched['spectator_p99_ms']:.1f} ms after it was sent (p99)")


if __name__ == "__main__":
    main()
