"""The throwaway PostgreSQL and Redis of the tests (``tests/server/services.py``) are real servers
that keep what they acknowledged over a restart, leave nothing behind when closed, and never
outlive the test process that started them."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.procs import HAS_PROC, running

from .services import Postgres, Redis, redis_binary

ROOT = Path(__file__).resolve().parents[2]


def test_postgres_keeps_its_data_over_a_restart(postgres: Postgres, pg_url: str):
    import psycopg

    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("CREATE TABLE kept (x INTEGER)")
        conn.execute("INSERT INTO kept VALUES (42)")
    postgres.stop()
    assert not postgres.running()
    postgres.start()
    with psycopg.connect(pg_url) as conn:
        assert conn.execute("SELECT x FROM kept").fetchall() == [(42,)]


def test_redis_keeps_its_acknowledged_writes_over_a_restart(redis: Redis, redis_url: str):
    assert redis.call("SET", "k", "v").startswith(b"+OK")
    redis.stop(signal.SIGKILL)  # no shutdown save: only the append-only file has it
    redis.start()
    assert redis.call("GET", "k") == b"$1\r\nv\r\n"


def test_a_closed_server_leaves_no_folder_and_no_process():
    binary = redis_binary()
    if binary is None:
        pytest.skip("no redis-server: run scripts/install-services.sh as root (make services)")
    server = Redis(binary)
    server.start()
    assert server.proc is not None
    pid = server.proc.pid
    server.close()
    assert not server.root.exists() and not running(pid)


@pytest.mark.skipif(not HAS_PROC, reason="needs /proc")
def test_a_server_dies_with_the_test_process_that_started_it():
    """A test process killed outright (SIGKILL: no teardown runs) takes its server along."""
    if redis_binary() is None:
        pytest.skip("no redis-server: run scripts/install-services.sh as root (make services)")
    code = ("import sys, time; from tests.server.services import Redis, redis_binary; "
            "r = Redis(redis_binary()); r.start(); print(r.proc.pid, r.root, flush=True); time.sleep(600)")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
    owner = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    assert owner.stdout is not None
    line = owner.stdout.readline()  # written once the server answers (or empty, if the owner failed)
    pid, root = int(line.split()[0]), line.split()[1]
    try:
        assert running(pid)
        owner.kill()
        owner.wait(timeout=60)
        deadline = time.monotonic() + 60
        while running(pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not running(pid)
    finally:
        if running(pid):
            os.kill(pid, signal.SIGKILL)
        shutil.rmtree(root, ignore_errors=True)  # what the owner's teardown would have done
