"""docs/rules/trex.md §2.4: trick contracts (TX-20 … TX-29), TX-37 (illegal plays), TX-V8, TX-V9."""

from __future__ import annotations

import pytest

from cardtable.core.errors import IllegalActionError
from cardtable.games.trex import Phase, TrexState

from .conftest import SUITS_DEAL, deck_from_hands, new, no_doubles, play, start, texts

# Seat 0 holds 7♥ and so the first kingdom.
MIXED = deck_from_hands(
    "7H 2S 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC",
    "KH 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
    "3S 4S 5S 6S 7S 8S 9S TS JS QS KC AC AD",
    "AS KS 2H 3H 4H 5H 6H 8H 9H TH JH QH AH",
)


def trick_state(contract: str, deck: list[int] = MIXED, **options: object) -> TrexState:
    state = start(new(deck, **options), contract)
    no_doubles(state)
    assert state.phase is Phase.TRICK
    return state


def test_tx20_the_kingdom_holder_leads_the_first_trick() -> None:
    state = trick_state("TK", first_dealer=3)
    assert state.holder == 0 and state.current_player() == 0


def test_tx20_first_leader_eldest() -> None:
    state = trick_state("TK", first_dealer=2, first_leader="eldest")
    assert state.current_player() == 3  # next(dealer)


def test_tx21_the_leader_may_lead_any_card_outside_kh() -> None:
    state = trick_state("TK")
    assert len(state.legal_actions()) == 13


def test_tx22_must_follow_suit_when_able() -> None:
    state = trick_state("TK")
    state.play("2S")
    assert len(state.legal_actions()) == 13  # seat 1 has no spade: any card
    state.play("2D")
    assert texts(state.legal_actions()) == ["3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS"]
    with pytest.raises(IllegalActionError):
        state.play("KC")  # a revoke is rejected (TX-37) and the state is unchanged
    assert len(state.trick) == 2


def test_tx23_hearts_lead_broken_not_before_a_heart_is_played() -> None:
    state = trick_state("KH", hearts_lead_rule="broken")
    assert "7H" not in texts(state.legal_actions())


def test_tx23_hearts_lead_broken_after_a_heart_was_discarded() -> None:
    state = trick_state("KH", hearts_lead_rule="broken")
    play(state, "2S, 2D, 3S, KS")  # seat 3 wins with K♠
    assert texts(state.legal_actions()) == ["AS"]  # hearts unbroken: A♠ is seat 3's only other card
    play(state, "AS, 7H, 3D, 4S")  # seat 0, void in spades, discards 7♥: hearts are broken
    assert state.hearts_broken and state.current_player() == 3
    assert "2H" in texts(state.legal_actions())


def test_tx23_hearts_lead_only_hearts_in_hand() -> None:
    state = trick_state("KH", deck=SUITS_DEAL, hearts_lead_rule="only_if_no_choice")
    assert state.current_player() == 2 and len(state.legal_actions()) == 13  # hearts only


def test_tx23_hearts_lead_rule_free() -> None:
    deck = deck_from_hands("7H 2S AC", "KH")
    state = trick_state("KH", deck=deck, hearts_lead_rule="free")
    assert "7H" in texts(state.legal_actions())


def test_tx23_hearts_lead_only_if_no_choice_never_broken() -> None:
    for rule, allowed in (("broken", True), ("only_if_no_choice", False)):
        state = trick_state("KH", hearts_lead_rule=rule)
        state.hearts_broken = True  # as if a heart had been discarded
        assert ("7H" in texts(state.legal_actions())) is allowed


def test_tx24_the_winner_collects_and_leads_next() -> None:
    state = trick_state("TK")
    play(state, "2S, 2D, 3S, AS")
    assert state.tricks_taken == [0, 0, 0, 1] and state.current_player() == 3
    view = state.view(1)
    assert view.last_trick_winner == 3 and [s for s, _ in view.last_trick] == [0, 1, 2, 3]


def test_tx24_captured_scoring_cards_are_public() -> None:
    state = trick_state("DI")
    play(state, "2S, 2D, 3S, AS")
    for seat in (0, 1, 2, None):
        assert [str(c) for c in state.view(seat).captured[3]] == ["2D"]


def test_tx25_end_early_stops_kh_when_the_king_falls() -> None:
    state = trick_state("KH")
    play(state, "2S, KH, 3S, AS")
    assert state.deal_index == 1 and state.records[0][4] == (0, 0, 0, -75)


def test_tx25_end_early_false_plays_thirteen_tricks() -> None:
    state = trick_state("KH", end_early=False)
    play(state, "2S, KH, 3S, AS")
    assert state.deal_index == 0 and state.tricks_done == 1
    while state.deal_index == 0:
        state.apply(state.legal_actions()[0])
    assert state.records[0][4] == (0, 0, 0, -75)  # no score change (TX-A14)


def test_tx25_tk_never_ends_early() -> None:
    state = trick_state("TK")
    tricks = 0
    while state.deal_index == 0:
        state.apply(state.legal_actions()[0])
        tricks += sum(e[0] == "trick" for e in state.events)
    assert tricks == 13


def test_tx26_to_tx29_scores() -> None:
    totals = {}
    for code in ("KH", "QN", "DI", "TK"):
        state = trick_state(code, deck=SUITS_DEAL)
        while state.deal_index == 0:
            state.apply(state.legal_actions()[0])
        totals[code] = state.records[0][4]
    # SUITS_DEAL: every lead is won by the leader (seat 2); the others are void
    assert totals["KH"] == (0, 0, -75, 0)
    assert sum(totals["QN"]) == -100 and sum(totals["DI"]) == -130
    assert totals["TK"] == (0, 0, -195, 0)


def test_tx27_queens_minus_25_each() -> None:
    state = trick_state("QN")
    play(state, "2S, QD, 3S, AS")  # seat 1 discards Q♦ on seat 3's A♠
    assert state.deal_scores == [0, 0, 0, -25]
    assert [str(c) for c in state.view(0).captured[3]] == ["QD"]


def test_tx28_diamonds_minus_ten_each() -> None:
    state = trick_state("DI")
    play(state, "2S, 2D, 3S, AS")
    play(state, "KS, 2C, 3D, 4S")  # seat 3 leads again and wins
    assert state.deal_scores == [0, 0, 0, -20]


def test_tx29_tricks_minus_fifteen_each() -> None:
    state = trick_state("TK")
    play(state, "2S, 2D, 3S, AS")
    assert state.deal_scores == [0, 0, 0, -15]


def test_tx_v8_swap_diamonds_tricks() -> None:
    state = trick_state("DI", swap_diamonds_tricks=True)
    play(state, "2S, 2D, 3S, AS")
    assert state.deal_scores == [0, 0, 0, -15]
    state = trick_state("TK", swap_diamonds_tricks=True)
    play(state, "2S, 2D, 3S, AS")
    assert state.deal_scores == [0, 0, 0, -10]


def test_tx_v9_forced_penalty_discard() -> None:
    state = trick_state("DI", forced_penalty_discard=True)
    state.play("2S")
    # seat 1 has no spade and holds diamonds: it must discard one of them
    assert all(a.arg // 13 == 1 for a in state.legal_actions())
    assert "KH" not in texts(state.legal_actions())
    state = trick_state("DI")
    state.play("2S")
    assert "KH" in texts(state.legal_actions())  # off by default


def test_tx37_revoke_rejected_by_default() -> None:
    state = trick_state("TK")
    state.play("2S")
    state.play("2D")
    before = str(state)
    with pytest.raises(IllegalActionError):
        state.play("KC")
    assert str(state) == before


def test_tx37_illegal_heart_lead_rejected() -> None:
    state = trick_state("KH")
    with pytest.raises(IllegalActionError):
        state.play("7H")


def test_tx37_accept_unchecked_plays_revoke_penalty_kh() -> None:
    """The offender takes K♥ (not yet captured) as if captured; doubling applies."""
    state = start(new(MIXED, accept_unchecked_plays=True), "KH")
    play(state, "done, double KH, done, done")
    play(state, "2S, 2D")
    state.play("KC")  # seat 2 holds spades: a revoke
    assert state.deal_index == 1
    assert state.records[0][4] == (0, 75, -150, 0)


def test_tx37_accept_unchecked_plays_revoke_penalty_tk_counts_the_current_trick() -> None:
    state = start(new(MIXED, accept_unchecked_plays=True), "TK")
    play(state, "2S, 2D, 3S, AS")  # seat 3 took one trick
    play(state, "KS, 2C, 3D")
    state.play("KC")  # seat 2 revokes in trick 2: tricks 2…13 to seat 2
    assert state.records[0][4] == (0, 0, -15 * 12, -15)
    assert sum(state.records[0][4]) == -195


def test_tx37_accept_unchecked_plays_revoke_penalty_di_remaining_only() -> None:
    state = start(new(MIXED, accept_unchecked_plays=True), "DI")
    play(state, "2S, 2D, 3S, AS")  # seat 3 captured 2♦
    play(state, "KS, 2C, 3D")
    state.play("KC")  # the 3♦ in this trick and the 11 others go to seat 2
    assert state.records[0][4] == (0, 0, -120, -10)


def test_tx37_accept_unchecked_plays_lists_every_card() -> None:
    state = start(new(MIXED, accept_unchecked_plays=True), "TK")
    state.play("2S")
    state.play("2D")
    assert len(state.legal_actions()) == 13


def test_tx37_no_revoke_rule_in_trex() -> None:
    state = start(new(MIXED, accept_unchecked_plays=True), "TR")
    acts = texts(state.legal_actions())
    assert all(a[0] == "J" for a in acts)
