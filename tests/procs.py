"""Processes as /proc shows them, for the tests that check that no process outlives its owner."""

from __future__ import annotations

from pathlib import Path

HAS_PROC = Path("/proc/self/stat").exists()


def _stat(pid: int | str) -> list[str]:
    """The fields of ``/proc/PID/stat`` after the command name (state, parent, ...)."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def running(pid: int) -> bool:
    """``pid`` exists and has not ended (a zombie has ended; only its parent's wait is missing)."""
    try:
        return _stat(pid)[0] != "Z"
    except OSError:
        return False


def descendants(root: int) -> set[int]:
    """Every process below ``root``: its children, their children, and so on."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int(_stat(entry.name)[1])
            except OSError:  # gone meanwhile
                continue
    found: set[int] = set()
    frontier = {root}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found
