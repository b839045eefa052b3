"""Pool workers end with the process that made the pool, however it ends (``host.workers``)."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ..procs import HAS_PROC, running

OWNER = """
import concurrent.futures, multiprocessing, os, sys, time
from cardtable.host.workers import end_with


def slow_pid(_: int) -> int:
    time.sleep(0.2)  # so that both workers get a job
    return os.getpid()

if __name__ == "__main__":
    context = multiprocessing.get_context(sys.argv[1])
    with concurrent.futures.ProcessPoolExecutor(2, mp_context=context, initializer=end_with,
                                                initargs=(os.getpid(),)) as pool:
        pids: set[int] = set()
        while len(pids) < 2:
            pids |= set(pool.map(slow_pid, range(4)))
        print(*sorted(pids), flush=True)
        time.sleep(60)
"""


@pytest.mark.skipif(not HAS_PROC, reason="reads process states from /proc")
@pytest.mark.parametrize("method", ["fork", "forkserver", "spawn"])
def test_workers_end_when_their_owner_is_killed(tmp_path: Path, method: str):
    script = tmp_path / "owner.py"
    script.write_text(OWNER)
    owner = subprocess.Popen([sys.executable, str(script), method], stdout=subprocess.PIPE, text=True)
    try:
        assert owner.stdout is not None
        workers = [int(pid) for pid in owner.stdout.readline().split()]
        assert len(workers) == 2 and all(running(pid) for pid in workers)
        owner.send_signal(signal.SIGKILL)
        owner.wait(10)
        deadline = time.monotonic() + 15
        while any(running(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not any(running(pid) for pid in workers)
    finally:
        owner.kill()
        owner.wait()
