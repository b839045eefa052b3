"""Game records: versioned JSON that replays to the identical state."""

from __future__ import annotations

import json

import pytest

import cardtable
from cardtable.core.errors import ParseError
from cardtable.records import Record, record_of

from ..trash.util import random_state, stacked_deck


@pytest.mark.parametrize("options", [{}, {"preset": "d2_kings"}, {"players": 3, "jokers": True, "loser_reveal": True}])
def test_record_round_trip_replays_identically(options, tmp_path):
    state = random_state(11, 100_000, **options)
    record = record_of(state)
    path = tmp_path / "g.json"
    record.save(path)
    loaded = Record.load(path)
    assert loaded == record
    again = loaded.replay()
    assert str(again) == str(state) and again.outcome() == state.outcome()
    data = json.loads(path.read_text())
    assert data["format"] == "cardtable-record" and data["version"] == 1
    assert data["result"]["winners"] == list(state.outcome().winners)


def test_record_of_a_stacked_deck():
    game = cardtable.load("trash")
    deck = stacked_deck(game, ["5C KD 9S JH 2D 6C AS 8H 3C QS"], "3H")
    state = game.new_state(deck=deck)
    state.play("stock")
    record = record_of(state)
    assert record.deck is not None and record.seed is None
    assert str(Record.loads(record.dumps()).replay()) == str(state)


def test_record_keeps_only_changed_options():
    state = random_state(1, 5, preset="d2_kings", max_hands=2)
    record = record_of(state)
    assert record.preset == "d2_kings" and record.options == {"max_hands": 2}


@pytest.mark.parametrize(
    "text",
    [
        "[]",
        '{"format": "cardtable-record", "version": 2}',
        '{"format": "cardtable-record", "version": 1, "game": "trash", "actions": []}',
        '{"format": "cardtable-record", "version": 1, "game": "trash", "seed": 1, "actions": [3]}',
    ],
)
def test_bad_records_are_parse_errors(text):
    with pytest.raises(ParseError):
        Record.loads(text)


def test_an_illegal_action_in_a_record_names_its_position():
    record = Record(game="trash", seed=1, actions=("stock", "decline"))
    with pytest.raises(ParseError, match="action 2"):
        record.replay()


@pytest.mark.parametrize("seed", ["true", "false"])
def test_a_true_or_false_seed_is_refused_not_read_as_1_or_0(seed):
    text = f'{{"format": "cardtable-record", "version": 1, "game": "trash", "seed": {seed}, "actions": []}}'
    with pytest.raises(ParseError, match='"seed" is a whole number, not true or false'):
        Record.loads(text)
    assert Record.loads(text.replace(seed, "1")).seed == 1
