"""The contract baselines of bots/trex_expert.py: what the kingdom holder scores on
average under each contract with a random hand, every seat playing the expert policy.

    python bench/trex_baselines.py [--deals N] [--preset complex]
"""

from __future__ import annotations

import argparse
import statistics
from typing import Any

import cardtable
from cardtable.bots.trex_search import rollout_deal
from cardtable.games.trex.actions import A_CONTRACT, contract_code


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--preset", default="standard")
    args = ap.parse_args()
    game: Any = cardtable.load("trex", args.preset, redeal_requests=False)
    scores: dict[int, list[float]] = {m: [] for m in game.kingdom_contracts}
    for seed in range(args.deals):
        state = game.new_state(seed=seed)
        holder = state.holder
        for mask, out in scores.items():
            world = state.clone()
            world.apply(A_CONTRACT[mask])
            out.append(rollout_deal(world, holder))
    for mask, out in scores.items():
        se = statistics.stdev(out) / len(out) ** 0.5
        print(f"{contract_code(mask)}: {statistics.mean(out):7.1f}  (standard error {se:.1f})")


if __name__ == "__main__":
    main()
