"""docs/rules/trex.md §2.1: players, cards, structure (TX-1 … TX-11)."""

from __future__ import annotations

import random

import pytest

import cardtable
from cardtable.core.errors import ConfigError
from cardtable.games.trex import Phase, TrexGame

from .conftest import SUITS_DEAL, deck_from_hands, keep_all, new, no_doubles, random_game, start, texts


def test_tx1_exactly_four_players_each_alone() -> None:
    game = cardtable.load("trex")
    assert game.num_players == 4
    state = new(SUITS_DEAL)
    assert state.view(0).num_players == 4 and state.view(0).team_totals is None


def test_tx1_trix_alias_loads_trex() -> None:
    assert isinstance(cardtable.load("trix"), TrexGame)
    assert cardtable.load("TRIX").name == "trex"


def test_tx2_play_goes_to_next_seat_counter_clockwise() -> None:
    state = start(new(SUITS_DEAL), "TK")
    assert state.current_player() == 2  # the holder leads (TX-20)
    state.play("2H")
    assert state.current_player() == 3  # next(2), the player to the right
    state.play("2S")
    assert state.current_player() == 0


def test_tx3_ace_is_high_and_there_are_no_trumps() -> None:
    deck = deck_from_hands("7H KS 2C", "AS 3C", "2S 4C", "3S 5C")
    state = start(new(deck, redeal_requests=False), "TK")
    state.play("KS")  # seat 0 leads
    state.play("AS")
    state.play("2S")
    state.play("3S")
    assert state.tricks_taken == [0, 1, 0, 0]


def test_tx3_off_suit_card_never_wins() -> None:
    deck = deck_from_hands("7H 2S", "AH AD", "3S", "4S")
    state = start(new(deck, redeal_requests=False), "TK")
    assert not [c for c in state.hand(1) if c // 13 == 3]  # seat 1 is void in spades
    state.play("2S")
    state.play("AD")  # a discard
    state.play("3S")
    state.play("4S")
    assert state.tricks_taken == [0, 0, 0, 1]


def test_tx4_thirteen_cards_each_and_stacked_deck_order() -> None:
    state = new(list(range(52)))
    for seat in range(4):
        assert state.hand(seat) == list(range(13 * seat, 13 * seat + 13))  # §0.5
    assert sorted(state.all_cards()) == list(range(52))


def test_tx4_stacked_deck_must_be_exactly_52_cards() -> None:
    game = cardtable.load("trex")
    with pytest.raises(ConfigError):
        game.new_state(seed=1, deck=list(range(51)))
    with pytest.raises(ConfigError):
        game.new_state(seed=1, deck=[*range(51), 0])


def test_tx4_only_the_first_deal_is_stacked() -> None:
    state = start(new(SUITS_DEAL), "TK")
    for _ in range(13 * 4):
        state.apply(state.legal_actions()[0])
    assert state.deal_index == 1
    assert [len(set(c // 13 for c in state.hand(p))) for p in range(4)] != [1, 1, 1, 1]


def test_tx5_i3_twenty_deals_and_redeals_do_not_count() -> None:
    game = cardtable.load("trex")
    state = random_game(game.new_state(seed=3), random.Random(3))
    assert game.num_deals == 20 and len(state.records) == 20  # type: ignore[attr-defined]
    assert [r[0] for r in state.records] == list(range(1, 21))
    # redeals use extra shuffles but no deal numbers
    assert state.shuffles >= 20


def test_tx5_a_redeal_does_not_advance_the_deal_counter() -> None:
    deck = deck_from_hands("7H", "KH 2C")  # seat 1's only heart is K♥: a KH trigger
    state = new(deck)
    state.play("keep")  # seat 0 (holder) first
    assert "redeal" in texts(state.legal_actions())
    state.play("redeal")
    assert state.deal_index == 0 and state.view(0).deal_number == 1
    assert state.holder == 0  # TX-13: the same holder


def test_tx6_seven_of_hearts_names_the_first_holder_who_chooses_this_deal() -> None:
    state = new(SUITS_DEAL)  # 7♥ is with seat 2
    assert state.holder == 2
    keep_all(state)
    assert state.phase is Phase.CHOOSE and state.current_player() == 2
    assert state.view(0).deal_number == 1


@pytest.mark.parametrize("first_dealer", [0, 3])
def test_tx6_first_dealer_option(first_dealer: int) -> None:
    state = new(SUITS_DEAL, first_dealer=first_dealer)
    assert state.dealer == first_dealer
    with pytest.raises(ConfigError):
        cardtable.load("trex", first_dealer=4)


def _play_deal(state: object) -> None:
    from cardtable.games.trex import TrexState

    assert isinstance(state, TrexState)
    index = state.deal_index
    while state.deal_index == index and not state.is_terminal():
        state.apply(state.legal_actions()[0])


def test_tx7_dealer_holder_deals_the_rest_of_the_kingdom() -> None:
    state = new(SUITS_DEAL, first_dealer=0)
    assert state.dealer == 0
    _play_deal(state)
    assert state.dealer == state.holder == 2


def test_tx7_dealer_rotating_passes_right_every_deal() -> None:
    state = new(SUITS_DEAL, first_dealer=0, dealer="rotating")
    dealers = [state.dealer]
    for _ in range(5):
        _play_deal(state)
        dealers.append(state.dealer)
    assert dealers == [0, 1, 2, 3, 0, 1]


def test_tx8_kingdoms_rotate_counter_clockwise_from_the_first_holder() -> None:
    state = new(SUITS_DEAL)  # 7♥ to seat 2: kingdoms 2, 3, 0, 1
    holders = []
    while not state.is_terminal():
        if state.deal_in_kingdom == 0 and (not holders or holders[-1] != state.holder):
            holders.append(state.holder)
        state.apply(state.legal_actions()[0])
    assert holders == [2, 3, 0, 1]
    assert [r[2] for r in state.records] == [2] * 5 + [3] * 5 + [0] * 5 + [1] * 5


def test_tx9_each_contract_once_per_kingdom_and_the_fifth_is_forced() -> None:
    state = new(SUITS_DEAL)
    keep_all(state)
    assert texts(state.legal_actions()) == ["contract KH", "contract QN", "contract DI", "contract TK", "contract TR"]
    state.play("contract QN")
    no_doubles(state)
    _play_deal(state)
    keep_all(state)
    assert "contract QN" not in texts(state.legal_actions())
    for code in ("KH", "DI", "TK"):
        state.play(f"contract {code}")
        keep_all(state)
        no_doubles(state)
        _play_deal(state)
        keep_all(state)
    # the fifth deal's choice is forced and made by the engine
    assert state.contract == 16 and state.phase is Phase.TREX
    assert [r[3] for r in state.records] == [2, 1, 4, 8]


def test_tx9_an_unused_contract_only() -> None:
    state = new(SUITS_DEAL)
    keep_all(state)
    state.play("contract DI")
    _play_deal(state)
    keep_all(state)
    from cardtable.core.errors import IllegalActionError

    with pytest.raises(IllegalActionError):
        state.play("contract DI")


@pytest.mark.parametrize(("code", "total"), [("KH", -75), ("QN", -100), ("DI", -130), ("TK", -195), ("TR", 500)])
def test_tx10_contract_deal_totals(code: str, total: int) -> None:
    state = start(new(SUITS_DEAL), code)
    no_doubles(state)
    _play_deal(state)
    assert sum(state.records[0][4]) == total


def test_tx11_sequence_deal_requests_announcement_doubling_play() -> None:
    state = new(SUITS_DEAL)
    assert state.phase is Phase.REDEAL
    keep_all(state)
    assert state.phase is Phase.CHOOSE
    state.play("contract KH")
    assert state.phase is Phase.DOUBLE
    no_doubles(state)
    assert state.phase is Phase.TRICK
    _play_deal(state)
    assert state.records[0][3] == 1 and state.phase is Phase.REDEAL  # scored, next deal dealt


def test_tx11_redeal_timing_after_announcement_puts_requests_after_the_choice() -> None:
    state = new(SUITS_DEAL, redeal_timing="after_announcement")
    assert state.phase is Phase.CHOOSE
    state.play("contract KH")
    assert state.phase is Phase.REDEAL
    keep_all(state)
    assert state.phase is Phase.DOUBLE
