"""Trash benchmark: full 2-player, 10-slot matches (RULES.md §1 defaults).

    python bench/trash.py [--matches N]

Policies, both seats alike:
  random     a uniformly random legal action, through legal_actions + apply
  sensible   the sensible bot through the Bot protocol (state.view each decision)
Prints matches/s, actions per match and µs per action in a table.
"""

from __future__ import annotations

import argparse
import random
import time

import cardtable
from cardtable.bots import make_bot


def run(matches: int, policy: str) -> tuple[float, int]:
    """Seconds and actions for ``matches`` whole matches, both seats playing ``policy``."""
    game = cardtable.load("trash")
    bot = make_bot("trash", policy) if policy != "random" else None
    actions = 0
    start = time.perf_counter()
    for seed in range(matches):
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            if bot is None:  # the engine alone: legal_actions + apply
                legal = state.legal_actions()
                state.apply(legal[rng.randrange(len(legal))])
            else:  # through the Bot protocol: a view for every decision
                state.apply(bot.act(state.view(state.current_player()), rng))
        actions += len(state.history)
    return time.perf_counter() - start, actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=300)
    args = parser.parse_args()
    rows = [(policy, *run(args.matches, policy)) for policy in ("random", "sensible")]
    print(f"Trash, 2 players, 10-slot matches to layout size 0; {args.matches} matches per policy")
    print(f"{'policy':10} {'matches/s':>10} {'actions/match':>14} {'µs/action':>10}")
    for name, seconds, actions in rows:
        rate, per_match, micros = args.matches / seconds, actions / args.matches, seconds / actions * 1e6
        print(f"{name:10} {rate:10.1f} {per_match:14.1f} {micros:10.2f}")


if __name__ == "__main__":
    main()
