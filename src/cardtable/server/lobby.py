"""What the lobby's requests share: their error, seat tokens, clean display names, sane rows."""

from __future__ import annotations

import re
import secrets
import unicodedata
from typing import Any

from .store import TableRow

MAX_NAME = 25
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
_INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e\u034f\u17b4\u17b5")
"""Letters and marks that show nothing (Hangul fillers, a blank Braille cell, ...): format
characters (``Cf``: zero-width spaces and joiners, bidi controls) go by their category."""


class LobbyError(Exception):
    """A lobby request that cannot be done: an HTTP 4xx with ``message``. ``fields``: what the
    answer carries besides its code and message, for the page to say it in its language (a
    cap's number: ``too_many_open``'s ``limit`` and ``per``)."""

    def __init__(self, status: int, code: str, message: str, fields: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.fields = fields or {}


def new_token() -> str:
    """An unguessable seat or host token: 24 random bytes (192 bits), URL-safe."""
    return secrets.token_urlsafe(24)


TOKEN = re.compile(r"[A-Za-z0-9_-]{32}")
"""What :func:`new_token` gives out."""


def clean_name(name: Any, fallback: str, limit: int = MAX_NAME) -> str:
    """A display text in NFKC form without invisible or control characters or runs of spaces,
    at most ``limit`` long: two names that look the same are the same text (P10)."""
    if not isinstance(name, str):
        return fallback
    text = unicodedata.normalize("NFKC", _CONTROL.sub(" ", name))
    text = "".join(c for c in text if not _invisible(c))
    text = " ".join(unicodedata.normalize("NFKC", text).split())[:limit].strip()
    return text or fallback


def _invisible(c: str) -> bool:
    code = ord(c)
    return (c in _INVISIBLE or 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF  # variation selectors
            or unicodedata.category(c) in ("Cf", "Co", "Cn"))


def distinct_name(name: str, others: list[str], seat: int) -> str:
    """``name``, or ``name (seat number)`` when another seat already shows it (case aside)."""
    taken = {other.casefold() for other in others}
    return name if name.casefold() not in taken else f"{name[:MAX_NAME - 5]} ({seat + 1})"


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
