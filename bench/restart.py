"""S7: how long a restarted server takes to come back with many games in progress.

Builds a database of ``--games`` live games (a Trash/Trex/Spit mix, every seat a
person, ``--actions`` random legal actions each, committed through the tables as
the server commits them), then measures (1) the in-process recovery: a fresh
``Hub`` over the database, every game replayed from its seed and log, and (2) a
real ``cardtable serve`` on that database: from the process start until it answers
HTTP (load + ready to accept). Target (docs/server-requirements.md, S7): ≤ 10 s for 1,000 games.

    .venv/bin/python bench/restart.py --games 1000
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.server.netserver import Server

from cardtable.server.hub import Hub
from cardtable.server.store import Store

MIX = ("trash", "trex", "spit")


def build(path: Path, games: int, actions: int) -> dict[str, int]:
    """A database of ``games`` games; returns the version of each one still in progress."""
    hub = Hub(Store(path), max_tables=games + 1)
    rng = random.Random(1)
    versions = {}
    for i in range(games):
        table, _ = hub.create(MIX[i % 3], None, {})
        for seat in range(table.num_players):
            table.sit(seat, f"P{seat}")
        table.start(seed=i)
        seqs = [0] * table.num_players
        assert table.match is not None
        for _ in range(actions):
            state = table.match.state
            if table.match.is_over:
                break
            seats = [s for s in range(table.num_players) if state.legal_actions(s)]
            if not seats:
                break  # a Spit timer is due: the host would fire it
            seat = rng.choice(seats)
            seqs[seat] += 1
            table.act(seat, seqs[seat], str(rng.choice(state.legal_actions(seat))))
        if table.row.status == "playing":  # finished games are not loaded at start
            versions[table.id] = table.version
    hub.store.close()
    return versions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--actions", type=int, default=60, help="random actions per game before the restart")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "server.sqlite3"
        t0 = time.perf_counter()
        versions = build(path, args.games, args.actions)
        built = time.perf_counter() - t0
        logged = sum(versions.values())
        print(f"built {args.games} games, {len(versions)} in progress "
              f"({logged} logged actions, {logged / len(versions):.0f} a game) in {built:.1f} s")

        t0 = time.perf_counter()
        store = Store(path)
        hub = Hub(store)
        replay = time.perf_counter() - t0
        assert {tid: t.version for tid, t in hub.tables.items()} == versions, "a game came back different"
        assert not hub.broken
        store.close()
        print(f"in process: {len(hub.tables)} games replayed in {replay:.2f} s "
              f"({replay / len(versions) * 1e3:.2f} ms a game)")

        srv = Server(path)
        t0 = time.perf_counter()
        srv.start(timeout=120)
        ready = time.perf_counter() - t0
        listed = srv.get("/api/tables")["tables"]
        srv.stop()
        print(f"cardtable serve: process start to answering HTTP in {ready:.2f} s "
              f"({len(listed)} tables listed, the newest 100)")
        verdict = "meets" if ready <= 10.0 else "misses"
        print(f"S7: {args.games} games back in {ready:.2f} s; {verdict} the 10 s target")


if __name__ == "__main__":
    main()
