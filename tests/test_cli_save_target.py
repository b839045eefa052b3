"""``play --save`` refuses a path it could not write before the game starts, not after it."""

from __future__ import annotations

import io

import pytest

from cardtable.cli.main import main


@pytest.mark.parametrize("where, says", [
    ("missing/g.json", "there is no folder "),
    ("folder", "that is a folder; name a file to save the game in"),
    ("file/g.json", " is not a folder"),
])
def test_cli_play_refuses_an_unwritable_save_path_before_the_game(where, says, tmp_path, monkeypatch, capsys):
    (tmp_path / "folder").mkdir()
    (tmp_path / "file").write_text("")
    target = tmp_path / where
    monkeypatch.setattr("sys.stdin", io.StringIO("\n" * 50))  # moves that must never be asked for
    assert main(["play", "trash", "--plain", "--pace", "0", "--no-color", "--seed", "3",
                 "--save", str(target)]) == 2
    out, err = capsys.readouterr()
    assert out == ""  # not one card dealt
    assert err.startswith(f"cardtable: --save {target}: ") and says in err and err.count("\n") == 1
    assert ".tmp" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file", "folder"]


def test_cli_play_refuses_a_save_folder_it_cannot_write_in(tmp_path, monkeypatch, capsys):
    import cardtable.records.record as record

    def denied(target):
        raise PermissionError(13, "Permission denied", str(target))

    monkeypatch.setattr(record, "open_beside", denied)
    monkeypatch.setattr("sys.stdin", io.StringIO("\n" * 50))
    target = tmp_path / "g.json"
    assert main(["play", "trash", "--plain", "--pace", "0", "--no-color", "--save", str(target)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == f"cardtable: --save {target}: cannot write in {tmp_path} (Permission denied)\n"
