"""The search bots build worlds and roll them out through the public State API, so they run on
the compiled build as on the pure one (a compiled state takes no instance hooks and
cannot be made by ``object.__new__``). ``make test`` runs this file on both builds.

The search's inner loop (``bots/trex_strong.py``, ``trex_search.py``, ``trex_endgame.py``) is compiled
with the engine; ``expert_moves.txt`` holds the moves of two seeded deals played on the pure build,
which both builds must play again move for move (``python tests/bots/test_search_bots_on_both_builds.py``
writes it again after a deliberate change of the bots)."""

from __future__ import annotations

import sys
from pathlib import Path

import cardtable
from cardtable.bots import make_bot
from cardtable.bots.base import Budget
from cardtable.host.match import Match


def test_trex_expert_plays_a_whole_deal() -> None:
    game = cardtable.load("trex")
    bots = {0: make_bot("trex", "expert"), 1: make_bot("trex", "hard"), 2: make_bot("trex", "hard"),
            3: make_bot("trex", "hard")}
    match = Match(game, seed=4, bots=bots, bot_seed=1, budgets={0: Budget(iterations=8)})
    while match.state.deal_index == 0 and not match.is_over:  # type: ignore[attr-defined]
        assert match.run_bot() is not None
    assert match.state.deal_index == 1  # type: ignore[attr-defined]


def test_trash_search_plays_a_whole_hand() -> None:
    game = cardtable.load("trash", max_hands=1)
    bots = {0: make_bot("trash", "search-all"), 1: make_bot("trash", "hard")}
    match = Match(game, seed=2, bots=bots, bot_seed=1, budgets={0: Budget(iterations=4)})
    match.run_bots()
    assert match.is_over


EXPERT_MOVES = Path(__file__).with_name("expert_moves.txt")


def expert_moves() -> str:
    """``seat:action`` of every move of two deals: ``expert`` (16 iterations) against three ``hard``."""
    game = cardtable.load("trex")
    bots = {s: make_bot("trex", "expert" if s == 0 else "hard") for s in range(4)}
    match = Match(game, seed=4, bots=bots, bot_seed=1, budgets={0: Budget(iterations=16)})
    moves = []
    while match.state.deal_index < 2 and not match.is_over:  # type: ignore[attr-defined]
        seat = match.to_move()
        moves.append(f"{seat}:{match.run_bot()}")
    return " ".join(moves) + "\n"


def test_expert_plays_the_same_moves_on_both_builds() -> None:
    assert expert_moves() == EXPERT_MOVES.read_text(), "the bots play differently from expert_moves.txt"


if __name__ == "__main__":
    EXPERT_MOVES.write_text(expert_moves())
    sys.exit(0)
