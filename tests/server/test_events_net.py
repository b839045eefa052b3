"""A Swiss Spit event of 8 entrants on a real ``cardtable serve`` (T8, T9): four people scripted
over HTTP and WebSockets register, come to their tables and leave them to stand-ins, bots fill the
field; the server is stopped and started again in the middle of the first round; the event goes
on, the second round is paired without a rematch when the last game of the first ends, and the
final standings add up."""

from __future__ import annotations

import functools
import json
import sqlite3
import subprocess
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from .events_net import Person, served_fixture
from .helpers import wait as poll
from .netserver import Server

__all__ = ["served_fixture"]  # the fixture, used by name


DEADLINE = 240.0  # two rounds of real-time Spit between bots, on a loaded machine
wait = functools.partial(poll, deadline=DEADLINE, every=0.2)


def test_t8_t9_a_swiss_spit_event_of_eight_survives_a_restart(served: Server):
    from websockets.sync.client import connect

    people = [Person(served, name, f"10.0.1.{i}") for i, name in enumerate(("Ana", "Ben", "Cy", "Dee"))]
    short = {"max_rounds": 1, "spit_delay": 0.2, "slap_timeout": 1.0}  # one round of Spit a game
    made = people[0].post("/api/events", {"name": "Spit sprint", "kind": "swiss", "game": "spit", "options": short,
                                          "rounds": 2, "max_entrants": 8, "bots": True,
                                          "starts_at": time.time() + 3600, "when_full": False})
    assert made.status_code == 201, made.text
    event_id = made.json()["event"]["id"]
    for p in people:
        assert p.post(f"/api/events/{event_id}/register", {}).status_code == 200
    assert served.client.get(f"{served.http}/api/events/{event_id}").json()["event"]["status"] == "open"
    # the start is an hour away (four people will not fill eight places): the test moves it to now
    db = sqlite3.connect(served.db)
    db.execute("UPDATE events SET starts_at = ? WHERE id = ?", (time.time(), event_id))
    db.commit()
    db.close()

    def event() -> Any:
        return served.client.get(f"{served.http}/api/events/{event_id}", timeout=30).json()

    def come_and_leave(number: int) -> list[str]:
        """The people come to their tables of round ``number`` (so that they start), then leave
        them to stand-ins; the round's tables."""
        seats = {p.name: wait(f"{p.name}'s seat in round {number}", lambda p=p: (
            lambda s: s if s.get("round") == number else None)(p.http.get(f"/api/events/{event_id}/seat").json()))
            for p in people}
        with ExitStack() as sockets:
            for p in people:
                s = seats[p.name]
                ws = sockets.enter_context(connect(f"{served.ws}/ws/{s['table']}", origin=served.http))
                ws.send(json.dumps({"type": "hello", "token": s["token"]}))
                assert json.loads(ws.recv(timeout=30))["type"] == "welcome"
            tables = sorted({g["table"] for g in event()["rounds"][number - 1]["games"]})
            wait(f"round {number} is played", lambda: all(
                served.client.get(f"{served.http}/api/tables/{t}").json()["table"]["status"] in ("playing", "over")
                for t in tables))
            for p in people:
                s = seats[p.name]
                r = served.client.post(f"{served.http}/api/tables/{s['table']}/leave", json={"token": s["token"]},
                               headers={"Origin": served.http})
                assert r.status_code == 200 or r.json()["error"] == "over", r.text
        return tables

    wait("the event starts", lambda: event()["event"]["status"] == "running")
    tables = come_and_leave(1)
    assert len(tables) == 4
    before = event()
    served.restart()  # in the middle of round 1 (or just after it: its games take about half a minute)
    after = event()
    assert after["rounds"][0]["games"] == before["rounds"][0]["games"] or after["rounds"][0]["done"]
    come_and_leave(2)
    final = wait("the event ends", lambda: (lambda e: e if e["event"]["status"] == "over" else None)(event()))
    rounds = final["rounds"]
    assert len(rounds) == 2 and [g["table"] for g in rounds[0]["games"]] == tables
    assert not any(g["forfeit"] for r in rounds for g in r["games"])
    pairs = [frozenset(g["players"]) for r in rounds for g in r["games"]]
    assert len(pairs) == 8 == len(set(pairs))  # no rematch
    standings = final["standings"]
    assert len(standings) == 8 and standings[0]["place"] == 1
    # the four people left every game they came to: each lost it (a game of two of them gave no
    # point), and the bots won every game they played against a person or shared it with a bot
    names = {p.name for p in people}
    people_games = sum(1 for r in rounds for g in r["games"] if set(g["players"]) <= names)
    assert sum(s["score"] for s in standings) == 8.0 - people_games
    assert all(s["score"] == 0.0 for s in standings if s["name"] in names), standings
    for t in tables:  # every game of round 1 was played to its end, through the restart
        assert served.client.get(f"{served.http}/api/tables/{t}/record").status_code == 200


@pytest.mark.parametrize("bad", ["0", "4.9", "3601", "nan", "soon", "-10"])
def test_t12_a_bad_no_show_wait_is_refused_before_the_server_starts(bad: str):
    """T12: ``cardtable serve --no-show`` takes 5 to 3600 seconds; anything else stops it with a
    clear error (argparse's exit 2) before it listens."""
    done = subprocess.run([sys.executable, "-m", "cardtable.cli.main", "serve", "--no-show", bad, "--port", "0"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and "--no-show" in done.stderr and "seconds" in done.stderr


def test_t12_t13_the_no_show_wait_is_the_servers_setting_and_a_forfeited_table_is_closed(tmp_path: Path):
    """T12, T13: a server told ``--no-show 5``; two people enter a Swiss event that starts when
    full and neither comes to the table: well before the default two minutes the game is a
    forfeit (both lose), and its table is closed: not in the lobby, ``410 forfeited``."""
    srv = Server(tmp_path / "server.sqlite3", "--forwarded-allow-ips", "127.0.0.1", "--no-show", "5").start(timeout=60)
    try:
        people = [Person(srv, name, f"10.0.2.{i}") for i, name in enumerate(("Ana", "Ben"))]
        made = people[0].post("/api/events", {"name": "Nobody came", "kind": "swiss", "game": "trash",
                                              "options": {"max_hands": 1}, "rounds": 1, "max_entrants": 2})
        assert made.status_code == 201, made.text
        event_id = made.json()["event"]["id"]
        for p in people:
            assert p.post(f"/api/events/{event_id}/register", {}).status_code == 200
        table = wait("the table is made", lambda: people[0].http.get(f"/api/events/{event_id}/seat").json().get(
            "table"), deadline=60)
        assert any(t["id"] == table for t in srv.client.get(f"{srv.http}/api/tables").json()["tables"])
        final = wait("the no-show", lambda: (lambda e: e if e["event"]["status"] == "over" else None)(
            srv.client.get(f"{srv.http}/api/events/{event_id}", timeout=30).json()), deadline=60)
        game = final["rounds"][0]["games"][0]
        assert game["forfeit"] and game["points"] == [0.0, 0.0]
        assert all(t["id"] != table for t in srv.client.get(f"{srv.http}/api/tables").json()["tables"])
        gone = srv.client.get(f"{srv.http}/api/tables/{table}")
        assert gone.status_code == 410 and gone.json()["error"] == "forfeited"
    finally:
        srv.stop()


def test_t13_a_forfeited_tables_sockets_are_closed_4010_so_its_pages_stop_reconnecting(tmp_path: Path):
    """T13: a Swiss game where Ben comes and Ana does not. When it is forfeited, Ben's socket is
    closed 4010 (not 1012, which a page answers by reconnecting), and a socket opened to the table
    afterwards is accepted and closed 4010 too, with the reason (not refused at the upgrade with
    an HTTP 403 that a page cannot tell from a drop)."""
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    srv = Server(tmp_path / "server.sqlite3", "--forwarded-allow-ips", "127.0.0.1", "--no-show", "5").start(timeout=60)
    try:
        ana, ben = (Person(srv, name, f"10.0.3.{i}") for i, name in enumerate(("Ana", "Ben")))
        made = ana.post("/api/events", {"name": "Half came", "kind": "swiss", "game": "trash",
                                        "options": {"max_hands": 1}, "rounds": 1, "max_entrants": 2})
        assert made.status_code == 201, made.text
        event_id = made.json()["event"]["id"]
        for p in (ana, ben):
            assert p.post(f"/api/events/{event_id}/register", {}).status_code == 200
        seat = wait("the table is made", lambda: (lambda s: s if "table" in s else None)(
            ben.http.get(f"/api/events/{event_id}/seat").json()), deadline=60)
        with connect(f"{srv.ws}/ws/{seat['table']}", origin=srv.http) as ws:
            ws.send(json.dumps({"type": "hello", "token": seat["token"]}))
            assert json.loads(ws.recv(timeout=30))["type"] == "welcome"
            until = time.monotonic() + 60
            with pytest.raises(ConnectionClosed):
                while time.monotonic() < until:
                    ws.recv(timeout=until - time.monotonic())
            assert ws.close_code == 4010, (ws.close_code, ws.close_reason)
        game = srv.client.get(f"{srv.http}/api/events/{event_id}", timeout=30).json()["rounds"][0]["games"][0]
        assert game["forfeit"] and game["points"][seat["seat"]] == 1.0
        with connect(f"{srv.ws}/ws/{seat['table']}", origin=srv.http) as again:
            with pytest.raises(ConnectionClosed):  # closed at once: the hello may not even go
                again.send(json.dumps({"type": "hello", "token": seat["token"]}))
                again.recv(timeout=30)
            assert again.close_code == 4010 and "not played" in again.close_reason
    finally:
        srv.stop()
