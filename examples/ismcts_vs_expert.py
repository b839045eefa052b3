"""Issue 13, item 8: OpenSpiel's IS-MCTS (through ``python_trex``) against our ``expert`` Trex bot at
equal time per decision, on duplicate deals.

    python examples/ismcts_vs_expert.py --deals 10 --seconds 0.05 --out docs/rl/ismcts-vs-expert.json

Each deal (a seed) is played twice: IS-MCTS in seats 0 and 2 and ``expert`` in 1 and 3, then the other
way round, so both sides hold the same cards. ``expert`` gets ``Budget(seconds=s)`` per decision;
IS-MCTS gets the number of simulations that takes ``s`` seconds, calibrated on the first decisions and
re-calibrated as it goes (the mean time per decision of each side is reported). IS-MCTS samples worlds
with the registration's resampler and values a leaf by a random rollout of 30 actions scored by the
public totals (:class:`cardtable.envs.openspiel.TotalsRolloutEvaluator`). The result: IS-MCTS's share
of the games won (a shared win split), with a 95% Wilson interval over games.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts

import cardtable.envs.openspiel as osm
from cardtable import stats
from cardtable.bots import Budget, make_bot


def wilson(wins: float, n: int) -> tuple[float, float, float]:
    """The share ``wins / n`` with its Wilson 95% interval (:func:`cardtable.stats.wilson`)."""
    return (wins / n if n else 0.0, *stats.wilson(wins, n))


class TimedISMCTS:
    """IS-MCTS whose simulation count follows the measured cost of a simulation."""

    def __init__(self, game: pyspiel.Game, seconds: float, seed: int) -> None:
        self.seconds = seconds
        self.per_sim = 0.01
        self.rng = np.random.RandomState(seed)
        self.evaluator = osm.TotalsRolloutEvaluator(max_length=30, random_state=np.random.RandomState(seed + 1))
        self.game = game
        self.times: list[float] = []

    def step(self, state: pyspiel.State) -> int:
        if len(state.legal_actions()) == 1:
            return int(state.legal_actions()[0])
        sims = max(2, int(self.seconds / self.per_sim))  # one simulation only expands the root
        bot = ismcts.ISMCTSBot(self.game, self.evaluator, uct_c=150.0, max_simulations=sims, random_state=self.rng,
                               allow_inconsistent_action_sets=True)
        t = time.perf_counter()
        action = int(bot.step(state))
        took = time.perf_counter() - t
        self.per_sim = 0.7 * self.per_sim + 0.3 * (took / sims)
        self.times.append(took)
        return action


def play(game: pyspiel.Game, seed: int, ismcts_seats: tuple[int, ...], seconds: float) -> tuple[list[float], dict]:
    expert = make_bot("trex", "expert")
    attach = getattr(expert, "attach", None)
    if attach is not None:
        attach(game.rules)
    searcher = TimedISMCTS(game, seconds, seed)
    rng = random.Random(seed)
    budget = Budget(seconds=seconds)
    expert_times: list[float] = []
    state = game.new_initial_state()
    for digit in osm.seed_actions(game, seed):  # the chance nodes draw the seed
        state.apply_action(digit)
    while not state.is_terminal():
        p = state.current_player()
        if p in ismcts_seats:
            action = searcher.step(state)
        else:
            view = state.st.view(p)
            if len(view.legal_actions) == 1:
                action = view.legal_actions[0].index
            else:
                t = time.perf_counter()
                action = expert.act(view, rng, budget).index
                expert_times.append(time.perf_counter() - t)
        state.apply_action(action)
    outcome = state.st.outcome()
    share = sum(1.0 / len(outcome.winners) for w in outcome.winners if w in ismcts_seats)
    return [share], {"ismcts_s": float(np.mean(searcher.times)), "expert_s": float(np.mean(expert_times)),
                     "returns": list(outcome.returns), "ismcts_seats": list(ismcts_seats)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=10)
    ap.add_argument("--seconds", type=float, default=0.05)
    ap.add_argument("--preset", default="complex")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=Path("docs/rl/ismcts-vs-expert.json"))
    a = ap.parse_args(argv)
    game = pyspiel.load_game("python_trex", {"preset": a.preset})
    games = []
    for d in range(a.deals):
        for seats in ((0, 2), (1, 3)):
            share, info = play(game, a.seed + 1000 * d + 1, seats, a.seconds)
            games.append({"deal": d, "share": share[0], **info})
            wins = sum(g["share"] for g in games)
            p, low, high = wilson(wins, len(games))
            summary = {"preset": a.preset, "seconds_per_decision": a.seconds, "games": len(games), "ismcts_wins": wins,
                       "ismcts_share": p, "wilson95": [low, high],
                       "mean_s_per_decision": {"ismcts": float(np.mean([g["ismcts_s"] for g in games])),
                                               "expert": float(np.mean([g["expert_s"] for g in games]))},
                       "games_detail": games}
            a.out.parent.mkdir(parents=True, exist_ok=True)
            a.out.write_text(json.dumps(summary, indent=1))
            print(f"{len(games)} games: IS-MCTS share {p:.3f} [{low:.3f}, {high:.3f}]", file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
