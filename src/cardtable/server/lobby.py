"""What the lobby's requests share: their error, seat tokens, clean display names, sane rows."""

from __future__ import annotations

import re
import secrets
from typing import Any

from .store import TableRow

MAX_NAME = 25
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")


class LobbyError(Exception):
    """A lobby request that cannot be done: an HTTP 4xx with ``message``."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def new_token() -> str:
    """An unguessable seat token: 24 random bytes (192 bits), URL-safe."""
    return secrets.token_urlsafe(24)


def clean_name(name: Any, fallback: str, limit: int = MAX_NAME) -> str:
    """A display text without control characters or runs of spaces, at most ``limit`` long."""
    if not isinstance(name, str):
        return fallback
    text = " ".join(_CONTROL.sub(" ", name).split())[:limit]
    return text or fallback


def check_row(row: TableRow) -> None:
    """A stored row this server can hold: a known status, one seat row per seat in order,
    known seat kinds (:class:`ValueError` otherwise; the game's options are checked by loading it)."""
    if row.status not in ("open", "playing", "over"):
        raise ValueError(f"unknown status {row.status!r}")
    if [s.seat for s in row.seats] != list(range(len(row.seats))) or not row.seats:
        raise ValueError("the seat rows are not 0 to n-1")
    if any(s.kind not in ("open", "human", "bot") for s in row.seats):
        raise ValueError("unknown seat kind")
    if row.status != "open" and row.seed is None:
        raise ValueError("a started game without a seed")


def error_frame(code: str, message: str, seq: int | None = None, version: int | None = None) -> dict[str, Any]:
    """An ``error`` frame; ``version``: the state the client should look at now (after ``lost_race``)."""
    # a message may quote the client's text: keep it valid UTF-8 and short
    message = message.encode("utf-8", "replace").decode("utf-8")[:300]
    frame: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if seq is not None:
        frame["seq"] = seq
    if version is not None:
        frame["version"] = version
    return frame
