"""The arena: duplicate deals, reproducible from the seed, one-line errors."""

from __future__ import annotations

import math
import re

import pytest

import cardtable
from cardtable.arena import mean_ci, plackett_luce, rate_ci, run_arena, wilson
from cardtable.arena.run import format_table
from cardtable.cli.main import main
from cardtable.core.errors import ConfigError


def test_duplicate_deals_rotate_the_seats():
    r = run_arena("trash", ["sensible", "stock", "random"], deals=2, seed=3, options={"max_hands": 1})
    assert r.games == 6
    for deal in (0, 1):
        rows = [x for x in r.results if x.deal == deal]
        assert [x.seats for x in rows] == [
            ("sensible", "stock", "random"), ("stock", "random", "sensible"), ("random", "sensible", "stock"),
        ]


def test_results_are_reproducible_from_the_seed_whatever_the_workers():
    args = dict(deals=6, seed=11, options={"max_hands": 1})
    a = run_arena("trash", ["sensible", "stock"], workers=1, **args)
    b = run_arena("trash", ["sensible", "stock"], workers=2, **args)
    assert a.results == b.results and a.stats == b.stats
    c = run_arena("trash", ["sensible", "stock"], workers=1, deals=6, seed=12, options={"max_hands": 1})
    assert c.results != a.results


def test_trex_and_spit_run_in_the_arena():
    r = run_arena("trex", ["rules", "random", "random", "random"], deals=1, seed=1)
    assert r.games == 4 and {s.name for s in r.stats} == {"rules", "random"}
    s = run_arena("spit", ["expert", "easy"], deals=2, seed=1, options={"max_rounds": 20})
    assert s.games == 4


def test_stats():
    m, lo, hi = mean_ci([0.0, 1.0] * 50)
    assert m == 0.5 and lo < 0.5 < hi and math.isclose(hi - 0.5, 0.5 - lo)
    games = [(("a", "b", "c", "c"), (1, 2, 3, 3))] * 10 + [(("b", "a", "c", "c"), (1, 2, 3, 4))] * 2
    r = plackett_luce(["a", "b", "c"], games)
    assert r["a"][0] > r["b"][0] > r["c"][0]
    assert all(0 < sigma < 25 / 3 for _, sigma in r.values())


def test_win_rate_intervals_are_wilson_never_negative_nor_a_point():
    for rate in (0.0, 0.01, 0.5, 0.99, 1.0):
        lo, hi = wilson(rate * 16, 16)
        assert 0.0 <= lo <= rate <= hi <= 1.0 and hi - lo > 0.1
    assert wilson(16, 16)[0] < 0.85  # 16 games won of 16 is no proof of a 100% rate
    assert wilson(0, 16)[1] > 0.15
    # 4 deals x 4 seatings all won: the interval of 16 games, not [100, 100]
    rate, lo, hi = rate_ci([1.0] * 4, weight=4)
    assert rate == 1.0 and hi == 1.0 and 0.75 < lo < 0.85
    # per-deal shares that vary less than coin flips give a narrower interval than n deals would
    shares = [0.25, 0.5, 0.25, 0.0, 0.5] * 20
    r, lo, hi = rate_ci(shares, weight=4)
    plain_lo, plain_hi = wilson(r * len(shares), len(shares))
    assert 0.0 < lo < r < hi < 1.0 and hi - lo < plain_hi - plain_lo


def test_cli_prints_a_table_and_markdown(capsys):
    assert main(["arena", "trash", "--bots", "sensible,stock", "--games", "3", "--workers", "1",
                 "-o", "max_hands=1"]) == 0
    out, err = capsys.readouterr()
    assert "sensible" in out and "95% CI" in out and "rating" in out
    assert "6/6" not in out and "games" in err and "6/6" in err  # the progress bar goes to stderr
    r = run_arena("trash", ["sensible", "stock"], deals=2, options={"max_hands": 1})
    assert format_table(r, "markdown").count("|") > 10


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["arena", "trash", "--bots", "sensible,nope"], "no trash bot named 'nope'"),
        (["arena", "chess", "--bots", "a,b"], "unknown game"),
        (["arena", "trash", "--bots", "sensible"], "at least two bots"),
        (["arena", "trash", "--bots", "sensible,stock", "--games", "0"], "from 1 to 1,000,000"),
        (["arena", "trash", "--bots", "sensible,stock", "--games", "100000000"], "from 1 to 1,000,000"),
        (["arena", "trash", "--bots", "search,stock", "--seconds", "nan"], "positive number of seconds"),
        (["arena", "trash", "--bots", "search,stock", "--seconds", "inf"], "positive number of seconds"),
        (["arena", "trex", "--bots", "rules,random"], "give 4 bots"),
        (["arena", "trash", "--bots", "sensible,stock", "-o", "wild_mode=sevens"], "wild_mode"),
        (["arena", "trash", "--bots", "sensible,stock", "--iterations", "0"], "at least 1 iteration"),
    ],
)
def test_bad_input_is_one_line(capsys, argv, message):
    assert main([*argv, "-q", "--workers", "1"]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_a_worker_count_too_large_for_a_pool_is_one_line(capsys):
    """--workers of 23 digits ended in an OverflowError from the process pool."""
    assert main(["arena", "trash", "--bots", "sensible,stock", "-q", "--workers", "9" * 23]) == 2
    err = capsys.readouterr().err
    assert "from 1 to 4,096" in err and err.count("\n") == 1


def test_a_turn_based_bot_cannot_sit_at_spit(capsys):
    assert main(["arena", "spit", "--bots", "expert,random", "-q", "--workers", "1"]) == 2
    assert "real time" in capsys.readouterr().err


def test_a_ladder_plays_every_table_of_more_bots_than_seats():
    r = run_arena("trash", ["sensible", "stock", "random"], deals=3, seed=2, options={"players": 2, "max_hands": 1})
    assert r.tables == 3 and r.games == 3 * 3 * 2
    assert {x.seats for x in r.results if x.rotation == 0} == {
        ("sensible", "stock"), ("sensible", "random"), ("stock", "random"),
    }
    again = run_arena("trash", ["sensible", "stock", "random"], deals=3, seed=2, workers=2,
                      options={"players": 2, "max_hands": 1})
    assert again.results == r.results
    ratings = {s.name: s.rating for s in r.stats}
    assert len(ratings) == 3 and "3 tables" in format_table(r)


def test_a_ladder_needs_distinct_bots(capsys):
    assert main(["arena", "spit", "--bots", "expert,easy,easy", "-q", "--workers", "1"]) == 2
    assert "distinct" in capsys.readouterr().err


def test_json_output_is_valid_even_with_one_deal(capsys):
    import json

    assert main(["arena", "trash", "--bots", "sensible,stock", "--games", "1", "-q", "--workers", "1",
                 "-o", "max_hands=1", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 2
    for key in ("win_rate", "mean_score"):  # win shares: Wilson intervals, defined for one deal too
        assert 0.0 <= data["stats"][0][key][1] <= data["stats"][0][key][2] <= 1.0


def test_a_mean_score_of_win_shares_keeps_its_interval_in_0_1(capsys):
    """`cardtable arena trash --bots sensible,random --games 8` gave [-0.0288, 0.404] for random."""
    assert main(["arena", "trash", "--bots", "sensible,random", "--games", "8", "-q", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    rows = {line.split()[0]: line for line in out.splitlines()[2:]}
    for bot in ("sensible", "random"):
        low, high = (float(x) for x in re.findall(r"\[([-\d.]+), ([-\d.]+)\]", rows[bot])[1])
        assert 0.0 <= low < high <= 1.0
    assert "95% CI (Wilson)  rating" in out.splitlines()[1]


def test_a_trex_game_of_the_arena_is_a_whole_20_deal_game_and_says_so(capsys, monkeypatch):
    from cardtable.arena import run
    from cardtable.host import factory
    from cardtable.host.match import Match

    played: list[Match] = []

    class Recorded(Match):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            played.append(self)

    monkeypatch.setattr(factory, "Match", Recorded)
    run.play_one(cardtable.load("trex"), ["hard", "medium", "medium", "medium"], seed=3, bot_seed=4)
    (match,) = played
    assert match.state.is_terminal() and match.state.deal_index == 20 and len(match.state.records) == 20
    assert main(["arena", "trex", "--bots", "hard,medium,medium,medium", "--games", "1", "-q", "--workers", "1"]) == 0
    assert capsys.readouterr().out.startswith("trex (standard), 1 seeds x 4 seatings = 4 whole games")


def test_the_arena_draws_the_simulations_rich_progress_bar(capsys):
    """One progress bar for simulations and the arena: ``rich.progress`` (sim.progress), not a
    bar of the arena's own."""
    assert main(["arena", "trash", "--bots", "sensible,stock", "--games", "2", "--workers", "1",
                 "-o", "max_hands=1"]) == 0
    err = capsys.readouterr().err
    assert "━" in err and "4/4" in err and "100%" in err and "[#" not in err


def test_run_arena_tells_its_progress_bar_of_every_game_and_closes_it():
    seen: list[tuple[str, int]] = []

    class Bar:
        def __init__(self, total: int) -> None:
            seen.append(("total", total))

        def update(self, n: int) -> None:
            seen.append(("update", n))

        def close(self) -> None:
            seen.append(("close", 0))

    run_arena("trash", ["sensible", "stock"], deals=2, options={"max_hands": 1}, progress=Bar)
    assert seen == [("total", 4), *[("update", 1)] * 4, ("close", 0)]


def test_trash_time_limit_is_refused_not_silently_ignored(capsys):
    argv = ["arena", "trash", "--bots", "sensible,random", "--games", "5", "--workers", "1", "-q", "--format", "json"]
    assert main([*argv, "-o", "time_limit=1"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "time_limit" in err and "no clock" in err
    with pytest.raises(ConfigError, match="time_limit"):
        run_arena("trash", ["sensible", "random"], 1, options={"time_limit": 60})


def test_an_empty_bot_name_is_refused_not_dropped(capsys):
    assert main(["arena", "trash", "--bots", "sensible,,random", "--games", "1", "--workers", "1", "-q"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "a bot name is empty" in err
