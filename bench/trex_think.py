"""How long ``expert`` (Trex search) thinks per decision, and how many worlds it plays.

    python bench/trex_think.py [--seconds S | --iterations N] [--deals D] [--seed S] [--bot B] [--others O]

Plays ``B`` (default ``expert``) at seat 0 against three ``O`` (default ``hard``) from the start
of a seeded game, timing every decision of seat 0 that has more than one legal action, for the
first ``D`` deals. Prints the median, 95th percentile and maximum thinking time and the
median number of worlds sampled and of iterations (world x candidate), and the machine's load
average at the end; then the decisions, median time and median worlds of each phase (``choose``:
the contract, ``double``, ``trick``, ``trex``: the layout). With ``--iterations`` it shows what
a fixed budget costs in time on this machine (the arena's ``--iterations`` rows are
reproducible; their time is not).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections import defaultdict
from typing import Any

import cardtable
from cardtable.bots import Budget, make_bot
from cardtable.bots.trex_search import DEFAULT_SECONDS
from cardtable.core.build import build_name
from cardtable.games.trex.view import TrexView
from cardtable.host.match import Match


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=None)
    ap.add_argument("--iterations", type=int, default=None)
    ap.add_argument("--deals", type=int, default=3)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--bot", default="expert")
    ap.add_argument("--others", default="hard")
    a = ap.parse_args(argv)
    game = cardtable.load("trex")
    expert: Any = make_bot("trex", a.bot)
    expert.attach(game)
    budget = Budget(a.iterations, a.seconds if a.seconds or a.iterations else DEFAULT_SECONDS)
    bots = {0: expert, **{q: make_bot("trex", a.others) for q in (1, 2, 3)}}
    match = Match(game, seed=a.seed, bots=bots, bot_seed=1)
    times: list[float] = []
    worlds: list[int] = []
    iterations: list[int] = []
    phases: dict[str, list[tuple[float, int]]] = defaultdict(list)
    while not match.is_over and match.state.deal_index < a.deals:  # type: ignore[attr-defined]
        seat = match.to_move()
        view = match.view(seat)
        assert isinstance(view, TrexView)
        t = time.perf_counter()
        action = match.bots[seat].act(view, match.rngs[seat], budget if seat == 0 else None)
        dt = time.perf_counter() - t
        if seat == 0 and len(view.legal_actions) > 1:
            times.append(dt)
            worlds.append(expert.last_worlds)
            iterations.append(expert.last_iterations)
            phases[view.phase].append((dt, expert.last_worlds))
        match.submit(seat, action)
    times.sort()
    label = f"--iterations {a.iterations}" if a.iterations else f"--seconds {budget.seconds}"
    print(f"{build_name()}, {a.bot} {label} against three {a.others}: "
          f"{len(times)} decisions over {a.deals} deals; "
          f"median {1000 * statistics.median(times):.0f} ms, p95 {1000 * times[int(0.95 * (len(times) - 1))]:.0f} ms, "
          f"max {1000 * times[-1]:.0f} ms; median {statistics.median(worlds):.0f} worlds, "
          f"{statistics.median(iterations):.0f} iterations (mean {statistics.fmean(iterations):.0f}); "
          f"load average {os.getloadavg()[0]:.1f}")
    for phase, rows in sorted(phases.items()):
        print(f"  {phase}: {len(rows)} decisions, median {1000 * statistics.median(t for t, _ in rows):.0f} ms, "
              f"median {statistics.median(w for _, w in rows):.0f} worlds")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
