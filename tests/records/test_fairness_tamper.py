"""Tampered fair records (threat F4): a changed card, server seed, seat seed,
commitment or action makes ``verify`` fail with a message that says what is wrong;
the untampered record verifies (tests/records/test_fairness.py)."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from cardtable.core.cards import Card
from cardtable.records.fairness import FairnessError, Shuffle, actions_digest, verify
from cardtable.records.record import Record

from .fairness_util import GAMES, finished

Data = dict[str, Any]


def original(key: str) -> Data:
    data: Data = json.loads(finished(key).dumps())
    return data


def rejected(data: Data, message: str) -> None:
    record = Record.from_json(data)
    with pytest.raises(FairnessError, match=message):
        verify(record)


def other_hex(text: str, position: int) -> str:
    """``text`` with the hex digit at ``position`` changed."""
    digit = text[position]
    new = "0" if digit != "0" else "1"
    return text[:position] + new + text[position + 1:]


def other_card(text: str) -> str:
    """Another card of the same suit (a Joker becomes the A♣)."""
    card = Card.parse(text)
    if card.id >= 52:
        return str(Card.from_id(0))
    return str(Card.from_id(card.id // 13 * 13 + (card.id % 13 + 1) % 13))


def shuffles(data: Data) -> list[tuple[int, Data]]:
    return [(n, d) for n, d in enumerate(data["fairness"]["deals"], 1) if "cards" in d]


@pytest.mark.parametrize("key", list(GAMES))
def test_f4_every_changed_card_after_a_shuffle_is_caught(key):
    """Each card of the first recorded shuffle and three of every later one, changed:
    the seeds give another card there."""
    record = finished(key)
    fair = record.fairness
    assert fair is not None
    rng = random.Random(key)
    for number, deal in enumerate(fair.deals, 1):
        if not isinstance(deal, Shuffle):
            continue
        places = range(len(deal.after)) if number == 1 else rng.sample(range(len(deal.after)), min(3, len(deal.after)))
        for place in places:
            card = other_card(deal.after[place])
            after = (*deal.after[:place], card, *deal.after[place + 1:])
            deals = (*fair.deals[:number - 1], replace(deal, after=after), *fair.deals[number:])
            forged = replace(record, fairness=replace(fair, deals=deals))
            with pytest.raises(FairnessError, match=rf"deal {number} \({deal.label}\): card {place + 1} is {card} "
                                                    r"in the record, the seeds give "):
                verify(forged)


@pytest.mark.parametrize("key", list(GAMES))
def test_f4_two_swapped_cards_are_caught(key):
    data = original(key)
    deal = data["fairness"]["deals"][0]["cards"]
    j = next(i for i in range(1, len(deal)) if deal[i] != deal[0])
    deal[0], deal[j] = deal[j], deal[0]
    rejected(data, r"deal 1 \(deal:0\): card 1 is .* in the record, the seeds give")


@pytest.mark.parametrize("key", list(GAMES))
def test_f4_a_changed_card_before_a_shuffle_is_caught_by_the_replay(key):
    """The cards a shuffle starts from, changed (and the shuffle recomputed to match):
    the replayed game did not shuffle those cards."""
    from cardtable.core.chance import FairShuffler

    base = original(key)
    fair = Record.from_json(base).fairness
    assert fair is not None
    shuffler: FairShuffler = fair.shuffler()
    for number, deal in shuffles(base)[:4]:
        data = json.loads(json.dumps(base))
        entry = data["fairness"]["deals"][number - 1]
        entry["from"][0] = other_card(entry["from"][0])
        ids = [Card.parse(t).id for t in entry["from"]]
        shuffler.shuffle(ids, *entry["label"].split(":"))
        entry["cards"] = [str(Card.from_id(c)) for c in ids]
        rejected(data, rf"deal {number}: the replay makes {deal['label']} \(from .*\), the record lists")


@pytest.mark.parametrize("key", ["trash", "trex", "spit"])
def test_f4_every_changed_digit_of_the_server_seed_is_caught(key):
    base = original(key)
    for position in range(64):
        data = json.loads(json.dumps(base))
        data["fairness"]["server_seed"] = other_hex(data["fairness"]["server_seed"], position)
        rejected(data, "the server seed does not match the server's commitment")


@pytest.mark.parametrize("key", ["trash", "trex", "spit"])
def test_f4_every_changed_digit_of_the_server_commitment_is_caught(key):
    base = original(key)
    for position in range(64):
        data = json.loads(json.dumps(base))
        data["fairness"]["server_commitment"] = other_hex(data["fairness"]["server_commitment"], position)
        rejected(data, "the server seed does not match the server's commitment")


@pytest.mark.parametrize("key", list(GAMES))
def test_f4_every_changed_digit_of_a_seat_seed_is_caught(key):
    base = original(key)
    for seat in range(len(base["fairness"]["seat_seeds"])):
        for position in range(0, 64, 7):
            data = json.loads(json.dumps(base))
            data["fairness"]["seat_seeds"][seat] = other_hex(data["fairness"]["seat_seeds"][seat], position)
            rejected(data, f"seat {seat}'s seed does not match seat {seat}'s commitment")


@pytest.mark.parametrize("key", list(GAMES))
def test_f4_every_changed_digit_of_a_seat_commitment_is_caught(key):
    base = original(key)
    for seat in range(len(base["fairness"]["seat_commitments"])):
        for position in range(3, 64, 7):
            data = json.loads(json.dumps(base))
            promised = data["fairness"]["seat_commitments"]
            promised[seat] = other_hex(promised[seat], position)
            rejected(data, f"seat {seat}'s seed does not match seat {seat}'s commitment")


def test_f4_swapped_seat_seeds_with_their_commitments_change_the_deals():
    """Seeds and commitments swapped together still match, but the seeds are in seat order:
    the recorded deals no longer follow from them."""
    data = original("trex")
    fair = data["fairness"]
    for field in ("seat_seeds", "seat_commitments"):
        fair[field][0], fair[field][1] = fair[field][1], fair[field][0]
    rejected(data, r"deal 1 \(deal:0\): card \d+ is .* in the record, the seeds give")


@pytest.mark.parametrize("seed,message", [("zz" * 32, "the server seed is not 64 hex digits"),
                                          ("00" * 31, "the server seed is not 64 hex digits"),
                                          (None, "written before the game was over")])
def test_f4_a_malformed_or_missing_server_seed_is_caught(seed, message):
    data = original("spit")
    data["fairness"]["server_seed"] = seed
    rejected(data, message)


@pytest.mark.parametrize("key", list(GAMES))
def test_f4_every_changed_byte_of_an_action_is_caught(key):
    """Each byte of each action (sampled past the first 60 actions), changed."""
    record = finished(key)
    rng = random.Random(key)
    actions = list(record.actions)
    numbers = list(range(min(60, len(actions)))) + rng.sample(range(60, len(actions)), min(40, len(actions) - 60))
    for number in numbers:
        text = actions[number]
        for position in range(len(text)):
            changed = text[:position] + ("x" if text[position] != "x" else "y") + text[position + 1:]
            forged = replace(record, actions=(*actions[:number], changed, *actions[number + 1:]))
            with pytest.raises(FairnessError, match="the actions do not match the record's actions_sha256"):
                verify(forged)


def with_actions(data: Data, change: Callable[[list[str]], None]) -> Data:
    """``data`` with its actions changed and their digest recomputed, as a forger would."""
    change(data["actions"])
    data["fairness"]["actions_sha256"] = actions_digest(data["actions"])
    return data


@pytest.mark.parametrize("key", list(GAMES))
def test_f4_a_forged_illegal_action_does_not_replay(key):
    data = original(key)
    record = Record.from_json(data)
    state = record.new_state()
    for text in record.actions[:5]:
        state.play(text)
    game = state.game
    legal = set(state.legal_actions())
    illegal = next(a for a in map(game.action_from_index, range(game.num_distinct_actions)) if a not in legal)

    def change(actions: list[str]) -> None:
        actions[5] = str(illegal)

    rejected(with_actions(data, change), rf"action 6 \('{re.escape(str(illegal))}'\) does not replay: ")


@pytest.mark.parametrize("key", list(GAMES))
def test_f4_forged_missing_actions_change_the_deals_or_the_result(key):
    data = original(key)

    def change(actions: list[str]) -> None:
        del actions[-1]

    rejected(with_actions(data, change), r"the recorded result .* differs from the replay's|the replay makes \d+ deals")


def test_f4_a_forged_move_to_another_legal_one_is_caught_when_the_game_changes():
    """A legal move swapped for another (digest recomputed): the replay makes other deals
    or another result."""
    base = original("trash")
    record = Record.from_json(base)
    state = record.new_state()
    caught = 0
    for number, text in enumerate(record.actions[:-1]):
        legal = [str(a) for a in state.legal_actions()]
        others = [a for a in legal if a != text]
        state.play(text)
        if not others:
            continue
        data = json.loads(json.dumps(base))
        data["actions"][number] = others[0]
        data["fairness"]["actions_sha256"] = actions_digest(data["actions"])
        try:
            verify(Record.from_json(data))
        except FairnessError:
            caught += 1
        if caught >= 5:
            return
    raise AssertionError("no forged move was caught")


def test_f4_a_changed_result_is_caught():
    data = original("trex")
    data["result"]["returns"][0] += 5
    rejected(data, "the recorded result .* differs from the replay's")


def test_f4_a_dropped_or_added_deal_is_caught():
    data = original("trash")
    extra = json.loads(json.dumps(data))
    del data["fairness"]["deals"][-1]
    rejected(data, r"the replay makes \d+ deals, the record lists")
    extra["fairness"]["deals"].append(extra["fairness"]["deals"][0])
    rejected(extra, r"the replay makes \d+ deals, the record lists")


def test_f4_a_changed_chance_pick_is_caught():
    data = original("spit")
    fair = Record.from_json(data).fairness
    assert fair is not None
    right = fair.shuffler().below(2, "slap", 1)
    data["fairness"]["deals"].insert(1, {"label": "slap:1", "below": 2, "value": 1 - right})
    rejected(json.loads(json.dumps(data)), rf"deal 2 \(slap:1\): the record picks {1 - right}, the seeds give {right}")
    data["fairness"]["deals"][1]["value"] = right
    rejected(data, r"deal 2: the replay makes .*, the record lists slap:1 \(a pick below 2: \d\)"
                   r"|the replay makes 1 deals")


def test_f4_a_game_with_a_different_number_of_seats_is_caught():
    data = original("trash")
    data["options"] = {"players": 3}
    rejected(data, "trash here has 3 seats but the record has 2 seat commitments and 2 seat seeds")


@pytest.mark.parametrize("label", ["", "déal:0", "deal\x000"])
def test_f4_a_malformed_label_is_a_clear_failure(label):
    data = original("spit")
    data["fairness"]["deals"][0]["label"] = label
    rejected(data, "deal 1: a deal label is non-empty ASCII without NUL")


def test_f4_an_impossible_pick_is_a_clear_failure():
    data = original("spit")
    data["fairness"]["deals"].append({"label": "slap:1", "below": 2**40, "value": 0})
    rejected(data, r"a pick below 1099511627776 is impossible")
