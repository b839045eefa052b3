"""Tournaments on a cluster (docs/tournaments.md, docs/deploy.md): two ``cardtable serve`` nodes on
one PostgreSQL database and a real Redis. One node at a time runs the events (the Redis role
``ct:lead:events``); the people do everything through the other node: sign up, make and enter a
Swiss event, find their seats and play their games. The event runs from registration to its
final standings, which both nodes show; and when the node that runs it is killed in the middle of
a round, the other takes the role and the event's tables over, and the event goes on to its end."""

from __future__ import annotations

import asyncio
import functools
import random
import signal
import time
from pathlib import Path
from typing import Any

import redis

from cardtable.server.client import GameClient

from .events_net import Person
from .helpers import wait as poll
from .netserver import Server
from .test_cluster import _nodes, _stop_living

HOLD = ("--forwarded-allow-ips", "127.0.0.1", "--hold", "60")
"""People behind the trusted proxy, each at an address of their own; a seat waits 60 s for its
person (a cluster test's ``--hold 0`` gives it to a stand-in at once: a rated seat then abandons)."""
DEADLINE = 120.0  # a round of one-hand Trash games between people and bots, on a loaded machine
wait = functools.partial(poll, deadline=DEADLINE, every=0.2)


def _leader(redis_url: str) -> str | None:
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    try:
        return client.get("ct:lead:events")  # type: ignore[return-value]
    finally:
        client.close()


def _roles(redis_url: str, a: Server, b: Server) -> tuple[Server, Server]:
    """The node that runs the events, and the other (nodes "a" and "b")."""
    leader = wait("a node runs the events", lambda: _leader(redis_url))
    return (a, b) if leader == "a" else (b, a)


def _name(node: Server, a: Server) -> str:
    return "a" if node is a else "b"


def _event(node: Server, event_id: str) -> Any:
    return node.client.get(f"{node.http}/api/events/{event_id}", timeout=30).json()


def _make_event(people: list[Person]) -> str:
    made = people[0].post("/api/events", {"name": "Cluster cup", "kind": "swiss", "game": "trash",
                                          "options": {"max_hands": 1}, "rounds": 2, "max_entrants": 4,
                                          "when_full": True})
    assert made.status_code == 201, made.text
    event_id: str = made.json()["event"]["id"]
    for p in people:
        assert p.post(f"/api/events/{event_id}/register", {}).status_code == 200
    return event_id


def _seats(people: list[Person], event_id: str, number: int) -> dict[str, dict[str, Any]]:
    return {p.name: wait(f"{p.name}'s seat in round {number}", lambda p=p: (
        lambda s: s if s.get("round") == number else None)(p.http.get(f"/api/events/{event_id}/seat").json()))
        for p in people}


def _play(node: Server, seats: dict[str, dict[str, Any]], before_end: Any = None) -> None:
    """Every person plays their game to its end through ``node``'s sockets (``before_end``, if
    given, is called once every game has begun)."""

    async def run() -> None:
        clients = [GameClient(node.ws, s["table"], s["token"]) for s in seats.values()]
        for c in clients:
            await c.__aenter__()
        try:
            if before_end is not None:
                await asyncio.to_thread(before_end)
            await asyncio.gather(*(c.play_to_end(random.Random(i)) for i, c in enumerate(clients)))
        finally:
            for c in clients:
                await c.__aexit__(None, None, None)

    asyncio.run(run())


def test_t8_cluster_a_swiss_event_runs_on_one_node_while_its_people_use_the_other(
        tmp_path: Path, redis_url: str, pg_url: str):
    """T8 on a cluster: four people sign up, make, enter and play a two-round Swiss event through
    the node that does not run the events; the other makes the tables, starts them once their
    people are there and pairs the second round without a rematch. Both nodes show the same final
    standings, and each person's profile has both games."""
    a, b = _nodes(tmp_path, redis_url, "a", "b", db_url=pg_url, limits=HOLD)
    try:
        runner, other = _roles(redis_url, a, b)
        people = [Person(other, name, f"10.0.3.{i}") for i, name in enumerate(("Ana", "Ben", "Cy", "Dee"))]
        event_id = _make_event(people)
        for number in (1, 2):
            seats = _seats(people, event_id, number)
            owners = {other.client.get(f"{other.http}/api/health", params={"table": s["table"]}).json()["owner"]
                      for s in seats.values()}
            assert owners == {_name(runner, a)}, owners  # the node that runs the event made its tables
            _play(other, seats)
        final = wait("the event ends", lambda: (lambda e: e if e["event"]["status"] == "over" else None)(
            _event(other, event_id)))
        assert _event(runner, event_id)["standings"] == final["standings"]
        pairs = [frozenset(g["players"]) for r in final["rounds"] for g in r["games"]]
        assert len(pairs) == 4 == len(set(pairs))  # no rematch
        assert sum(s["score"] for s in final["standings"]) == 4.0
        for p in people:
            wait(f"{p.name}'s profile shows both games", lambda p=p: len(
                other.client.get(f"{other.http}/api/players/profile/{p.name}").json()["results"]) == 2)
    finally:
        _stop_living(a, b)


def test_t9_cluster_the_event_goes_on_when_the_node_that_runs_it_is_killed(
        tmp_path: Path, redis_url: str, pg_url: str):
    """T9 on a cluster of three: the node that runs a Swiss event is killed in the middle of its
    first round, while the people play through another node. The living nodes share its tables,
    one of them takes the events' role (and reads and starts the tables the other owns through
    their owner), the games go on where they were, and the event ends with two rounds played."""
    nodes = _nodes(tmp_path, redis_url, "a", "b", "c", db_url=pg_url, limits=HOLD)
    try:
        named = dict(zip("abc", nodes, strict=True))
        runner = named[wait("a node runs the events", lambda: _leader(redis_url))]
        living = [n for n in nodes if n is not runner]
        people = [Person(living[0], name, f"10.0.4.{i}") for i, name in enumerate(("Ana", "Ben", "Cy", "Dee"))]
        event_id = _make_event(people)
        seats = _seats(people, event_id, 1)

        def kill_the_runner() -> None:
            tables = {s["table"] for s in seats.values()}
            wait("round 1 is being played", lambda: all(
                living[0].client.get(f"{living[0].http}/api/tables/{t}").json()["table"]["status"] == "playing"
                for t in tables))
            assert runner.proc is not None
            runner.proc.send_signal(signal.SIGKILL)
            runner.proc.wait(timeout=30)

        _play(living[0], seats, before_end=kill_the_runner)
        wait("a living node runs the events", lambda: _leader(redis_url) in {"abc"[nodes.index(n)] for n in living})
        _play(living[0], _seats(people, event_id, 2))
        final = wait("the event ends", lambda: (lambda e: e if e["event"]["status"] == "over" else None)(
            _event(living[1], event_id)))
        assert len(final["rounds"]) == 2 and all(g["points"] is not None for r in final["rounds"]
                                                 for g in r["games"])
        assert not any(g["forfeit"] for r in final["rounds"] for g in r["games"])
        assert _event(living[0], event_id)["standings"] == final["standings"]
    finally:
        _stop_living(*nodes)


def test_t6_cluster_the_limit_on_new_events_from_one_address_counts_over_every_node(
        tmp_path: Path, redis_url: str, pg_url: str):
    """T6 (the events' limits) on a cluster: an address makes 5 events at once, then one every 2
    minutes, from the whole cluster: three accounts of one address asking the two nodes in turn
    are refused 429 at the sixth event, as one process refuses them (not at the eleventh)."""
    a, b = _nodes(tmp_path, redis_url, "a", "b", db_url=pg_url, limits=HOLD)
    try:
        people = [Person(node, name, "10.0.5.1") for node, name in ((a, "Ana"), (b, "Ben"), (a, "Cy"))]
        codes = []
        for i in range(6):
            made = people[i % 3].post("/api/events", {"name": f"Cup {i}", "kind": "swiss", "game": "spit",
                                                      "rounds": 1, "max_entrants": 4, "when_full": True})
            codes.append(made.status_code)
        assert codes == [201] * 5 + [429], codes
    finally:
        _stop_living(a, b)


def test_t8_cluster_the_runner_keeps_watching_a_table_of_bots(
        tmp_path: Path, redis_url: str, pg_url: str):
    """T8 on a cluster, a table of bots alone: two people come to their Spit tables of a casual
    event and leave them to stand-ins, so that only bots play, watched by the event's runner
    alone (a casual table of bots nobody watches stands still). The runner's watch is nobody's
    socket: no node takes it for a socket of a dead node and detaches it, so the tables stay
    watched while they are played, and the round ends."""
    a, b = _nodes(tmp_path, redis_url, "a", "b", db_url=pg_url, limits=HOLD)
    try:
        other = _roles(redis_url, a, b)[1]
        people = [Person(other, name, f"10.0.6.{i}") for i, name in enumerate(("Ana", "Ben"))]
        short = {"max_rounds": 1, "spit_delay": 0.2, "slap_timeout": 1.0}
        made = people[0].post("/api/events", {"name": "Spit sprint", "kind": "swiss", "game": "spit", "options": short,
                                              "rated": False, "rounds": 1, "max_entrants": 4, "bots": True,
                                              "starts_at": time.time() + 2, "when_full": False})
        assert made.status_code == 201, made.text
        event_id = made.json()["event"]["id"]
        for p in people:
            assert p.post(f"/api/events/{event_id}/register", {}).status_code == 200
        seats = _seats(people, event_id, 1)

        def playing() -> list[dict[str, Any]]:
            return [t for t in (other.client.get(f"{other.http}/api/tables/{s['table']}").json()["table"]
                                for s in seats.values()) if t["status"] == "playing"]

        async def come() -> None:  # the tables start once their people are there
            clients = [GameClient(other.ws, s["table"], s["token"]) for s in seats.values()]
            for c in clients:
                await c.__aenter__()
            await asyncio.to_thread(wait, "the tables start", lambda: len(playing()) == 2)
            for c in clients:
                await c.__aexit__(None, None, None)

        asyncio.run(come())
        for s in seats.values():
            left = other.client.post(f"{other.http}/api/tables/{s['table']}/leave", json={"token": s["token"]},
                                     headers={"Origin": other.http})
            assert left.status_code == 200, left.text
        looks: list[int] = []  # how many tables were playing at each look

        def watched_to_the_end() -> bool:
            tables = playing()
            assert all(t["watchers"] >= 1 for t in tables), tables
            looks.append(len(tables))
            return not tables

        wait("the round's games end, every one watched all along", watched_to_the_end)
        final = wait("the event ends", lambda: (lambda e: e if e["event"]["status"] == "over" else None)(
            _event(other, event_id)))
        assert all(g["points"] is not None for g in final["rounds"][0]["games"])
        assert looks[0] > 0
    finally:
        _stop_living(a, b)
