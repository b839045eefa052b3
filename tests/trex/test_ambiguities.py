"""docs/rules/trex.md §2.9: every TX-A resolution, each as the engine applies it."""

from __future__ import annotations

import random

import cardtable
from cardtable.games.trex import Phase, TrexState
from cardtable.games.trex.state import tr_trigger

from ..walk import walked
from .conftest import SUITS_DEAL, deck_from_hands, keep_all, load, new, no_doubles, play, start, texts
from .test_doubling import KH_TAKEN_BY_OTHER, _qn_vector
from .test_end import _ended


def _finish_deal(state: TrexState) -> None:
    index = state.deal_index
    while state.deal_index == index:
        state.apply(state.legal_actions()[0])


def test_tx_a1_counter_clockwise_everywhere() -> None:
    state = start(new(SUITS_DEAL), "TR")
    order = []
    for _ in range(8):
        order.append(state.current_player())
        state.apply(state.legal_actions()[0])
    assert order == [2, 3, 0, 1, 2, 3, 0, 1]


def test_tx_a2_the_holder_leads_tricks_and_starts_trex() -> None:
    for code in ("KH", "TR"):
        state = start(new(SUITS_DEAL, first_dealer=0), code)
        no_doubles(state)
        assert state.current_player() == state.holder == 2
    state = start(new(SUITS_DEAL, first_dealer=0, first_leader="eldest"), "TK")
    assert state.current_player() == 1


def test_tx_a3_the_holder_deals() -> None:
    state = start(new(SUITS_DEAL, first_dealer=1), "TK")
    _finish_deal(state)
    assert state.dealer == state.holder == 2


def test_tx_a4_kingdoms_rotate_whoever_gets_the_seven_of_hearts() -> None:
    state = new(SUITS_DEAL)
    for _ in range(5):
        keep_all(state)
        if state.phase is Phase.CHOOSE:
            state.apply(state.legal_actions()[0])
        keep_all(state)
        no_doubles(state)
        _finish_deal(state)
    assert state.holder == 3  # next(2), wherever 7♥ is now


def test_tx_a5_hearts_lead_default_is_broken() -> None:
    assert cardtable.load("trex").options.hearts_lead_rule == "broken"


def test_tx_a6_doubling_after_redeal_requests_and_before_the_first_lead() -> None:
    state = new(KH_TAKEN_BY_OTHER)
    phases = [state.phase]
    keep_all(state)
    phases.append(state.phase)
    state.play("contract KH")
    phases.append(state.phase)
    no_doubles(state)
    phases.append(state.phase)
    assert phases == [Phase.REDEAL, Phase.CHOOSE, Phase.DOUBLE, Phase.TRICK]


def test_tx_a7_the_doubler_not_the_kingdom_holder_gains_75() -> None:
    state = start(new(KH_TAKEN_BY_OTHER), "KH")  # holder: seat 0
    play(state, "done, double KH, done, done", "2S, KH, 3S, AS")
    assert state.records[0][4][1] == 75 and state.records[0][4][0] == 0


def test_tx_a8_a_doubled_queen_pays_25_to_the_doubler() -> None:
    assert _qn_vector().records[0][4] == (-50, -50, 0, 0)


def test_tx_a9_self_capture_default_single() -> None:
    assert cardtable.load("trex").options.doubled_self_capture == "single"


def test_tx_a10_partnership_kingdoms_rotate_through_all_four() -> None:
    state = load("partnership").new_state(seed=6)
    walked(state, random.Random(6))
    holders = [r[2] for r in state.records]
    assert [holders[5 * k] for k in range(4)] == [(holders[0] + k) % 4 for k in range(4)]


def test_tx_a11_redeal_timing_default_before_choice() -> None:
    assert cardtable.load("trex").options.redeal_timing == "before_choice"
    assert new(SUITS_DEAL).phase is Phase.REDEAL


def test_tx_a12_three_twos_and_the_three_of_the_missing_suit() -> None:
    assert tr_trigger([1, 14, 27, 41])  # 2♣ 2♦ 2♥ 3♠
    assert not tr_trigger([1, 14, 27, 2])  # 2♣ 2♦ 2♥ 3♣


def test_tx_a13_revoke_charges_the_remaining_units() -> None:
    deck = deck_from_hands(
        "7H 2S 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC",
        "KH 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
        "3S 4S 5S 6S 7S 8S 9S TS JS QS KC AC AD",
        "AS KS 2H 3H 4H 5H 6H 8H 9H TH JH QH AH",
    )
    state = start(new(deck, accept_unchecked_plays=True), "DI")
    play(state, "2S, 2D, 3S, AS")
    play(state, "KS, 2C, 3D")
    state.play("KC")
    assert state.records[0][4] == (0, 0, -120, -10)


def test_tx_a14_end_early_changes_no_score() -> None:
    results = []
    for flag in (True, False):
        state = start(new(KH_TAKEN_BY_OTHER, end_early=flag), "KH")
        no_doubles(state)
        play(state, "2S, KH, 3S, AS")
        if not flag:
            _finish_deal(state)
        results.append(state.records[0][4])
    assert results[0] == results[1] == (0, 0, 0, -75)


def test_tx_a15_tie_broken_by_most_trex_firsts() -> None:
    state = _ended()
    state.trex_firsts = [0, 3, 1, 0]
    state._end_game()
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (2,)


def test_tx_a16_inverted_values() -> None:
    assert cardtable.load("trex", preset="inverted").options.trex_payouts == (150, 100, 50, -50)


def test_tx_a17_the_layout_grows_from_the_jacks_not_the_sevens() -> None:
    state = start(new(SUITS_DEAL), "TR")
    assert texts(state.legal_actions()) == ["JH"]
