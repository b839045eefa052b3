"""The strong Trex policy and the sparring partners, on literal positions (docs/rules/index.md §0.5 decks)."""

from __future__ import annotations

import random

import cardtable
from cardtable.bots import make_bot
from cardtable.bots.trex_strong import StrongTrexBot, choose_contract, double_guarded_or_long, strong_policy
from cardtable.core.cards import Card, parse_cards
from cardtable.games.trex.actions import A_CONTRACT, A_DONE, A_DOUBLE, KH, TK, TR
from cardtable.host.match import play_out
from tests.bots.test_trex_expert import KH_DEAL, qn_trick
from tests.trex.conftest import deck_from_hands, no_doubles, play, start


def card(action) -> str:
    return str(Card.from_id(action.arg))


def ids(text: str) -> list[int]:
    return [c.id for c in parse_cards(text)]


def test_tx22_strong_ducks_under_the_winning_card():
    state = qn_trick()  # seat 0 led the 10♠; seat 1 holds 9♠ J♠ K♠ 2♠
    assert card(strong_policy(state)) == "9S"


def test_tx27_strong_unloads_a_queen_when_void():
    state = qn_trick()
    play(state, "9S")
    assert card(strong_policy(state)) in ("QH", "QD")


def test_tx26_strong_drops_the_king_of_hearts_under_the_ace():
    state = cardtable.load("trex", hearts_lead_rule="free").new_state(deck=KH_DEAL)
    start(state, "KH")
    no_doubles(state)
    play(state, "AH", "8H")
    assert card(strong_policy(state)) == "KH"


def test_tx22_strong_does_not_lead_a_suit_nobody_else_can_follow():
    """TX-22: a seat follows only while it holds the suit. After three spade tricks no spade is
    out, so every other seat is void in spades, shown or not: the J♠ led would take the trick
    and whatever the other three unload on it, the K♥ among them (TX-26)."""
    deck = deck_from_hands("TS 9S 8S KH", "7S 6S 5S", "AS KS QS JS 7H 2C 3C 4C 5C 6C 7C 8C 9C", "4S 3S 2S")
    state = cardtable.load("trex").new_state(deck=deck)
    start(state, "KH")
    no_doubles(state)
    bot = StrongTrexBot()
    for played in ["AS", "2S", "TS", "5S", "KS", "3S", "9S", "6S", "QS", "4S", "8S", "7S"]:
        bot.observe(state.view(2))  # the seat sees every card played
        play(state, played)
    assert state.to_move == 2 and "JS" in [card(a) for a in state.legal_actions()]
    no_voids_shown: list[set[int]] = [set(), set(), set(), set()]  # every seat has followed suit so far
    assert card(strong_policy(state, no_voids_shown)) == "2C"
    assert card(bot.act(state.view(2), random.Random(1))) == "2C"


def test_tx22_strong_last_to_play_ducks_as_high_as_it_can():
    state = qn_trick()
    play(state, "9S", "QH")
    # seat 3 holds 3♠…8♠ Q♠ A♠ under a 10♠ holding the Q♥: the 8♠ keeps the trick away
    assert card(strong_policy(state)) == "8S"


def test_tx32_strong_opens_the_jack_that_frees_its_own_cards():
    deck = deck_from_hands("7H JC TC QC JD 2S 3S 4S 5S 6S 7S 8S 9S")
    state = cardtable.load("trex").new_state(deck=deck)
    start(state, "TR")
    assert card(strong_policy(state)) == "JC"


def test_tx9_strong_contract_choice_by_hand_shape():
    assert choose_contract(ids("JC JD JH JS TC TD TH TS 9C 9D QC QD 8H"), [1, 2, 4, 8, 16]) is A_CONTRACT[TR]
    low = ids("2C 3C 4C 5C 2D 3D 4D 2H 3H 4H 2S 3S 4S")
    assert choose_contract(low, [1, 2, 4, 8]) is A_CONTRACT[TK]


def test_tx15_strong_doubles_a_guarded_king_of_hearts_only():
    guarded = ids("KH 2H 3H 4H 5H 2C 3C 4C 5C 2D 3D 4D 5D")
    king = Card.parse("KH").id
    assert double_guarded_or_long(guarded, [A_DOUBLE[king], A_DONE], KH) is A_DOUBLE[king]
    bare = ids("KH 2H AC KC QC 2C 3C 4C 5C 2D 3D 4D 5D")
    assert double_guarded_or_long(bare, [A_DOUBLE[king], A_DONE], KH) is A_DONE


def test_strong_bot_plays_from_its_view():
    state = qn_trick()
    assert str(StrongTrexBot(state.game).act(state.view(1), random.Random(0))) == "9S"


def test_tx37_sparring_partners_play_whole_legal_games_from_json():
    game = cardtable.load("trex")
    bots = [make_bot("trex", n) for n in ("spar-counter", "spar-bold", "strong", "hard")]
    state = play_out(game, bots, seed=5, bot_seed=1)
    assert state.outcome() is not None
    assert len(state.records) == 20  # type: ignore[attr-defined]


class JsonOnly:
    """A view that offers nothing but its JSON and its legal actions."""

    def __init__(self, view) -> None:
        self._json = view.to_json()
        self.legal_actions = view.legal_actions

    def to_json(self):
        return self._json


def test_sparring_partners_decide_from_the_json_view_only():
    state = qn_trick()
    for name in ("spar-counter", "spar-bold"):
        bot = make_bot("trex", name)
        action = bot.act(JsonOnly(state.view(1)), random.Random(0))
        assert action in state.legal_actions()
        assert str(action) == "9S"  # both duck under the ten


def test_roles_keep_their_trex_bots():
    from cardtable.bots.roles import DEFAULT_BOTS, HINT_BOTS, STAND_IN_BOTS, pick_bot

    assert pick_bot("trex", HINT_BOTS) == "hard" and pick_bot("trex", DEFAULT_BOTS) == "hard"
    assert pick_bot("trex", STAND_IN_BOTS) == "medium"
    assert isinstance(make_bot("trex", "hard"), StrongTrexBot)
