"""``play --pace``: a negative, non-finite or huge number of seconds is refused before the game."""

from __future__ import annotations

import io

import pytest

from cardtable.cli.main import main


@pytest.mark.parametrize("pace", ["-1", "nan", "inf", "-inf", "1e300", "61"])
def test_cli_plain_play_refuses_a_pace_out_of_range_in_one_line(pace, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # no move: a pace taken would end the game at once, exit 0
    assert main(["play", "trash", "--plain", "--no-color", "--seed", "1", f"--pace={pace}"]) == 2
    out, err = capsys.readouterr()
    assert out == ""  # refused before the first card
    assert err.startswith(f"cardtable: --pace {float(pace):g}: a number of seconds from 0 to 60")
    assert err.count("\n") == 1


@pytest.mark.parametrize("pace", ["-1", "nan"])
def test_cli_app_play_refuses_a_pace_out_of_range_too(pace, monkeypatch, capsys):
    """The app's path took max(0, pace), so -1 was 0 there and nan went through: refused as --plain does."""
    pytest.importorskip("textual")
    import cardtable.cli.main as cli
    import cardtable.tui.launch as launch

    monkeypatch.setattr(cli, "_terminal", lambda: True)
    monkeypatch.setattr(launch, "run_play", lambda *a, **k: pytest.fail("the app was started"))
    assert main(["play", "trash", f"--pace={pace}"]) == 2
    assert capsys.readouterr().err.startswith(f"cardtable: --pace {float(pace):g}: ")


def test_cli_plain_play_takes_a_pace_of_zero(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play", "trash", "--plain", "--no-color", "--seed", "1", "--pace", "0"]) == 0
    assert capsys.readouterr().err == ""
