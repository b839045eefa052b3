"""docs/rules/trex.md §2.5: the Trex contract (TX-31 … TX-36)."""

from __future__ import annotations

import random

import pytest

from cardtable.core.errors import ConfigError, IllegalActionError
from cardtable.games.trex import Phase, TrexState

from .conftest import SUITS_DEAL, deck_from_hands, load, new, start, texts

# Seat 0 holds 7♥ and all four Jacks; seat 1 can never follow a J♣ opening.
PASS_DEAL = deck_from_hands(
    "7H JC JD JH JS 2C 3C 4C 5C 6C 7C 8C 9C",
    "2D 3D 4D 5D 6D 7D 8D 9D 2H 3H 4H 5H 6H",
    "TC QC KC AC TD QD KD AD 8H 9H TH QH KH",
    "AH 2S 3S 4S 5S 6S 7S 8S 9S TS QS KS AS",
)


def trex(deck: list[int], **options: object) -> TrexState:
    state = start(new(deck, **options), "TR")
    assert state.phase is Phase.TREX
    return state


def test_tx31_the_kingdom_holder_plays_first() -> None:
    state = trex(SUITS_DEAL)
    assert state.current_player() == 2 and texts(state.legal_actions()) == ["JH"]


def test_tx31_first_leader_eldest_starts_trex() -> None:
    state = trex(SUITS_DEAL, first_dealer=0, first_leader="eldest")
    assert state.current_player() == 1


def test_tx32_any_jack_opens_its_row() -> None:
    state = trex(PASS_DEAL)
    assert texts(state.legal_actions()) == ["JC", "JD", "JH", "JS"]


def test_tx32_build_one_rank_above_the_top_or_below_the_bottom() -> None:
    state = trex(SUITS_DEAL)
    for card in ("JH", "JS", "JC", "JD"):
        state.play(card)
    assert texts(state.legal_actions()) == ["TH", "QH"]
    state.play("QH")
    assert state.view(0).layout[2] == (11, 12)
    for card in ("TS", "TC", "TD"):
        state.play(card)
    assert texts(state.legal_actions()) == ["TH", "KH"]
    with pytest.raises(IllegalActionError):
        state.play("9H")


def test_tx32_no_wrap_around() -> None:
    state = trex(SUITS_DEAL)
    # seat 2 plays J♥ Q♥ K♥ A♥, the others keep pace in their own suits
    moves = {2: ["JH", "QH", "KH", "AH"], 3: ["JS", "QS", "KS", "AS"], 0: ["JC", "QC", "KC", "AC"],
             1: ["JD", "QD", "KD", "AD"]}
    for i in range(4):
        for seat in (2, 3, 0, 1):
            assert state.current_player() == seat
            state.play(moves[seat][i])
    assert state.view(0).layout[2] == (11, 14)
    assert texts(state.legal_actions()) == ["TH"]  # no 2 above the Ace


def test_tx33_a_player_without_a_legal_play_passes_automatically() -> None:
    state = trex(PASS_DEAL)
    state.play("JC")
    assert state.current_player() == 2  # seat 1 had nothing and passed
    events = state.view(3).events
    assert [(e.kind, e.seat) for e in events] == [("open", 0), ("pass", 1)]
    assert events[1].text == "seat 1 cannot play and passes"


def test_tx33_must_play_when_able_no_pass_action() -> None:
    state = trex(PASS_DEAL)
    with pytest.raises(Exception):  # noqa: B017  (no pass action exists at all)
        state.play("pass")


def test_tx34_finishing_order_and_the_last_player_placed_at_once() -> None:
    state = trex(SUITS_DEAL)
    while state.deal_index == 0:
        state.apply(state.legal_actions()[0])
    kinds = [(e[0], e[1], e[3]) for e in state.events if e[0] == "out"]
    assert kinds == [("out", 0, 2), ("out", 1, 3)]  # seat 1 placed 4th with a card left
    assert state.records[0][4] == (100, 50, 200, 150)


def test_tx35_trex_payouts_option() -> None:
    state = trex(SUITS_DEAL, trex_payouts=(300, 100, 75, 25))
    while state.deal_index == 0:
        state.apply(state.legal_actions()[0])
    assert state.records[0][4] == (75, 25, 300, 100)
    with pytest.raises(ConfigError):
        load(trex_payouts=(200, 150, 100))


def test_tx36_no_deadlock_somebody_can_always_play() -> None:
    rng = random.Random(7)
    for seed in range(30):
        state = trex(PASS_DEAL if seed == 0 else list(rng.sample(range(52), 52)))
        while state.phase is Phase.TREX:
            legal = state.legal_actions()
            assert legal
            state.apply(legal[rng.randrange(len(legal))])
        assert sum(state.records[0][4]) == 500
