"""The server's benchmarks run (LD1, LD6 and the attacks of the abuse bench), each for a few
seconds against a real ``cardtable serve``: a benchmark that no test runs stops working unseen.
The figures they print are not checked here (they belong to bench/, run on a quiet machine); that
they start, play, measure and stop with status 0 is."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> str:
    done = subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done.stdout


def test_ld1_the_load_bench_plays_every_game_over_websockets():
    out = run("bench/server.py", "--games", "6", "--seconds", "3")
    assert "verdict:" in out and " all " in out


def test_ld6_the_fan_out_bench_runs_with_and_without_spectators():
    out = run("bench/fanout.py", "--spectators", "10", "--seconds", "2")
    assert "verdict:" in out


@pytest.mark.parametrize("attack", ["undo-flood", "chat-hint"])
def test_p8_the_abuse_bench_measures_the_honest_player_under_an_attack(attack: str):
    out = run("bench/abuse.py", "--seconds", "2", "--only", attack)
    assert f"| {attack} |" in out and "| baseline |" in out


def test_ld1_the_before_and_after_bench_runs_both_servers():
    out = run("bench/actor.py", "--sizes", "4", "--seconds", "2", "--rounds", "1")
    assert "| 4 |" in out and "ratio p99" in out and "ratio CPU" in out


def test_s1_r1_the_failover_bench_kills_a_node_and_checks_the_logs(tmp_path: Path):
    saved = tmp_path / "run.json"
    out = run("bench/cluster.py", "--nodes", "2", "--tables", "3", "--kills", "1", "--every", "3",
              "--restart-after", "0.5", "--seconds", "120", "--think", "0.02", "--save", str(saved))
    assert "acknowledged actions" in out and "verdict:" in out
    # two runs pooled (the same run twice here): every gap of both, counted once each
    pooled = run("bench/cluster.py", "--merge", str(saved), str(saved))
    assert "2 runs of 2 nodes, 3 tables, 1 kills" in pooled and "all runs' gaps together" in pooled


def test_ld1_s1_the_cluster_load_bench_compares_one_process_with_cluster_nodes(postgres, redis):
    """Needs the real engines (the fixtures skip with the way to install them when they are missing)."""
    out = run("bench/cluster_load.py", "--sizes", "3", "--nodes", "2", "--seconds", "2", "--appends", "20")
    assert "PostgreSQL append" in out and "| 3 | 1 process, SQLite |" in out
    assert "| 3 | 2 node(s), PostgreSQL + Redis |" in out
