"""How a node's log lines give a time and an exception."""

from __future__ import annotations

import time


def utc_stamp(wall: float) -> str:
    """A wall-clock time as the nodes' log lines give it: UTC, to the millisecond."""
    return time.strftime("%H:%M:%S", time.gmtime(wall)) + f".{int(wall % 1 * 1000):03d}"


def why(exc: BaseException) -> str:
    """An exception for a log line: its class and its message (a Redis error's ``repr`` has no message)."""
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
