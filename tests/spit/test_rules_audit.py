"""Spit: sentence-by-sentence checks of docs/rules/spit.md that the first rule tests left unchecked.

Each test names the rule id (and the option) whose sentence it checks."""

from __future__ import annotations

import pytest

import cardtable
from cardtable.core import Card, IllegalActionError
from cardtable.games.spit import SpitAction
from cardtable.games.spit.state import Phase

from .util import conserved, piles, position, stacked_deck

C = Card.parse


def takes(st):
    return {e.seat: e.slot for e in st.view(None).events if e.kind == "take"}


def collected(st):
    return {e.seat: e.value for e in st.view(None).events if e.kind == "collect"}


# ------------------------------------------------------------------ set-up
def test_sp4_sp6_stacked_deck_spit_cards_first_on_top():
    """§0.5, SP-4, SP-6: the cards after the 15 laid out are the spit cards, the first spat first,
    each onto the spitter's own pile."""
    deck = stacked_deck("AC 2C 3C 4C 5C", "AD 2D 3D 4D 5D", "9H TH", "9S TS")
    st = cardtable.load("spit").new_state(deck=deck)
    assert st.spit == [[C("9H").id], [C("9S").id]]
    assert st.spitcards[0][-1] == C("TH").id and st.spitcards[1][-1] == C("TS").id
    assert [st.stock[0][j][-1] for j in range(5)] == [C(t).id for t in ["AC", "2C", "3C", "4C", "5C"]]


def test_sp5_exactly_fifteen_cards_no_spit_cards_one_pile_round():
    """SP-4/SP-5/SP-6: m = 15 fills the five piles and leaves no spit card, so only the
    other player's pile exists."""
    st = cardtable.load("spit").new_state(seed=3)
    st._start_round([list(range(15)), list(range(15, 52))])
    assert [len(p) for p in st.stock[0]] == [1, 2, 3, 4, 5] and st.spitcards[0] == []
    assert st.live == [False, True] and st.view(0).spit_sizes == (0, 1)
    assert st.view(1).face_down[0] == (0, 1, 2, 3, 4)


def test_sp5_short_layout_after_collecting_thirteen_cards():
    """SP-5 reached through a real round: seat 0 collects 13 cards, lays them out in row order
    as 1, 2, 3, 4, 3 and has no spit cards, so round 2 has one spit pile (SP-6)."""
    st = position(piles("4H"), piles("6D", "KD"), "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC", "2D",
                  s0="5S", s1="AH")
    st.play("0 play 1 4H S0")  # seat 0 empties its stock, still holding 12 spit cards
    st.play("0 slap S1")  # seat 0 takes S1 (AH): 13 cards
    assert collected(st)[0] == 13
    assert [len(p) for p in st.stock[0]] == [1, 2, 3, 4, 3]
    assert st.spitcards[0] == [] and st.live == [False, True] and conserved(st)


# ------------------------------------------------------------------ actions
def test_sp9_fill_with_auto_flip_off_leaves_the_card_beneath_face_down():
    """SP-9 with auto_flip = false: the uncovered card waits for an explicit FLIP (SP-8)."""
    st = position(piles("", "7C 9C", "KD"), piles("JD"), "2C", "2D", s0="5S", s1="3S", auto_flip=False)
    st.play("0 fill 2 9C 1")
    assert st.view(1).stock[0][1] == () and st.view(1).face_down[0][1] == 1
    assert "0 flip 2" in map(str, st.legal_actions(0))
    assert not st.blocked()  # SP-15: a face-down top is productive with auto_flip off


def test_sp9_never_more_than_five_piles_fill_only_into_empty_space():
    st = position(piles("AH", "7C 9C", "KD", "3S", "4D"), piles("JD"), "2C", "2D", s0="5S", s1="TS")
    assert not any(a.kind == "fill" for a in st.legal_actions(0))
    with pytest.raises(IllegalActionError, match="not empty"):
        st.play("0 fill 2 9C 1")


def test_sp12_cannot_play_a_card_below_the_top():
    """SP-12/SP-13: only the face-up top of one's own pile moves; a face-down card is never named."""
    st = position(piles("4H 9C"), piles("6D"), "2C", "2D", s0="5S", s1="TS")
    with pytest.raises(IllegalActionError, match="stale"):
        st.play("0 play 1 4H S0")


# ------------------------------------------------------------------ arbitration, phases
def test_sp14_spit_request_rejected_in_the_slap_phase():
    """SP-14, SP-18: actions received after the trigger are rejected."""
    st = position(piles("4H"), piles("6D", "KD"), "2C", "2D", s0="5S", s1="TS")
    st.play("0 play 1 4H S0")
    assert st.phase is Phase.SLAP
    for text in ("1 spit", "1 play 1 6D S0", "0 choose S1"):
        with pytest.raises(IllegalActionError):
            st.play(text)


# ------------------------------------------------------------------ stuck, spitting
def test_sp16_spit_delay_timer_is_the_option():
    st = position(piles("4H"), piles("6D"), "2C", "2D", s0="9S", s1="TS", spit_delay=0.0)
    st._after_change()
    assert st.timers() == ((SpitAction.parse("timer spit"), 0.0),)


def test_sp16_lone_spitter_choice_holds_only_for_the_round():
    """SP-16: the lone spitter's pile is fixed for the rest of the round, and chosen anew in the next."""
    st = position(piles("4H"), piles("6D", "KD"), "9C 5C 8C", "", s0="JS", s1="JH")
    st.play("0 choose S1")
    st._after_change()
    st.play("timer spit")  # 9C onto S1: still blocked
    st.play("timer spit")  # 5C onto S1
    assert st.lone_target == 1 and st.spit[1][-2:] == [C("9C").id, C("5C").id]
    st.play("0 play 1 4H S1")  # seat 0 empties its stock, still holding 8C: slap race
    st.play("0 slap S0")
    assert st.round == 2 and st.lone_target == -1 and st.choice == [-1, -1]
    assert st.view(0).lone_pile is None


def test_sp16_mutual_spit_by_a_lone_spitter_uses_the_chosen_pile():
    """SP-17 runs SP-16: a lone spitter's request spit goes onto the chosen pile."""
    st = position(piles("4H", "9H"), piles("6D"), "2C 8C", "", s0="5S", s1="TS")
    st.play("0 choose S1")
    st.play("0 spit")
    st.play("1 spit")
    assert st.spit[1][-1] == C("2C").id and st.spit[0][-1] == C("5S").id and st.lone_target == 1


def test_sp17_request_ends_with_the_next_spit_even_a_blocked_one():
    """SP-17: a request stands until the next spit happens (here the SP-16 re-spit)."""
    st = position(piles("3H 4H", "KC"), piles("6D"), "2C 8C", "QD 7D", s0="5S", s1="TS")
    st.play("0 spit")
    st.play("0 play 1 4H S0")  # 3H is turned up, adjacent to 4H
    assert st.requests == [True, False]  # it stands whatever is played meanwhile
    st.play("0 play 1 3H S0")  # now blocked: KC and 6D fit neither 3H nor TS
    assert st.phase is Phase.SPIT_PENDING and st.requests == [True, False]
    st.play("timer spit")
    assert st.requests == [False, False] and not st.view(1).spit_requests[0]


def test_sp17_no_request_when_nobody_has_spit_cards():
    st = position(piles("4H", "9H"), piles("6D"), "", "", s0="5S", s1="TS")
    assert not any(a.kind in ("spit", "unspit") for a in st.legal_actions())


# ------------------------------------------------------------------ end of a round
def test_sp20_tie_after_a_blocked_ending_is_left_to_the_seeded_rng():
    """SP-20: identical timestamps favour the finisher only after an (a) ending; after (b) both
    slaps rank alike, so the host's seeded RNG decides."""
    st = position(piles("4H"), piles("6D"), "", "", s0="9S", s1="TS")
    st._after_change()
    assert st.phase is Phase.SLAP and st.finisher == -1
    assert st.tie_rank(SpitAction.parse("0 slap S0")) == st.tie_rank(SpitAction.parse("1 slap S0"))


def test_sp20_c6_different_piles_each_gets_the_pile_slapped():
    st = position(piles("4H"), piles("6D", "KD"), "2C", "2D", s0="5S", s1="9D TS")
    st.play("0 play 1 4H S0")
    st.play("1 slap S1")
    assert takes(st) == {1: 1, 0: 0}
    with pytest.raises(IllegalActionError):
        st.play("0 slap S0")  # the race is settled by the first slap


def test_sp21_collected_counts_include_face_down_stock_and_spit_cards():
    st = position(piles("4H"), piles("6D", "3C KD", "8H 9H TH"), "2C", "2D 7D", s0="5S", s1="JS QS")
    st.play("0 play 1 4H S0")
    s0 = len(st.spit[0])
    st.play("1 slap S1")  # seat 1 takes S1 (2 cards) and keeps 6 stock + 2 spit cards
    assert collected(st) == {0: s0 + 1, 1: 2 + 6 + 2}
    assert conserved(st) and st.round == 2


def test_sp22_one_pile_blocked_timeout_equal_counts_seeded():
    """SP-22 (b) timeout with equal stock counts: the seeded RNG picks who avoids the pile."""
    seen = set()
    for seed in range(12):
        st = position(piles("4H"), piles("6D"), "", "", s0=None, s1="TS")
        st.seed = seed
        st._after_change()
        st.play("timer slap")
        seen.add(next(e.seat for e in st.view(None).events if e.kind == "avoid"))
        assert conserved(st)
    assert seen == {0, 1}


# ------------------------------------------------------------------ winning
def test_sp26_max_rounds_equal_cards_is_a_draw():
    st = position(piles("4H"), piles("6D"), "", "", s0="9S", s1="TS", max_rounds=1)
    while len(st.spit[0]) != len(st.spit[1]):  # equal piles, equal stocks: 26 cards each
        st.spit[1].insert(0, st.spit[0].pop(0))
    st._after_change()
    st.play("timer slap")  # each takes the pile they started
    assert st.outcome().reason == "SP-26" and st.outcome().winners == (0, 1)
    assert st.outcome().returns == (0.5, 0.5)


def test_sp26_under_points_scoring_the_lowest_score_wins_not_the_fewest_cards():
    """SP-26 with SP-V1: at ``max_rounds`` the lowest cumulative score wins. Seat 0 ends the last
    round holding more cards (3 against 1) but with the lower total (0 + 3 against 10 + 1)."""
    st = position(piles("4H", "QC", "7C"), piles("6D"), "", "", s0="9S", s1="TS", scoring="points", max_rounds=1)
    st.scores = [0, 10]
    st._after_change()
    assert st.scores == [3, 11]
    assert st.outcome().reason == "SP-26" and st.outcome().winners == (0,)


def test_spv1_blocked_ending_scores_and_deals_afresh_without_a_slap():
    """SP-V1: a round ending by SP-18 (b) is scored (stock cards) and a fresh deal follows."""
    st = position(piles("4H", "QC", "7C"), piles("6D"), "", "", s0="9S", s1="TS", scoring="points")
    st._after_change()
    assert st.scores == [3, 1] and st.round == 2 and st.phase is Phase.PLAY
    assert st.live == [True, True] and [len(p) for p in st.stock[1]] == [1, 2, 3, 4, 5]
    assert st.view(0).spit_cards == (10, 10) and conserved(st)


def test_spv1_no_immediate_win_in_fresh_deal_mode():
    """SP-V1 fresh_deal: a player who empties the stock with no spit cards scores 0 and the
    game goes on (the lowest total wins at the limit)."""
    st = position(piles("4H"), piles("6D"), "", "2D", s0="5S", s1="TS", scoring="points")
    st.play("0 play 1 4H S0")
    assert not st.is_terminal() and st.scores == [0, 2] and st.round == 2


def test_spv1_max_rounds_lower_score_wins():
    st = position(piles("4H"), piles("6D"), "", "2D", s0="5S", s1="TS", scoring="points", max_rounds=1)
    st.play("0 play 1 4H S0")
    assert st.outcome().reason == "SP-26" and st.outcome().winners == (0,)
