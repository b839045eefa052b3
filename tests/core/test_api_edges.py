"""Small API edges of the core (docs/rules/index.md §0.5 stacked decks, the game API)."""

from __future__ import annotations

import json

import pytest

import cardtable
from cardtable.core.seats import CHANCE, SIMULTANEOUS, TERMINAL, Special


def test_s05_stacked_deck_error_names_missing_and_duplicated_cards() -> None:
    with pytest.raises(cardtable.ConfigError) as err:
        cardtable.load("trash").new_state(deck=["AS"] * 52)
    text = str(err.value)
    assert "(52 cards); got 52" in text
    assert "missing AC, 2C," in text and "KS" in text
    assert "too many AS ×51" in text
    assert "missing AS" not in text


def test_s05_stacked_deck_error_for_one_card_swapped() -> None:
    deck = [str(cardtable.Card.from_id(i)) for i in range(52)]
    deck[0] = "KS"  # AC replaced by a second KS
    with pytest.raises(cardtable.ConfigError, match=r"got 52: missing AC; too many KS$"):
        cardtable.load("trex").new_state(deck=deck)


@pytest.mark.parametrize("name", ["trash", "trex", "spit"])
@pytest.mark.parametrize("bad", [None, 3, 1.5, ("stock",)])
def test_play_of_a_non_action_is_illegal_and_changes_nothing(name: str, bad: object) -> None:
    state = cardtable.load(name).new_state(seed=3)
    before = str(state)
    with pytest.raises(cardtable.IllegalActionError):
        state.play(bad)  # type: ignore[arg-type]
    assert str(state) == before and state.history == []


def test_special_players_are_named_and_compare_as_ints() -> None:
    assert (CHANCE, SIMULTANEOUS, TERMINAL) == (-1, -2, -3)
    assert [str(v) for v in (CHANCE, SIMULTANEOUS, TERMINAL)] == ["CHANCE", "SIMULTANEOUS", "TERMINAL"]
    assert isinstance(TERMINAL, Special)
    assert f"{TERMINAL}" == "TERMINAL" and repr(SIMULTANEOUS) == "SIMULTANEOUS"
    assert isinstance(TERMINAL, int) and TERMINAL < 0
    assert json.dumps([TERMINAL]) == "[-3]"


def test_views_encode_special_players_as_numbers() -> None:
    state = cardtable.load("spit").new_state(seed=1)
    assert state.view(0).to_json()["current_player"] == -2
    assert json.loads(json.dumps(state.view(0).to_json()))["current_player"] == -2


def test_tr5_trash_state_prints_layouts_stock_and_discard() -> None:
    state = cardtable.load("trash").new_state(seed=1)
    text = str(state)
    assert text.splitlines()[0] == "hand 1, sizes [10, 10], turn 0, phase draw"
    assert text.splitlines()[1].startswith("seat 0: 1:[")
    assert "stock (top first): " in text
