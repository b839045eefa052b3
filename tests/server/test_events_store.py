"""Events in the action log's database, the same contract on SQLite and PostgreSQL (T7): an event
and its entrants read back as written, after the store is closed and opened again (a server
restart); registration holds the entry limit and the registration window, also when many
registrations race; bad rows and closed stores raise the log's error only."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from cardtable.server.events import EventRow, open_events
from cardtable.server.events.store import SqliteEvents, progress_text
from cardtable.server.migrations import HEAD, sqlite_revision
from cardtable.server.ports import LogError
from cardtable.server.store import open_log


def sqlite_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'log.sqlite3'}"


def postgres_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    url: str = request.getfixturevalue("pg_url")
    return url


ADAPTERS: dict[str, Callable[[pytest.FixtureRequest, Path], str]] = {"sqlite": sqlite_url, "postgres": postgres_url}


@pytest.fixture(params=sorted(ADAPTERS))
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    yield ADAPTERS[request.param](request, tmp_path)


def event(event_id: str = "ev1", **changes: object) -> EventRow:
    row = EventRow(id=event_id, name="Friday Spit", kind="swiss", game="spit", preset="standard", options={},
                   rated=True, rounds=3, deals=None, starts_at=None, when_full=True, max_entrants=4, creator=7,
                   creator_name="Ana", status="open", created=time.time(), secret="ab" * 32)
    for key, value in changes.items():
        setattr(row, key, value)
    return row


def test_t7_an_event_reads_back_after_a_restart(url: str):
    log = open_log(url)  # the action log opens (and migrates) the same database
    events = open_events(url)
    row = event(options={"points": True}, starts_at=1.8e9, deals=None)
    events.create_event(row)
    assert events.register("ev1", 1, "Ana", 10.0) == "ok"
    assert events.register("ev1", 2, "Ben", 11.0) == "ok"
    assert events.register("ev1", 1, "Ana", 12.0) == "already"
    progress = {"rounds": [{"games": [["t1", 1, 2]]}], "note": "ünïcode ✓"}
    events.set_progress("ev1", "running", progress)
    events.close()
    log.close()

    again = open_events(url)  # the server started again
    back = again.event("ev1")
    assert back is not None and back.status == "running" and back.progress == progress
    assert (back.name, back.options, back.starts_at, back.rated, back.max_entrants) == (
        "Friday Spit", {"points": True}, 1.8e9, True, 4)
    assert [(e.account_id, e.username) for e in again.entrants("ev1")] == [(1, "Ana"), (2, "Ben")]
    assert [e.id for e in again.events(("running",))] == ["ev1"] and again.events(("open",)) == []
    assert [e.id for e in again.events_of(2)] == ["ev1"] and again.events_of(3) == []
    assert again.open_events_of(7) == 1 and again.open_events_of(8) == 0
    assert again.register("ev1", 3, "Cy", 13.0) == "closed"  # it has started
    assert again.unregister("ev1", 1) == "closed"
    assert again.register("nope", 3, "Cy", 13.0) == "missing"
    assert again.event("nope") is None
    again.close()


def test_t9_a_progress_written_only_over_the_row_it_was_read_from(url: str):
    """A progress written with the row as it was read (``was``) goes through only if the row
    still holds exactly that status and progress: what a runner paused past its role writes
    when it wakes (the row changed meanwhile) is refused, and nothing is written."""
    log = open_log(url)
    events = open_events(url)
    events.create_event(event())
    first = {"rounds": [{"number": 1, "games": []}]}
    assert events.set_progress("ev1", "running", first, was=("open", None))
    assert not events.set_progress("ev1", "running", {"rounds": []}, was=("open", None))
    assert not events.set_progress("ev1", "over", first, was=("running", progress_text({"rounds": []})))
    second = {"rounds": [{"number": 1, "games": []}, {"number": 2, "games": []}]}
    assert events.set_progress("ev1", "running", second, was=("running", progress_text(first)))
    back = events.event("ev1")
    assert back is not None and (back.status, back.progress) == ("running", second)
    assert not events.set_progress("missing", "running", first, was=("open", None))
    events.close()
    log.close()


def test_t7_the_entry_limit_and_unregistering(url: str):
    events = open_events(url)
    events.create_event(event(max_entrants=2))
    assert events.register("ev1", 1, "Ana", 1.0) == "ok"
    assert events.register("ev1", 2, "Ben", 2.0) == "ok"
    assert events.register("ev1", 3, "Cy", 3.0) == "full"
    assert events.unregister("ev1", 3) == "absent"
    assert events.unregister("ev1", 1) == "ok"
    assert events.register("ev1", 3, "Cy", 4.0) == "ok"
    assert [e.username for e in events.entrants("ev1")] == ["Ben", "Cy"]
    with pytest.raises(LogError):
        events.create_event(event())  # the same id twice: the log's error, nothing written
    with pytest.raises(ValueError):
        events.set_progress("ev1", "paused", None)
    events.close()


def test_t7_racing_registrations_never_pass_the_limit(url: str):
    """Twenty clients (each a connection of its own, as twenty server processes) register for the
    last three places at once: three get in."""
    first = open_events(url)
    first.create_event(event(max_entrants=3))
    clients = [open_events(url) for _ in range(20)]
    answers: list[str] = []
    barrier = threading.Barrier(len(clients))

    def enter(i: int) -> None:
        barrier.wait(timeout=60)
        for _ in range(200):  # a SQLite writer may find the file locked: it tries again, boundedly
            try:
                answers.append(clients[i].register("ev1", 100 + i, f"p{i}", float(i)))
                return
            except LogError:
                time.sleep(0.01)
        answers.append("gave up")

    threads = [threading.Thread(target=enter, args=(i,)) for i in range(len(clients))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=90)
    assert sorted(answers).count("ok") == 3 and answers.count("full") == 17
    assert len(first.entrants("ev1")) == 3
    for c in clients:
        c.close()
    first.close()


def test_t7_a_new_sqlite_file_is_at_the_head_and_a_bad_row_is_the_logs_error(tmp_path: Path):
    path = tmp_path / "new.sqlite3"
    events = SqliteEvents(path)
    assert sqlite_revision(events.db) == HEAD
    events.create_event(event())
    raw = sqlite3.connect(path, isolation_level=None)
    raw.execute("UPDATE events SET options = 'not json' WHERE id = 'ev1'")
    raw.close()
    with pytest.raises(LogError, match="unreadable"):
        events.event("ev1")
    events.close()
    with pytest.raises(LogError):
        events.entrants("ev1")  # closed
