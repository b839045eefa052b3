"""LD7: what one projection costs the server, per game: ``state.view(seat)``, the
server's encoder (``cardtable.server.encode.view_json``) and ``protocol.dumps``
of the ``state`` frame, with ``PlayerView.to_json`` beside the encoder.

    python bench/views.py [--games 30] [--max-steps 400] [--seed 0]

States come from random play (a uniformly random legal action; in Spit, of
either seat or the running timer); each state is cloned as it is reached, so
every ``view(seat)`` is the first one on its state, as after a change on the
server (Spit builds a view once per change and caches it). Each seat's
projection is timed in three stages: ``view(seat)``, the encoder, and the
compact JSON of the whole ``state`` frame. The stage figures are CPU time of
this thread per projection (so time the machine gives to other processes does
not count); the wall-clock p50/p99 of the total are per projection. Target
(LD7): at most 100 µs per projection (view + encode + dumps) on average.
"""

from __future__ import annotations

import argparse
import gc
import random
import time

import cardtable
from cardtable.server.encode import view_json
from cardtable.server.protocol import dumps

TARGET_US = 100.0
GAMES = ("trash", "trex", "spit")


def measure(name: str, games: int, max_steps: int, seed: int) -> dict[str, float]:
    """Per stage: CPU µs per projection (thread time over each batch, so time the
    machine gave to other processes is left out) and wall-clock percentiles of the total."""
    game = cardtable.load(name)
    seats = range(game.num_players)
    cpu = dict.fromkeys(("view", "view_json", "dumps", "to_json"), 0)
    walls: list[int] = []
    size = 0
    n = 0
    wall = time.perf_counter_ns
    thread = time.thread_time_ns
    for g in range(seed, seed + games):
        state = game.new_state(seed=g)
        rng = random.Random(g)
        states = [state.clone()]  # a fresh clone: no view built yet (Spit caches a view per change)
        for _ in range(max_steps):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            states.append(state.clone())
        # one batch per stage over this game's states; each stage's per-item wall time kept too
        t = thread()
        views = []
        per: list[int] = []
        for s in states:
            for seat in seats:
                w = wall()
                views.append(s.view(seat))
                per.append(wall() - w)
        cpu["view"] += thread() - t
        t = thread()
        datas = []
        for i, v in enumerate(views):
            w = wall()
            datas.append(view_json(v))
            per[i] += wall() - w
        cpu["view_json"] += thread() - t
        t = thread()
        for i, d in enumerate(datas):
            w = wall()
            size += len(dumps({"type": "state", "version": i, "view": d}))
            per[i] += wall() - w
        cpu["dumps"] += thread() - t
        del datas
        t = thread()
        for v in views:
            v.to_json()
        cpu["to_json"] += thread() - t
        walls += per
        n += len(views)
    walls.sort()
    out = {k: v / n / 1000 for k, v in cpu.items()}
    out["total"] = out["view"] + out["view_json"] + out["dumps"]
    out["total_to_json"] = out["view"] + out["to_json"] + out["dumps"]
    out["wall_p50"] = walls[len(walls) // 2] / 1000
    out["wall_p99"] = walls[int(0.99 * (len(walls) - 1))] / 1000
    out["projections"] = n
    out["bytes"] = size / n
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=30, help="random games per game type (default 30)")
    p.add_argument("--max-steps", type=int, default=400, help="actions per game at most (default 400)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--game", choices=GAMES, action="append", help="only this game (repeatable)")
    args = p.parse_args()
    gc.collect()
    gc.freeze()
    rows = {name: measure(name, args.games, args.max_steps, args.seed) for name in args.game or GAMES}
    print(f"LD7: µs per projection, {args.games} random games per game (CPU time per stage; wall p50/p99 of the total)")
    head = ("game", "n", "view", "view_json", "dumps", "total", "wall p50", "wall p99", "to_json", "total*", "bytes")
    print("  ".join(f"{h:>9}" for h in head))
    for name, r in rows.items():
        keys = ("view", "view_json", "dumps", "total", "wall_p50", "wall_p99", "to_json", "total_to_json")
        cells = [name, f"{r['projections']:.0f}", *(f"{r[k]:.1f}" for k in keys), f"{r['bytes']:.0f}"]
        print("  ".join(f"{c:>9}" for c in cells))
    print("  (total = view + view_json + dumps; total* = the same with PlayerView.to_json as the encoder)")
    worst = max(rows, key=lambda n: rows[n]["total"])
    ok = all(r["total"] <= TARGET_US for r in rows.values())
    print(f"verdict: {'PASS' if ok else 'FAIL'}: worst mean {rows[worst]['total']:.1f} µs ({worst}) "
          f"against the LD7 target of {TARGET_US:.0f} µs per projection")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
