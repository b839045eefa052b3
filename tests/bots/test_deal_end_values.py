"""The search bots judge a move that ends a hand or deal by that hand or deal.

The Trash search (``search-all``, ``search_draw``) and the Trex search value each candidate by
playing it on a copy of a sampled world and rolling out the rest of the hand or deal; when the
candidate itself ends it, the value is its result, not the next hand's."""

from __future__ import annotations

import random

import pytest

from cardtable.bots import make_bot
from cardtable.bots.base import Budget
from cardtable.bots.trash import action_value as trash_value
from cardtable.bots.trex_pimc import SearchTrexBot
from cardtable.bots.trex_search import action_value as trex_value
from tests.review.positions import trash_discard_wins_the_hand, trex_king_of_hearts_falls


def test_trash_search_all_tr11_takes_the_discard_that_wins_the_hand():
    for options in ({}, {"max_hands": 1}):
        state = trash_discard_wins_the_hand(**options)
        legal = state.legal_actions()
        assert trash_value(state, legal[1], 0, random.Random(1)) == 1.0  # discard: the hand is won
        bot = make_bot("trash", "search-all")
        assert str(bot.act(state.view(0), random.Random(3), Budget(iterations=16))) == "discard"


def test_trex_search_tx25_the_card_that_takes_the_king_is_judged_by_this_deal():
    state, _ = trex_king_of_hearts_falls()
    ace, five = state.legal_actions()
    assert trex_value(state, ace, 3) == -75.0 and trex_value(state, five, 3) == 0.0
    assert state.deal_index == 0 and not state.stop_at_deal_end  # the state searched is left as it was
    bot = SearchTrexBot(iterations=8)
    assert str(bot.act(state.view(3), random.Random(3), Budget(iterations=8))) == "5S"


@pytest.mark.parametrize("name", ["search", "expert", "spar-search"])
def test_trex_pimc_bots_tx25_do_not_take_the_king_with_the_card_that_ends_the_deal(name):
    """Every PIMC bot (uniform or read worlds, the strong or the card-sense rollout policy)
    values the candidate that takes the K♥ and ends the deal by this deal's −75, in worlds
    that are rolled out (four cards or more in a hand, before the exact endgame)."""
    state, _ = trex_king_of_hearts_falls()
    assert max(state.count) > 3
    bot = make_bot("trex", name)
    bot.attach(state.game)
    for seed in range(3):
        assert str(bot.act(state.view(3), random.Random(seed), Budget(iterations=8))) == "5S"
