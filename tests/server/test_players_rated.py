"""Rated and casual tables ("P-rated", docs/play-online.md): the choice made at creation is stored (SQLite and
PostgreSQL, migration 0003) and shown; only a rated table's result moves ratings, a person who
abandons a rated game ranks last, and bots have public ratings on the leaderboard."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from cardtable.core.game import Outcome
from cardtable.server import migrations
from cardtable.server.app import create_app
from cardtable.server.commands import Leave, Sit
from cardtable.server.hub import Hub
from cardtable.server.lobby import LobbyError
from cardtable.server.players import Players
from cardtable.server.store import Store

from .helpers import play_first_legal_to_end, receive_until, wait
from .players_fixtures import CHEAP, JSON, client, open_limits, signup
from .test_migrations import unversioned_database
from .test_protocol import hello


def test_p_rated_a_database_of_revision_0002_gains_rated_and_clock(tmp_path: Path):
    """Migration 0003: the tables stored before it are casual, without a clock; new ones keep both."""
    from alembic import command
    from sqlalchemy import create_engine
    from sqlalchemy.pool import StaticPool

    path = tmp_path / "older.sqlite3"
    db = unversioned_database(path)
    engine = create_engine("sqlite://", creator=lambda: db, poolclass=StaticPool)
    with engine.begin() as conn:
        command.upgrade(migrations.config(conn), "0002")
    assert migrations.sqlite_revision(db) == "0002"
    db.execute("INSERT INTO tables (id, game, preset, options, seed, bot_seed, host_hash, status, created)"
               " VALUES ('t', 'trex', 'standard', '{}', NULL, 1, 'h', 'open', 0.0)")
    db.close()
    store = Store(path)
    assert migrations.sqlite_revision(store.db) == migrations.HEAD  # 0003 and every revision after it
    old = store.table("t")
    assert old is not None and old.rated is False and old.clock is None
    table, _ = Hub(store).create("trex", None, {}, rated=True, clock={"move": 20, "bank": 10, "timeouts": 2})
    again = store.table(table.id)
    assert again is not None and again.rated is True and again.clock == {"move": 20.0, "bank": 10.0, "timeouts": 2}
    store.close()


def test_p_rated_the_choice_survives_a_restart_and_the_table_says_it(tmp_path: Path):
    path = tmp_path / "server.sqlite3"
    store = Store(path)
    table, _ = Hub(store).create("trash", None, {}, rated=True)
    casual, _ = Hub(store).create("trash", None, {})
    store.close()
    store = Store(path)
    hub = Hub(store)
    rated = hub.get(table.id)
    assert rated.row.rated and rated.row.clock is not None and not hub.get(casual.id).row.rated
    app = create_app(store, bot_delay=0.0, allow_hosts=("testserver",))
    with client(app) as c, c.websocket_connect(f"/ws/{table.id}") as ws:
        hello(ws)
        frame, _ = receive_until(ws, "clock")
        assert frame["rated"] is True and frame["clock"] == {"move": 15.0, "bank": 30.0, "timeouts": 3}
    store.close()


def test_p_rated_postgres_stores_rated_and_clock(pg_url: str):
    from cardtable.server.pglog import PgLog

    log = PgLog(pg_url)
    try:
        table, _ = Hub(log).create("trex", None, {}, rated=True)
        row = log.table(table.id)
        assert row is not None and row.rated is True and row.clock == {"move": 15.0, "bank": 30.0, "timeouts": 3}
        casual, _ = Hub(log).create("spit", None, {})
        row = log.table(casual.id)
        assert row is not None and row.rated is False and row.clock is None
    finally:
        log.close()


def _served(tmp: Path) -> tuple[Any, Store, Players]:
    store = Store(tmp / "server.sqlite3")
    players = Players(tmp / "server.sqlite3", log=store, hasher=CHEAP, limits=open_limits())
    app = create_app(store, bot_delay=0.0, allow_hosts=("testserver",), players=players, rate=1e6, burst=1e6)
    return app, store, players


def _play(c: Any, rated: bool, *, leave: bool = False, watch: bool = True) -> str:
    """Ana (logged in) against the "random" bot at a new Trash table, to the end (or she leaves
    at her first turn, and with ``watch`` a spectator watches the stand-ins to the end); the
    table's id."""
    body: dict[str, Any] = {"game": "trash", "options": {"target_size": 3}, "rated": rated, "clock": None}
    created = c.post("/api/tables", json=body, headers=JSON).json()
    table_id, host = created["table"]["id"], created["host"]
    token = c.post(f"/api/tables/{table_id}/sit", json={"seat": 0, "name": "Ana"}, headers=JSON).json()["token"]
    c.post(f"/api/tables/{table_id}/bot", json={"host": host, "seat": 1, "bot": "random"}, headers=JSON)
    assert c.post(f"/api/tables/{table_id}/start", json={"host": host}, headers=JSON).status_code == 200
    with c.websocket_connect(f"/ws/{table_id}") as ws:
        hello(ws, token)
        if leave:
            assert c.post(f"/api/tables/{table_id}/leave", json={"token": token}, headers=JSON).status_code == 200
        else:
            assert play_first_legal_to_end(ws, 0)["view"]["outcome"] is not None
    if leave and watch:  # the stand-ins play on: watch the game to its end
        with c.websocket_connect(f"/ws/{table_id}") as ws:
            hello(ws)
            for _ in range(5000):
                frame = ws.receive_json()
                if frame["type"] == "state" and frame["view"]["outcome"] is not None:
                    break
    return table_id


def test_p_rated_only_a_rated_table_moves_ratings_and_bots_are_on_the_leaderboard(tmp_path: Path):
    app, store, players = _served(tmp_path)
    with client(app) as c:
        signup(c, "Ana")
        casual = _play(c, rated=False)
        profile = c.get("/api/players/profile/Ana").json()
        assert profile["games"]["trash"]["rating"] is None and profile["results"][0]["rated"] is False
        assert c.get("/api/players/leaderboard/trash").json()["rows"] == []
        rated = _play(c, rated=True)
        profile = c.get("/api/players/profile/Ana").json()
        assert [r["table"] for r in profile["results"]] == [rated, casual]
        assert profile["results"][0]["rated"] is True and profile["games"]["trash"]["rating"]["games"] == 1
        board = c.get("/api/players/leaderboard/trash").json()["rows"]
        assert {(r["username"], r["kind"]) for r in board} == {("Ana", "person"), ("random", "bot")}
    store.close()
    players.close()


def test_p_rated_one_person_holds_one_seat_of_a_rated_table_and_playing_oneself_rates_nothing(tmp_path: Path):
    """A logged-in person who holds a seat of a rated table is refused a second (409 one_seat),
    so nobody raises a rating by playing themselves; at a casual table two seats are allowed.
    Should one account hold two seats all the same (linked by another way in), the result is
    kept and moves no rating."""
    app, store, players = _served(tmp_path)
    with client(app) as c:
        signup(c, "Ana")
        for rated in (True, False):
            body: dict[str, Any] = {"game": "trash", "options": {"target_size": 3}, "rated": rated, "clock": None}
            table_id = c.post("/api/tables", json=body, headers=JSON).json()["table"]["id"]
            first = c.post(f"/api/tables/{table_id}/sit", json={"seat": 0, "name": "Ana"}, headers=JSON)
            assert first.status_code == 200
            second = c.post(f"/api/tables/{table_id}/sit", json={"seat": 1, "name": "Ana 2"}, headers=JSON)
            if rated:
                assert second.status_code == 409 and second.json()["error"] == "one_seat", second.text
                assert app.state.hub.get(table_id).row.seats[1].kind == "open"  # nothing changed
            else:
                assert second.status_code == 200
        ana = players.accounts.named("Ana")
        assert ana is not None
        done = players.record_result("self", "trash", [ana.id, ana.id], Outcome((1.0, 0.0), (0,), "TR-20"))
        assert done.new and done.changes == {} and players.store.rating(ana.id, "trash") is None
    store.close()
    players.close()


def test_p_rated_two_sits_of_one_account_sent_at_once_take_one_seat(tmp_path: Path):
    """A logged-in person's two sits of one rated table, both sent before either is answered (the
    seats linked to the account show neither yet): the table takes the first and refuses the
    second (409 one_seat), in its order of commands. A seat opened again before the start may be
    taken by the account again, and another account sits beside it."""
    store = Store(tmp_path / "t.sqlite3")
    hub = Hub(store)

    async def main() -> None:
        table, _ = hub.create("trash", None, {}, rated=True)
        first, second = await asyncio.gather(table.ask(Sit(0, "Ana", None, 7)), table.ask(Sit(1, "Ana", None, 7)),
                                             return_exceptions=True)
        assert isinstance(first, dict) and isinstance(second, LobbyError) and second.code == "one_seat"
        assert [s.kind for s in table.row.seats] == ["human", "open"]
        await table.ask(Leave(first["token"]))  # before the start: the seat is open again
        await table.ask(Sit(1, "Ana", None, 7))
        await table.ask(Sit(0, "Ben", None, 8))
        casual, _ = hub.create("trash", None, {})
        await asyncio.gather(casual.ask(Sit(0, "Ana", None, 7)), casual.ask(Sit(1, "Ana", None, 7)))

    asyncio.run(main())
    store.close()


def test_p_rated_a_person_who_leaves_a_rated_game_ranks_last(tmp_path: Path):
    app, store, players = _served(tmp_path)
    with client(app) as c:
        signup(c, "Ana")
        table_id = _play(c, rated=True, leave=True)
        result = c.get("/api/players/profile/Ana").json()["results"][0]
        assert result["table"] == table_id and result["abandoned"] is True and result["rank"] == 2
        stored = players.store.result(table_id)
        assert stored is not None and stored.rated and stored.abandoned == (0,)
        bot = players.accounts.bot("random")
        assert players.store.rating(bot.id, "trash") is not None  # the bot that won is rated
        stand_in = players.accounts.named("sensible")
        assert stand_in is None or players.store.rating(stand_in.id, "trash") is None  # the stand-in is not
    store.close()
    players.close()


def test_p_rated_a_game_left_while_nobody_watches_is_played_to_its_end_and_recorded(tmp_path: Path):
    """A rated game goes on without anyone at the table: Ana leaves and closes her page, the
    stand-in and the bot play on with nobody watching, and the result is recorded with Ana last
    (a casual table of bots alone waits for a spectator; leaving a rated game never escapes its
    result)."""
    app, store, players = _served(tmp_path)
    with client(app) as c:
        signup(c, "Ana")
        table_id = _play(c, rated=True, leave=True, watch=False)
        stored = wait("the result is recorded", lambda: players.store.result(table_id), deadline=120)
        assert stored.rated and stored.abandoned == (0,)
        assert c.get(f"/api/tables/{table_id}").json()["table"]["status"] == "over"
    store.close()
    players.close()


def test_p_rated_a_person_without_an_account_who_left_ranks_last_after_a_restart_too(tmp_path: Path):
    """The log says who left: a seat a bot holds whose moves a person made (its client seqs), so
    the result is right when the table was loaded again since (its memory of who left is gone);
    the stand-in that finished the game is not rated in the person's place, and nobody is rated
    against a person without an account."""
    from cardtable.server.commands import AddBot, StepBot

    store = Store(tmp_path / "server.sqlite3")
    players = Players(tmp_path / "server.sqlite3", log=store, hasher=CHEAP, limits=open_limits())
    table, _ = Hub(store).create("trash", None, {"target_size": 3}, rated=True)
    token = table.sit(0, "Ana")
    table.now(AddBot(1, "random"))
    table.start(7)
    m = table.match
    assert m is not None
    for _ in range(100):
        if m.to_move() == 0:
            break
        table.now(StepBot())
    assert table.act(0, 1, str(m.state.legal_actions(0)[0]))["type"] == "ack"
    table.leave(token)
    table.s.left.clear()  # as after a restart: the table's memory of who left is gone
    for _ in range(5000):
        if m.is_over:
            break
        table.now(StepBot())
    assert m.is_over
    done = players.record_table(table)
    assert done is not None and done.ranks[0] == 2
    stored = players.store.result(table.id)
    assert stored is not None and stored.abandoned == (0,) and stored.rated
    stand_in = players.store.account_named("bot", table.row.seats[0].name.casefold())
    assert stand_in is None or players.store.rating(stand_in.id, "trash") is None
    # Ana had no account: the bot is not rated against her (ratings move only among accounts)
    assert players.store.rating(players.accounts.bot("random").id, "trash") is None
    store.close()
    players.close()


def _ana_against_random(hub: Hub, **create: Any) -> tuple[Any, Any]:
    """A started Trash table (target size 3): Ana, who never connects, at seat 0, "random" at seat 1."""
    from cardtable.server.commands import AddBot

    table, _ = hub.create("trash", None, {"target_size": 3}, **create)
    table.sit(0, "Ana")
    table.now(AddBot(1, "random"))
    table.start(7)
    assert table.match is not None
    return table, table.match


@pytest.mark.parametrize("hold", [60.0, 0.0])
def test_p_clock_r5_a_person_whose_clock_ran_out_three_times_ranks_last(tmp_path: Path, monkeypatch: Any,
                                                                        hold: float):
    """Repeated timeouts count as abandoning: the seat ranks last in the recorded result. R5 at a
    clocked table: a person away past the hold (here: never came; ``hold`` 0) gets no stand-in
    moving for them at once; their clock runs as if they were there, so the game is not rated as
    theirs by a bot's play."""
    from cardtable.server import moveclock
    from cardtable.server.commands import MoveTimeUp, StepBot

    class Now:
        t = 1000.0

        def monotonic(self) -> float:
            return self.t

    now = Now()
    monkeypatch.setattr(moveclock, "time", now)
    store = Store(tmp_path / "server.sqlite3")
    players = Players(tmp_path / "server.sqlite3", log=store, hasher=CHEAP, limits=open_limits())
    table, m = _ana_against_random(Hub(store, hold=hold), rated=True)
    for _ in range(5000):
        if m.is_over:
            break
        if table.row.seats[0].kind == "human" and m.to_move() == 0:
            before = m.seq
            table.now(StepBot())  # no stand-in moves for her, away or not: her clock decides
            assert m.seq == before
            now.t += 100.0
            table.now(MoveTimeUp(0, m.seq))
        else:
            table.now(StepBot())
    assert m.is_over and table.row.seats[0].kind == "bot" and table.s.moves.timeouts == {0: 3}
    done = players.record_table(table)
    assert done is not None and done.ranks[0] == 2 and players.store.result(table.id).abandoned == (0,)  # type: ignore[union-attr]
    store.close()
    players.close()


def test_r5_p_rated_an_away_persons_stand_in_counts_its_moves_as_timeouts_without_a_clock(tmp_path: Path):
    """R5 at a rated table without a clock: the stand-in moves for a person away past the hold,
    and each of its moves counts as a timeout; the third is abandoning (ranked last). At a casual
    table the stand-in plays for them as long as they are away, and nothing is counted."""
    from cardtable.server.commands import StepBot

    store = Store(tmp_path / "server.sqlite3")
    players = Players(tmp_path / "server.sqlite3", log=store, hasher=CHEAP, limits=open_limits())
    for rated in (True, False):
        table, m = _ana_against_random(Hub(store, hold=0.0), rated=rated, clock=None)
        for _ in range(5000):
            if m.is_over:
                break
            assert table.now(StepBot()) is not False  # a bot or the stand-in moves every time
        assert m.is_over
        if rated:
            assert table.row.seats[0].kind == "bot" and 0 in table.left_seats()
            done = players.record_table(table)
            assert done is not None and done.ranks[0] == 2
        else:
            assert table.row.seats[0].kind == "human" and not table.left_seats() and not table.s.moves.timeouts
    store.close()
    players.close()


def test_s3_a_game_that_ended_just_before_a_kill_is_recorded_and_marked_over_at_the_next_start(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """S3: the process dies after a rated game's last move is stored, before its result is
    recorded (here: recording fails, as a kill at that instant leaves it). The log keeps the table
    ``playing``; at the next start the table is loaded, marked over and its result recorded, once:
    Ana's profile shows the game rated, and a third start changes nothing."""
    app, store, players = _served(tmp_path)
    real = Players.record_table

    def killed(self: Players, table: Any, rated: bool | None = None) -> None:
        raise RuntimeError("the process was killed here")

    monkeypatch.setattr(Players, "record_table", killed)
    with client(app) as c:
        signup(c, "Ana")
        table_id = _play(c, rated=True)
        row = store.table(table_id)
        assert row is not None and row.status == "playing"  # "over" is written only after the result
        assert players.store.result(table_id) is None
    store.close()
    monkeypatch.setattr(Players, "record_table", real)
    for _ in range(2):  # the next start records it; the one after finds nothing to do
        app, store, players = _served(tmp_path)
        with client(app) as c:
            profile = c.get("/api/players/profile/Ana").json()
        assert [(r["table"], r["rated"]) for r in profile["results"]] == [(table_id, True)]
        assert profile["games"]["trash"]["rating"]["games"] == 1
        row = store.table(table_id)
        assert row is not None and row.status == "over"
        store.close()
