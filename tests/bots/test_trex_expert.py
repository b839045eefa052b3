"""The Trex expert policy's card sense, on literal positions (docs/rules/index.md §0.5 stacked decks)."""

from __future__ import annotations

import random

import cardtable
from cardtable.bots.trex_expert import ExpertTrexBot, choose_contract, policy
from cardtable.bots.worlds import TrexMemory
from cardtable.core.cards import Card, parse_cards
from cardtable.games.trex.actions import A_CONTRACT, QN, TK, TR
from tests.trex.conftest import deck_from_hands, no_doubles, play, start

QN_DEAL = deck_from_hands(
    "7H 2C 3C 4C 5C 6C TS 2D 3D 4D 5D 6D 8H",
    "9S JS KS 2S AC 7C 8C 9C TC JC QC KC AD",
    "QH AH KH 7D 8D 9D TD JD QD KD 2H 3H 4H",
    "3S 4S 5S 6S 7S 8S QS AS 5H 6H 9H TH JH",
)
KH_DEAL = deck_from_hands(
    "7H AH 2C 3C 4C 5C 6C TS 2D 3D 4D 5D 6D",
    "8H 9S JS KS 2S AC 7C 8C 9C TC JC QC KC",
    "KH QH 2H 3H 4H 7D 8D 9D TD JD QD KD AD",
    "3S 4S 5S 6S 7S 8S QS AS 5H 6H 9H TH JH",
)


def card(action) -> str:
    return str(Card.from_id(action.arg))


def qn_trick():
    state = cardtable.load("trex").new_state(deck=QN_DEAL)
    start(state, "QN")
    no_doubles(state)
    play(state, "TS")
    return state


def test_ducks_with_the_highest_card_that_still_loses():
    state = qn_trick()
    assert state.current_player() == 1
    assert card(policy(state)) == "9S"  # under the ten, and the K♠ and J♠ are kept out of it


def test_unloads_a_queen_when_void():
    state = qn_trick()
    play(state, "9S")
    assert card(policy(state)) in ("QH", "QD")  # TX-27: a queen on someone else's trick


def test_plays_the_king_of_hearts_under_the_ace():
    state = cardtable.load("trex", hearts_lead_rule="free").new_state(deck=KH_DEAL)
    start(state, "KH")
    no_doubles(state)
    play(state, "AH", "8H")
    assert card(policy(state)) == "KH"


def test_trex_opens_the_suit_that_frees_its_own_cards():
    deck = deck_from_hands("7H JC TC QC JD 2S 3S 4S 5S 6S 7S 8S 9S")
    state = cardtable.load("trex").new_state(deck=deck)
    start(state, "TR")
    assert {card(a) for a in state.legal_actions()} == {"JC", "JD"}
    assert card(policy(state)) == "JC"  # J♣ frees our 10♣ and Q♣; J♦ would free two cards for others


def test_contract_choice_by_hand():
    jacks = [c.id for c in parse_cards("JC JD JH JS TC TD TH TS 9C 9D QC QD 8H")]
    assert choose_contract(jacks, [1, 2, 4, 8, 16]) is A_CONTRACT[TR]
    low = [c.id for c in parse_cards("2C 3C 4C 5C 2D 3D 4D 2H 3H 4H 2S 3S 4S")]
    assert choose_contract(low, [1, 2, 4, 8]) is A_CONTRACT[TK]  # nothing can win a trick
    assert choose_contract(low, [QN, TK]) is A_CONTRACT[TK]


def test_memory_learns_voids_from_views():
    state = qn_trick()
    play(state, "9S", "QH")  # seat 2 does not follow spades
    memory = TrexMemory()
    memory.observe(state.view(3))
    assert {c for c in range(39, 52)} <= memory.cannot[2]
    assert Card.parse("QH").id in memory.played


def test_expert_bot_plays_from_its_view():
    state = qn_trick()
    bot = ExpertTrexBot(state.game)
    assert str(bot.act(state.view(1), random.Random(0))) == "9S"
