"""Every benchmark of ``bench/`` runs in the suite, for a second or two each, with its smallest
sizes: a benchmark that no test runs stops working unseen. The server's benchmarks are
in ``tests/server/test_bench_smoke.py``; these are the others.

Each runs as a subprocess exactly as a person would run it, and must exit with status 0 and print
its report. The figures are not checked: they belong to ``bench/``, run on a quiet machine, side by
side with their baselines. ``bench/builds.py`` is no benchmark but the helper that runs a worker on
each build: the Trash, Trex and fast-path runs use it.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
COMPILED = ROOT / "build" / "compiled" / "cardtable"


def run(*args: str, timeout: float = 300) -> str:
    """``python bench/<script> args`` from the repository's root; its output, once it exits with 0."""
    done = subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done.stdout


def installed(*modules: str) -> bool:
    return all(importlib.util.find_spec(m) is not None for m in modules)


def test_trash_bench_runs_beside_its_peer():
    """The naive simulator it is measured against is kept in ``bench/peers/``."""
    out = run("bench/trash.py", "--seconds", "0.05", "--rounds", "1")
    assert "naive simulator (peer)" in out and "cardtable pure, legal_actions + apply" in out
    assert "best through legal_actions + apply:" in out


def test_trex_bench_runs_beside_openspiel_hearts():
    out = run("bench/trex.py", "--seconds", "0.05", "--rounds", "1")
    assert "cardtable pure" in out and "OpenSpiel hearts" in out


def test_trex_baselines_bench_prints_each_contract():
    out = run("bench/trex_baselines.py", "--deals", "2")
    assert all(f"{code}:" in out for code in ("KH", "QN", "DI", "TK", "TR"))


def test_trex_kingdom_bench_values_the_contracts_left_for_later_hands_tx9():
    """Choosing the contract after seeing the hand is worth at least playing them in a fixed
    order (the option value of every set is not negative; a single contract has none), and the
    two choice rules are compared on the hands that did not make the tables."""
    out = run("bench/trex_kingdom.py", "--hands", "20", "--iterations", "20", "--workers", "1")
    options = [float(x) for x in re.findall(r"option value ([+-][0-9.]+)\)", out)]
    assert len(options) == 31 and all(x >= 0.0 for x in options)
    assert options[:5] == [0.0] * 5
    assert "value + later minus the search's rule:" in out


@pytest.mark.parametrize(("args", "row"), [
    (("bench/trex_contracts.py", "hard", "random", "--games", "1", "--workers", "1"), "KH  holder n="),
    (("bench/trex_duel.py", "hard", "random", "--deals", "1", "--contracts", "KH", "--workers", "1"),
     "KH  holder deals="),
], ids=["contracts", "duel"])
def test_trex_duel_benches_print_a_row_per_contract_and_role(args: tuple[str, ...], row: str):
    out = run(*args)
    assert "hard minus the mean of three random" in out and row in out
    if args[0] == "bench/trex_duel.py":  # the four seatings of each deal together
        assert "KH  all    deals=" in out


def test_trex_duel_pairs_two_focal_bots_on_the_same_deals_and_refuses_other_deals(tmp_path: Path):
    """Saved duels of two focal bots against one partner pair deal by deal: a run against itself
    differs by exactly zero on every deal, a bot registered by ``--bots`` plays (a one-off variant),
    and runs of other deals are refused, not paired."""
    variant = tmp_path / "variant.py"
    variant.write_text(
        "from cardtable.bots.base import register_bot\n"
        "from cardtable.bots.base import make_bot\n"
        "register_bot('trex', 'medium-again', lambda: make_bot('trex', 'medium'), 'a test variant')\n")
    paths = {}
    for name, focal, seed in (("a", "hard", "0"), ("b", "medium-again", "0"), ("c", "hard", "1")):
        paths[name] = str(tmp_path / f"{name}.json")
        run("bench/trex_duel.py", focal, "random", "--deals", "2", "--contracts", "KH,QN", "--workers", "1",
            "--seed", seed, "--bots", str(variant), "--json", paths[name])
    same = run("bench/trex_duel.py", "--pair", paths["a"], paths["a"])
    assert "hard minus hard, each against three random" in same
    assert re.search(r"KH  deals=   2   \+0\.00 ± +0\.00  alike=2", same), same
    assert re.search(r"QN  deals=   2   \+0\.00 ± +0\.00  alike=2", same), same
    paired = run("bench/trex_duel.py", "--pair", paths["a"], paths["b"])
    assert "hard minus medium-again" in paired and "KH  deals=   2" in paired
    done = subprocess.run([sys.executable, "bench/trex_duel.py", "--pair", paths["a"], paths["c"]], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 2 and "differ in seed" in done.stderr, done.stderr


def test_trex_duel_lets_the_holder_choose_and_hands_the_deal_to_a_yardstick(tmp_path: Path):
    """With ``CH`` the holder announces the kingdom's first contract itself (TX-9) and the rows
    pool the contracts chosen; a bot with ``watch`` is handed the true deal before it plays (the
    yardstick's bot here refuses to play without it)."""
    peek = tmp_path / "peek.py"
    peek.write_text(
        "from cardtable.bots.base import make_bot, register_bot\n"
        "class Peek:\n"
        "    def __init__(self):\n"
        "        self.bot, self.deal = make_bot('trex', 'hard'), None\n"
        "    def watch(self, deal):\n"
        "        self.deal = deal\n"
        "    def act(self, view, rng, budget=None):\n"
        "        assert self.deal.state.view(view.seat).hand == view.hand, 'not handed the deal'\n"
        "        return self.bot.act(view, rng)\n"
        "register_bot('trex', 'peek', Peek, 'a yardstick for the test')\n")
    out = run("bench/trex_duel.py", "peek", "random", "--deals", "2", "--contracts", "CH", "--workers", "1",
              "--bots", str(peek))
    assert "peek minus the mean of three random" in out
    assert "CH  all    deals=   2" in out and "CH  holder deals=   2" in out, out
    done = subprocess.run([sys.executable, "bench/trex_duel.py", "hard", "random", "--contracts", "KH,XX"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 2 and "not a contract: 'XX'" in done.stderr and "or CH" in done.stderr


def test_trex_table_bench_prints_the_arena_table_and_the_contracts():
    out = run("bench/trex_table.py", "hard", "random", "--games", "1", "--workers", "1")
    assert "| contract | as holder | not holder |" in out and "| TR |" in out


def test_trex_table_bench_merges_runs_of_other_seeds_only_and_of_one_budget(tmp_path: Path):
    """Saved runs pool into one table over their deals; two runs of one seed (the same first
    deals) or of other budgets (another table) are refused, not pooled."""
    saved = []
    for seed, extra in ((0, ()), (1, ()), (2, ("--other-iterations", "5"))):
        path = str(tmp_path / f"run{seed}.json")
        run("bench/trex_table.py", "hard", "random", "--games", "1", "--workers", "1", "--seed", str(seed),
            *extra, "--json", path)
        saved.append(path)
    merged = run("bench/trex_table.py", "--merge", saved[0], saved[1])
    assert "2 seeds x 4 seatings = 8 whole games, seeds 0, 1, " in merged
    assert "pooled: seeds 0 (1 deals), 1 (1 deals)" in merged
    for pair, why in (((saved[0], saved[0]), "two runs of seed 0"), ((saved[0], saved[2]), "other budgets")):
        done = subprocess.run([sys.executable, "bench/trex_table.py", "--merge", *pair], cwd=ROOT,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode != 0 and why in done.stderr, done.stderr


def test_trex_oracle_bench_seats_a_bot_that_sees_every_hand_in_the_bench_only(monkeypatch: pytest.MonkeyPatch):
    """H (hidden information): the oracle reads the true deal, so no package bot of that name
    exists; within the bench every world it searches is the deal being played."""
    from cardtable.bots import make_bot
    from cardtable.core.errors import ConfigError
    from cardtable.host.match import Match

    with pytest.raises(ConfigError):
        make_bot("trex", "oracle")
    monkeypatch.syspath_prepend(str(ROOT / "bench"))
    oracle_mod = importlib.import_module("trex_oracle")
    import cardtable

    game = cardtable.load("trex")
    oracle = oracle_mod.OracleTrexBot()
    oracle.attach(game)
    bots = {0: oracle, **{q: make_bot("trex", "hard") for q in (1, 2, 3)}}
    match = Match(game, seed=5, bots=bots, bot_seed=9)
    oracle.watch(match)
    drawn: list[tuple[list[list[int]], list[list[int]]]] = []  # (a world's hands, the deal's then)
    real_draw = oracle.draw

    def draw(*args: object) -> object:
        world = real_draw(*args)
        drawn.append(([world.hand(q) for q in range(4)], [match.state.hand(q) for q in range(4)]))
        return world

    monkeypatch.setattr(oracle, "draw", draw)
    for _ in range(200):  # until the oracle has searched a decision with a choice
        if drawn or match.is_over:
            break
        match.run_bots(1)
    assert drawn, "the oracle searched no decision"
    assert all(world == true for world, true in drawn)
    for args, name in ((("--focal-iterations", "40"), "oracle"), (("--single",), "oracle"),
                       (("--blind", "--focal-iterations", "40"), "oracle-blind")):
        out = run("bench/trex_oracle.py", "random", "--games", "1", "--workers", "1", *args)
        assert f"| {name} | 4 |" in out and "| contract | as holder | not holder |" in out


def test_trex_think_bench_times_the_search_bot():
    out = run("bench/trex_think.py", "--iterations", "20", "--deals", "1")
    assert "expert --iterations 20 against three hard" in out and "median" in out
    assert re.search(r"^  trick: \d+ decisions, median \d+ ms, median \d+ worlds$", out, re.M), out


def test_trex_noise_bench_compares_plain_and_racing_search_with_a_long_one():
    out = run("bench/trex_noise.py", "--decisions", "2", "--iterations", "40", "--oracle", "80")
    assert "2 trick decisions" in out and "plain: mean loss" in out and "racing: mean loss" in out


def test_trex_finish_bench_plays_each_position_to_win_and_for_points():
    out = run("bench/trex_finish.py", "expert", "hard", "--positions", "1", "--from-deal", "20",
              "--focal-iterations", "8", "--workers", "1")
    assert "| to win the game |" in out and "| for its own points |" in out and "difference in win share" in out


def test_trex_models_bench_prints_each_models_share():
    """A model that names the card names its class, so a class share is never below the card's."""
    out = run("bench/trex_models.py", "hard", "--games", "1", "--deals", "2")
    assert "four hard" in out and "strong: 100% the card, 100% its class" in out and "card-sense:" in out
    assert "searcher:" in out
    shares = re.findall(r"(\d+)% the card, (\d+)% its class", out)
    assert len(shares) == 3 and all(int(card) <= int(cls) for card, cls in shares)


def test_trex_reading_bench_places_the_hidden_cards_and_scores_each_readers_choices():
    """Every reader is compared with uniform worlds on the same decisions (``candidates=1`` is
    uniform worlds, so it gains exactly nothing), and no card a reader chooses beats the best card
    of the true deal."""
    out = run("bench/trex_reading.py", "hard", "--candidates", "1,4,1@40,4:01", "--games", "1", "--deals", "2",
              "--worlds", "30", "--iterations", "20")
    assert "uniform worlds (candidates=1):" in out and "+0.00 [+0.00, +0.00] points over uniform" in out
    assert "weighed, candidates=4:" in out and "uniform worlds (candidates=1), 40 iterations:" in out
    assert "weighed, candidates=4, models strong+card-sense:" in out
    losses = [float(x) for x in re.findall(r": (-?[0-9.]+) a decision", out)]
    assert len(losses) == 4 and min(losses) >= 0.0


def test_trex_learned_bench_collects_games_and_fits_the_model_of_a_player(tmp_path: Path):
    """Two games of ``hard`` are collected and replayed; the model fitted to one predicts the other's
    plays (``hard`` plays the strong policy, one of the features) better than even odds, and the
    weights come out in the module's form, one weight a feature."""
    from cardtable.bots.trex_learned import FEATURES

    games = str(tmp_path / "games.jsonl")
    out = run("bench/trex_learned.py", "collect", games, "--games", "2", "--focal", "hard", "--other", "hard",
              "--workers", "1", "--seed", "7")
    assert "2/2 games" in out
    out = run("bench/trex_learned.py", "fit", games, "--bot", "hard")
    rows = dict(re.findall(r"^  (.+?): (-?[0-9.]+) log-likelihood a decision", out, re.M))
    assert set(rows) == {"learned model", "strong policy", "card-sense policy", "even odds"}
    assert float(rows["learned model"]) > float(rows["even odds"])
    assert re.search(r"strong policy: .* likeliest card played 100.0%", out)
    block = out[out.index("WEIGHTS: "):]
    vectors = re.findall(r"\(([-0-9., \n]+)\),", block)
    assert len(vectors) == 12 and all(len(v.split(",")) == len(FEATURES) for v in vectors)
    bad = subprocess.run([sys.executable, "bench/trex_learned.py", "fit", games, "--held-out", "1"], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "--held-out" in bad.stderr


def test_the_learned_models_weights_are_the_fit_of_the_stored_searcher_games():
    """``cardtable.bots.trex_learned.WEIGHTS`` is what ``fit`` makes of the games kept in
    ``bench/data`` (every weight within the printed rounding), and on their held-out games the
    model predicts ``spar-search`` better than both policies."""
    from cardtable.bots.trex_learned import WEIGHTS

    out = run("bench/trex_learned.py", "fit", "bench/data/trex-searcher-games.jsonl.gz")
    rows = dict(re.findall(r"^  (.+?): (-?[0-9.]+) log-likelihood a decision", out, re.M))
    assert float(rows["learned model"]) > max(float(rows["strong policy"]), float(rows["card-sense policy"]))
    block = out[out.index("WEIGHTS: "):]
    fitted = [float(x) for x in re.findall(r"-?[0-9]+\.[0-9]+", block)]
    kept = [x for contract in WEIGHTS for vector in contract for x in vector]
    assert len(fitted) == len(kept)
    assert max(abs(x - y) for x, y in zip(fitted, kept, strict=True)) < 0.0011


def test_trex_teacher_bench_records_rebuilds_and_tunes(tmp_path: Path):
    """A recorded game is rebuilt from its actions alone: every position's policy card falls in
    one of the teacher's classes (the bench stops otherwise), no card loses a negative amount,
    and tuning reports its held-out regret."""
    games = str(tmp_path / "teacher.jsonl")
    out = run("bench/trex_teacher.py", "record", games, "--games", "1", "--seed", "3", "--rate", "0.04",
              "--iterations", "40", "--workers", "1")
    assert re.search(r"game 3: [1-9][0-9]* positions", out)
    for extra in ((), ("--policy", "card-sense", "--rollout")):
        out = run("bench/trex_teacher.py", "regret", games, *extra)
        rows = re.findall(r"^\| (\w+) \| (\w+) \| (\d+) \| (-?[0-9.]+) \| (\d+)% \|$", out, re.M)
        assert rows[-1][:2] == ("all", "all") and int(rows[-1][2]) == sum(int(r[2]) for r in rows[:-1])
        assert all(float(r[3]) >= 0.0 and 0 <= int(r[4]) <= 100 for r in rows)
    out = run("bench/trex_teacher.py", "tune", games, "--weights", "TREX_WEIGHTS,DANGER_WEIGHTS", "--passes", "1")
    assert "TREX_WEIGHTS = (" in out and "DANGER_WEIGHTS = (" in out and "held-out regret after" in out


def test_search_bench_runs_both_searches():
    out = run("bench/search.py", "--iterations", "20", "--positions", "2")
    assert "cardtable PIMC" in out
    if installed("pyspiel"):
        assert "OpenSpiel ISMCTS" in out and "layout positions only" in out


def test_spit_bench_plays_bot_games():
    out = run("bench/spit.py", "--games", "5")
    assert "games/s" in out and "rounds per game" in out


def test_spit_timing_bench_draws_each_level():
    out = run("bench/spit_timing.py", "--draws", "50")
    assert "| level | move p5 |" in out and "| expert |" in out


def test_c4_spit_race_bench_races_two_clients_on_a_real_server():
    out = run("bench/spit_races.py", "--trials", "4", "--seconds", "60")
    assert "verdict:" in out and "races" in out


def test_simulate_bench_measures_one_and_two_workers():
    out = run("bench/simulate.py", "--games", "10", "--repeat", "1", "--game", "trash")
    assert "sim -j2" in out and "trash" in out


def test_ld7_views_bench_measures_every_game():
    out = run("bench/views.py", "--games", "1", "--max-steps", "50")
    assert "verdict:" in out and all(name in out for name in ("trash", "trex", "spit"))


def test_s7_restart_bench_replays_and_restarts_a_server():
    out = run("bench/restart.py", "--games", "6", "--actions", "5")
    assert "S7: 6 games back in" in out


def test_envs_bench_measures_our_envs():
    out = run("bench/envs.py", "--steps", "200", "--ours-only")
    assert "cardtable spit_v0" in out and "vector Trex-v0" in out


@pytest.mark.skipif(not installed("rlcard", "pygame"),
                    reason="the envs bench's peers are the bench extra: pip install 'cardtable[bench]'")
def test_envs_bench_measures_our_envs_beside_pettingzoo():
    out = run("bench/envs.py", "--steps", "200")
    assert "vs texas_holdem_v4" in out


@pytest.mark.skipif(not COMPILED.is_dir(), reason="no compiled build to compare with (make compiled)")
def test_fastpaths_bench_compares_the_two_builds():
    out = run("bench/fastpaths.py", "--games", "4", "--decisions", "2", "--rounds", "1")
    assert "pure" in out and "compiled" in out and "speed-up" in out


def test_arena_tables_bench_summarises_and_merges_saved_runs(tmp_path: Path):
    runs = []
    for seed in (0, 1):
        out = run("-m", "cardtable.cli.main", "arena", "trash", "--bots", "random,sensible", "--games", "2",
                  "--seed", str(seed), "--workers", "1", "--format", "json", "-q")
        path = tmp_path / f"run{seed}.json"
        path.write_text(out, encoding="utf-8")
        runs.append(str(path))
    one = run("bench/arena_tables.py", runs[0])
    assert "sensible" in one and "|" in one
    merged = run("bench/arena_tables.py", "--merge", *runs)
    assert "seeds 0, 1," in merged
