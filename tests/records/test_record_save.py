"""Record.save: errors name the user's path; its temporary file collides with nothing and never stays."""

from __future__ import annotations

import pytest

import cardtable
from cardtable.records import Record, record_of


def _record() -> Record:
    state = cardtable.load("trash").new_state(seed=4)
    state.play("stock")
    return record_of(state)


def test_record_save_into_a_missing_folder_names_the_users_path(tmp_path):
    target = tmp_path / "nowhere" / "g.json"
    with pytest.raises(FileNotFoundError) as caught:
        _record().save(target)
    assert caught.value.filename == str(target)


def test_record_save_over_a_folder_names_it_and_leaves_no_temporary_file(tmp_path):
    target = tmp_path / "dir"
    target.mkdir()
    with pytest.raises(IsADirectoryError) as caught:
        _record().save(target)
    assert caught.value.filename == str(target)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dir"]


def test_record_save_leaves_a_users_file_named_like_the_old_temporary_file_alone(tmp_path):
    target = tmp_path / "g.json"
    mine = tmp_path / "g.json.tmp"
    mine.write_text("my notes\n")
    _record().save(target)
    assert mine.read_text() == "my notes\n"
    assert Record.load(target) == _record()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.json", "g.json.tmp"]
