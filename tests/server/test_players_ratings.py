"""Ratings: a game's result as ranks (winners first, then how close each seat came, abandoners
last), openskill's Plackett–Luce updates (teams in partnership Trex, one rating for a bot at
several seats), idempotence per table, provisional ratings, public bot ratings, leaderboards."""

from __future__ import annotations

import itertools
import random
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from argon2 import PasswordHasher
from openskill.models import PlackettLuce

import cardtable
from cardtable.core.game import Outcome
from cardtable.server.players import Players
from cardtable.server.players.idle import DAY, IDLE_VARIANCE_PER_DAY, START_SIGMA, idle_sigma
from cardtable.server.players.ratings import PROVISIONAL_GAMES, rating_json, result_ranks
from cardtable.server.players.store import AccountStore

CHEAP = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)


def finished(name: str, preset: str, seed: int, **options: Any) -> tuple[Outcome, Any]:
    """A whole game of random legal moves: its outcome and final spectator view."""
    state = cardtable.load(name, preset=preset, **options).new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(100_000):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    outcome = state.outcome()
    assert outcome is not None
    return outcome, state.view(None)


@pytest.fixture
def players(tmp_path: Path) -> Any:
    p = Players(tmp_path / "players.sqlite3", hasher=CHEAP)
    yield p
    p.close()


def person(players: Players, name: str) -> int:
    return players.accounts.store.add_account("person", name, name.casefold(), None).id


def test_trash_ranks_winner_then_smaller_layouts():
    """Trash ranking: the winner first, then the smaller layout (TR-20: a hand won takes a slot)."""
    for seed in range(5):
        outcome, view = finished("trash", "standard", seed, players=3)
        ranks = result_ranks("trash", outcome, view)
        assert {ranks[s] for s in outcome.winners} == {1}
        losers = [s for s in range(3) if s not in outcome.winners]
        for a in losers:
            for b in losers:
                if view.sizes[a] < view.sizes[b]:
                    assert ranks[a] < ranks[b], (seed, view.sizes, ranks)
                if view.sizes[a] == view.sizes[b] and view.hands_won[a] == view.hands_won[b]:
                    assert ranks[a] == ranks[b]


def test_trex_ranks_by_total_and_reverse_scores_by_lowest():
    """Trex ranking: the best total first; under reverse_scores (TX-V7) the lowest total."""
    outcome, view = finished("trex", "standard", 3)
    ranks = result_ranks("trex", outcome, view)
    assert ranks == [1 + sum(1 for o in outcome.returns if o > x) for x in outcome.returns]
    outcome, view = finished("trex", "standard", 3, reverse_scores=True)
    ranks = result_ranks("trex", outcome, view)
    assert ranks == [1 + sum(1 for o in outcome.returns if o < x) for x in outcome.returns]
    assert ranks[outcome.winners[0]] == 1


def test_tx40_a_tie_on_the_best_total_broken_by_trex_firsts_ranks_its_winner_alone_first():
    """TX-40: two seats level on the best total; the one with more Trex firsts wins the game and
    ranks first alone, the other second; a tie the rules leave shared (no tie-break) stays shared."""
    broken = Outcome((10.0, 40.0, 40.0, -5.0), (1,), "tiebreak_trex_firsts")
    assert result_ranks("trex", broken) == [3, 1, 2, 4]
    shared = Outcome((10.0, 40.0, 40.0, -5.0), (1, 2), "shared_win")
    assert result_ranks("trex", shared) == [3, 1, 1, 4]


def test_tx40_tx_v7_a_tie_on_the_lowest_total_broken_by_trex_firsts_ranks_the_rest_lowest_first():
    """TX-V7 with TX-40: under reverse_scores the lowest total wins; when two seats are level on
    it and Trex firsts pick one, the other ranks second, and the rest follow lowest total first."""
    assert result_ranks("trex", Outcome((-55.0, 35.0, 75.0, -55.0), (0,), "tiebreak_trex_firsts")) == [1, 3, 4, 2]
    assert result_ranks("trex", Outcome((-50.0, -50.0, 30.0, 70.0), (0,), "tiebreak_trex_firsts")) == [1, 2, 3, 4]
    level = Outcome((5.0, 5.0, 5.0, 5.0), (0, 1, 2, 3), "shared_win")
    assert result_ranks("trex", level) == [1, 1, 1, 1]


def test_partnership_trex_partners_share_a_rank():
    """Partnership Trex (TX-V2): partners hold one total and share their rank."""
    outcome, view = finished("trex", "partnership", 3)
    ranks = result_ranks("trex", outcome, view)
    assert ranks[0] == ranks[2] and ranks[1] == ranks[3] and sorted({ranks[0], ranks[1]}) == [1, 3]


def test_spit_points_lowest_score_ranks_first():
    """Spit points scoring (SP-V1, SP-26): the lowest cumulative score ranks first; otherwise
    fewer cards held. The engine's outcome names the winner; the view orders the rest."""
    view = SimpleNamespace(scoring="points", scores=(40, 12), cards_held=(3, 30))
    assert result_ranks("spit", Outcome((0.0, 1.0), (1,), "SP-V1"), view) == [2, 1]
    tie = Outcome((0.5, 0.5), (0, 1), "SP-26")
    assert result_ranks("spit", tie, SimpleNamespace(scoring="points", scores=(50, 50), cards_held=(1, 9))) == [1, 1]
    standard = SimpleNamespace(scoring="standard", scores=(0, 0), cards_held=(0, 20))
    assert result_ranks("spit", Outcome((1.0, 0.0), (0,), "SP-25"), standard) == [1, 2]


def test_an_abandoner_ranks_last_even_when_ahead():
    """Abandoning: a player who leaves a rated game ranks last, whatever the score said."""
    outcome = Outcome((100.0, -50.0, 20.0, -70.0), (0,), "best_total")
    assert result_ranks("trex", outcome, abandoned=(0,)) == [4, 2, 1, 3]
    assert result_ranks("trex", outcome, abandoned=(0, 2)) == [3, 1, 3, 2]


def test_ratings_move_as_the_model_says_and_once_per_table(players: Players):
    """Plackett–Luce: a rated Trex table of three people and a bot moves the four ratings exactly
    as openskill computes them; recording the table again changes nothing (idempotent)."""
    a, b, c = (person(players, n) for n in ("Ana", "Bob", "Cleo"))
    outcome = Outcome((100.0, -50.0, 20.0, -70.0), (0,), "best_total")
    first = players.record_result("t1", "trex", [a, b, c, "expert"], outcome)
    model = PlackettLuce()
    expected = model.rate([[model.rating()] for _ in range(4)], ranks=[1, 3, 2, 4])
    bot = players.accounts.bot("expert").id
    for seat, account in enumerate((a, b, c, bot)):
        after = first.changes[account][1]
        assert after == pytest.approx((expected[seat][0].mu, expected[seat][0].sigma))
        row = players.store.rating(account, "trex")
        assert row is not None and row.games == 1
    again = players.record_result("t1", "trex", [a, b, c, "expert"], Outcome((0.0,) * 4, (1,), "x"))
    assert not again.new and again.ranks == (1, 3, 2, 4)
    assert players.store.rating(a, "trex").games == 1  # type: ignore[union-attr]


def test_partnership_is_rated_as_two_teams(players: Players):
    """Partnership Trex rates teams: the same update as openskill's two teams of two."""
    ids = [person(players, n) for n in ("Ana", "Bob", "Cleo", "Dan")]
    outcome, view = finished("trex", "partnership", 3)
    players.record_result("p1", "trex", ids, outcome, view=view)
    model = PlackettLuce()
    winners = 0 if 0 in outcome.winners else 1
    teams = model.rate([[model.rating(), model.rating()], [model.rating(), model.rating()]],
                       ranks=[1, 2] if winners == 0 else [2, 1])
    for seat, account in enumerate(ids):
        row = players.store.rating(account, "trex")
        assert row is not None
        assert row.mu == pytest.approx(teams[seat % 2][seat // 2].mu)


def test_a_bot_at_three_seats_is_one_public_rating(players: Players):
    """Bot ratings: three 'hard' bots at one table are one account, one game more, listed on the
    leaderboard as a bot."""
    ana = person(players, "Ana")
    players.record_result("t1", "trex", [ana, "hard", "hard", "hard"],
                          Outcome((10.0, 0.0, -5.0, -5.0), (0,), "best_total"))
    hard = players.accounts.bot("hard")
    row = players.store.rating(hard.id, "trex")
    assert row is not None and row.games == 1 and row.mu < 25.0
    board = players.leaderboard("trex")["rows"]
    assert [(r["username"], r["kind"]) for r in board] == [("Ana", "person"), ("hard", "bot")]


def test_provisional_for_the_first_games_and_history_kept(players: Players):
    """Provisional ratings: marked so until PROVISIONAL_GAMES rated games; each game adds one
    point to the account's history of that game."""
    ana, bob = person(players, "Ana"), person(players, "Bob")
    for k in range(PROVISIONAL_GAMES):
        row = players.rating(ana, "spit")
        assert row is None or rating_json(row)["provisional"]
        players.record_result(f"s{k}", "spit", [ana, bob], Outcome((1.0, 0.0), (0,), "SP-25"))
    row = players.rating(ana, "spit")
    assert row is not None and not rating_json(row)["provisional"] and rating_json(row)["games"] == PROVISIONAL_GAMES
    history = players.store.history(ana, "spit")
    assert [h.games for h in history] == list(range(1, PROVISIONAL_GAMES + 1))
    assert all(x.mu < y.mu for x, y in itertools.pairwise(history))  # she won every game


def test_a_casual_table_is_kept_but_rates_nobody(players: Players):
    """Casual tables: the result is kept for the profiles; no rating moves."""
    ana, bob = person(players, "Ana"), person(players, "Bob")
    done = players.record_result("c1", "spit", [ana, bob], Outcome((1.0, 0.0), (0,), "SP-25"), rated=False)
    assert done.new and done.changes == {}
    assert players.store.rating(ana, "spit") is None
    assert players.store.played(ana) == {"spit": (1, 1)}


def test_a_guest_seat_is_not_rated_and_nobody_is_rated_against_it(players: Players):
    """A seat without an account (None) is ranked but not rated, and no account is rated against
    it: a win over a guest, who might be one's own second tab, moves no rating (quick play seats
    anyone who waits). The game stays in the profile; the accounts at the table are rated among
    themselves."""
    ana, bob = person(players, "Ana"), person(players, "Bob")
    for n in range(3):
        players.record_result(f"g{n}", "spit", [ana, None], Outcome((1.0, 0.0), (0,), "SP-25"))
    assert players.store.rating(ana, "spit") is None
    assert players.leaderboard("spit")["rows"] == []
    assert players.store.result("g0") is not None and players.store.result("g0").ranks == (1, 2)  # type: ignore[union-attr]
    players.record_result("t1", "trex", [ana, None, bob, "hard"], Outcome((9.0, 30.0, 5.0, 1.0), (1,), "x"))
    ana_trex, bob_trex = players.store.rating(ana, "trex"), players.store.rating(bob, "trex")
    assert ana_trex is not None and bob_trex is not None and ana_trex.mu > max(25.0, bob_trex.mu)


def test_seat_accounts_must_match_the_seats(players: Players):
    """Bad input: a seat list of the wrong length is refused and nothing is stored."""
    with pytest.raises(ValueError):
        players.record_result("x", "spit", [None], Outcome((1.0, 0.0), (0,), "SP-25"))
    assert players.store.result("x") is None


def test_seat_players_rates_the_person_not_the_stand_in(players: Players):
    """Abandoning: a person who left keeps their seat's link, so the stand-in bot that finished
    the game is not rated in their place; bots sat from the start are rated by level."""
    from cardtable.server.store import SeatRow, token_hash

    ana, bob = person(players, "Ana"), person(players, "Bob")
    players.link_seat(ana, "t1", 0, token="a", address="192.0.2.1")
    players.link_seat(bob, "t1", 1, token="b", address="192.0.2.2")
    seats = [SeatRow(0, "human", "Ana", token_hash("a")), SeatRow(1, "bot", "medium"),  # Bob left: a stand-in
             SeatRow(2, "bot", "hard"), SeatRow(3, "human", "x")]
    assert players.seat_players("t1", seats) == [ana, bob, "hard", None]
    players.record_result("t1", "trex", players.seat_players("t1", seats), Outcome((9.0, 5.0, 1.0, 0.0), (0,), "x"),
                          abandoned_seats=[1])
    assert players.store.rating(bob, "trex").games == 1  # type: ignore[union-attr]
    assert players.accounts.named("medium") is None  # the stand-in was not rated


def test_partnership_team_of_an_abandoner_ranks_last(players: Players):
    """Abandoning in partnership Trex: the abandoner's team ranks last even if its total won, so
    the other team's ratings rise."""
    ids = [person(players, n) for n in ("Ana", "Bob", "Cleo", "Dan")]
    outcome, view = finished("trex", "partnership", 3)
    winner = outcome.winners[0]
    players.record_result("p1", "trex", ids, outcome, abandoned_seats=[winner], view=view)
    for seat, account in enumerate(ids):
        row = players.store.rating(account, "trex")
        assert row is not None
        assert (row.mu < 25.0) == (seat % 2 == winner % 2), (seat, winner, row.mu)


def test_idle_sigma_grows_with_the_days_and_stops_at_a_newcomers():
    """Idle ratings: sigma² grows by IDLE_VARIANCE_PER_DAY a day, never past the start sigma, and
    a clock that went back leaves it alone."""
    assert idle_sigma(1.0, 0.0, 0.0) == 1.0
    assert idle_sigma(1.0, 0.0, 30 * DAY) == pytest.approx((1.0 + 30 * IDLE_VARIANCE_PER_DAY) ** 0.5)
    assert 1.9 < idle_sigma(1.0, 0.0, 30 * DAY) < 2.0
    assert idle_sigma(1.0, 0.0, 10_000 * DAY) == START_SIGMA
    assert idle_sigma(9.0, 0.0, 10 * DAY) == 9.0
    assert idle_sigma(2.0, 50 * DAY, 10 * DAY) == 2.0


def test_an_idle_rating_widens_on_the_profile_and_the_leaderboard_and_the_next_game_starts_from_it(
        tmp_path: Path):
    """Idle ratings: Ana, a little ahead of Bob after their games, stops playing; a year on, her shown sigma
    has grown by the idle time (mu unchanged), Bob, who kept playing Cleo, ranks above her, and
    her next rated game is rated from the grown sigma, as openskill computes it."""
    now = [1_000_000.0]
    players = Players(tmp_path / "players.sqlite3", hasher=CHEAP, clock=lambda: now[0])
    ana, bob, cleo = (person(players, n) for n in ("Ana", "Bob", "Cleo"))
    win, lose = Outcome((1.0, 0.0), (0,), "SP-25"), Outcome((0.0, 1.0), (1,), "SP-25")
    for k in range(30):  # Ana wins 16 of 30
        players.record_result(f"a{k}", "spit", [ana, bob], win if k % 2 == 0 or k == 29 else lose)
        now[0] += 60.0
    left = players.store.rating(ana, "spit")
    assert left is not None and left.last == now[0] - 60.0
    board = players.leaderboard("spit")["rows"]
    assert [r["username"] for r in board][:2] == ["Ana", "Bob"]
    for k in range(30):  # Bob plays on, level with Cleo, for a year
        now[0] += 12 * DAY
        players.record_result(f"b{k}", "spit", [bob, cleo], Outcome((0.5, 0.5), (0, 1), "SP-25"))
    shown = players.profile("Ana")["games"]["spit"]["rating"]
    sigma = idle_sigma(left.sigma, left.last, now[0])
    assert sigma > left.sigma + 2.0
    assert shown["mu"] == round(left.mu, 3) and shown["sigma"] == round(sigma, 3)
    assert shown["rating"] == round(left.mu - 3 * sigma, 2)
    board = players.leaderboard("spit")["rows"]
    assert [r["username"] for r in board].index("Bob") < [r["username"] for r in board].index("Ana")
    assert [r["rating"] for r in board] == sorted((r["rating"] for r in board), reverse=True)
    b = players.store.rating(bob, "spit")
    assert b is not None
    rated = players.record_result("c1", "spit", [ana, bob], win)
    model = PlackettLuce()
    expected = model.rate([[model.rating(mu=left.mu, sigma=sigma)], [model.rating(mu=b.mu, sigma=b.sigma)]],
                          ranks=[1, 2])
    assert rated.changes[ana] == ((left.mu, sigma), pytest.approx((expected[0][0].mu, expected[0][0].sigma)))
    players.close()


def test_a_database_from_before_idle_sigmas_takes_its_last_game_from_the_history(tmp_path: Path):
    """Idle ratings, upgrade: a players database without the ratings' ``last`` column gains it,
    filled with each rating's last history point; nothing else changes."""
    import sqlite3

    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    db.executescript("""
        CREATE TABLE player_ratings (account_id INTEGER NOT NULL, game TEXT NOT NULL, mu REAL NOT NULL,
            sigma REAL NOT NULL, games INTEGER NOT NULL, PRIMARY KEY (account_id, game));
        CREATE TABLE player_history (account_id INTEGER NOT NULL, game TEXT NOT NULL, table_id TEXT NOT NULL,
            at REAL NOT NULL, mu REAL NOT NULL, sigma REAL NOT NULL, games INTEGER NOT NULL,
            PRIMARY KEY (account_id, game, table_id));
        INSERT INTO player_ratings VALUES (7, 'trex', 30.0, 3.0, 2), (8, 'spit', 20.0, 5.0, 1);
        INSERT INTO player_history VALUES (7, 'trex', 't1', 100.0, 27.0, 4.0, 1),
                                          (7, 'trex', 't2', 250.0, 30.0, 3.0, 2);
    """)
    db.commit()
    db.close()
    store = AccountStore(path)
    assert store.ratings_of(7)[0].last == 250.0 and store.ratings_of(7)[0].mu == 30.0
    assert store.ratings_of(8)[0].last == 0.0  # no history: idle since ever, shown at a newcomer's sigma
    store.close()
    again = AccountStore(path)  # opened again: the column is there, nothing redone
    assert again.rating(7, "trex").last == 250.0  # type: ignore[union-attr]
    again.close()
