"""``cardtable serve`` wiring and the store: database URLs, a missing extra, replay after reopen."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from cardtable.cli.main import main
from cardtable.server.hub import Hub
from cardtable.server.store import Store, db_path_from_url, default_db_path


def test_serve_is_a_subcommand(capsys: pytest.CaptureFixture[str]):
    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    out = capsys.readouterr().out
    assert "--port" in out and "--db" in out and "--host" in out


def test_serve_without_the_web_extra_says_what_to_install(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # import uvicorn now raises ImportError
    assert main(["serve", "--port", "1"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "pip install 'cardtable[web]'" in err


@pytest.mark.parametrize("option, value", [
    ("--header-timeout", "nan"), ("--header-timeout", "0"), ("--rate", "-1"), ("--rate", "inf"),
    ("--keep", "nan"), ("--keep", "0.5"), ("--hold", "-5"), ("--bot-workers", "-1"), ("--bot-workers", "1.5"),
    ("--max-per-ip", "-1"), ("--max-conn-per-ip", "1"), ("--quick-wait", "-1"), ("--bot-delay", "nan"),
    ("--countdown", "-0.1"), ("--unjoined", "nan"), ("--create-rate", "0"), ("--burst", "0"),
])
def test_serve_refuses_a_setting_out_of_range_in_one_line(option: str, value: str, capsys: pytest.CaptureFixture[str]):
    """``--header-timeout nan`` started a server whose every request failed with a traceback, and
    negative limits were taken as they came: every numeric setting is checked before the start."""
    with pytest.raises(SystemExit) as stop:
        main(["serve", option, value, "--port", "0"])
    assert stop.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert f"argument {option}: " in err[-1] and "Traceback" not in "\n".join(err)


def test_serve_refuses_a_host_that_cannot_be_a_name_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """A 64-letter --host (a DNS label is at most 63) ended in a UnicodeError traceback."""
    code = main(["serve", "--host", "a" * 64, "--port", "0", "--db", f"sqlite:///{tmp_path / 'x.sqlite3'}"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "not a host name or an address" in err, err


def test_database_urls(monkeypatch, tmp_path: Path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_db_path() == tmp_path / "cardtable" / "server.sqlite3"
    assert db_path_from_url(None) == tmp_path / "cardtable" / "server.sqlite3"
    assert db_path_from_url("sqlite:////abs/x.db") == Path("/abs/x.db")
    assert db_path_from_url("sqlite:///rel/x.db") == Path("rel/x.db")
    with pytest.raises(ValueError):
        db_path_from_url("postgres://x")
    monkeypatch.delenv("XDG_DATA_HOME")
    assert default_db_path() == Path.home() / ".local" / "share" / "cardtable" / "server.sqlite3"


def test_s5_a_reopened_store_replays_every_game_to_the_same_state(tmp_path: Path):
    path = tmp_path / "s.sqlite3"
    store = Store(path)
    hub = Hub(store)
    table, _ = hub.create("trash", None, {})
    table.sit(0, "A")
    table.add_bot(1, "random")
    table.start(seed=2**64 - 5)  # an unsigned 64-bit seed survives SQLite's signed integers
    assert table.match is not None
    for seq in range(1, 40):
        if table.match.is_over:
            break
        if table.match.to_move() == 0:
            reply = table.act(0, seq, str(table.match.state.legal_actions(0)[0]))
            assert reply["type"] == "ack"
        else:
            table.step_bot()
    before = str(table.match.state)
    version = table.version
    store.close()
    again = Hub(Store(path)).get(table.id)
    assert again.match is not None and str(again.match.state) == before and again.version == version
    assert again.row.seed == 2**64 - 5


def test_a8_the_store_keeps_token_digests_only(tmp_path: Path):
    import sqlite3

    path = tmp_path / "s.sqlite3"
    hub = Hub(Store(path))
    table, host = hub.create("trash", None, {})
    token = table.sit(0, "A")
    dump = "\n".join(sqlite3.connect(path).iterdump())
    assert token not in dump and host not in dump
    other = token[:-1] + ("x" if token[-1] != "x" else "y")  # one character off (never the same token)
    assert table.seat_for_token(token) == 0 and table.seat_for_token(other) is None


def test_s6_a_torn_log_tail_recovers_to_a_committed_version(tmp_path: Path):
    """Copy the database and its WAL as a crash would leave them, cut the WAL at
    random offsets, and reopen: no crash, and the game replays at some committed
    version no later than the last one."""
    import random
    import shutil

    path = tmp_path / "live.sqlite3"
    store = Store(path)
    store.db.execute("PRAGMA wal_autocheckpoint=0")
    hub = Hub(store)
    table, _ = hub.create("trash", None, {})
    table.sit(0, "A")
    table.sit(1, "B")
    table.start(seed=11)
    assert table.match is not None
    for seq in range(1, 60):
        if table.match.is_over:
            break
        seat = table.match.to_move()
        assert table.act(seat, seq, str(table.match.state.legal_actions(seat)[-1]))["type"] == "ack"
    last = table.version
    wal = path.with_name(path.name + "-wal")
    assert wal.exists() and wal.stat().st_size > 0
    rng = random.Random(4)
    for cut in [0, 1, 100, *(rng.randrange(wal.stat().st_size) for _ in range(8)), wal.stat().st_size]:
        copy = tmp_path / f"copy{cut}.sqlite3"
        shutil.copy(path, copy)
        data = wal.read_bytes()[:cut]
        copy.with_name(copy.name + "-wal").write_bytes(data)
        copy_store = Store(copy)
        again = Hub(copy_store).tables.get(table.id)
        if again is not None:  # else the table's own creation was in the lost tail
            assert again.version <= last
            if again.match is not None:
                assert len(again.match.state.history) == again.version
        copy_store.close()
    store.close()


def test_s10_a_game_that_no_longer_replays_does_not_stop_the_server(tmp_path: Path):
    path = tmp_path / "s.sqlite3"
    store = Store(path)
    hub = Hub(store)
    good, _ = hub.create("trash", None, {})
    bad, _ = hub.create("trash", None, {})
    for t in (good, bad):
        t.sit(0, "A")
        t.sit(1, "B")
        t.start(seed=3)
    store.append(bad.id, 1, 0, "wild 9", None)  # not legal at the start: the log does not replay
    store.close()
    again = Hub(Store(path))
    assert good.id in again.tables and bad.id not in again.tables and bad.id in again.broken
