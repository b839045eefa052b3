"""Every command that reads a record refuses an unreadable file in one line, never a traceback;
and options named as the loading functions' parameters are options like any other."""

from __future__ import annotations

import io

import pytest

from cardtable.cli.main import main

UNREADABLE = {
    "not-utf8": b"\xff\xfe{}",
    "too-deep": b"[" * 100_000,
    # a number of more digits than Python converts from text (4,300)
    "huge-number": b'{"format": "cardtable-record", "version": 1, "game": "trash", "seed": ' + b"7" * 4301 + b"}",
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


@pytest.mark.parametrize("name", ["preset", "name", "cls"])
def test_an_option_named_as_a_parameter_is_a_config_error_not_a_type_error(name):
    """Options are user input (``-o``, a record, a request): one named as a parameter of
    ``load`` is refused in one line as any unknown option, at every entry."""
    import cardtable
    from cardtable.core.errors import ConfigError
    from cardtable.games.trash import TrashGame

    for load in (lambda: cardtable.load("trash", "standard", **{name: "x"}),
                 lambda: TrashGame.load("standard", **{name: "x"})):
        with pytest.raises(ConfigError, match=r"no option|no preset"):
            load()
    assert cardtable.load("trash", preset="d2_kings").preset == "d2_kings"  # the keyword still names the preset


def test_cli_refuses_a_record_whose_options_name_a_parameter(tmp_path, capsys):
    path = tmp_path / "r.json"
    path.write_text('{"format": "cardtable-record", "version": 1, "game": "trash", "preset": "standard",'
                    ' "options": {"preset": "x"}, "seed": 1, "actions": []}')
    for command in (["replay"], ["review"]):
        assert main([*command, str(path)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "preset" in err and "Traceback" not in err
