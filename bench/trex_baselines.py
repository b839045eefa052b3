"""The contract baselines of bots/trex_expert.py: what the kingdom holder scores on
average under each contract with a random hand, every seat playing the expert policy.

    python bench/trex_baselines.py [--deals N]
"""

from __future__ import annotations

import argparse
import statistics

import cardtable
from cardtable.bots.trex_search import rollout_deal
from cardtable.games.trex.actions import A_CONTRACT, CODE, DI, KH, QN, TK, TR


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=2000)
    args = ap.parse_args()
    game = cardtable.load("trex", redeal_requests=False)
    scores: dict[int, list[float]] = {m: [] for m in (KH, QN, DI, TK, TR)}
    for seed in range(args.deals):
        state = game.new_state(seed=seed)
        holder = state.holder
        for mask, out in scores.items():
            world = state.clone()
            world.apply(A_CONTRACT[mask])
            out.append(rollout_deal(world, holder))
    for mask, out in scores.items():
        se = statistics.stdev(out) / len(out) ** 0.5
        print(f"{CODE[mask]}: {statistics.mean(out):7.1f}  (standard error {se:.1f})")


if __name__ == "__main__":
    main()
