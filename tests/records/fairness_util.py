"""Finished fair games for the fairness tests (records/fairness.py)."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import cardtable
from cardtable.core.chance import commitment
from cardtable.records.fairness import FairDeal
from cardtable.records.record import Record

from ..walk import walked

GAMES: dict[str, tuple[str, dict[str, Any]]] = {
    "trash": ("trash", {}),
    "trash-3-decks-jokers": ("trash", {"players": 5, "decks": 3, "jokers": True}),
    "trex": ("trex", {}),
    "spit": ("spit", {}),
    "spit-fresh-deals": ("spit", {"scoring": "points", "points_round_mode": "fresh_deal"}),
}


def person_seed(seat: int) -> bytes:
    """What a person's page would make (fixed here so the tests repeat)."""
    return bytes([0x40 + seat]) * 32


@cache
def finished(key: str, people: int = 255, play_seed: int = 5) -> Record:
    """A fair game played to its end by random moves: seats below ``people`` are
    persons (commit, then reveal, seeds fixed so that the tests repeat), the others bots."""
    name, options = GAMES[key]
    game = cardtable.load(name, **options)
    fair = FairDeal(game.num_players, bytes(range(32)))
    for seat in range(game.num_players):
        if seat < people:
            fair.add_seat_commitment(seat, commitment(person_seed(seat)).hex())
        else:
            fair.add_bot_seat(seat)
    for seat in range(min(people, game.num_players)):
        fair.reveal_seat(seat, person_seed(seat).hex())
    state = fair.new_state(game)
    walked(state, random.Random(play_seed))
    return fair.record(state)
