"""The server's log: what a client can cause is one short line, rate-limited; real faults keep
their tracebacks.

uvicorn logs some client mistakes as errors with a traceback (a WebSocket text frame that is not
UTF-8) and others as one warning each (a malformed HTTP request): a stranger could fill the disk
at a megabyte a second. :class:`ClientNoise` is a filter on uvicorn's error logger that turns
those records into one line each, at most :attr:`ClientNoise.lines` a minute per kind, and then
says how many it left out.
"""

from __future__ import annotations

import logging
import time

CLIENT_MISTAKES = (
    "Invalid UTF-8 sequence received from client.",
    "Invalid HTTP request received.",
    "Unsupported upgrade request.",
    "Exceeded concurrency limit.",
)
"""uvicorn's messages for what a client sent or did, not for a fault of the server."""


class ClientNoise(logging.Filter):
    """Client mistakes: no traceback, at most ``lines`` per ``window`` seconds per message."""

    def __init__(self, lines: int = 5, window: float = 60.0) -> None:
        super().__init__("cardtable.client-noise")
        self.lines = lines
        self.window = window
        self._seen: dict[str, tuple[float, int]] = {}  # message -> (window start, records in it)

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if not message.startswith(CLIENT_MISTAKES):
            return True  # a real fault: as logged, traceback and all
        now = time.monotonic()
        start, count = self._seen.get(message, (now, 0))
        if now - start >= self.window:
            if count > self.lines:
                logging.getLogger("uvicorn.error").warning(
                    "%s (and %d more in the last %.0f s, not logged)", message, count - self.lines, now - start)
            start, count = now, 0
        count += 1
        self._seen[message] = (start, count)
        if count > self.lines:
            return False
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        record.exc_info = record.exc_text = None
        record.msg, record.args = f"client mistake: {message}", ()
        return True


def quiet_client_noise(lines: int = 5, window: float = 60.0) -> ClientNoise:
    """Install :class:`ClientNoise` on uvicorn's error logger (once); returns it."""
    logger = logging.getLogger("uvicorn.error")
    for existing in logger.filters:
        if isinstance(existing, ClientNoise):
            return existing
    noise = ClientNoise(lines, window)
    logger.addFilter(noise)
    return noise
