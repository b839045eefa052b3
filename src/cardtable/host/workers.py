"""Worker processes that end with the process they work for.

A :class:`concurrent.futures.ProcessPoolExecutor` worker holds both ends of its job queue, so when
the process that made the pool is killed without a goodbye (SIGKILL, a crash, the OOM killer) the
worker never reads an end of file: it waits for ever, and so does the fork server it came from,
which lives as long as any of its children. Every pool of cardtable (the server's bot pool, the
simulations, the arena) starts its workers with :func:`end_with`.
"""

from __future__ import annotations

import os
import select
import threading
import time

MAX_WORKERS = 4096
"""The most worker processes a pool of the simulations or the arena takes (``--workers``): far
above any machine's cores, below what makes a process pool fail with an overflow."""


def end_with(pid: int) -> None:
    """End this process (at once, with status 0) when process ``pid`` ends; call it in a worker's
    initializer with the pool owner's ``os.getpid()``."""
    threading.Thread(target=_wait_for, args=(pid,), name="end-with-owner", daemon=True).start()


def _wait_for(pid: int) -> None:
    try:
        handle = os.pidfd_open(pid)  # readable once the process has ended
    except ProcessLookupError:  # ended already
        os._exit(0)
    except (AttributeError, OSError):  # no pidfds on this system: look every second
        while _alive(pid):
            time.sleep(1.0)
        os._exit(0)
    select.select([handle], [], [])
    os._exit(0)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # a process of somebody else's under that number
        return True
    return True
