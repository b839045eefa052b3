"""``cardtable serve`` and the lobby at their small edges."""

from __future__ import annotations

import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from cardtable.server.lobby import clean_name
from cardtable.server.store import db_path_from_url

from ..procs import HAS_PROC, descendants, running
from .helpers import new_table, receive_until
from .netserver import Server, free_port
from .test_protocol import hello


def serve(*args: str, timeout: float = 20.0) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cardtable.cli.main", "serve", *args],
                          capture_output=True, text=True, timeout=timeout)


@pytest.mark.parametrize("port", ["99999", "-1", "65536", "http"])
def test_serve_refuses_a_port_out_of_range_before_announcing(port: str, tmp_path: Path):
    done = serve("--port", port, "--db", f"sqlite:///{tmp_path / 's.db'}")
    assert done.returncode == 2
    assert "serving on" not in done.stderr and "Traceback" not in done.stderr
    assert "--port" in done.stderr and "65535" in done.stderr


def test_serve_on_a_busy_port_says_so_in_one_line_and_exits_non_zero(tmp_path: Path):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = serve("--port", str(port), "--db", f"sqlite:///{tmp_path / 's.db'}")
    assert done.returncode != 0
    assert "serving on" not in done.stderr and "Traceback" not in done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and str(port) in lines[0] and "in use" in lines[0]


def test_serve_announces_the_port_it_listens_on(tmp_path: Path):
    server = Server(tmp_path / "s.sqlite3").start()
    try:
        announced = [line for line in server.log.read_text().splitlines() if "serving on" in line]
        assert announced == [f"cardtable: serving on http://127.0.0.1:{server.port}/ (database {server.db})"]
    finally:
        server.stop()


def test_serve_a_corrupt_database_is_named_and_exits_non_zero(tmp_path: Path):
    path = tmp_path / "s.sqlite3"
    path.write_bytes(b"this is not a database at all; " * 200)
    done = serve("--port", str(free_port()), "--db", f"sqlite:///{path}")
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and "serving on" not in done.stderr
    assert str(path) in done.stderr and "not a" in done.stderr and "database" in done.stderr


def test_s1_sigterm_closes_the_database_before_the_process_exits(tmp_path: Path):
    server = Server(tmp_path / "s.sqlite3").start()
    table = server.post("/api/tables", game="trash")["table"]["id"]
    code = server.stop(signal.SIGTERM)
    assert code in (0, -signal.SIGTERM)
    assert "database closed" in server.log.read_text()
    wal = server.db.with_name(server.db.name + "-wal")
    assert not wal.exists() or wal.stat().st_size == 0  # the final checkpoint ran: the close happened
    db = sqlite3.connect(server.db)
    assert db.execute("SELECT id FROM tables").fetchall() == [(table,)]
    db.close()


@pytest.mark.skipif(not HAS_PROC, reason="reads the process tree from /proc")
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["s1_graceful", "s3_sigkill"])
def test_s1_s3_no_process_of_the_server_outlives_it(tmp_path: Path, sig: int):
    """The bot pool's workers and the fork server they come from end with the server, even when it
    is killed without a goodbye (they used to stay behind, reparented to init, 25 MB a stop)."""
    server = Server(tmp_path / "s.sqlite3", "--bot-workers", "2").start()
    assert server.proc is not None
    deadline = time.monotonic() + 30
    while len(tree := descendants(server.proc.pid)) < 3 and time.monotonic() < deadline:
        time.sleep(0.1)  # the fork server and its two workers start with the server
    assert len(tree) >= 3, tree
    server.stop(sig)
    deadline = time.monotonic() + 20
    while (left := {pid for pid in tree if running(pid)}) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not left, f"still running after the server ended: {left}"


@pytest.mark.parametrize(("url", "why"), [
    ("sqlite:///x.db?mode=ro", "read-only"),
    ("sqlite:///x.db?cache=shared", "options"),
    ("sqlite://:memory:", "memory"),
    (":memory:", "memory"),
    ("sqlite:///", "path"),
    ("sqlite://host/x.db", "host"),
])
def test_serve_db_urls_it_cannot_honour_are_refused(url: str, why: str, tmp_path: Path):
    with pytest.raises(ValueError, match=why):
        db_path_from_url(url)
    done = serve("--port", str(free_port()), "--db", url)
    assert done.returncode == 2 and why in done.stderr and "Traceback" not in done.stderr
    assert not (Path.cwd() / "x.db?mode=ro").exists()


def test_serve_db_urls_it_honours(tmp_path: Path):
    assert db_path_from_url("sqlite:////abs/x.db") == Path("/abs/x.db")
    assert db_path_from_url("sqlite:///rel/x.db") == Path("rel/x.db")
    assert db_path_from_url("sqlite:///rel/with%20space.db") == Path("rel/with space.db")
    assert db_path_from_url(str(tmp_path / "plain.db")) == tmp_path / "plain.db"


def test_p10_names_are_nfkc_normalised_and_lose_invisible_characters():
    assert clean_name("Ada\u200b", "x") == "Ada"
    assert clean_name("\u200dA\u2060d\ufeffa\u200e", "x") == "Ada"
    assert clean_name("Ａｄａ", "x") == "Ada"  # fullwidth letters are the same name
    assert clean_name("\u3164", "fallback") == "fallback"  # a Hangul filler shows nothing
    assert clean_name("Ada\u202e", "x") == "Ada"  # no bidi override turns the rest around
    assert clean_name("Zoë", "x") == "Zoë" and clean_name("Zoe\u0308", "x") == "Zoë"


def test_p10_a_name_that_only_looks_like_another_seats_is_told_apart(client: TestClient):
    table_id, _, _ = new_table(client, sit=(), bots={}, start=False)
    client.post(f"/api/tables/{table_id}/sit", json={"seat": 0, "name": "Ada"})
    r = client.post(f"/api/tables/{table_id}/sit", json={"seat": 1, "name": "ada\u200b"})
    names = [s["name"] for s in r.json()["table"]["seats"]]
    assert names[0] == "Ada" and names[1] != "Ada" and names[1].casefold() != "ada"


def test_a4_a_seat_token_is_read_only_after_the_game_ends(fast_client: TestClient):
    table_id, _, tokens = new_table(fast_client, {1: "random"})
    with fast_client.websocket_connect(f"/ws/{table_id}") as ws:
        hello(ws, tokens[0])
        from .helpers import play_first_legal_to_end
        play_first_legal_to_end(ws, 0)
    with fast_client.websocket_connect(f"/ws/{table_id}") as ws:
        welcome = hello(ws, tokens[0])
        assert welcome["seat"] == 0  # the seat's own final view is still shown
        state, _ = receive_until(ws, "state")
        assert state["view"]["outcome"] is not None
        ws.send_json({"type": "act", "seq": 10_000, "action": "draw"})
        assert receive_until(ws, "error")[0]["code"] == "over"
        ws.send_json({"type": "chat", "text": "I am the winner now"})
        assert receive_until(ws, "error")[0]["code"] == "over"
        ws.send_json({"type": "hint"})
        assert receive_until(ws, "error")[0]["code"] == "over"
    assert all(line["text"] != "I am the winner now"
               for line in fast_client.app.state.hub.tables[table_id].s.talk.log)  # type: ignore[attr-defined]


@pytest.mark.parametrize("depth", [500, 1500])
def test_p4_a_deeply_nested_body_answers_400(client: TestClient, depth: int):
    body = '{"game": "trash", "options": ' + "[" * depth + "]" * depth + "}"
    r = client.post("/api/tables", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 400, r.text
    r = client.post("/api/tables", content="[" * 2040, headers={"content-type": "application/json"})
    assert r.status_code == 400, r.text
    assert client.get("/api/tables").status_code == 200
