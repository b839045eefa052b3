"""Creating events and entering them (T6): the settings are checked field by field with a clear
error and nothing stored; per-account and per-address limits; people register and unregister
until the start, within the entry limit."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardtable.server.events.service import MAX_OPEN_PER_ACCOUNT, Events
from cardtable.server.events.store import SqliteEvents
from cardtable.server.lobby import LobbyError
from cardtable.server.players.accounts import Account

NOW = 1_800_000_000.0
ANA = Account(1, "person", "Ana")
BEN = Account(2, "person", "Ben")
BOT = Account(3, "bot", "hard")


@pytest.fixture
def events(tmp_path: Path) -> Iterator[Events]:
    store = SqliteEvents(tmp_path / "log.sqlite3")
    yield Events(store, clock=lambda: NOW)
    store.close()


SPIT = {"name": "Friday Spit", "kind": "swiss", "game": "spit", "rounds": 3, "max_entrants": 8, "when_full": True}


def refused(events: Events, data: object, code: str) -> None:
    before = len(events.store.events())
    with pytest.raises(LobbyError) as err:
        asyncio.run(events.create(ANA, data, "10.0.0.1"))
    assert err.value.code == code and err.value.status == 400
    assert len(events.store.events()) == before  # nothing stored


def test_t6_a_swiss_event_and_a_duplicate_event_are_created(events: Events):
    row = asyncio.run(events.create(ANA, SPIT, "10.0.0.1"))
    assert (row.kind, row.game, row.rounds, row.max_entrants, row.status, row.creator_name) == (
        "swiss", "spit", 3, 8, "open", "Ana")
    assert events.store.event(row.id) == row
    dup = asyncio.run(events.create(ANA, {"name": "Duplicate night", "kind": "duplicate", "game": "trex",
                                          "preset": "complex", "starts_at": NOW + 3600, "when_full": False},
                                    "10.0.0.1"))
    assert dup.deals == 8 and dup.options == {"complex_mode": True, "redeal_requests": False, "tiebreak": False}
    assert dup.starts_at == NOW + 3600 and not dup.when_full
    assert "secret" not in str(events.listing())
    assert sorted(e["name"] for e in events.listing()) == ["Duplicate night", "Friday Spit"]


@pytest.mark.parametrize(("change", "code"), [
    ({"name": " "}, "bad_name"),
    ({"kind": "knockout"}, "bad_kind"),
    ({"game": "chess"}, "bad_options"),
    ({"game": "trex"}, "bad_game"),  # four players: not Swiss
    ({"kind": "duplicate", "game": "trex", "preset": "partnership"}, "bad_game"),
    ({"kind": "duplicate", "game": "spit"}, "bad_game"),
    ({"options": {"points": "lots"}}, "bad_options"),
    ({"options": []}, "bad_options"),
    ({"rounds": 0}, "bad_rounds"),
    ({"rounds": 12}, "bad_rounds"),
    ({"rounds": True}, "bad_rounds"),
    ({"max_entrants": 1}, "bad_max_entrants"),
    ({"max_entrants": 65}, "bad_max_entrants"),
    ({"starts_at": NOW - 61}, "bad_starts_at"),
    ({"starts_at": NOW + 8 * 86400}, "bad_starts_at"),
    ({"starts_at": "soon"}, "bad_starts_at"),
    ({"when_full": False}, "bad_starts_at"),  # neither a time nor when full
    ({"rated": "yes"}, "bad_rated"),
    ({"owner": "me"}, "bad_request"),
])
def test_t6_bad_settings_get_a_clear_error_and_store_nothing(events: Events, change: dict[str, object], code: str):
    refused(events, {**SPIT, **change}, code)


def test_t6_bad_bodies(events: Events):
    refused(events, [], "bad_json")
    refused(events, {**SPIT, "game": 3}, "bad_game")


def test_t6_limits_per_account_and_per_address(events: Events):
    for i in range(MAX_OPEN_PER_ACCOUNT):
        asyncio.run(events.create(ANA, SPIT, f"10.0.0.{i}"))
    with pytest.raises(LobbyError) as err:
        asyncio.run(events.create(ANA, SPIT, "10.0.0.9"))
    assert err.value.status == 429
    # one address, many accounts: its bucket (5 at once) runs out
    made = 0
    with pytest.raises(LobbyError) as err:
        for i in range(10):
            asyncio.run(events.create(Account(10 + i, "person", f"p{i}"), SPIT, "10.9.9.9"))
            made += 1
    assert made == 5 and err.value.code == "rate_limited"


def test_t6_register_and_unregister_until_the_start(events: Events):
    row = asyncio.run(events.create(ANA, {**SPIT, "max_entrants": 2}, "10.0.0.1"))
    assert asyncio.run(events.register(row.id, ANA, "10.0.0.1")) == "ok"
    assert asyncio.run(events.register(row.id, ANA, "10.0.0.1")) == "already"
    with pytest.raises(LobbyError) as err:
        asyncio.run(events.register(row.id, BOT, "10.0.0.1"))
    assert err.value.code == "not_person"
    assert asyncio.run(events.register(row.id, BEN, "10.0.0.2")) == "ok"
    with pytest.raises(LobbyError) as err:
        asyncio.run(events.register(row.id, Account(4, "person", "Cy"), "10.0.0.3"))
    assert (err.value.status, err.value.code) == (409, "full")
    assert asyncio.run(events.unregister(row.id, BEN, "10.0.0.2")) == "ok"
    assert asyncio.run(events.unregister(row.id, BEN, "10.0.0.2")) == "absent"
    events.store.set_progress(row.id, "running", {})
    for call in (events.register, events.unregister):
        with pytest.raises(LobbyError) as err:
            asyncio.run(call(row.id, BEN, "10.0.0.2"))
        assert (err.value.status, err.value.code) == (409, "started")
    for bad in ("nope", 3, "x" * 65):
        with pytest.raises(LobbyError) as err:
            asyncio.run(events.register(bad, BEN, "10.0.0.2"))
        assert err.value.status == 404


DUPLICATE = {"name": "Short duplicate", "kind": "duplicate", "game": "trex", "when_full": True}


@pytest.mark.parametrize(("preset", "deals", "expected"), [
    (None, "game", 20), (None, "kingdom", 5), (None, 7, 7), (None, 1, 1),
    ("complex", "game", 8), ("complex", "kingdom", 2), ("complex", 3, 3),
])
def test_t6_tx_v10_a_duplicate_round_is_the_game_a_kingdom_or_a_set_number_of_deals(
        events: Events, preset: str | None, deals: object, expected: int):
    """T6, TX-V10: a duplicate round's length, stored as the number of deals; shorter than the
    whole game it is the tables' Trex option ``deals``."""
    row = asyncio.run(events.create(ANA, {**DUPLICATE, "preset": preset, "deals": deals}, "10.0.0.1"))
    assert row.deals == expected
    whole = 8 if preset == "complex" else 20
    assert row.options.get("deals") == (None if expected == whole else expected)
    assert events.store.event(row.id) == row
    assert events.listing()[0]["deals"] == expected


def test_t6_tx_v10_the_rounds_of_short_deals_may_be_more(events: Events):
    """T6: at most 80 deals in all: four whole games, or twelve rounds of a kingdom."""
    assert asyncio.run(events.create(ANA, {**DUPLICATE, "deals": "kingdom", "rounds": 12}, "10.0.0.1")).rounds == 12
    refused(events, {**DUPLICATE, "rounds": 5}, "bad_rounds")
    refused(events, {**DUPLICATE, "deals": 10, "rounds": 9}, "bad_rounds")


@pytest.mark.parametrize(("change", "code"), [
    ({"deals": 0}, "bad_deals"),
    ({"deals": 21}, "bad_deals"),
    ({"deals": True}, "bad_deals"),
    ({"deals": 4.5}, "bad_deals"),
    ({"deals": "half"}, "bad_deals"),
    ({"deals": None}, "bad_deals"),
    ({"preset": "complex", "deals": 9}, "bad_deals"),  # longer than the whole Complex game
    ({"deals": 5, "options": {"deals": 6}}, "bad_deals"),  # given twice
    ({"options": {"deals": 0}}, "bad_options"),
])
def test_t6_tx_v10_a_bad_round_length_gets_a_clear_error(events: Events, change: dict[str, object], code: str):
    refused(events, {**DUPLICATE, **change}, code)


def test_t6_a_swiss_event_has_no_round_length(events: Events):
    refused(events, {**SPIT, "deals": 5}, "bad_deals")
