"""The search bots build worlds and roll them out through the public State API, so they run on
the compiled build as on the pure one (issue #14: a compiled state takes no instance hooks and
cannot be made by ``object.__new__``). ``make test`` runs this file on both builds."""

from __future__ import annotations

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
