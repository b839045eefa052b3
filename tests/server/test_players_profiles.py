"""Profiles and leaderboards over HTTP: games per game, results, rating history, every finished
game with the server's replay and review links; the safety flag for two accounts that meet
again and again from one address in rated games."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.routing import Match

from cardtable.core.game import Outcome
from cardtable.server.players.service import MEETING_DAYS, MEETING_GAMES
from tests.server.players_fixtures import JSON, client, login, make_app, signup


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def made(tmp_path: Path) -> Iterator[tuple[Any, Any, Any, Clock]]:
    clock = Clock()
    app, store, players = make_app(tmp_path, clock=clock)
    with client(app) as c:
        yield app, c, players, clock
    players.close()
    store.close()


def routed(app: Any, link: str) -> str:
    """The name of the app's endpoint a link reaches (its path, query aside)."""
    scope = {"type": "http", "method": "GET", "path": link.split("?")[0]}
    for route in app.router.routes:
        match, _ = route.matches(scope)
        if match == Match.FULL:
            return str(getattr(route, "name", ""))
    raise AssertionError(f"no route for {link}")


def test_profile_shows_games_results_history_and_replay_and_review_links(made: Any):
    """Profile: games played and won per game, the rating and its history, and each finished game
    (rated or casual) with links that reach the server's replay page and its Review panel."""
    app, c, players, clock = made
    signup(c, "Ana")
    signup(client(app, "10.0.0.2"), "Bob")
    ana, bob = players.accounts.named("Ana").id, players.accounts.named("Bob").id
    players.record_result("t1", "trex", [ana, bob, "hard", "hard"], Outcome((30.0, -10.0, 0.0, -20.0), (0,), "x"))
    clock.now += 60
    players.record_result("t2", "spit", [bob, ana], Outcome((1.0, 0.0), (0,), "SP-25"))
    clock.now += 60
    players.record_result("t3", "spit", [ana, bob], Outcome((1.0, 0.0), (0,), "SP-25"), rated=False)
    profile = c.get("/api/players/profile/ana").json()
    assert profile["account"]["username"] == "Ana" and "flags" not in profile
    assert {g: (v["played"], v["won"]) for g, v in profile["games"].items()} == {"trex": (1, 1), "spit": (2, 1)}
    assert profile["games"]["spit"]["rating"]["games"] == 1  # the casual game rated nothing
    assert profile["games"]["spit"]["rating"]["provisional"] is True
    assert [h["table"] for h in profile["games"]["trex"]["history"]] == ["t1"]
    assert profile["games"]["trex"]["history"][0]["rating"] == profile["games"]["trex"]["rating"]["rating"]
    results = profile["results"]
    assert [(r["table"], r["rank"], r["players"], r["rated"]) for r in results] == [
        ("t3", 1, 2, False), ("t2", 2, 2, True), ("t1", 1, 4, True)]
    assert results[1]["replay"] == "/t/t2/replay?seat=1" and results[1]["review"] is None  # Spit has no review
    assert results[2]["review"] == "/t/t1/replay?seat=0&review=1"  # the replay page, its Review panel open
    assert routed(app, results[2]["replay"]) == "table_page"  # the table page plays a replay
    assert routed(app, results[2]["review"]) == "table_page"
    assert profile["more"] is False  # one page holds them all
    assert c.get("/api/players/profile/nobody").status_code == 404
    for page in ("x", "%C2%B3", "-1", "9" * 5000):  # P4: a clear 400, never a 500
        assert c.get(f"/api/players/profile/ana?page={page}").json()["error"] == "bad_page"
    assert c.get("/api/players/profile/ana?page=1").json()["results"] == []


def test_leaderboard_per_game_people_and_bots_by_conservative_rating(made: Any):
    """Leaderboards: per game, people and bots together, ordered by mu − 3σ; unknown games 404."""
    _, c, players, _ = made
    signup(c, "Ana")
    ana = players.accounts.named("Ana").id
    for k in range(3):
        players.record_result(f"t{k}", "spit", [ana, "expert"], Outcome((1.0, 0.0), (0,), "SP-25"))
    board = c.get("/api/players/leaderboard/spit").json()
    assert [(r["place"], r["username"], r["kind"], r["games"]) for r in board["rows"]] == [
        (1, "Ana", "person", 3), (2, "expert", "bot", 3)]
    assert board["rows"][0]["rating"] > board["rows"][1]["rating"]
    assert c.get("/api/players/leaderboard/trex").json()["rows"] == []
    assert c.get("/api/players/leaderboard/poker").status_code == 404
    assert c.get("/api/players/profile/expert").json()["account"]["kind"] == "bot"  # bots' profiles are public


def test_profile_and_leaderboard_pages_say_whether_a_next_page_has_rows(made: Any):
    """50 a page: ``more`` is true while a next page has rows (51 games: page 0 says so, page 1,
    with the oldest game, does not; the same for 51 rated players on a leaderboard)."""
    _, c, players, clock = made
    signup(c, "Ana")
    ana = players.accounts.named("Ana").id
    for k in range(51):
        clock.now += 1
        players.record_result(f"t{k:02d}", "spit", [ana, "expert"], Outcome((1.0, 0.0), (0,), "SP-25"))
    first, second = (c.get(f"/api/players/profile/ana?page={n}").json() for n in (0, 1))
    assert (len(first["results"]), first["more"]) == (50, True)
    assert ([r["table"] for r in second["results"]], second["more"]) == (["t00"], False)
    for k in range(49):  # 50 people and the bot
        who = players.accounts.store.add_account("person", f"P{k:02d}", f"p{k:02d}", None).id
        players.record_result(f"o{k:02d}", "spit", [who, "expert"], Outcome((0.0, 1.0), (1,), "SP-25"))
    first, second = (c.get(f"/api/players/leaderboard/spit?page={n}").json() for n in (0, 1))
    assert (len(first["rows"]), first["more"]) == (50, True)
    assert ([r["place"] for r in second["rows"]], second["more"]) == ([51], False)


def operator(app: Any, players: Any, name: str) -> Any:
    c = client(app, "10.9.9.9")
    signup(c, name)
    players.store.set_operator(players.accounts.named(name).id, True)
    return c


def meet(players: Any, table: str, a: int, b: int, addresses: tuple[str, str], rated: bool = True) -> None:
    players.link_seat(a, table, 0, address=addresses[0])
    players.link_seat(b, table, 1, address=addresses[1])
    players.record_result(table, "spit", [a, b], Outcome((0.0, 1.0), (1,), "SP-25"), rated=rated)


def test_meeting_flag_two_accounts_from_one_address_in_rated_games(made: Any):
    """Safety, rating manipulation: two accounts that meet from one address in MEETING_GAMES rated
    games within MEETING_DAYS are flagged on both profiles, for an operator only. Fewer meetings,
    different addresses, casual games and meetings older than the window do not flag; addresses
    are kept as keyed digests, never as given."""
    app, c, players, clock = made
    signup(c, "Ana")
    signup(client(app, "10.0.0.2"), "Bob")
    signup(client(app, "10.0.0.3"), "Cleo")
    ana, bob, cleo = (players.accounts.named(n).id for n in ("Ana", "Bob", "Cleo"))
    op = operator(app, players, "Ops")
    home = ("192.0.2.7", "192.0.2.7")
    for k in range(MEETING_GAMES - 1):
        meet(players, f"r{k}", ana, bob, home)
    for k in range(5):
        meet(players, f"c{k}", ana, bob, home, rated=False)  # casual games are no rating manipulation
        meet(players, f"d{k}", ana, cleo, ("192.0.2.7", "198.51.100.1"))  # apart
    assert op.get("/api/players/profile/Ana").json()["flags"] == []
    meet(players, "r-last", ana, bob, home)
    for name, other in (("Ana", "Bob"), ("Bob", "Ana")):
        flags = op.get(f"/api/players/profile/{name}").json()["flags"]
        assert flags == [{"username": other, "games": MEETING_GAMES, "days": MEETING_DAYS}]
    assert "flags" not in c.get("/api/players/profile/Bob").json()  # not for everyone
    assert players.store.seat_links("r0")[0].address == players.address_digest("192.0.2.7") != "192.0.2.7"
    clock.now += MEETING_DAYS * 86400 + 1
    assert login(op, "Ops").status_code == 200  # its session has expired meanwhile (30 days too)
    assert op.get("/api/players/profile/Ana").json()["flags"] == []


def test_a_seat_link_belongs_to_the_token_that_holds_the_seat(made: Any):
    """Seat links: a seat keeps the account that first sat there; a person who sits after the
    first left it before the start (another token) takes the link over, and a link whose token
    is no longer the seat's is not taken for its holder when the result is recorded."""
    from cardtable.server.store import SeatRow, token_hash

    app, c, players, _ = made
    signup(c, "Ana")
    signup(client(app, "10.0.0.2"), "Bob")
    ana, bob = players.accounts.named("Ana").id, players.accounts.named("Bob").id
    assert players.link_seat(ana, "t1", 0, token="token-of-ana", address="192.0.2.1")
    assert not players.link_seat(bob, "t1", 0, token="token-of-ana")  # the same holder: the first link stays
    assert players.seat_accounts("t1", 2) == [ana, None]
    assert players.link_seat(bob, "t1", 0, token="token-of-bob")  # Ana left before the start, Bob sat
    assert players.seat_accounts("t1", 2) == [bob, None]
    players.link_seat(ana, "t2", 0, token="token-of-ana")  # the lobby forgot to unlink: Cleo sits, no account
    seats = [SeatRow(0, "human", "Cleo", token_hash("token-of-cleo")), SeatRow(1, "bot", "hard")]
    assert players.seat_players("t2", seats) == [None, "hard"]
    players.unlink_seat("t1", 0)
    assert players.seat_accounts("t1", 2) == [None, None]
    r = c.post("/api/players/seats", json={"seats": []}, headers=JSON)
    assert r.json()["error"] == "csrf"
