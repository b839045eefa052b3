"""The players' tables on PostgreSQL (:class:`PgAccountStore`) against the SQLite adapter: the same
calls give the same answers; two server processes on one database share accounts, sessions and
results; the leaderboard's idle sigma in SQL is :func:`idle_sigma`'s (real PostgreSQL)."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from argon2 import PasswordHasher

from cardtable.core.game import Outcome
from cardtable.server.players import Players
from cardtable.server.players.idle import DAY, idle_sigma
from cardtable.server.players.store import AccountStore, NameTaken, ResultRow, SqlPlayerData

CHEAP = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)


@pytest.fixture
def log(pg_url: str) -> Iterator[Any]:
    from cardtable.server.pglog import PgLog

    opened = PgLog(pg_url)
    yield opened
    opened.close()


def pg_store(log: Any) -> SqlPlayerData:
    from cardtable.server.players.pgstore import PgAccountStore

    return PgAccountStore(log)


def story(store: SqlPlayerData) -> list[Any]:
    """Every call of the port on ``store``, in one story: what each answered."""
    out: list[Any] = []
    ana = store.add_account("person", "Ana", "ana", "hash-a")
    bob = store.add_account("person", "Bob", "bob", None)
    bot = store.add_account("bot", "hard", "hard", None)
    out.append([(a.id, a.kind, a.username, a.password, a.operator) for a in (ana, bob, bot)])
    with pytest.raises(NameTaken):
        store.add_account("person", "ANA", "ana", None)
    out.append(store.add_account("bot", "Ana", "ana", None).kind)  # a bot may share a person's name
    store.set_password(bob.id, "hash-b")
    store.set_operator(ana.id, True)
    named = store.account_named("person", "bob")
    out.append((named.password if named else None, store.account(ana.id).operator,  # type: ignore[union-attr]
                store.account(999)))
    store.add_session("d1", ana.id, 10.0, 100.0)
    store.add_session("d2", bob.id, 10.0, 50.0)
    out.append((store.session("d1"), store.session("nope")))
    out.append(store.drop_expired(60.0))
    store.drop_session("d1")
    out.append((store.session("d1"), store.session("d2")))
    out.append([store.link_seat("t1", 0, ana.id, "addr", "tok0"), store.link_seat("t1", 0, ana.id, "addr", "tok0"),
                store.link_seat("t1", 1, bob.id, "addr", None), store.link_seat("t1", 1, bob.id, "addr", "tokB"),
                store.link_seat("t1", 2, bot.id, None, None)])
    out.append({s: (link.account_id, link.address, link.token) for s, link in store.seat_links("t1").items()})
    from cardtable.server.players.store import RatingRow

    first = ResultRow("t1", "trex", True, 1_000.0, (1, 2, 3), (), "best_total")
    rows = [RatingRow(ana.id, "trex", 30.0, 2.0, 1), RatingRow(bob.id, "trex", 29.0, 2.5, 1)]
    seen: list[dict[int, Any]] = []

    def rate(new: list[RatingRow]) -> Any:
        return lambda before: seen.append(before) or new

    out.append(store.save_result(first, [ana.id, bob.id], rate(rows)))
    out.append(store.save_result(first, [ana.id], rate([RatingRow(ana.id, "trex", 99.0, 1.0, 9)])))  # once per table
    store.link_seat("t2", 0, ana.id, "addr", None)
    store.link_seat("t2", 1, bob.id, "addr", None)
    second = ResultRow("t2", "trex", True, 1_000.0 + 400 * DAY, (2, 1), (0,), "best_total")
    out.append(store.save_result(second, [ana.id, bob.id], rate([RatingRow(bob.id, "trex", 28.0, 2.0, 2)])))
    out.append(seen)  # what each result was rated from: nothing, then the first's rows
    out.append(store.result("t1"))
    out.append([(r, seat) for r, seat in store.results_of(ana.id, 10, 0)])
    out.append(store.played(bob.id))
    out.append((store.rating(ana.id, "trex"), store.ratings_of(bob.id), store.rating(ana.id, "spit")))
    out.append(store.history(bob.id, "trex"))
    for now in (1_000.0, 1_000.0 + 30 * DAY, 1_000.0 + 400 * DAY):  # Ana idle since 1,000 s, Bob since day 400
        out.append([(a.username, r.mu, r.sigma) for a, r in store.leaderboard("trex", 10, 0, now)])
    out.append(store.leaderboard("trex", 1, 1, 1_000.0)[0][0].username)
    out.append(store.meetings(ana.id, 0.0))
    out.append(len(store.secret()))
    relabelled = store.delete_account(bob.id, "player 1")
    out.append([(link.table_id, link.seat, link.account_id, link.label) for link in relabelled])
    out.append((store.account(bob.id), store.ratings_of(bob.id), store.history(bob.id, "trex")))
    return out


def test_the_postgres_players_store_answers_as_the_sqlite_one(tmp_path: Path, log: Any):
    """Players on PostgreSQL: every call of the port, in one story, answers on PostgreSQL as on
    SQLite (ids, names taken, sessions, seat links, results once per table, ratings, history,
    the leaderboard by idle sigma at three times, meetings, deleting an account)."""
    sqlite = AccountStore(tmp_path / "players.sqlite3")
    try:
        expected = story(sqlite)
    finally:
        sqlite.close()
    assert story(pg_store(log)) == expected
    # Ana first while her sigma is as she left it; 400 idle days later Bob, who played on, is
    assert [u for u, _, _ in expected[-8]] == ["Ana", "Bob"] and [u for u, _, _ in expected[-6]] == ["Bob", "Ana"]


def test_the_leaderboards_idle_sigma_in_sql_is_the_pythons(log: Any):
    """Idle ratings on PostgreSQL: the database's idle_sigma equals idle.idle_sigma on a grid of
    sigmas and idle times (a clock gone back, a year, past the cap)."""
    pg_store(log)
    cases = [(s, last, now) for s in (0.5, 1.0, 3.0, 8.0, 9.0) for last, now in
             ((0.0, 0.0), (0.0, DAY), (0.0, 30 * DAY), (0.0, 365 * DAY), (0.0, 5000 * DAY), (50 * DAY, 10 * DAY))]
    with log.connection() as conn:
        for sigma, last, now in cases:
            (got,) = conn.execute("SELECT idle_sigma(%s, %s, %s)", (sigma, last, now)).fetchone()
            assert got == pytest.approx(idle_sigma(sigma, last, now), rel=1e-12), (sigma, last, now)


def test_two_processes_on_one_database_share_accounts_sessions_and_each_result_once(pg_url: str):
    """Players on PostgreSQL, two server processes: an account made through one logs in through
    the other, a session made by one is known to the other, and the same table's result recorded
    by both at once is recorded once (one rating change)."""
    from cardtable.server.pglog import PgLog
    from cardtable.server.players.pgstore import PgAccountStore

    logs = [PgLog(pg_url), PgLog(pg_url)]
    try:
        a, b = (Players(None, store=PgAccountStore(lg), log=lg, hasher=CHEAP) for lg in logs)
        ana = asyncio.run(a.accounts.create("Ana", "a long password 1"))
        assert asyncio.run(b.accounts.authenticate("ana", "a long password 1")).id == ana.id
        cookie = a.sessions.start(ana.id)
        assert b.sessions.account_id(cookie) == ana.id
        assert a.sessions.csrf(cookie) == b.sessions.csrf(cookie)  # one secret for both
        bob = asyncio.run(b.accounts.create("Bob", "a long password 2"))
        outcome = Outcome((1.0, 0.0), (0,), "SP-25")
        done: list[Any] = []
        threads = [threading.Thread(target=lambda p=p: done.append(p.record_result("t9", "spit", [ana.id, bob.id],
                                                                                   outcome))) for p in (a, b)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=30)
        assert sorted(r.new for r in done) == [False, True]
        row = a.store.rating(ana.id, "spit")
        assert row is not None and row.games == 1
        assert b.leaderboard("spit")["rows"][0]["username"] == "Ana"
        assert json.loads(json.dumps(b.profile("Ana")))["games"]["spit"]["played"] == 1
    finally:
        for lg in logs:
            lg.close()


def test_two_processes_recording_one_accounts_tables_at_once_apply_every_change(pg_url: str):
    """Players on PostgreSQL, two server processes: each records 20 rated tables of the same two
    accounts (a bot level plays at many tables on every node) at the same time. Every table's
    change is applied on top of the one before, whichever process recorded it: 40 games, 40
    history points numbered 1 to 40 (a rating read outside the write's transaction lost changes)."""
    from cardtable.server.pglog import PgLog
    from cardtable.server.players.pgstore import PgAccountStore

    logs = [PgLog(pg_url), PgLog(pg_url)]
    try:
        nodes = [Players(None, store=PgAccountStore(lg), log=lg, hasher=CHEAP) for lg in logs]
        ana = nodes[0].store.add_account("person", "Ana", "ana", None).id
        win = Outcome((1.0, 0.0), (0,), "SP-25")
        failed: list[BaseException] = []

        def record(k: int) -> None:
            try:
                for i in range(20):
                    nodes[k].record_result(f"n{k}-{i}", "spit", [ana, "hard"], win)
            except BaseException as exc:  # reported below
                failed.append(exc)

        threads = [threading.Thread(target=record, args=(k,)) for k in (0, 1)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
        assert not failed and not any(t.is_alive() for t in threads)
        row = nodes[0].store.rating(ana, "spit")
        assert row is not None and row.games == 40
        assert [h.games for h in nodes[1].store.history(ana, "spit")] == list(range(1, 41))
    finally:
        for lg in logs:
            lg.close()
