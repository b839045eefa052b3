"""docs/rules/trex.md §2.2: redeal requests (TX-13, TX-14, TX-V3, TX-A11, TX-A12)."""

from __future__ import annotations

import pytest

from cardtable.core.cards import Card
from cardtable.core.errors import IllegalActionError
from cardtable.games.trex import Phase
from cardtable.games.trex.state import kh_trigger, tr_trigger

from .conftest import SUITS_DEAL, deck_from_hands, keep_all, new, no_doubles, texts


def ids(text: str) -> list[int]:
    return [Card.parse(t).id for t in text.split()]


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("KH 2C 3C", True),  # only K♥
        ("AH 2C 3C", True),  # only A♥
        ("AH KH 2C", True),  # exactly A♥ K♥
        ("KH 2H 3H 4H 5H", True),  # five hearts with K♥
        ("AH 2H 3H 4H 5H", False),  # five hearts without K♥
        ("KH QH 2C", False),
        ("KH 2H 3H 4H", False),  # four hearts with K♥
        ("2C 3C", False),  # no hearts
    ],
)
def test_tx13_kh_trigger(hand: str, expected: bool) -> None:
    assert kh_trigger(ids(hand)) is expected


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("2C 2D 2H 2S", True),
        ("2C 2D 2H 3S", True),  # TX-A12: three 2s and the 3 of the missing suit
        ("2C 2D 2H 3C", False),  # a 3 of another suit
        ("2C 2D 3H 3S", False),
        ("2C 2D 2H", False),
    ],
)
def test_tx13_tr_trigger_three_twos_and_the_missing_suits_three(hand: str, expected: bool) -> None:
    assert tr_trigger(ids(hand)) is expected


KH_TRIGGER_DEAL = deck_from_hands("7H", "KH 2C")  # seat 1's only heart is K♥


def test_tx13_requests_in_play_order_from_the_holder() -> None:
    state = new(KH_TRIGGER_DEAL)
    assert state.phase is Phase.REDEAL
    seen = []
    while state.phase is Phase.REDEAL:
        seen.append(state.current_player())
        state.play("keep")
    assert seen == [0, 1, 2, 3]


def test_tx13_redeal_shows_the_hand_and_the_same_holder_redeals() -> None:
    state = new(KH_TRIGGER_DEAL)
    shown = state.hand(1)
    state.play("keep")
    state.play("redeal")
    view = state.view(3)
    assert view.redeal_shown == ((1, tuple(Card.from_id(c) for c in shown)),)
    assert state.holder == 0 and state.dealer == 0
    assert state.hand(1) != shown
    assert state.records == [] and state.deal_index == 0
    assert any(e.kind == "redeal" and e.seat == 1 for e in view.events)


def test_tx13_without_a_trigger_only_keep() -> None:
    state = new(SUITS_DEAL)
    state.play("keep")  # seat 2, the holder (13 hearts with K♥: a trigger)
    assert texts(state.legal_actions()) == ["keep"]  # seat 3: spades only
    with pytest.raises(IllegalActionError):
        state.play("redeal")


def test_tx13_five_hearts_with_the_king_is_a_trigger_for_the_holder() -> None:
    state = new(SUITS_DEAL)
    assert texts(state.legal_actions()) == ["redeal", "keep"]


def test_tx13_redeal_timing_before_choice_cancels_nothing_and_chooses_after() -> None:
    state = new(KH_TRIGGER_DEAL, redeal_timing="before_choice")
    state.play("keep")
    state.play("redeal")
    assert state.contract == 0
    keep_all(state)
    assert state.phase is Phase.CHOOSE


def test_tx13_redeal_timing_after_announcement_cancels_the_announcement() -> None:
    state = new(KH_TRIGGER_DEAL, redeal_timing="after_announcement")
    state.play("contract KH")
    assert state.phase is Phase.REDEAL
    state.play("keep")
    state.play("redeal")
    assert state.contract == 0 and state.phase is Phase.CHOOSE
    assert "contract KH" in texts(state.legal_actions())  # possibly the same one


def test_tx13_redeal_timing_after_announcement_only_the_announced_contracts_triggers() -> None:
    state = new(KH_TRIGGER_DEAL, redeal_timing="after_announcement")
    state.play("contract DI")  # no trigger protects Diamonds: no request round
    assert state.phase is Phase.TRICK


def test_tx13_trigger_counts_only_while_its_contract_is_unplayed_in_the_kingdom() -> None:
    state = new(SUITS_DEAL)
    keep_all(state)
    state.play("contract KH")
    no_doubles(state)
    while state.deal_index == 0:
        state.apply(state.legal_actions()[0])
    # after KH is played, the K♥ clause no longer counts; TR still unplayed, so the round happens
    assert state.relevant == (False, True)


def test_tx13_no_limit_on_redeals() -> None:
    state = new(KH_TRIGGER_DEAL)
    count = 0
    while count < 5:
        if state.phase is Phase.REDEAL and "redeal" in texts(state.legal_actions()):
            state.play("redeal")
            count += 1
        elif state.phase is Phase.REDEAL:
            state.play("keep")
        else:  # nobody eligible this time: new game with another seed
            state = new(KH_TRIGGER_DEAL, seed=count + 100)
    assert state.deal_index == 0


@pytest.mark.parametrize("value", [False, "trex_only", "kh_only"])
def test_tx13_redeal_requests_option_values(value: object) -> None:
    state = new(KH_TRIGGER_DEAL, redeal_requests=value)
    if value is False:
        assert state.phase is Phase.CHOOSE
    elif value == "trex_only":  # TX-V3: only the twos clause; seat 1's K♥ does not count
        assert state.relevant == (False, True)
        state.play("keep")
        assert texts(state.legal_actions()) == ["keep"]
    else:
        assert state.relevant == (True, False)
        state.play("keep")
        assert texts(state.legal_actions()) == ["redeal", "keep"]


def test_tx_v3_exposed_twos_is_the_tr_redeal_trigger() -> None:
    deck = deck_from_hands("7H", "2C 2D 2H 3S")
    state = new(deck, redeal_requests="trex_only")
    state.play("keep")
    assert texts(state.legal_actions()) == ["redeal", "keep"]


def test_tx14_no_other_redeal() -> None:
    state = new(SUITS_DEAL, redeal_requests=False)
    assert state.phase is Phase.CHOOSE
    assert not any(str(a) == "redeal" for a in state.legal_actions())
