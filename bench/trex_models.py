"""How often each opponent model of ``expert``'s reading predicts a Trex player's card.

    python bench/trex_models.py BOT [--games G] [--deals D] [--iterations N] [--seed S]

Four ``BOT`` play ``G`` games of ``D`` deals each (a search bot held to ``N`` iterations a
decision); at every trick decision with more than one legal card, each model of
:data:`cardtable.bots.trex_infer.MODELS` is asked for its card, given the voids that seat has
seen shown, and the share of decisions on which it named the card played is printed per model.
The models read only what the seat to move knows, so they are asked on the game's own state.
"""

from __future__ import annotations

import argparse
from typing import Any

import cardtable
from cardtable.bots import Budget, make_bot
from cardtable.bots.trex_infer import MODELS
from cardtable.bots.trex_pimc import interchangeable
from cardtable.bots.worlds import TrexMemory
from cardtable.games.trex.state import Phase
from cardtable.host.match import Match


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("bot")
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--deals", type=int, default=6)
    ap.add_argument("--iterations", type=int, default=1500)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    game = cardtable.load("trex")
    hits = [0] * len(MODELS)
    classes = [0] * len(MODELS)
    decisions = 0
    for g in range(a.games):
        bots: dict[int, Any] = {s: make_bot("trex", a.bot) for s in range(4)}
        match = Match(game, seed=a.seed + g, bots=bots, bot_seed=a.seed + g,
                      budgets={s: Budget(iterations=a.iterations) for s in range(4)})
        memories = [TrexMemory() for _ in range(4)]
        while not match.is_over and match.state.deal_index < a.deals:  # type: ignore[attr-defined]
            st: Any = match.state
            seat = match.to_move()
            memories[seat].observe(st.view(seat))
            if st.phase is Phase.TRICK and len(st.legal_actions()) > 1:
                predicted = [model(st, memories[seat].cannot).arg for _, model, _ in MODELS]
                before = st.clone()
                played: Any = match.run_bot()
                decisions += 1
                for m, card in enumerate(predicted):
                    hits[m] += card == played.arg
                    classes[m] += interchangeable(before, seat, card, played.arg)
            else:
                match.run_bot()
    print(f"four {a.bot} ({a.iterations} iterations if it searches), {a.games} games of {a.deals} deals,"
          f" {decisions} trick decisions with a choice:")
    for (name, _, _), n, k in zip(MODELS, hits, classes, strict=True):
        print(f"  {name}: {100 * n / max(decisions, 1):.0f}% the card, {100 * k / max(decisions, 1):.0f}% its class")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
