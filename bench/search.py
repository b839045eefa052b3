"""Search speed: iterations/s of the Trex search bot beside OpenSpiel's Python IS-MCTS on Hearts.

    python bench/search.py [--iterations N] [--positions K]

Both run in the same process, one after the other, on fixed mid-deal positions:

* cardtable: ``SearchTrexBot`` (PIMC, bots/trex_pimc.py over bots/trex_search.py) deciding a move in
  Trex trick-contract deals after 4 tricks and in Trex layout deals after 12
  plays, reached from fixed seeds with the expert policy at every seat. One
  iteration = one sampled world, one candidate action, played to the end of
  the deal with the expert policy.
* OpenSpiel: ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` on
  ``pyspiel.load_game("hearts")`` after the pass and 4 tricks, random chance
  from fixed seeds, with ``mcts.RandomRolloutEvaluator`` (one random rollout to
  the end of the deal per iteration) and PUCT child selection (it ran faster
  than UCT on this machine). One iteration = one IS-MCTS simulation.

Trex trick contracts may end early (TX-25: KH stops when the K♥ falls), which
shortens some rollouts; the layout positions have the longest rollouts of all
(about 40 plays), so the report gives the layout-only mean as well.

Prints iterations/s for each position, the means and the ratio (target ≥ 1.0).
Needs the bench extra (``pip install open-spiel``) for the OpenSpiel column.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

import cardtable
from cardtable.bots import Budget
from cardtable.bots.trex_expert import policy
from cardtable.bots.trex_pimc import SearchTrexBot
from cardtable.games.trex.state import Phase


def trex_positions(count: int) -> list[tuple[str, object]]:
    game = cardtable.load("trex")
    out: list[tuple[str, object]] = []
    seed = 0
    while len(out) < count:
        state: Any = game.new_state(seed=seed)
        seed += 1
        want_trex = len(out) % 2 == 1
        while not state.is_terminal():
            if state.phase is Phase.TRICK and not want_trex and state.tricks_done == 4 and not state.trick:
                break
            if state.phase is Phase.TREX and want_trex and len(state.layout_cards) == 12:
                break
            state.apply(policy(state))
        if state.is_terminal():
            continue
        seat = state.current_player()
        if len(state.legal_actions()) < 2:
            continue
        label = f"trex seed {seed - 1} {'layout' if want_trex else 'tricks'} ({len(state.legal_actions())} moves)"
        out.append((label, state.view(seat)))
    return out


def bench_trex(positions: list[tuple[str, object]], iterations: int) -> list[tuple[str, float]]:
    rows = []
    for label, view in positions:
        bot = SearchTrexBot()
        rng = random.Random(0)
        start = time.perf_counter()
        bot.act(view, rng, Budget(iterations=iterations))  # type: ignore[arg-type]
        rows.append((label, bot.last_iterations / (time.perf_counter() - start)))
    return rows


def bench_openspiel(count: int, iterations: int) -> list[tuple[str, float]] | None:
    try:
        import numpy as np
        import pyspiel  # type: ignore[import-not-found]
        from open_spiel.python.algorithms import ismcts, mcts  # type: ignore[import-untyped]
    except ImportError:
        return None
    game = pyspiel.load_game("hearts")
    rows = []
    for seed in range(count):
        rs = np.random.RandomState(seed)
        state = game.new_initial_state()
        while state.is_chance_node() or (not state.is_terminal() and len(state.history()) < 1 + 52 + 12 + 16):
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rs.choice(actions, p=probs)))
            else:
                state.apply_action(int(rs.choice(state.legal_actions())))
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
        bot = ismcts.ISMCTSBot(
            game=game, evaluator=evaluator, uct_c=2.0, max_simulations=iterations, random_state=rs,
            final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
            use_observation_string=False, allow_inconsistent_action_sets=False,
            child_selection_policy=ismcts.ChildSelectionPolicy.PUCT,  # the faster of its two policies here
        )
        start = time.perf_counter()
        bot.step(state)
        rows.append((f"hearts seed {seed} ({len(state.legal_actions())} moves)",
                     iterations / (time.perf_counter() - start)))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--iterations", type=int, default=2000, help="iterations per decision (default 2000)")
    ap.add_argument("--positions", type=int, default=6, help="positions per engine (default 6)")
    args = ap.parse_args()
    trex = bench_trex(trex_positions(args.positions), args.iterations)
    spiel = bench_openspiel(args.positions, args.iterations)
    print(f"search iterations/s, {args.iterations} iterations per decision")
    for label, rate in trex:
        print(f"  cardtable PIMC  {label:40} {rate:9.0f}")
    if spiel is None:
        print("  OpenSpiel is not installed (pip install open-spiel): no comparison")
        return
    for label, rate in spiel:
        print(f"  OpenSpiel ISMCTS {label:39} {rate:9.0f}")
    a = statistics.mean(r for _, r in trex)
    b = statistics.mean(r for _, r in spiel)
    print(f"mean: cardtable {a:.0f}/s, OpenSpiel {b:.0f}/s, ratio {a / b:.2f}x (target >= 1.0)")
    layout = [r for label, r in trex if "layout" in label]  # every second position (--positions 2 or more)
    if layout:
        lay = statistics.mean(layout)
        print(f"layout positions only: cardtable {lay:.0f}/s, ratio {lay / b:.2f}x")


if __name__ == "__main__":
    main()
