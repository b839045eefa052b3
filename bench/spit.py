"""Spit bot-against-bot games per second in virtual time, on one core
(CPU time of the process, so other load on the machine does not count).

    python bench/spit.py [--games N] [--level medium] [--vs medium] [--max-rounds 50] [--seed 0]
    python bench/spit.py --strength 200     # the level-against-level table of docs/spit.md
    python bench/spit.py --pairings 1000    # the speed table of docs/spit.md: every equal pairing

Each game is a fresh engine state driven by :class:`cardtable.host.RealtimeHost`
on a :class:`cardtable.host.VirtualClock` with two :class:`SpitBot` players, so
the figure covers the engine, the host's sequencer and timers, the views and the
bots' reaction-time model. It prints games per second, actions per second, the
distribution of rounds per game and the results. Target: at least 200 games/s.
"""

from __future__ import annotations

import argparse
import collections
import statistics
import time
from typing import Any

import cardtable
from cardtable.bots.spit import LEVEL_ORDER, SpitBot
from cardtable.host import RealtimeHost, VirtualClock


def run(games: int, level: str, vs: str, max_rounds: int | None, seed: int) -> dict[str, object]:
    game = cardtable.load("spit", max_rounds=max_rounds)
    rounds: list[int] = []
    actions = 0
    virtual = 0.0
    wins: collections.Counter[str] = collections.Counter()
    reasons: collections.Counter[str] = collections.Counter()
    start = time.process_time()
    for g in range(seed, seed + games):
        state: Any = game.new_state(seed=g)
        clock = VirtualClock()
        a, b = SpitBot(level), SpitBot(vs)
        bots = {0: a, 1: b} if g % 2 == 0 else {0: b, 1: a}
        outcome = RealtimeHost(state, clock, bots=bots, seed=g).run()
        assert outcome is not None
        rounds.append(state.round)
        actions += len(state.history)
        virtual += clock.now()
        reasons[outcome.reason] += 1
        if len(outcome.winners) == 1:
            wins[f"seat {outcome.winners[0]} ({bots[outcome.winners[0]].name})"] += 1
        else:
            wins["draw"] += 1
    elapsed = time.process_time() - start
    return {
        "games": games,
        "seconds": elapsed,
        "games_per_second": games / elapsed,
        "actions_per_second": actions / elapsed,
        "actions_per_game": actions / games,
        "virtual_seconds_per_game": virtual / games,
        "rounds": collections.Counter(rounds),
        "rounds_mean": statistics.mean(rounds),
        "rounds_median": statistics.median(rounds),
        "results": wins,
        "reasons": reasons,
    }


def strength(games: int, max_rounds: int | None) -> str:
    """A Markdown table: the row level's share of wins against the column level."""
    game = cardtable.load("spit", max_rounds=max_rounds)
    lines = [
        f"row level's score against column level, {games} games each (seats alternate), max_rounds={max_rounds}",
        "| | " + " | ".join(LEVEL_ORDER) + " |",
        "|---" * (len(LEVEL_ORDER) + 1) + "|",
    ]
    for a in LEVEL_ORDER:
        cells = []
        for b in LEVEL_ORDER:
            if a == b:
                cells.append("–")
                continue
            score = 0.0
            for g in range(games):
                state = game.new_state(seed=10_000 + g)
                bots = {0: SpitBot(a), 1: SpitBot(b)} if g % 2 == 0 else {0: SpitBot(b), 1: SpitBot(a)}
                out = RealtimeHost(state, VirtualClock(), bots=bots, seed=g).run()
                assert out is not None
                score += sum(out.returns[s] for s in (0, 1) if bots[s].name == a)
            cells.append(f"{100 * score / games:.0f}%")
        lines.append(f"| {a} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def pairings(games: int, max_rounds: int | None, seed: int) -> str:
    """A Markdown table: speed and rounds for every equal pairing, and beginner against expert."""
    lines = [
        f"{games} games per pairing, max_rounds={max_rounds}, CPU time of one process",
        "| pairing | games/s | actions/s | actions per game | rounds per game (mean / median / max) |",
        "|---|---|---|---|---|",
    ]
    pairs = [(lv, lv) for lv in LEVEL_ORDER] + [(LEVEL_ORDER[0], LEVEL_ORDER[-1])]
    for a, b in pairs:
        r = run(games, a, b, max_rounds, seed)
        rounds = r["rounds"]
        assert isinstance(rounds, collections.Counter)
        lines.append(
            f"| {a} vs {b} | {r['games_per_second']:.0f} | {r['actions_per_second']:.0f} | "
            f"{r['actions_per_game']:.0f} | {r['rounds_mean']:.2f} / {r['rounds_median']:g} / {max(rounds)} |"
        )
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--level", default="medium", choices=LEVEL_ORDER)
    ap.add_argument("--vs", default="medium", choices=LEVEL_ORDER)
    ap.add_argument("--max-rounds", type=int, default=50)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--strength", type=int, metavar="GAMES", help="print the level table, GAMES per pairing")
    ap.add_argument("--pairings", type=int, metavar="GAMES", help="print the speed table, GAMES per pairing")
    args = ap.parse_args()
    if args.strength:
        print(strength(args.strength, args.max_rounds))
        return
    if args.pairings:
        print(pairings(args.pairings, args.max_rounds, args.seed))
        return
    r = run(args.games, args.level, args.vs, args.max_rounds, args.seed)
    print(f"spit {args.level} vs {args.vs}, {r['games']} games, max_rounds={args.max_rounds}")
    print(f"  {r['games_per_second']:.0f} games/s, {r['actions_per_second']:.0f} actions/s "
          f"({r['actions_per_game']:.0f} actions and {r['virtual_seconds_per_game']:.0f} virtual s per game)")
    print(f"  rounds per game: mean {r['rounds_mean']:.2f}, median {r['rounds_median']}")
    rounds = r["rounds"]
    assert isinstance(rounds, collections.Counter)
    for n in sorted(rounds):
        print(f"    {n:3d} rounds: {rounds[n]:5d} {'#' * max(1, round(60 * rounds[n] / args.games))}")
    results, reasons = r["results"], r["reasons"]
    assert isinstance(results, collections.Counter) and isinstance(reasons, collections.Counter)
    print(f"  results: {dict(results)}; endings: {dict(reasons)}")


if __name__ == "__main__":
    main()
