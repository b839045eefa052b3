"""docs/rules/trex.md §2.6: totals, winner and tie-break (TX-38 … TX-40)."""

from __future__ import annotations

import random

from cardtable.games.trex import Phase

from ..walk import walked
from .conftest import SUITS_DEAL, load, new, random_game


def test_tx38_totals_are_the_sum_over_the_deals() -> None:
    state = random_game(load().new_state(seed=11), random.Random(11))
    sums = [sum(r[4][p] for r in state.records) for p in range(4)]
    assert sums == state.totals and sum(sums) == 0
    outcome = state.outcome()
    assert outcome is not None and outcome.returns == tuple(float(t) for t in state.totals)


def test_tx39_the_highest_total_wins() -> None:
    for seed in range(4):
        state = random_game(load().new_state(seed=seed), random.Random(seed))
        outcome = state.outcome()
        assert outcome is not None
        best = max(state.totals)
        if state.totals.count(best) == 1:
            assert outcome.winners == (state.totals.index(best),) and outcome.reason == "best_total"


def _ended(**options: object):  # type: ignore[no-untyped-def]
    state = new(SUITS_DEAL, **options)  # 7♥ with seat 2: kingdoms 2, 3, 0, 1
    state.totals = [100, -100, 100, -100]
    return state


def test_tx40_tie_broken_by_trex_firsts() -> None:
    state = _ended()
    state.trex_firsts = [2, 1, 1, 0]
    state._end_game()
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,) and outcome.reason == "tiebreak_trex_firsts"


def test_tx40_still_tied_plays_an_extra_trex_deal_outside_the_totals() -> None:
    state = _ended()
    state.trex_firsts = [1, 1, 1, 1]
    state._end_game()
    assert state.tiebreak and state.phase is Phase.TREX and not state.is_terminal()
    assert state.dealer == 2  # the tied player whose kingdom came earliest (2 before 0)
    assert state.view(0).contract == "TR"
    walked(state, random.Random(3))
    outcome = state.outcome()
    assert outcome is not None and outcome.reason == "tiebreak_deal"
    first_tied = next(q for q in state.finishing if q in (0, 2))
    assert outcome.winners == (first_tied,)
    assert state.totals == [100, -100, 100, -100]  # not added to the official totals
    assert sum(state.tiebreak_scores) == 500 and state.records == []


def test_tx40_tiebreak_deal_led_by_its_dealer() -> None:
    state = _ended()
    state.trex_firsts = [1, 1, 1, 1]
    state._end_game()
    assert state.leader == 2


def test_tx40_tiebreak_false_shares_the_win() -> None:
    state = _ended(tiebreak=False)
    state._end_game()
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0, 2) and outcome.reason == "shared_win"


def test_tx40_partnership_tie_goes_to_the_team_with_more_trex_firsts() -> None:
    state = new(SUITS_DEAL, preset="partnership")
    state.totals = [50, -50, -50, 50]  # teams 0+2 and 1+3 both at 0
    state.trex_firsts = [2, 1, 0, 0]  # team 0+2: 2, team 1+3: 1
    state._end_game()
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0, 2) and outcome.reason == "tiebreak_trex_firsts"
    assert outcome.returns == (0.0, 0.0, 0.0, 0.0)


def test_tx40_partnership_tiebreak_deal_won_by_the_team_out_first() -> None:
    state = new(SUITS_DEAL, preset="partnership")
    state.totals = [0, 0, 0, 0]
    state.trex_firsts = [1, 1, 1, 1]
    state._end_game()
    assert state.tiebreak and state.dealer == 2  # kingdoms 2, 3, 0, 1: seat 2 came first
    walked(state, random.Random(9))
    outcome = state.outcome()
    assert outcome is not None and outcome.reason == "tiebreak_deal"
    first = state.finishing[0]
    assert set(outcome.winners) == {first, (first + 2) % 4}
