"""The commit–reveal protocol of records/fairness.py, the record's fairness block
and ``cardtable verify`` on untampered records (docs/fairness.md)."""

from __future__ import annotations

import json

import pytest

import cardtable
from cardtable.cli.main import main
from cardtable.core.chance import commitment
from cardtable.core.errors import ParseError
from cardtable.records.fairness import FAIR_SEED, FairDeal, Fairness, FairnessError, verify
from cardtable.records.record import Record, record_of

from .fairness_util import GAMES, finished, person_seed

SERVER = bytes(range(32))


def committed_trex() -> FairDeal:
    fair = FairDeal(4, SERVER)
    fair.add_seat_commitment(0, commitment(person_seed(0)).hex())
    for seat in (1, 2, 3):
        fair.add_bot_seat(seat)
    return fair


@pytest.mark.parametrize("key", list(GAMES))
@pytest.mark.parametrize("people", [255, 1, 0])
def test_f4_every_finished_fair_game_verifies(key, people):
    """All seats persons, one person and bots, bots only (their seeds made by the server)."""
    record = finished(key, people)
    done = verify(record)
    assert done.deals == len(record.fairness.deals) >= 1
    assert done.actions == len(record.actions) and done.seats == len(record.fairness.seat_seeds)
    again = Record.loads(record.dumps())
    assert again == record and verify(again) == done


def test_f4_the_server_commitment_is_sha256_of_the_server_seed():
    import hashlib

    fair = FairDeal(2, SERVER)
    assert fair.commitment() == hashlib.sha256(SERVER).hexdigest()
    assert FairDeal.new(2).commitment() != FairDeal.new(2).commitment()


def test_f4_no_reveal_before_every_seat_has_committed():
    fair = FairDeal(4, SERVER)
    fair.add_seat_commitment(0, commitment(person_seed(0)).hex())
    fair.add_bot_seat(1)
    assert fair.public()["seat_seeds"] == [None] * 4  # not even the bot's
    with pytest.raises(FairnessError, match=r"seats \[2, 3\] have not committed yet"):
        fair.reveal_seat(0, person_seed(0).hex())
    assert not fair.committed()


def test_f4_a_reveal_must_match_its_commitment_and_a_wrong_one_loses_nothing():
    fair = committed_trex()
    with pytest.raises(FairnessError, match="seat 0's seed does not match its commitment"):
        fair.reveal_seat(0, person_seed(1).hex())
    with pytest.raises(FairnessError, match="seat 0's seed is not 64 hex digits"):
        fair.reveal_seat(0, "zz" * 32)
    assert not fair.ready()
    fair.reveal_seat(0, person_seed(0).hex().upper())
    assert fair.ready()
    with pytest.raises(FairnessError, match="seat 0 has already revealed"):
        fair.reveal_seat(0, person_seed(0).hex())


def test_f4_commitments_are_checked():
    fair = FairDeal(2, SERVER)
    with pytest.raises(FairnessError, match="no seat 2"):
        fair.add_seat_commitment(2, "00" * 32)
    with pytest.raises(FairnessError, match="seat 0's commitment is not 64 hex digits"):
        fair.add_seat_commitment(0, "abc")
    fair.add_seat_commitment(0, "00" * 32)
    with pytest.raises(FairnessError, match="seat 0 has already committed"):
        fair.add_seat_commitment(0, "11" * 32)
    with pytest.raises(FairnessError, match="a fair game has 1 to 255 seats"):
        FairDeal(0, SERVER)
    with pytest.raises(FairnessError, match="the server seed has 16 bytes"):
        FairDeal(2, bytes(16))


def test_f4_no_deal_before_every_seat_has_revealed():
    fair = committed_trex()
    with pytest.raises(FairnessError, match=r"seats \[0\] have not revealed"):
        fair.new_state(cardtable.load("trex"))
    fair.reveal_seat(0, person_seed(0).hex())
    with pytest.raises(FairnessError, match="this protocol has 4 seats; trash here has 2"):
        fair.new_state(cardtable.load("trash"))


def test_h9_a_fair_state_holds_no_seed_and_its_views_no_seed_material():
    """Nothing derivable from the server seed leaves through views while the game runs."""
    fair = committed_trex()
    fair.reveal_seat(0, person_seed(0).hex())
    state = fair.new_state(cardtable.load("trex"))
    assert state.seed == FAIR_SEED  # type: ignore[attr-defined]
    secrets = fair.secret_texts()
    for _ in range(60):
        for seat in (None, 0, 1, 2, 3):
            text = json.dumps(state.view(seat).to_json())
            assert not any(s in text for s in secrets)
        state.apply(state.legal_actions()[0])


def test_h9_the_server_seed_is_revealed_only_when_the_game_is_over():
    fair = committed_trex()
    fair.reveal_seat(0, person_seed(0).hex())
    state = fair.new_state(cardtable.load("trex"))
    with pytest.raises(FairnessError, match="only when the game is over"):
        fair.server_reveal(state)
    public = json.dumps(fair.public())
    running = fair.record(state)
    text = running.dumps()
    for secret in fair.secret_texts():
        assert secret not in public and secret not in text
    assert running.fairness is not None and running.fairness.server_seed is None and running.fairness.deals == ()
    assert json.loads(public)["server_commitment"] == fair.commitment()
    with pytest.raises(FairnessError, match="written before the game was over"):
        verify(running)
    with pytest.raises(FairnessError, match="not revealed yet"):
        running.replay()


def test_f4_the_servers_store_round_trips_the_protocol():
    fair = committed_trex()
    again = FairDeal.from_json(json.loads(json.dumps(fair.to_json())))
    assert again.public() == fair.public() and again.commitment() == fair.commitment()
    again.reveal_seat(0, person_seed(0).hex())
    fair.reveal_seat(0, person_seed(0).hex())
    game = cardtable.load("trex")
    assert again.new_state(game).view(None) == fair.new_state(game).view(None)
    with pytest.raises(ParseError, match="not a cardtable-fair/1 protocol"):
        FairDeal.from_json({**fair.to_json(), "scheme": "other/9"})
    with pytest.raises(ParseError, match="malformed"):
        FairDeal.from_json({**fair.to_json(), "server_seed": "00"})
    with pytest.raises(ParseError, match="one commitment and one seed slot per seat"):
        FairDeal.from_json({**fair.to_json(), "seat_seeds": [None]})


def test_s5_a_fair_record_replays_to_the_same_game():
    record = finished("trex")
    state = record.replay()
    assert state.is_terminal() and [str(a) for a in state.history] == list(record.actions)
    data = json.loads(record.dumps())
    assert "seed" not in data and "deck" not in data and data["fairness"]["scheme"] == "cardtable-fair/1"
    assert data["fairness"]["server_seed"] == SERVER.hex()


def test_f4_old_records_without_fairness_load_and_write_as_before():
    state = cardtable.load("trash").new_state(seed=3)
    state.play("stock")
    record = record_of(state)
    data = json.loads(record.dumps())
    assert "fairness" not in data and data["seed"] == 3 and record.fairness is None
    assert Record.from_json(data) == record
    with pytest.raises(FairnessError, match="no \"fairness\" block"):
        verify(record)


def test_f4_a_malformed_fairness_block_is_a_parse_error():
    record = finished("spit")
    data = json.loads(record.dumps())
    for bad, message in (("nope", "is not an object"), ({**data["fairness"], "scheme": "x/2"}, "scheme 'x/2'"),
                         ({**data["fairness"], "seat_seeds": "ab"}, "seat_seeds is not a list"),
                         ({**data["fairness"], "deals": [{"cards": []}]}, "deal 1 has no label")):
        with pytest.raises(ParseError, match=message):
            Record.from_json({**data, "fairness": bad})
    assert isinstance(Record.from_json(data).fairness, Fairness)


def test_f4_cli_verify_accepts_untampered_records(tmp_path, capsys):
    paths = []
    for key in ("trash", "trex", "spit"):
        path = tmp_path / f"{key}.json"
        finished(key).save(path)
        paths.append(str(path))
    assert main(["verify", *paths]) == 0
    out = capsys.readouterr().out
    assert out.count("verified") == 3 and "every commitment matches" in out


def test_f4_cli_verify_fails_a_tampered_record_and_a_broken_file(tmp_path, capsys):
    data = json.loads(finished("trash").dumps())
    data["fairness"]["seat_seeds"][1] = "00" * 32
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    assert main(["verify", str(bad)]) == 1
    assert "bad.json: FAILED: seat 1's seed does not match seat 1's commitment" in capsys.readouterr().err
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    assert main(["verify", str(broken)]) == 2
    assert "cannot read the record" in capsys.readouterr().err


def test_f4_record_of_a_fair_state_needs_its_fairness_block():
    from cardtable.core.errors import ConfigError

    fair = committed_trex()
    fair.reveal_seat(0, person_seed(0).hex())
    state = fair.new_state(cardtable.load("trex"))
    with pytest.raises(ConfigError, match=r"use FairDeal\.record"):
        record_of(state)
    assert fair.record(state).seed is None
