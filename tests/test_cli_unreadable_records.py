"""Every command that reads a record refuses an unreadable file in one line, never a traceback."""

from __future__ import annotations

import io

import pytest

from cardtable.cli.main import main

UNREADABLE = {
    "not-utf8": b"\xff\xfe{}",
    "too-deep": b"[" * 100_000,
}


@pytest.mark.parametrize("kind", sorted(UNREADABLE))
@pytest.mark.parametrize("command", [["replay"], ["play", "--plain", "--resume"], ["review"]])
def test_cli_refuses_an_unreadable_record_in_one_line(command, kind, tmp_path, monkeypatch, capsys):
    path = tmp_path / f"{kind}.json"
    path.write_bytes(UNREADABLE[kind])
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main([*command, str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cardtable: ") and err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize("kind", sorted(UNREADABLE))
def test_cli_verify_exits_2_for_a_record_that_cannot_be_read(kind, tmp_path, capsys):
    """verify's help: exit 2 when a record could not be read (1 is for one that failed)."""
    path = tmp_path / f"{kind}.json"
    path.write_bytes(UNREADABLE[kind])
    assert main(["verify", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{path}: cannot read the record: ") and err.count("\n") == 1
