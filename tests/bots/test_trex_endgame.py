"""The exact Trex endgame solver against a plain minimax over the engine's own states."""

from __future__ import annotations

import random

import pytest

import cardtable
from cardtable.bots.trex_endgame import Endgame, solvable
from cardtable.bots.trex_pimc import SearchTrexBot
from cardtable.bots.trex_strong import strong_policy
from cardtable.games.trex.state import Phase


def minimax(st, side: tuple[int, ...], deal: int) -> float:
    """The side's score for the rest of the deal, the others minimising it, by brute force."""
    if st.deal_index != deal or st.phase is not Phase.TRICK:
        return float(sum(st.records[-1][4][q] for q in side))
    values = []
    for a in st.legal_actions():
        child = st.clone()
        child.apply(a)
        values.append(minimax(child, side, deal))
    return max(values) if st.to_move in side else min(values)


def endgame_states(contract_masks: set[int], seeds: range, tricks: int, **options):
    game = cardtable.load("trex", **options)
    for seed in seeds:
        st = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal():
            if st.phase is Phase.TRICK and st.contract in contract_masks and max(st.count) <= tricks:
                yield st
                break
            legal = st.legal_actions()
            st.apply(strong_policy(st) if rng.random() < 0.8 else legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("mask", [1, 2, 4, 8])
def test_tx24_endgame_values_equal_brute_force_minimax(mask):
    """TX-24…29: for each legal play, the solver's value is the exact minimax value."""
    checked = 0
    for st in endgame_states({mask}, range(40), 3):
        seat = st.to_move
        assert solvable(st, 3)
        deal = st.deal_index
        before = st.deal_scores[seat]
        values = Endgame(st, seat).values(st)
        for a in st.legal_actions():
            child = st.clone()
            child.apply(a)
            assert values[a.arg] == pytest.approx(minimax(child, (seat,), deal) - before)
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def test_tx23_endgame_respects_the_hearts_lead_rule():
    for st in endgame_states({1}, range(60), 2, hearts_lead_rule="only_if_no_choice"):
        values = Endgame(st, st.to_move).values(st)
        assert set(values) == {a.arg for a in st.legal_actions()}


def test_tx_v9_forced_discard_is_left_to_the_rollouts():
    st = next(endgame_states({1, 2, 4, 8}, range(20), 3, forced_penalty_discard=True))
    assert not solvable(st, 3)


def test_search_uses_its_time_budget():
    game = cardtable.load("trex")
    st = next(endgame_states({2}, range(20), 13))
    bot = SearchTrexBot(game=game, seconds=0.05)
    bot.act(st.view(st.to_move), random.Random(1))
    assert bot.last_worlds >= 1
    fixed = SearchTrexBot(game=game, iterations=len(st.legal_actions()) * 3)
    fixed.act(st.view(st.to_move), random.Random(1))
    n = len(st.legal_actions())  # a world plays each class of equal cards once: up to n rollouts
    assert 3 * n <= fixed.last_iterations < 4 * n and fixed.last_worlds >= 3
