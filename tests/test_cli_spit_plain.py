"""``play spit --plain``: it saves with --save, refuses what it does not do in one line, and
names only bots that play in real time."""

from __future__ import annotations

import io
import json

import pytest

import cardtable
from cardtable.cli import spit_play
from cardtable.cli.main import main, seat_bots


@pytest.mark.parametrize("argv, flag", [
    (["--resume", "REC"], "--resume"),
    (["--seats", "human,hard"], "--seats"),
    (["--seat", "1"], "--seat 1"),
])
def test_cli_spit_plain_refuses_what_it_does_not_do_in_one_line(argv, flag, tmp_path, monkeypatch, capsys):
    record = tmp_path / "spit.json"
    record.write_text(json.dumps({"format": "cardtable-record", "version": 1, "game": "spit", "seed": 1,
                                  "actions": []}))
    argv = [str(record) if a == "REC" else a for a in argv]
    game = [] if flag == "--resume" else ["spit"]
    monkeypatch.setattr(spit_play, "play_spit", lambda *a, **k: pytest.fail("the game was started"))
    assert main(["play", *game, "--plain", *argv]) == 2
    err = capsys.readouterr().err
    assert err == (f"cardtable: {flag}: Spit's plain loop plays a new game, you (seat 0) against one bot; "
                   "it takes --bot, --seed and --save\n")


def test_cli_spit_plain_refuses_a_bot_that_cannot_play_in_real_time_with_the_prefix(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play", "spit", "--plain", "--bot", "random"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cardtable: no Spit bot 'random' that plays in real time; bots: beginner, easy, ")
    assert err.count("\n") == 1


def test_cli_rules_spit_lists_only_bots_that_play_in_real_time(capsys):
    assert main(["rules", "spit", "--no-color"]) == 0
    bots = capsys.readouterr().out.strip().splitlines()[-1].removeprefix("Bots: ").split(", ")
    assert "random" not in bots and {"beginner", "easy", "medium", "hard", "expert"} <= set(bots)
    assert bots == seat_bots(cardtable.load("spit"))
    assert "random" in seat_bots(cardtable.load("trash"))


def test_cli_spit_plain_saves_the_game_with_save(tmp_path, monkeypatch):
    """--save was ignored: the record is written when the loop ends (here: q at once)."""
    passed = {}

    def quits_at_once(state, bot, seed, level, color):
        passed.update(bot=bot, level=level)
        return 0

    monkeypatch.setattr(spit_play, "_loop", quits_at_once)
    monkeypatch.setattr(spit_play.sys, "stdin", _Tty())
    screen = _Tty()
    monkeypatch.setattr(spit_play.sys, "stdout", screen)
    save = tmp_path / "spit.json"
    code = spit_play.play_spit(cardtable.load("spit"), seed=7, level="hard", color=False, save=save)
    assert code == 0 and passed["level"] == "hard"
    record = json.loads(save.read_text())
    assert record["game"] == "spit" and record["seed"] == 7
    assert f"Saved the game to {save}" in screen.getvalue()


def test_cli_spit_plain_passes_save_on(tmp_path, monkeypatch):
    seen = {}
    monkeypatch.setattr(spit_play, "play_spit", lambda game, **kw: seen.update(kw) or 0)
    save = tmp_path / "spit.json"
    assert main(["play", "spit", "--plain", "--seed", "2", "--save", str(save)]) == 0
    assert seen["save"] == save and seen["level"] == "medium"


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True
