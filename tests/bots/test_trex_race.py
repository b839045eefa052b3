"""How the Trex search spends its budget: one card of each class of equal cards, and a race that
drops the clearly worse candidates (``cardtable.bots.trex_pimc``)."""

from __future__ import annotations

import random

import pytest

from cardtable.bots.base import Budget
from cardtable.bots.trex_endgame import Endgame
from cardtable.bots.trex_pimc import RACE_MIN, RACE_TIES, Race, SearchTrexBot, equivalent
from cardtable.games.trex.actions import A_CONTRACT, DI, KH, QN, TK
from tests.bots.test_trex_endgame import endgame_states
from tests.review.positions import trex_king_of_hearts_falls
from tests.trex.conftest import deck_from_hands, no_doubles, start
from tests.trex.conftest import new as new_trex


@pytest.mark.parametrize("mask", [KH, QN, DI, TK])
def test_tx24_cards_of_one_class_have_the_same_exact_value(mask):
    """Two cards merged into one class win or lose the same tricks whoever holds the rest: the
    exact solver gives them the same value in the true deal, for every contract."""
    merged = 0
    for st in endgame_states({mask}, range(150), 3):
        legal = st.legal_actions()
        values = Endgame(st, st.to_move).values(st)
        for group in equivalent(st, legal, st.to_move):
            assert len({values[legal[i].arg] for i in group}) == 1, [str(legal[i]) for i in group]
            merged += len(group) - 1
    assert merged > 0  # the property was put to the test


def test_tx24_a_card_in_the_trick_or_in_another_hand_keeps_two_cards_apart():
    """A♠ and 5♠ with Q♠ in the trick and the spades between in another hand are not equal
    (A♠ takes the K♥ thrown on the trick)."""
    state, _ = trex_king_of_hearts_falls()
    legal = state.legal_actions()
    assert equivalent(state, legal, 3) == [[0], [1]]


def test_equal_cards_with_nothing_between_them_are_one_class():
    """Seat 0 leads holding 2♣ to Q♣: eleven clubs, one class; 7♥ and 2♠ are classes of their own."""
    deck = deck_from_hands(
        "7H 2S 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC",
        "KH 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
        "3S 4S 6S 7S 8S 9S TS JS QS KS KC AH 5H",
        "AS 5S AC AD 2H 3H 4H 6H 8H 9H TH JH QH",
    )
    state = start(new_trex(deck, hearts_lead_rule="free"), "KH")
    no_doubles(state)
    legal = state.legal_actions()
    groups = [sorted(str(legal[i]) for i in g) for g in equivalent(state, legal, 0)]
    assert sorted(groups) == sorted([["7H"], ["2S"], sorted(f"{r}C" for r in "23456789TJQ")]), groups


def test_outside_trick_play_every_action_is_its_own_class():
    legal = [A_CONTRACT[m] for m in (KH, QN, DI)]
    state, _ = trex_king_of_hearts_falls()
    state.phase = type(state.phase).CHOOSE
    assert equivalent(state, legal, 3) == [[0], [1], [2]]


def test_race_drops_a_candidate_that_is_always_worse():
    race = Race(["a", "b", "c"], [0.0, 0.0, 0.0])  # type: ignore[list-item]
    rng = random.Random(1)
    for _ in range(RACE_MIN):
        x = rng.choice([0.0, -25.0, -75.0])
        race.add([x, x - 25.0, x + rng.choice([-15.0, 15.0])])
    assert race.alive == [0, 2]  # b trails by 25 every time; c is in doubt
    assert race.best() in ("a", "c")


def test_race_keeps_a_card_that_trails_a_little_while_much_is_at_stake():
    """TX-26: b scores 5 points less than a in every world seen, while a world can cost 75 (the
    K♥): a world not yet seen could still favour b, so b stays in for dozens of worlds, and
    leaves once enough have been seen."""
    race = Race(["a", "b"], [0.0, 0.0])  # type: ignore[list-item]
    worlds = 0
    while race.alive == [0, 1] and worlds < 400:
        x = -75.0 if worlds % 4 == 0 else 0.0
        race.add([x, x - 5.0])
        worlds += 1
        if worlds <= 40:
            assert race.alive == [0, 1], worlds
    assert race.alive == [0] and 40 < worlds <= 200


def test_race_drops_an_exact_tie_only_after_many_worlds_and_keeps_the_first():
    race = Race(["a", "b"], [0.0, 0.0])  # type: ignore[list-item]
    for n in range(RACE_TIES):
        assert race.alive == [0, 1], n
        race.add([-10.0 * (n % 3), -10.0 * (n % 3)])
    assert race.alive == [0] and race.best() == "a"


def test_race_adds_the_contract_baselines_before_comparing():
    """TX-9: contracts are compared above what a random hand scores under each."""
    race = Race(["kh", "tk"], [15.8, 48.3])  # type: ignore[list-item]
    for _ in range(RACE_MIN):
        race.add([-20.0, -40.0])  # K♥ scores more, but 40 in Collections beats the baseline more
    assert race.best() == "tk" and race.alive == [1]


def test_without_racing_every_candidate_sees_every_world():
    race = Race(["a", "b"], [0.0, 0.0], racing=False)  # type: ignore[list-item]
    for _ in range(4 * RACE_TIES):
        race.add([0.0, -75.0])
    assert race.alive == [0, 1] and race.best() == "a"


def test_weighed_worlds_count_by_their_weight_in_every_mean():
    """b is the better card in the two likely worlds, a in the unlikely third: weighed, b wins."""
    race = Race(["a", "b"], [0.0, 0.0], racing=False)  # type: ignore[list-item]
    for values in ([0.0, 10.0], [0.0, 10.0], [60.0, 0.0]):
        race.add(values)
    assert race.best() == "a"  # 20 against 6.7 with every world alike
    race.weigh([1.0, 1.0, 0.1])
    assert race.mean(0) == pytest.approx(6.0 / 2.1) and race.mean(1) == pytest.approx(20.0 / 2.1)
    assert race.best() == "b"


def test_tx25_the_search_stops_once_the_race_is_decided():
    """A♠ takes the K♥ (−75) in every world, 5♠ never: the race ends after its first look, far
    inside the budget, with the 5♠."""
    state, _ = trex_king_of_hearts_falls()
    bot = SearchTrexBot()
    bot.racing = True
    assert str(bot.act(state.view(3), random.Random(3), Budget(iterations=1500))) == "5S"
    assert bot.last_worlds == RACE_MIN and bot.last_iterations == 2 * RACE_MIN
