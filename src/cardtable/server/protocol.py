"""The WebSocket protocol: closed message schemas, close codes and the rate limit.

Client to server (JSON text frames of at most :data:`MAX_FRAME` bytes)::

    {"type": "hello", "token"?: str, "since"?: int, "lang"?: "en"|"es"}   first, exactly once
    {"type": "act", "seq": int, "action": str, "version"?: int}          a seat's action
    {"type": "chat", "text": str}                                         a seat's chat line
    {"type": "hint"}                                                       a seat asks the hint bot
    {"type": "undo"}                                                       take back the seat's last move
    {"type": "ping"}                                                       keep-alive, never rate-limited

Any other key, a wrong type, or another ``type`` is rejected with an ``error``
frame (code ``bad_message``); the message is dropped and nothing changes. The
seat always comes from the token of the ``hello``, never from a message.
An action's ``version`` is the state version the client chose it on: in Spit an
action overtaken by another arrival is refused with code ``lost_race`` (and the
current ``version``) rather than ``illegal``.
"""

from __future__ import annotations

import json
import time
from typing import Any

from ..i18n import LANGUAGES

MAX_FRAME = 4096
"""The largest client frame the app reads (bytes of UTF-8); a larger one closes 1009."""

MAX_BAD = 20
"""Bad messages tolerated on one connection before it is closed 1008."""

# Close codes (RFC 6455 and the private 4000-4999 range).
CLOSE_NORMAL = 1000
CLOSE_UNSUPPORTED = 1003  # a binary frame
CLOSE_POLICY = 1008  # too many bad messages, rate limit spent, or no hello in time
CLOSE_TOO_BIG = 1009  # a frame over MAX_FRAME
CLOSE_RESTART = 1012  # the server is restarting: reconnect with your token and version
CLOSE_REPLACED = 4000  # the same seat connected again elsewhere; the newest socket wins
CLOSE_BAD_TOKEN = 4001  # no such seat token for this table
CLOSE_LEFT = 4003  # the seat's holder left it
CLOSE_FREED = 4005  # the host opened the seat again before the start
CLOSE_NO_TABLE = 4004  # no such table
CLOSE_SLOW = 4008  # the client does not read its frames fast enough
CLOSE_FORFEITED = 4010  # an event's table closed without play (a no-show): the page stops reconnecting

CLOSE_CODES = {
    CLOSE_NORMAL: "normal closure",
    CLOSE_UNSUPPORTED: "binary frames are not accepted",
    CLOSE_POLICY: "policy violation (bad messages, rate limit, or no hello)",
    CLOSE_TOO_BIG: f"frame over {MAX_FRAME} bytes",
    CLOSE_RESTART: "server restart: reconnect with your token and last version",
    CLOSE_REPLACED: "replaced by a newer connection for the same seat",
    CLOSE_BAD_TOKEN: "unknown seat token",
    CLOSE_LEFT: "you left this seat; its token no longer works",
    CLOSE_FREED: "the host opened this seat again; its token no longer works",
    CLOSE_NO_TABLE: "unknown table",
    CLOSE_SLOW: "the client is not reading its frames",
    CLOSE_FORFEITED: "this event's game was not played: a player did not come (see the event's page)",
}

LANGS = LANGUAGES  # every language with catalogs: en, es, pt, ar
MAX_TOKEN = 64
MAX_ACTION = 40
MAX_SEQ = 2**53 - 1
MAX_CHAT_TEXT = 1000  # before cleaning; a line is cut to 250 characters after

_SCHEMAS: dict[str, dict[str, tuple[type, bool]]] = {
    # field: (type, required)
    "hello": {"token": (str, False), "since": (int, False), "lang": (str, False)},
    "act": {"seq": (int, True), "action": (str, True), "version": (int, False)},
    "chat": {"text": (str, True)},
    "hint": {},
    "undo": {},
    "ping": {},
}


class ProtocolError(Exception):
    """A message that breaks the protocol: an ``error`` frame with ``code``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def parse_message(text: str) -> dict[str, Any]:
    """A client message checked against its closed schema; :class:`ProtocolError` otherwise."""
    try:
        data = json.loads(text, parse_constant=_reject_constant)
    except (ValueError, RecursionError):
        raise ProtocolError("bad_json", "the message is not a JSON object") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", "a message is a JSON object with a \"type\"")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _SCHEMAS:
        raise ProtocolError("bad_message", "unknown message type; types: " + ", ".join(sorted(_SCHEMAS)))
    schema = _SCHEMAS[kind]
    for key, value in data.items():
        if key == "type":
            continue
        if key not in schema:
            raise ProtocolError("bad_message", f"{kind}: unknown field (fields: {', '.join(sorted(schema)) or 'none'})")
        want, _ = schema[key]
        if want is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise ProtocolError("bad_message", f"{kind}.{key} must be an integer")
        if want is str and not isinstance(value, str):
            raise ProtocolError("bad_message", f"{kind}.{key} must be a string")
    for key, (_, required) in schema.items():
        if required and key not in data:
            raise ProtocolError("bad_message", f"{kind}: field {key} is missing")
    if kind == "hello":
        if "token" in data and not 0 < len(data["token"]) <= MAX_TOKEN:
            raise ProtocolError("bad_message", "hello.token has a bad length")
        if "since" in data and not -1 <= data["since"] <= MAX_SEQ:
            raise ProtocolError("bad_message", "hello.since is out of range")
        if "lang" in data and data["lang"] not in LANGS:
            raise ProtocolError("bad_message", "hello.lang must be one of " + ", ".join(LANGS))
    elif kind == "act":
        if not 0 < data["seq"] <= MAX_SEQ:
            raise ProtocolError("bad_message", "act.seq must be a positive integer")
        if not 0 < len(data["action"]) <= MAX_ACTION:
            raise ProtocolError("bad_message", "act.action has a bad length")
        if "version" in data and not 0 <= data["version"] <= MAX_SEQ:
            raise ProtocolError("bad_message", "act.version is out of range")
    elif kind == "chat" and not 0 < len(data["text"]) <= MAX_CHAT_TEXT:
        raise ProtocolError("bad_message", "chat.text has a bad length")
    return data


class TokenBucket:
    """A rate limit: ``rate`` messages a second with bursts of ``burst``.

    20/s with a burst of 40 never throttles a fast human (P9: 10 plays/s for
    5 s) and stops a flood within two seconds.
    """

    def __init__(self, rate: float = 20.0, burst: float = 40.0, clock: Any = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.tokens = burst
        self.last = clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


def dumps(frame: dict[str, Any]) -> str:
    """Frames as compact JSON (non-ASCII kept: card glyphs, Spanish texts)."""
    return json.dumps(frame, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
