"""Seeded draws of each Spit level's move and slap times in the simplest position.

    python bench/spit_timing.py [--draws N] [--seed S]

One face-up stock top against two spit piles (two pairs to compare); a slap between two piles.
Prints a Markdown table of the 5th percentile, median and 95th percentile of each (seconds).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

from cardtable.bots.spit import LEVEL_ORDER, SpitBot


def quantile(xs: list[float], q: float) -> float:
    return sorted(xs)[int(q * (len(xs) - 1))]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--draws", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args(argv)
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the positions of the Spit tests
    from tests.spit.util import piles, position

    move = position(piles("4H"), piles("6D"), "2C", "2D", s0="5S", s1="KS")
    slap = position(piles("4H"), piles("6D", "KD"), "2C", "2D", s0="5S", s1="9D TS")
    slap.play("0 play 1 4H S0")
    print("| level | move p5 | move median | move p95 | slap p5 | slap median | slap p95 |")
    print("|---|---|---|---|---|---|---|")
    for name in LEVEL_ORDER:
        rng = random.Random(a.seed)
        m = [SpitBot(name).react(move.view(0), 0.0, rng)[1] for _ in range(a.draws)]  # type: ignore[index]
        s = [SpitBot(name).react(slap.view(1), 0.0, rng)[1] for _ in range(a.draws)]  # type: ignore[index]
        cells = [quantile(m, 0.05), statistics.median(m), quantile(m, 0.95),
                 quantile(s, 0.05), statistics.median(s), quantile(s, 0.95)]
        print(f"| {name} | " + " | ".join(f"{x:.2f}" for x in cells) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
