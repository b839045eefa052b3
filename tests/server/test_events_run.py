"""Events run over the server's tables, in the test process (T8, T9, T10): a Swiss event is
paired round after round as games end, with a bye and a no-show; a duplicate Trex event deals
the same cards at every table from the event's commitments, each record verifies, and no
comparison is published before every table has finished the deal; a restart in the middle of a
round loses nothing."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from cardtable.records.fairness import verify
from cardtable.server.commands import Act, Attach, Fan, Leave
from cardtable.server.events.routes import record_results
from cardtable.server.events.runner import Runner, round_deal, seat_token
from cardtable.server.events.service import Events
from cardtable.server.events.store import EventRow, SqliteEvents
from cardtable.server.hub import Hub
from cardtable.server.players.accounts import Account
from cardtable.server.players.store import RatingRow
from cardtable.server.store import Store

DEADLINE = 90.0


@dataclass
class Server:
    """One server process's parts over the database ``path``."""

    path: Path
    no_show: float = 60.0
    store: Store = field(init=False)
    hub: Hub = field(init=False)
    events: Events = field(init=False)
    runner: Runner = field(init=False)

    def __post_init__(self) -> None:
        self.store = Store(self.path)
        self.hub = Hub(self.store, bot_delay=0.0, hold=None)
        self.events = Events(SqliteEvents(self.path))
        self.runner = Runner(self.events, self.hub, no_show=self.no_show, tick=0.05)
        self.hub.resume_bots()

    def close(self) -> None:
        self.hub.close_all()
        self.events.store.close()
        self.store.close()


class People:
    """Scripted people: each connects to their table's seat and plays a random legal action
    whenever it is their turn. ``absent``: accounts that never come (no-shows)."""

    def __init__(self, server: Server, event_id: str, absent: set[int] = frozenset()) -> None:  # type: ignore[assignment]
        self.server = server
        self.event_id = event_id
        self.absent = absent
        self.rng = random.Random(5)
        self.seq = 0

    async def play(self) -> None:
        row = self.server.events.store.event(self.event_id)
        assert row is not None and row.progress is not None
        rnd = row.progress["rounds"][-1]
        for g in rnd["games"]:
            table = self.server.hub.find(g["table"])
            assert table is not None
            for seat, player in enumerate(g["players"]):
                if not player.startswith("a") or int(player[1:]) in self.absent:
                    continue
                if table.row.seats[seat].kind != "human":
                    continue
                # the token the entrant is given opens this seat
                assert table.seat_for_token(seat_token(row.secret, table.id, seat)) == seat
                if seat not in table.players and table.row.status != "over":
                    await table.ask(Attach(f"p-{table.id}-{seat}", seat, None, "en"))
                match = table.match
                if match is not None and not match.is_over and match.to_move() == seat and table.settled:
                    self.seq += 1
                    action = self.rng.choice(match.state.legal_actions())
                    await table.ask(Act(seat, self.seq, str(action)))
                    await table.ask(Fan())


async def until(what: str, done: Callable[[], bool], step: Callable[[], Awaitable[None]]) -> None:
    """``step()`` until ``done()``, within a generous deadline."""
    end = time.monotonic() + DEADLINE
    while not done():
        assert time.monotonic() < end, f"not done within {DEADLINE} s: {what}"
        await step()
        await asyncio.sleep(0.01)


def accounts(n: int) -> list[Account]:
    return [Account(i + 1, "person", f"player{i + 1}") for i in range(n)]


async def short_duplicate(server: Server, name: str) -> tuple[EventRow, People]:
    """A duplicate Trex event of one round of 2 deals, five people registered (two tables with the
    bots), and the people's script."""
    people = accounts(5)
    row = await server.events.create(people[0], {"name": name, "kind": "duplicate", "game": "trex", "deals": 2,
                                                 "rounds": 1, "max_entrants": 5}, "ip")
    for who in people:
        await server.events.register(row.id, who, "ip")
    return row, People(server, row.id)


def test_t8_t13_a_swiss_event_runs_from_registration_to_final_standings(tmp_path: Path):
    """Five people, three rounds of two-player Trash (one hand each): a bye each round to the
    lowest-ranked player without one, the next round paired when the last game ends, no pair
    twice; one person never comes: they lose both their games by forfeit and are dropped after
    two no-shows."""

    async def main() -> None:
        server = Server(tmp_path / "server.sqlite3", no_show=2.0)  # the present attach well within 2 s
        people = accounts(5)
        row = await server.events.create(people[0], {"name": "Trash night", "kind": "swiss", "game": "trash",
                                               "options": {"max_hands": 1}, "rounds": 3, "max_entrants": 5}, "ip")
        for who in people:
            assert await server.events.register(row.id, who, "ip") == "ok"
        script = People(server, row.id, absent={5})

        async def step() -> None:
            await server.runner.step()
            now = server.events.store.event(row.id)
            if now is not None and now.status == "running":
                await script.play()

        await until("the event ends", lambda: server.events.store.event(row.id).status == "over", step)  # type: ignore[union-attr]
        final = server.events.store.event(row.id)
        assert final is not None and final.progress is not None
        rounds = final.progress["rounds"]
        assert len(rounds) == 3
        pairs = [frozenset(g["players"]) for r in rounds for g in r["games"]]
        assert len(pairs) == len(set(pairs))  # no pair twice
        byes = [r["bye"] for r in rounds]
        assert None not in byes[:2] and len(set(b for b in byes if b)) == len([b for b in byes if b])
        assert "a5" in final.progress["dropped"] and final.progress["no_shows"]["a5"] == 2
        forfeits = [g for r in rounds for g in r["games"] if g["forfeit"]]
        assert forfeits and all(g["points"][g["players"].index("a5")] == 0.0 for g in forfeits)
        standings = final.progress["final"]
        assert standings[0]["place"] == 1 and len(standings) == 5
        assert sum(s["score"] for s in standings) == sum(
            sum(g["points"]) for r in rounds for g in r["games"]) + sum(1 for b in byes if b)
        listed = {t["id"] for t in server.hub.listing()}
        for r in rounds:  # every game's table is kept, finished ones with their record
            for g in r["games"]:
                if g["forfeit"]:  # T13: closed without play, not left open in the lobby
                    assert g["table"] in server.runner.forfeited and g["table"] not in server.hub.tables
                    assert g["table"] not in listed
                    continue
                table = server.hub.find(g["table"])
                assert table is not None and table.row.status == "over"
        again = Runner(server.events, server.hub, tick=0.05)  # a restart knows them again
        assert again.forfeited == {g["table"] for r in rounds for g in r["games"] if g["forfeit"]}
        server.close()

    asyncio.run(main())


def test_t10_a_duplicate_event_deals_the_same_cards_at_every_table(tmp_path: Path):
    """Five people and three bots on two tables of Complex Trex (8 deals), one round: every
    table deals the cards of the round's committed protocol (each record verifies, with the
    server seed whose commitment was public from the event's creation); a deal's comparison is
    published only once both tables have finished it; the final table is the matchpoints."""

    async def main() -> None:
        server = Server(tmp_path / "server.sqlite3")
        people = accounts(5)
        row = await server.events.create(people[0], {"name": "Duplicate", "kind": "duplicate", "game": "trex",
                                               "preset": "complex", "rounds": 1, "max_entrants": 5}, "ip")
        commitment = round_deal(row, 1).commitment()
        for who in people:
            await server.events.register(row.id, who, "ip")
        script = People(server, row.id)
        seen_early = []

        async def step() -> None:
            await server.runner.step()
            now = server.events.store.event(row.id)
            if now is None or now.status != "running":
                return
            rnd = now.progress["rounds"][-1]  # type: ignore[index]
            played = []
            for g in rnd["games"]:
                t = server.hub.find(g["table"])
                assert t is not None
                played.append({d for d, *_ in t.match.state.view(None).deal_scores} if t.match else set())
            published = {b["deal"] for b in now.progress["boards"]}  # type: ignore[index]
            seen_early.extend(d for d in published if not all(d in p for p in played))
            await script.play()

        await until("the event ends", lambda: server.events.store.event(row.id).status == "over", step)  # type: ignore[union-attr]
        assert not seen_early  # no deal compared before both tables finished it
        final = server.events.store.event(row.id)
        assert final is not None and final.progress is not None
        field_ids = [p["id"] for p in final.progress["field"]]
        assert len(field_ids) == 8 and sum(1 for p in final.progress["field"] if "bot" in p) == 3
        games = final.progress["rounds"][0]["games"]
        records = []
        for g in games:
            table = server.hub.find(g["table"])
            assert table is not None and table.match is not None and table.match.is_over
            record = table.match.record()
            verify(record)  # the deals follow from the seeds
            assert record.fairness is not None and record.fairness.server_commitment == commitment
            records.append(record)
        deals = [[d.to_json() for d in r.fairness.deals] for r in records]  # type: ignore[union-attr]
        assert len(deals[0]) == 8 and deals[0] == deals[1]  # the same cards at both tables
        assert {b["deal"] for b in final.progress["boards"]} == set(range(1, 9))
        standing = final.progress["final"]
        assert sorted(s["player"] for s in standing) == sorted(field_ids)
        assert sum(s["matchpoints"] for s in standing) == 8 * 4 * 1.0  # per deal and hand, 1 point shared
        assert all(s["top"] == 8.0 for s in standing)
        server.close()

    asyncio.run(main())


def test_t10_h_a_duplicate_rounds_results_are_recorded_once_every_table_has_finished(tmp_path: Path):
    """T10, hidden cards: two tables of one duplicate round play the same deals; a table that
    finishes first has its result recorded (a profile's line, a rating) only once the other has
    finished too, since the slower table's players could read how the same deals went. Every
    table is recorded once, with the server's own record after the runner's."""

    async def main() -> None:
        server = Server(tmp_path / "server.sqlite3")
        recorded: list[tuple[str, bool]] = []  # (table, whether every table of the round was over then)
        tables: list[str] = []

        def server_record(table: Any) -> None:
            over = [server.hub.find(t) for t in tables]
            recorded.append((table.id, all(t is not None and t.match is not None and t.match.is_over for t in over)))

        server.hub.finished = server_record
        record_results(server.hub, server.runner)
        row, script = await short_duplicate(server, "Duplicate")

        async def step() -> None:
            await server.runner.step()
            now = server.events.store.event(row.id)
            if now is not None and now.progress and now.progress.get("rounds") and not tables:
                tables.extend(g["table"] for g in now.progress["rounds"][0]["games"])
            await script.play()

        await until("the event ends", lambda: server.events.store.event(row.id).status == "over", step)  # type: ignore[union-attr]
        assert len(tables) == 2
        assert sorted(t for t, _ in recorded) == sorted(tables)  # each once
        assert all(every for _, every in recorded)
        server.close()

    asyncio.run(main())


def test_t9_a_restart_in_the_middle_of_a_round_loses_nothing(tmp_path: Path):
    """A Swiss event of four people, two rounds: the server stops while round 1 is played and
    a new one starts on the same database: the same round and tables go on, nothing is paired
    twice, and the event ends."""

    async def main() -> None:
        path = tmp_path / "server.sqlite3"
        server = Server(path)
        people = accounts(4)
        row = await server.events.create(people[0], {"name": "Restart cup", "kind": "swiss", "game": "trash",
                                               "options": {"max_hands": 1}, "rounds": 2, "max_entrants": 4}, "ip")
        for who in people:
            await server.events.register(row.id, who, "ip")
        script = People(server, row.id)

        def actions_played() -> int:
            now = server.events.store.event(row.id)
            if now is None or not now.progress:
                return 0
            return sum(len(server.store.actions(g["table"])) for g in now.progress["rounds"][0]["games"])

        async def step() -> None:
            await server.runner.step()
            if server.events.store.event(row.id).status == "running":  # type: ignore[union-attr]
                await script.play()

        await until("round 1 under way", lambda: actions_played() >= 4, step)
        before = server.events.store.event(row.id)
        assert before is not None and before.progress is not None and len(before.progress["rounds"]) == 1
        tables = [g["table"] for g in before.progress["rounds"][0]["games"]]
        logged = {t: len(server.store.actions(t)) for t in tables}
        server.close()

        server = Server(path)  # the restart
        script.server = server
        again = server.events.store.event(row.id)
        assert again is not None and again.progress == before.progress
        for t in tables:
            assert len(server.store.actions(t)) == logged[t]  # every acknowledged action is there
        await until("the event ends", lambda: server.events.store.event(row.id).status == "over", step)  # type: ignore[union-attr]
        final = server.events.store.event(row.id)
        assert final is not None and final.progress is not None
        assert [g["table"] for g in final.progress["rounds"][0]["games"]] == tables
        pairs = [frozenset(g["players"]) for r in final.progress["rounds"] for g in r["games"]]
        assert len(pairs) == 4 == len(set(pairs))
        server.close()

    asyncio.run(main())


@pytest.mark.parametrize("leavers", [("a2",), ("a1", "a2")])
def test_t8_a_person_who_leaves_a_swiss_game_in_progress_loses_it_whatever_the_stand_in_does(
        tmp_path: Path, leavers: tuple[str, ...]):
    """Leaving a game in progress loses it (docs/tournaments.md; the ratings rank the leaver last
    too): the stand-in that finishes the seat scores nothing for the person, the one who stayed
    gets the point, and two who both left both lose."""

    async def main() -> None:
        server = Server(tmp_path / "server.sqlite3")
        people = accounts(2)
        row = await server.events.create(people[0], {"name": "Leavers", "kind": "swiss", "game": "trash",
                                               "options": {"max_hands": 1}, "rounds": 1, "max_entrants": 2}, "ip")
        for who in people:
            assert await server.events.register(row.id, who, "ip") == "ok"
        script = People(server, row.id)
        gone: set[str] = set()

        async def step() -> None:
            await server.runner.step()
            now = server.events.store.event(row.id)
            if now is None or now.status != "running":
                return
            g = now.progress["rounds"][-1]["games"][0]  # type: ignore[index]
            table = server.hub.find(g["table"])
            assert table is not None
            if table.row.status == "playing":
                for seat, player in enumerate(g["players"]):
                    if player in leavers and player not in gone:
                        await table.ask(Leave(seat_token(now.secret, table.id, seat)))
                        gone.add(player)
            script.absent = {int(p[1:]) for p in gone}  # the one who left plays no more
            await script.play()

        await until("the event ends", lambda: server.events.store.event(row.id).status == "over", step)  # type: ignore[union-attr]
        final = server.events.store.event(row.id)
        assert final is not None and final.progress is not None
        (game,) = final.progress["rounds"][0]["games"]
        assert gone == set(leavers) and not game["forfeit"]
        assert game["points"] == [0.0 if p in leavers else 1.0 for p in game["players"]]
        scores = {s["name"]: s["score"] for s in final.progress["final"]}
        assert scores == {"player1": 0.0 if "a1" in leavers else 1.0, "player2": 0.0}, scores
        server.close()

    asyncio.run(main())


def test_t8_bots_fill_a_swiss_field_and_play_each_other(tmp_path: Path):
    """Two people and bots filling a field of six: round 1 pairs the first bot with the fourth (the
    top half against the bottom half), and that game of two bots is played too (the event watches
    its tables: a table of bots alone would wait for a spectator)."""

    async def main() -> None:
        server = Server(tmp_path / "server.sqlite3")
        people = accounts(2)
        row = await server.events.create(people[0], {"name": "Bots welcome", "kind": "swiss", "game": "trash",
                                               "options": {"max_hands": 1}, "rounds": 2, "max_entrants": 6,
                                               "bots": True, "starts_at": time.time()}, "ip")
        for who in people:
            await server.events.register(row.id, who, "ip")
        script = People(server, row.id)

        async def step() -> None:
            await server.runner.step()
            if server.events.store.event(row.id).status == "running":  # type: ignore[union-attr]
                await script.play()

        await until("the event ends", lambda: server.events.store.event(row.id).status == "over", step)  # type: ignore[union-attr]
        final = server.events.store.event(row.id)
        assert final is not None and final.progress is not None
        assert [p.get("bot") for p in final.progress["field"]] == [None, None, *["medium"] * 4]
        games = [g for r in final.progress["rounds"] for g in r["games"]]
        assert any(all(p.startswith("b") for p in g["players"]) for g in games)  # bots met bots
        assert all(g["points"] is not None and not g["forfeit"] for g in games)
        server.close()

    asyncio.run(main())


def test_t8_t10_tx_v10_a_duplicate_event_of_short_rounds_compares_only_the_deals_played(tmp_path: Path):
    """Two rounds of two deals each (TX-V10) on two tables, five people and three bots: every
    table of a round plays the round's committed deals and stops after two; only those deals are
    compared (each player's top is one other table on 2 × 2 boards); between the rounds the seats
    turn, so the players who held the same cards at the two tables change."""

    async def main() -> None:
        server = Server(tmp_path / "server.sqlite3")
        people = accounts(5)
        row = await server.events.create(people[0], {"name": "Short rounds", "kind": "duplicate", "game": "trex",
                                               "deals": 2, "rounds": 2, "max_entrants": 5}, "ip")
        assert row.deals == 2 and row.options["deals"] == 2
        for who in people:
            await server.events.register(row.id, who, "ip")
        script = People(server, row.id)

        async def step() -> None:
            await server.runner.step()
            if server.events.store.event(row.id).status == "running":  # type: ignore[union-attr]
                await script.play()

        await until("the event ends", lambda: server.events.store.event(row.id).status == "over", step)  # type: ignore[union-attr]
        final = server.events.store.event(row.id)
        assert final is not None and final.progress is not None
        rounds = final.progress["rounds"]
        assert len(rounds) == 2
        for number, rnd in enumerate(rounds, 1):
            commitment = round_deal(final, number).commitment()
            for g in rnd["games"]:
                table = server.hub.find(g["table"])
                assert table is not None and table.match is not None and table.match.is_over
                record = table.match.record()
                verify(record)
                assert record.fairness is not None and record.fairness.server_commitment == commitment
                assert len(table.match.state.view(None).deal_scores) == 2  # the game ended after two deals
            assert sorted(rnd["deals_done"]) == [1, 2]
        boards = final.progress["boards"]
        assert {(b["round"], b["deal"]) for b in boards} == {(1, 1), (1, 2), (2, 1), (2, 2)}
        standing = final.progress["final"]
        assert all(s["top"] == 2 * 2 * 1.0 for s in standing)  # 2 rounds × 2 deals, one other table
        assert sum(s["matchpoints"] for s in standing) == 2 * 2 * 4 * 1.0
        same_cards = [{frozenset((a, b)) for a, b in zip(*(g["players"] for g in rnd["games"]), strict=True)}
                      for rnd in rounds]
        assert not same_cards[0] & same_cards[1]  # the seats turned: nobody is compared with the same player
        server.close()

    asyncio.run(main())


def test_t10_the_boards_a_duplicate_leavers_stand_in_finishes_count_against_them(tmp_path: Path):
    """A person who leaves a duplicate game after its first deal: that deal is theirs, and the
    second, which their stand-in finished, counts against them as an absent person's board (no
    matchpoint, its top counted), as leaving a Swiss game loses it."""

    async def main() -> None:
        server = Server(tmp_path / "server.sqlite3")
        row, script = await short_duplicate(server, "Leaver")
        gone: list[str] = []

        async def step() -> None:
            await server.runner.step()
            now = server.events.store.event(row.id)
            if now is None or now.status != "running":
                return
            for g in now.progress["rounds"][-1]["games"]:  # type: ignore[index]
                table = server.hub.find(g["table"])
                people_here = [s for s, p in enumerate(g["players"]) if p.startswith("a")]
                if (gone or table is None or table.match is None or len(people_here) < 2
                        or len(table.match.state.view(None).deal_scores) != 1):
                    continue  # one leaver, at a table where a person stays, during the second deal
                await table.ask(Leave(seat_token(now.secret, table.id, people_here[0])))
                gone.append(g["players"][people_here[0]])
            script.absent = {int(p[1:]) for p in gone}
            await script.play()

        await until("the event ends", lambda: server.events.store.event(row.id).status == "over", step)  # type: ignore[union-attr]
        final = server.events.store.event(row.id)
        assert final is not None and final.progress is not None
        (leaver,) = gone
        theirs = {b["deal"]: b["player"] for b in final.progress["boards"] if b["player"].endswith(leaver)}
        assert theirs == {1: leaver, 2: f"absent:{leaver}"}
        standing = {s["player"]: s for s in final.progress["final"]}
        assert all(s["top"] == 2.0 for s in standing.values())  # two deals, one other table each
        assert standing[leaver]["matchpoints"] <= 1.0  # at most deal 1's: nothing from deal 2
        server.close()

    asyncio.run(main())


class RatedPlayers:
    """The players layer as the runner reads it: ratings in the event's game (mu − 3σ, as they
    stand now), seat links."""

    def __init__(self, ratings: dict[int, float]) -> None:
        self.ratings = ratings
        self.asked: list[tuple[int, str]] = []

    def rating(self, account_id: int, game: str) -> RatingRow | None:
        self.asked.append((account_id, game))
        mu = self.ratings.get(account_id)
        return None if mu is None else RatingRow(account_id, game, mu + 3 * 2.0, 2.0, 12)

    def link_seat(self, *args: object, **kwargs: object) -> None:
        pass


def test_t11_the_field_is_seeded_by_rating_in_the_events_game(tmp_path: Path):
    """T11: four people register in the order 1, 2, 3, 4; player 3 is rated 1800 in Trash and
    player 2 1200, 1 and 4 have no rating: the field is 3, 2, 1, 4 (two bots after them) and round 1
    pairs its top half against its bottom half: 3 v 4, 2 v the first bot, 1 v the second."""

    async def main() -> None:
        server = Server(tmp_path / "server.sqlite3")
        rated = RatedPlayers({3: 1800.0, 2: 1200.0})
        server.runner.players = rated  # type: ignore[assignment]
        people = accounts(4)
        row = await server.events.create(people[0], {"name": "Seeded", "kind": "swiss", "game": "trash",
                                               "options": {"max_hands": 1}, "rounds": 2, "max_entrants": 6,
                                               "bots": True, "starts_at": time.time()}, "ip")
        for who in people:
            await server.events.register(row.id, who, "ip")
        await until("the event starts", lambda: server.events.store.event(row.id).status == "running",  # type: ignore[union-attr]
                    server.runner.step)
        started = server.events.store.event(row.id)
        assert started is not None and started.progress is not None
        field = started.progress["field"]
        assert [p["id"] for p in field] == ["a3", "a2", "a1", "a4", "b0", "b1"]
        assert [p.get("rating") for p in field[:4]] == [1800.0, 1200.0, None, None]
        assert {game for _, game in rated.asked} == {"trash"}
        pairs = {frozenset(g["players"]) for g in started.progress["rounds"][0]["games"]}
        assert pairs == {frozenset(("a3", "a4")), frozenset(("a2", "b0")), frozenset(("a1", "b1"))}
        server.close()

    asyncio.run(main())
