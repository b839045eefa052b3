"""One named test per Spit rule of docs/rules/spit.md (and the options of §3.9 they depend on)."""

from __future__ import annotations

import pytest

import cardtable
from cardtable.core import SIMULTANEOUS, TERMINAL, Card, ConfigError, IllegalActionError, ParseError
from cardtable.games.spit import SpitAction, adjacent, layout_sizes
from cardtable.games.spit.state import Phase

from .util import conserved, piles, position, snapshot

C = Card.parse


def collected(st):
    return {e.seat: e.value for e in st.view(None).events if e.kind == "collect"}


# ------------------------------------------------------------------ SP-1, SP-2
def test_sp1_two_players_one_deck_no_jokers():
    game = cardtable.load("spit")
    assert game.num_players == 2
    st = game.new_state(seed=5)
    assert sorted(st.all_cards()) == list(range(52))
    with pytest.raises(ConfigError):
        game.new_state(deck=[*range(51), 0])
    assert cardtable.load("speed").name == cardtable.load("slam").name == "spit"


def test_sp2_spa1_adjacency_is_circular_and_suitless():
    assert adjacent(C("KS"), C("AH")) and adjacent(C("2C"), C("AD"))
    assert adjacent(C("QH"), C("KC")) and adjacent(C("AS"), C("KD"))
    assert adjacent(C("3C"), C("2C")) and adjacent(C("TD"), C("9S"))
    assert not adjacent(C("5C"), C("5D"))  # equal ranks are not adjacent (SP-A16)
    assert not adjacent(C("3C"), C("AC")) and not adjacent(C("QC"), C("AC"))


def test_sp2_non_adjacent_play_rejected():
    st = position(piles("AH", "5C", "KD"), piles("9S"), s0="QC", s1="7D")
    st.play("0 play 3 KD S0")  # K on Q
    st.play("0 play 1 AH S0")  # A on K
    with pytest.raises(IllegalActionError):
        st.play("0 play 2 5C S0")


# ------------------------------------------------------------------ SP-3 .. SP-6
def test_sp3_spa15_each_player_gets_26_cards():
    st = cardtable.load("spit").new_state(seed=11)
    deals = [e for e in st.view(None).events if e.kind == "deal"]
    assert [e.value for e in deals] == [26, 26]


def test_sp4_layout_patience_order_and_spit_cards():
    deck = list(range(52))
    st = cardtable.load("spit").new_state(deck=deck)
    assert [len(p) for p in st.stock[0]] == [1, 2, 3, 4, 5]
    # §0.5: pile 2 holds cards 1 (bottom) and 5 (top); pile 5 holds 4, 8, 11, 13, 14
    assert st.stock[0][1] == [1, 5] and st.stock[0][4] == [4, 8, 11, 13, 14]
    assert st.stock[1][0] == [26]
    # cards 15..25 are the spit cards, 15 on top: it was spat at once (SP-6)
    assert st.spit[0] == [15] and st.spit[1] == [41]
    assert st.spitcards[0][-1] == 16 and len(st.spitcards[0]) == 10
    view = st.view(0)
    assert [len(p) for p in view.stock[0]] == [1, 1, 1, 1, 1]
    assert view.face_down[0] == (0, 1, 2, 3, 4)
    assert view.spit_cards == (10, 10)


def test_sp5_spa10_fewer_than_15_cards_test_vectors():
    assert layout_sizes(12) == [1, 2, 3, 3, 3]
    assert layout_sizes(8) == [1, 2, 2, 2, 1]
    assert layout_sizes(3) == [1, 1, 1, 0, 0]
    assert layout_sizes(15) == layout_sizes(40) == [1, 2, 3, 4, 5]
    st = cardtable.load("spit").new_state(seed=1)
    for m, sizes in ((12, [1, 2, 3, 3, 3]), (8, [1, 2, 2, 2, 1]), (3, [1, 1, 1, 0, 0])):
        st._layout(0, list(range(m)))
        assert [len(p) for p in st.stock[0]] == sizes
        assert st.spitcards[0] == []
        assert st.up[0] == [1 if s else 0 for s in sizes]


def test_sp6_opening_spit_two_piles_and_one_pile_round():
    st = cardtable.load("spit").new_state(seed=2)
    assert st.live == [True, True] and len(st.spit[0]) == len(st.spit[1]) == 1
    st._start_round([list(range(12)), list(range(12, 52))])  # seat 0 has no spit cards
    assert st.live == [False, True]
    assert len(st.spit[1]) == 1 and st.spit[0] == []
    assert len(st.spitcards[1]) == 40 - 15 - 1


# ------------------------------------------------------------------ SP-7 .. SP-12
def test_sp7_play_on_either_spit_pile():
    st = position(piles("4H", "9C"), piles("JD"), "2C", "2D", s0="5S", s1="TS")
    assert "0 play 1 4H S0" in map(str, st.legal_actions(0))
    assert "0 play 2 9C S1" in map(str, st.legal_actions(0))
    st.play("0 play 2 9C S1")
    assert st.spit[1][-1] == C("9C").id
    assert st.view(1).spit_tops[1] == C("9C")


def test_sp8_spa7_auto_flip_turns_up_the_next_card():
    st = position(piles("4H", "7C 9C", "KD"), piles("JD"), "2C", "2D", s0="5S", s1="TS")
    st.play("0 play 2 9C S1")
    assert st.up[0][1] == 1
    assert st.view(1).stock[0][1] == (C("7C"),)
    assert any(e.kind == "flip" and e.card == C("7C") for e in st.view(1).events)


def test_sp8_auto_flip_off_flip_is_an_action():
    st = position(piles("4H", "7C 9C", "KD"), piles("JD"), "2C", "2D", s0="5S", s1="TS", auto_flip=False)
    st.play("0 play 2 9C S1")
    assert st.up[0][1] == 0 and st.view(0).stock[0][1] == () and st.view(0).face_down[0][1] == 1
    assert "0 flip 2" in map(str, st.legal_actions(0))
    assert st._productive(0)
    st.play("0 flip 2")
    assert st.view(1).stock[0][1] == (C("7C"),)


def test_sp9_spa6_fill_an_empty_space_from_a_pile_of_two_or_more():
    st = position(piles("", "7C 9C", "KD"), piles("JD"), "2C", "2D", s0="5S", s1="3S")
    legal = set(map(str, st.legal_actions(0)))
    assert {"0 fill 2 9C 1", "0 fill 2 9C 4", "0 fill 2 9C 5"} <= legal
    assert not any(a.startswith("0 fill 3") for a in legal)  # SP-A6: a one-card pile
    with pytest.raises(IllegalActionError):
        st.play("0 fill 3 KD 1")
    st.play("0 fill 2 9C 1")
    assert st.stock[0][0] == [C("9C").id] and st.stock[0][1] == [C("7C").id] and st.up[0][1] == 1
    assert sum(1 for p in st.stock[0] if p) <= 5


def test_sp10_each_action_moves_one_card():
    st = cardtable.load("spit", max_rounds=3).new_state(seed=4)
    import random

    rng = random.Random(4)
    while not st.is_terminal():
        before = [sum(len(p) for p in st.stock[s]) for s in (0, 1)]
        la = st.legal_actions()
        a = la[rng.randrange(len(la))]
        rnd = st.round
        st.play(a)
        if st.round == rnd and a.kind in ("play", "fill", "stack"):
            after = [sum(len(p) for p in st.stock[s]) for s in (0, 1)]
            assert sum(before) - sum(after) == (1 if a.kind == "play" else 0)


def test_sp11_no_action_takes_a_card_back():
    st = position(piles("4H", "9C"), piles("JD"), "2C", "2D", s0="5S", s1="TS")
    st.play("0 play 1 4H S0")
    assert st.spit[0][-1] == C("4H").id
    assert all(a.kind != "take" for a in st.legal_actions())
    assert not any(a.card == C("4H").id for a in st.legal_actions())


def test_sp12_spit_cards_and_opponent_piles_cannot_be_played():
    st = position(piles("4H", "9C"), piles("JD"), "6C", "2D", s0="5S", s1="TS")
    for a in st.legal_actions():
        assert a.card not in (C("6C").id, C("2D").id)
    with pytest.raises(IllegalActionError):  # seat 1 cannot move seat 0's card
        st.play("1 play 1 4H S0")


def test_sp12_spa16_same_rank_stacking_off_by_default_option_allow_same_rank_stacking():
    kw = dict(stock0=piles("3C 4H", "4C"), stock1=piles("JD"), spit0="2C", spit1="2D", s0="9S", s1="TS")
    st = position(**kw)
    assert not any(a.kind == "stack" for a in st.legal_actions())
    st = position(**kw, allow_same_rank_stacking=True)
    assert "0 stack 1 4H 2" in map(str, st.legal_actions(0))
    st.play("0 stack 1 4H 2")
    assert st.up[0][1] == 2 and st.view(1).stock[0][1] == (C("4C"), C("4H"))


# ------------------------------------------------------------------ SP-13, SP-14
def test_sp13_spa2_later_play_rejected_without_penalty():
    st = position(piles("4H", "9C"), piles("6D"), "2C", "2D", s0="5S", s1="TS")
    st.play("0 play 1 4H S0")  # applied first: S0 shows 4H now
    before = snapshot(st)
    with pytest.raises(IllegalActionError, match="without penalty"):
        st.play("1 play 1 6D S0")  # it was adjacent to 5S when sent
    assert snapshot(st) == before
    assert st.stock[1][0] == [C("6D").id] and conserved(st)


def test_sp13_stale_action_rejected():
    st = position(piles("4H", "7C 9C"), piles("6D"), "2C", "2D", s0="5S", s1="TS")
    st.play("0 play 2 9C S1")
    before = snapshot(st)
    with pytest.raises(IllegalActionError, match="stale"):
        st.play("0 play 2 9C S1")
    assert snapshot(st) == before


def test_sp14_phases_and_play_rejected_outside_play():
    st = position(piles("4H"), piles("6D"), "5C", "2D", s0="9S", s1="TS")
    st._after_change()
    assert st.phase is Phase.SPIT_PENDING and st.current_player() == SIMULTANEOUS
    with pytest.raises(IllegalActionError):
        st.play("0 spit")
    assert [str(a) for a in st.legal_actions()] == ["timer spit"]
    st.play("timer spit")
    assert st.phase is Phase.PLAY
    with pytest.raises(IllegalActionError):
        st.play("timer spit")


# ------------------------------------------------------------------ SP-15 .. SP-17
def test_sp15_spa3_stuck_and_blocked():
    st = position(piles("4H"), piles("6D"), "2C", "2D", s0="9S", s1="TS")
    assert st.blocked()
    st = position(piles("4H"), piles("6D"), "2C", "2D", s0="9S", s1="5S")
    assert not st.blocked()
    st = position(piles("", "3C 4H"), piles("6D"), "2C", "2D", s0="9S", s1="TS")
    assert not st.blocked()  # a FILL is productive
    st = position(piles("4H", "3C"), piles("6D"), "2C", "2D", s0="9S", s1="TS")
    assert st.blocked()  # one-card piles cannot fill


def test_sp16_spa4_respit_each_onto_own_pile_option_spit_delay():
    game = cardtable.load("spit", spit_delay=0.25)
    st = position(piles("4H"), piles("6D"), "2C 8C", "2D", s0="9S", s1="TS")
    st._after_change()
    assert st.timers() == ((SpitAction.parse("timer spit"), 1.0),)
    assert game.new_state(seed=1).game.options.spit_delay == 0.25
    st.play("timer spit")
    assert st.spit[0][-1] == C("2C").id and st.spit[1][-1] == C("2D").id
    assert st.spitcards == [[C("8C").id], []]


def test_sp16_lone_spitter_chooses_once_and_sticks():
    st = position(piles("4H"), piles("6D"), "2C 8C JC", "", s0="9S", s1="TS")
    assert "0 choose S1" in map(str, st.legal_actions(0))
    assert not any(a.kind == "choose" for a in st.legal_actions(1))
    st.play("0 choose S1")
    st._after_change()
    st.play("timer spit")
    assert st.spit[1][-1] == C("2C").id and st.lone_target == 1
    assert not any(a.kind == "choose" for a in st.legal_actions(0))
    assert st.phase is Phase.SPIT_PENDING  # 4H and 6D fit on neither 9S nor 2C
    st.play("timer spit")
    assert st.spit[1][-1] == C("8C").id and st.spit[0][-1] == C("9S").id


def test_sp16_lone_spitter_default_own_pile():
    st = position(piles("4H"), piles("6D"), "", "QC", s0="9S", s1="TS")
    st._after_change()
    st.play("timer spit")
    assert st.spit[1][-1] == C("QC").id and st.lone_target == 1


def test_sp16_one_pile_round_spits_onto_the_only_pile():
    st = position(piles("4H"), piles("6D"), "", "QC", s0=None, s1="TS")
    st._after_change()
    st.play("timer spit")
    assert st.spit[1][-1] == C("QC").id and st.spit[0] == []


def test_sp17_spa5_spit_by_mutual_request_option_allow_mutual_spit():
    st = position(piles("4H", "9H"), piles("6D"), "2C", "2D", s0="5S", s1="TS")
    assert not st.blocked()
    st.play("0 spit")
    assert st.view(1).spit_requests == (True, False)
    st.play("0 play 1 4H S0")  # a request stands whatever is played meanwhile
    st.play("1 spit")
    assert st.spit[0][-1] == C("2C").id and st.spit[1][-1] == C("2D").id
    assert st.requests == [False, False]
    st = position(piles("4H"), piles("6D"), "2C", "2D", s0="5S", s1="TS")
    st.play("0 spit")
    st.play("0 unspit")
    st.play("1 spit")
    assert st.spit[0][-1] == C("5S").id
    st = position(piles("4H"), piles("6D"), "2C", "2D", s0="5S", s1="TS", allow_mutual_spit=False)
    with pytest.raises(IllegalActionError):
        st.play("0 spit")


# ------------------------------------------------------------------ SP-18 .. SP-22
def test_sp18a_last_stock_card_ends_the_round():
    st = position(piles("4H"), piles("6D", "KD"), "2C", "2D", s0="5S", s1="TS")
    st.play("0 play 1 4H S0")
    assert st.phase is Phase.SLAP and st.finisher == 0
    with pytest.raises(IllegalActionError):
        st.play("1 play 2 KD S0")


def test_sp18b_blocked_with_no_spit_cards_ends_the_round():
    st = position(piles("4H"), piles("6D"), "", "", s0="9S", s1="TS")
    st._after_change()
    assert st.phase is Phase.SLAP and st.finisher == -1


def test_sp19_empty_stock_and_no_spit_cards_wins_at_once():
    st = position(piles("4H"), piles("6D"), "", "2D", s0="5S", s1="TS")
    st.play("0 play 1 4H S0")
    assert st.is_terminal() and st.current_player() == TERMINAL
    assert st.outcome().winners == (0,) and st.outcome().reason == "SP-19"
    assert conserved(st)


def test_sp20_spa8_first_slap_takes_the_pile_other_takes_the_other():
    st = position(piles("4H"), piles("6D", "KD"), "2C", "2D", s0="5S", s1="9D TS")
    st.play("0 play 1 4H S0")
    held1 = st.cards_held(1)
    st.play("1 slap S0")  # S0 = 5S 4H plus the filler cards beneath
    s0 = len([e for e in st.view(None).events if e.kind == "take" and e.seat == 1])
    assert s0 == 1
    take = {e.seat: (e.slot, e.value) for e in st.view(None).events if e.kind == "take"}
    assert take[1][0] == 0 and take[0] == (1, 2)
    collect = {e.seat: e.value for e in st.view(None).events if e.kind == "collect"}
    assert collect[0] == 2 + 1 and collect[1] == held1 + take[1][1]
    assert st.round == 2 and conserved(st)
    with pytest.raises(IllegalActionError):
        st.play("0 slap S1")


def test_sp20_same_pile_goes_to_the_first_slap():
    st = position(piles("4H"), piles("6D", "KD"), "2C", "2D", s0="5S", s1="9D TS")
    st.play("0 play 1 4H S0")
    st.play("0 slap S1")
    take = {e.seat: e.slot for e in st.view(None).events if e.kind == "take"}
    assert take == {0: 1, 1: 0}


def test_sp20_identical_timestamps_favour_the_finisher():
    st = position(piles("4H"), piles("6D", "KD"), "2C", "2D", s0="5S", s1="9D TS")
    st.play("0 play 1 4H S0")
    assert st.tie_rank(SpitAction.parse("0 slap S1")) < st.tie_rank(SpitAction.parse("1 slap S1"))
    assert st.tie_rank(SpitAction.parse("1 slap S1")) < st.tie_rank(SpitAction.parse("timer slap"))


def test_sp20_spa12_timeout_finisher_takes_the_smaller_pile_option_slap_timeout():
    assert cardtable.load("spit").options.slap_timeout == 5  # SP-A12: the SP-20 default
    st = position(piles("4H"), piles("6D", "KD"), "2C", "2D", s0="5S", s1="9D TS", slap_timeout=2.5)
    st.play("0 play 1 4H S0")
    assert st.timers() == ((SpitAction.parse("timer slap"), 2.5),)
    st.play("timer slap")
    take = {e.seat: e.slot for e in st.view(None).events if e.kind == "take"}
    assert take == {0: 1, 1: 0}


def test_sp20_timeout_tie_finisher_takes_own_pile():
    st = position(piles("4H"), piles("6D", "KD"), "2C", "2D", s0="5S", s1="TS")
    st.play("0 play 1 4H S0")
    while len(st.spit[0]) > len(st.spit[1]):  # make the piles equal
        st.spit[1].insert(0, st.spit[0].pop(0))
    assert len(st.spit[0]) == len(st.spit[1])
    st.play("timer slap")
    take = {e.seat: e.slot for e in st.view(None).events if e.kind == "take"}
    assert take == {0: 0, 1: 1}


def test_sp20_timeout_after_blocked_each_takes_own_pile():
    st = position(piles("4H"), piles("6D"), "", "", s0="9S", s1="TS")
    st._after_change()
    st.play("timer slap")
    take = {e.seat: e.slot for e in st.view(None).events if e.kind == "take"}
    assert take == {0: 0, 1: 1}


def test_sp21_collecting_and_new_layout_unequal_counts():
    st = position(piles("4H"), piles("6D", "KD 3C"), "2C", "2D 8D", s0="5S", s1="TS")
    st.play("0 play 1 4H S0")
    st.play("0 slap S1")  # seat 0 takes S1 (1 card); seat 1 takes S0 and the rest
    assert st.cards_held(0) == 1 + 1  # TS and the spit card 2C
    assert st.cards_held(0) + st.cards_held(1) + len(st.spit[0]) + len(st.spit[1]) == 52
    assert st.live == [False, True]  # seat 0 has 2 cards: no spit cards, a one-pile round
    assert [len(p) for p in st.stock[0]] == [1, 1, 0, 0, 0]
    assert conserved(st)


def test_sp22_spa14_one_pile_non_spitter_empties_stock_and_wins():
    st = position(piles("4H"), piles("6D"), "", "QC", s0=None, s1="5S")
    st.play("0 play 1 4H S1")
    assert st.outcome().winners == (0,) and st.outcome().reason == "SP-19"


def test_sp22_one_pile_spitter_empties_stock_takes_nothing():
    st = position(piles("QH"), piles("6D"), "", "QC 9C", s0=None, s1="5S")
    st.play("1 play 1 6D S1")
    assert st.round == 2
    assert collected(st) == {0: 50, 1: 2}  # seat 1 keeps only the spit cards QC, 9C
    assert conserved(st)


def test_sp22_spa11_one_pile_blocked_first_slap_avoids():
    st = position(piles("4H"), piles("6D", "KD"), "", "", s0=None, s1="TS")
    st._after_change()
    assert st.phase is Phase.SLAP
    assert [str(a) for a in st.legal_actions(0)] == ["0 slap S1"]
    st.play("1 slap S1")
    assert collected(st) == {0: 50, 1: 2}


def test_sp22_one_pile_timeout_fewer_stock_cards_avoid():
    st = position(piles("4H"), piles("6D", "KD"), "", "", s0=None, s1="TS")
    st._after_change()
    st.play("timer slap")
    assert collected(st) == {0: 1, 1: 51}


# ------------------------------------------------------------------ winning
def test_sp25_standard_win_returns():
    st = position(piles("4H"), piles("6D"), "", "2D", s0="5S", s1="TS")
    st.play("0 play 1 4H S0")
    assert st.outcome().returns == (1.0, 0.0)


def test_sp26_max_rounds_fewer_cards_wins():
    st = position(piles("4H"), piles("6D", "KD"), "2C", "2D", s0="5S", s1="TS", max_rounds=1)
    st.play("0 play 1 4H S0")
    st.play("0 slap S1")
    assert st.outcome().reason == "SP-26" and st.outcome().winners == (0,)
    assert conserved(st)


def test_sp26_max_rounds_terminates_random_play():
    import random

    game = cardtable.load("spit", max_rounds=4)
    for seed in range(20):
        st = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal():
            la = st.legal_actions()
            assert la
            st.play(la[rng.randrange(len(la))])
        assert st.round <= 4 and conserved(st)


def test_spv1_spa13_points_fresh_deal_scoring_option_scoring_points():
    # an SP-18 (a) ending: the player who emptied their stock scores only their spit cards,
    # the other their stock and spit cards; then a fresh deal of 26 each, two spit piles, no slap
    st2 = position(piles("4H"), piles("6D", "KD"), "2C", "2D 8D", s0="5S", s1="TS", scoring="points")
    st2.play("0 play 1 4H S0")
    assert st2.scores == [1, 4]
    assert st2.round == 2 and st2.live == [True, True]
    assert [len(p) for p in st2.stock[0]] == [1, 2, 3, 4, 5]
    assert conserved(st2)


def test_spv1_points_limit_lowest_wins_option_points_limit():
    st = position(
        piles("4H"),
        piles("6D", "KD"),
        "2C",
        "2D 8D",
        s0="5S",
        s1="TS",
        scoring="points",
        points_limit=4,
    )
    st.play("0 play 1 4H S0")
    assert st.outcome().winners == (0,) and st.outcome().reason == "SP-V1"


def test_spv1_points_tie_plays_on():
    st = position(piles("4H"), piles("6D"), "2C", "", s0="5S", s1="TS", scoring="points", points_limit=1)
    st.scores = [1, 2]
    st.play("0 play 1 4H S0")  # seat 0 +1 (2C), seat 1 +1 (6D): 2 and 3
    assert st.is_terminal()
    st = position(piles("4H"), piles("6D"), "2C", "", s0="5S", s1="TS", scoring="points", points_limit=1)
    st.scores = [5, 5]
    st.play("0 play 1 4H S0")
    assert not st.is_terminal() and st.scores == [6, 6] and st.round == 2


def test_spv1_carry_over_keeps_slap_option_points_round_mode():
    st = position(
        piles("4H"),
        piles("6D", "KD"),
        "2C",
        "2D 8D",
        s0="5S",
        s1="TS",
        scoring="points",
        points_round_mode="carry_over",
    )
    st.play("0 play 1 4H S0")
    assert st.phase is Phase.SLAP and st.scores == [1, 4]
    st.play("1 slap S1")
    assert st.round == 2 and conserved(st)


def test_spv1_carry_over_no_cards_left_ends_game_lowest_total_wins():
    # SP-V1 with carry_over: seat 0 empties its stock holding no spit cards (SP-25), but seat 1
    # has the lower total after this round is scored: the game ends there and seat 1 wins.
    st = position(piles("4H"), piles("6D"), "", "2D", s0="5S", s1="TS", scoring="points",
                  points_round_mode="carry_over")
    st.scores = [40, 10]
    st.play("0 play 1 4H S0")  # seat 0 adds 0; seat 1 adds 2 (6D and its spit card 2D)
    assert st.is_terminal() and st.scores == [40, 12]
    assert st.outcome().winners == (1,) and st.outcome().reason == "SP-V1"


def test_spv1_carry_over_no_cards_left_is_never_an_outright_win_a_tie_is_a_draw():
    st = position(piles("4H"), piles("6D"), "", "2D", s0="5S", s1="TS", scoring="points",
                  points_round_mode="carry_over")
    st.scores = [12, 10]
    st.play("0 play 1 4H S0")
    assert st.scores == [12, 12]
    assert st.outcome().winners == (0, 1) and st.outcome().returns == (0.5, 0.5)
    # the same emptying with the lower total wins, by score (SP-V1) and not outright (SP-19)
    st = position(piles("4H"), piles("6D"), "", "2D", s0="5S", s1="TS", scoring="points",
                  points_round_mode="carry_over")
    st.play("0 play 1 4H S0")
    assert st.outcome().winners == (0,) and st.outcome().reason == "SP-V1"


# ------------------------------------------------------------------ options, text
def test_options_validation():
    for bad in (
        {"spit_delay": -1},
        {"slap_timeout": "x"},
        {"max_rounds": 0},
        {"scoring": "golf"},
        {"points_round_mode": "x"},
        {"points_limit": 0},
        {"nope": 1},
        {"min_action_interval_ms": -5},
        {"points_limit": 50},
        {"points_round_mode": "carry_over"},
    ):
        with pytest.raises(ConfigError):
            cardtable.load("spit", **bad)
    assert cardtable.load("spit", preset="seed").options == cardtable.load("spit").options
    assert cardtable.load("spit", preset="points").options.scoring == "points"


def test_action_text_round_trip_and_indices():
    game = cardtable.load("spit")
    for i in range(0, game.num_distinct_actions, 7):
        a = game.action_from_index(i)
        assert a.index == i
        assert game.parse_action(str(a)) == a
        assert eval(repr(a), {"SpitAction": SpitAction}) == a
    with pytest.raises(ParseError):
        game.parse_action("0 play 6 QH S0")
    with pytest.raises(ParseError):
        game.parse_action("2 spit")
    assert game.parse_action("P1 SLAP 0") == game.parse_action("1 slap S0")


def test_spa9_two_pile_round_all_spit_cards_gone_then_stock_empty_wins():
    # seat 0 spat its last card earlier in a two-pile round: emptying the stock wins at once
    st = position(piles("4H"), piles("6D", "KD"), "", "2D", s0="5S", s1="TS")
    assert st.live == [True, True]
    st.play("0 play 1 4H S0")
    assert st.outcome().winners == (0,) and st.outcome().reason == "SP-19"


def test_sp16_lone_spitter_after_the_other_runs_out_in_play():
    # seat 1 has no spit cards left; blocked positions make seat 0 spit alone onto S0 (default)
    st = position(piles("4H"), piles("6D"), "9C 9D 9H", "", s0="JS", s1="JC")
    st._after_change()
    for expected in ("9C", "9D", "9H"):
        assert st.phase is Phase.SPIT_PENDING
        st.play("timer spit")
        assert st.spit[0][-1] == Card.parse(expected).id and st.lone_target == 0
    assert st.phase is Phase.SLAP  # blocked with no spit cards: SP-18 (b)
