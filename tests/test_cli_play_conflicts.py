"""``cardtable play`` refuses options that contradict each other in one line, as ``--seats`` with
``--bots`` always was, instead of quietly ignoring one of them."""

from __future__ import annotations

import io

import pytest

from cardtable.cli.main import main


@pytest.mark.parametrize("argv, says", [
    (["--seats", "human,sensible", "--seat", "5"], "use --seats or --seat, not both"),
    (["--seats", "human,sensible", "--seat", "1"], "use --seats or --seat, not both"),
    (["--seats", "human,sensible", "--seat", "0"], "use --seats or --seat, not both"),
    (["--seats", "human,sensible", "--bot", "random"], "use --seats or --bot, not both"),
    (["--seats", "human,sensible", "--bots", "1"], "use --seats or --bots, not both"),
    (["--lang", ""], "--lang '': languages are "),
    (["--undo"], "the plain text loop has no undo"),
])
def test_cli_play_refuses_conflicting_or_empty_options_in_one_line(argv, says, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    assert main(["play", "trash", "--plain", "--no-color", *argv]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("cardtable: ") and says in err and err.count("\n") == 1


@pytest.mark.parametrize("argv", [["--seat", "1"], ["--seat", "1", "--bot", "random"], ["--bots", "2", "--seat", "2"],
                                  ["--seats", "sensible,human"]])
def test_cli_play_still_takes_seat_and_bot_without_seats(argv, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # the game stops at the first prompt
    assert main(["play", "trash", "--plain", "--no-color", "--pace", "0", "--seed", "3", *argv]) == 0
    assert capsys.readouterr().err == ""
