"""A game saved by ``cardtable play`` says who held each seat, and ``--resume`` seats them so again
(it used to seat you at seat 0 against the default bot, whatever the saved game was)."""

from __future__ import annotations

import io
import json

import pytest

from cardtable.cli.main import main
from cardtable.core.errors import ParseError
from cardtable.records.record import Record


def test_a_records_seats_go_and_come_back_and_a_bad_list_is_refused():
    record = Record("trash", seed=3, seats=("sensible", "human:Ana"))
    again = Record.loads(record.dumps())
    assert again.seats == ("sensible", "human:Ana") and "seats" not in Record("trash", seed=3).to_json()
    data = record.to_json()
    data["seats"] = ["human", 3]
    with pytest.raises(ParseError):
        Record.from_json(data)


def test_the_plain_loop_saves_its_seats_and_resume_seats_them_again(tmp_path, monkeypatch, capsys):
    saved = tmp_path / "game.json"
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    assert main(["play", "trash", "--plain", "--pace", "0", "--no-color", "--seats", "stock,human",
                 "--seed", "4", "--save", str(saved)]) == 0
    record = json.loads(saved.read_text())
    assert record["seats"] == ["stock", "human"]
    capsys.readouterr()
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    assert main(["play", "--resume", str(saved), "--plain", "--pace", "0", "--no-color"]) == 0
    out = capsys.readouterr().out
    assert "you are seat 1" in out  # not seat 0, as without the record's seats
    assert json.loads(saved.read_text())["seats"] == ["stock", "human"]


def test_resume_refuses_a_record_whose_seats_are_not_the_games(tmp_path, monkeypatch, capsys):
    saved = tmp_path / "game.json"
    saved.write_text(Record("trash", seed=3, seats=("human", "nobody")).dumps())
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    assert main(["play", "--resume", str(saved), "--plain", "--pace", "0", "--no-color"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cardtable: --resume: the record's seats: ") and err.count("\n") == 1
