"""Playing Trex to win the game (TX-39): the weights ``expert`` values a deal's scores by."""

from __future__ import annotations

import dataclasses
import random

import pytest

import cardtable
from cardtable.bots import Budget, make_bot
from cardtable.bots.trex_endgame import Endgame
from cardtable.bots.trex_pimc import stakes
from cardtable.bots.trex_strong import strong_policy
from cardtable.games.trex.state import Phase

from .test_trex_endgame import endgame_states


def minimax(st, seat: int, weights: tuple[float, ...], deal: int) -> float:
    """The weighted scores of the deal, ``seat`` maximising them and the others minimising."""
    if st.deal_index != deal or st.phase is not Phase.TRICK:
        return sum(w * d for w, d in zip(weights, st.records[-1][4], strict=True))
    values = []
    for a in st.legal_actions():
        child = st.clone()
        child.apply(a)
        values.append(minimax(child, seat, weights, deal))
    return max(values) if st.to_move == seat else min(values)


def trick_view(deal: int, **options):
    """The view of the seat to move at the first trick decision of official deal ``deal``."""
    game = cardtable.load("trex", **options)
    st = game.new_state(seed=3)
    for _ in range(5000):
        if st.phase is Phase.TRICK and st.deal_index + 1 == deal and len(st.legal_actions()) > 1:
            return st.view(st.to_move)
        st.apply(strong_policy(st))
    raise AssertionError("no trick decision reached")


def test_tx39_early_in_the_game_every_rival_weighs_a_third():
    view = trick_view(1)
    w = stakes(dataclasses.replace(view, deal_scores_now=(0, 0, 0, 0)))
    assert w is not None
    assert w[view.seat] == 1.0
    assert [x for q, x in enumerate(w) if q != view.seat] == pytest.approx([-1 / 3] * 3)


def test_tx39_in_the_last_deal_the_weight_goes_to_the_rival_for_first_place():
    view = trick_view(20)
    me = view.seat
    leader, second, third = [(me + k) % 4 for k in (1, 2, 3)]
    totals = [0, 0, 0, 0]
    totals[me], totals[leader], totals[second], totals[third] = 100, 250, -150, -200
    zero = (0, 0, 0, 0)
    behind = stakes(dataclasses.replace(view, totals=tuple(totals), deal_scores_now=zero))
    assert behind is not None and behind[leader] < -0.9  # trailing: beat the leader
    totals[me], totals[leader] = 250, 100
    ahead = stakes(dataclasses.replace(view, totals=tuple(totals), deal_scores_now=zero))
    assert ahead is not None and ahead[leader] < -0.9  # leading: keep the closest one behind
    # TX-V7: the view's totals are negated and the lowest wins; the weights are the same.
    flipped = stakes(dataclasses.replace(view, totals=tuple(-t for t in totals), deal_scores_now=zero), reverse=True)
    assert flipped == pytest.approx(ahead)
    # Early, the same gaps weigh far less: 19 deals are left to close them.
    early = stakes(dataclasses.replace(view, totals=tuple(totals), deal_scores_now=zero, deal_number=1))
    assert early is not None and -0.6 < early[leader] < -0.34


def test_tx39_no_stakes_outside_play_in_partnership_or_the_tiebreak():
    view = trick_view(1)
    assert stakes(dataclasses.replace(view, phase="choose")) is None
    assert stakes(dataclasses.replace(view, partnership=True)) is None
    assert stakes(dataclasses.replace(view, tiebreak=True)) is None


@pytest.mark.parametrize("mask", [1, 2, 4, 8])
def test_tx24_weighted_endgame_values_equal_brute_force_minimax(mask):
    """TX-24…29: with weights for every seat, the solver's values are the brute-force ones."""
    checked = 0
    for st in endgame_states({mask}, range(40, 80), 3):
        seat = st.to_move
        weights = tuple(1.0 if q == seat else -w for q, w in zip(range(4), (0.7, 0.2, 0.1, 0.7), strict=True))
        before = sum(w * d for w, d in zip(weights, st.deal_scores, strict=True))
        values = Endgame(st, seat, weights).values(st)
        for a in st.legal_actions():
            child = st.clone()
            child.apply(a)
            assert values[a.arg] == pytest.approx(minimax(child, seat, weights, st.deal_index) - before)
        checked += 1
        if checked == 3:
            break
    assert checked == 3


@pytest.mark.parametrize("mask", [1, 2, 4, 8])
def test_tx24_even_weights_order_the_plays_as_the_own_score(mask):
    """TX-26…29: the scores of a trick contract add up to a constant, so weights of ⅓ on every
    rival give each play 4/3 of its own-score value plus one constant."""
    for st in endgame_states({mask}, range(80, 100), 3):
        seat = st.to_move
        own = Endgame(st, seat).values(st)
        even = Endgame(st, seat, tuple(1.0 if q == seat else -1 / 3 for q in range(4))).values(st)
        shift = {round(even[c] - 4 / 3 * own[c], 6) for c in own}
        assert len(shift) == 1


def test_tx39_expert_searches_for_the_win_and_spar_search_for_points():
    view = trick_view(20)
    totals = tuple(300 if q == (view.seat + 1) % 4 else -100 for q in range(4))
    view = dataclasses.replace(view, totals=totals)
    expert = make_bot("trex", "expert")
    expert.act(view, random.Random(0), Budget(iterations=40))
    assert expert.stakes == stakes(view)
    partner = make_bot("trex", "spar-search")
    partner.act(view, random.Random(0), Budget(iterations=40))
    assert partner.stakes is None
