"""The HTTP edge: what every request and socket passes before a route sees it.

The ``Host`` check (DNS rebinding), the ``Origin`` check (A6), the security headers of every
answer, and a request body read under :data:`~cardtable.server.protocol.MAX_FRAME` as finite JSON.
The lobby's, the tables' and the players' routes share these rules.
"""

from __future__ import annotations

import asyncio
import functools
import json
import math
import urllib.parse
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response

from .lobby import LobbyError
from .ports import LogError
from .protocol import CLOSE_POLICY, MAX_FRAME

Endpoint = Callable[[Request], Awaitable[Response]]

SECURITY_HEADERS = [
    # the page loads only its own scripts, styles and socket: no inline code, no other origin
    (b"content-security-policy", b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
     b"connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),  # a table's link is not told to other sites
]


class SecurityHeaders:
    """ASGI middleware: :data:`SECURITY_HEADERS` on every HTTP response, and API answers not cached."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        api = scope["path"].startswith("/api/")

        async def send_with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", [])) + SECURITY_HEADERS
                if api:
                    headers.append((b"cache-control", b"no-store"))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def parse_body(raw: bytes) -> Any:
    """A request body as JSON, or a 400: only finite numbers (no ``NaN``, ``Infinity`` or ``1e999``,
    which no JSON answer could carry back)."""
    try:
        return json.loads(raw or b"{}", parse_constant=_reject_constant, parse_float=_finite_float)
    except RecursionError:
        raise LobbyError(400, "bad_json", "the body is nested too deeply") from None
    except ValueError as exc:
        message = str(exc) if isinstance(exc, NonFiniteError) else "the body is not JSON"
        raise LobbyError(400, "bad_json", message) from None


class NonFiniteError(ValueError):
    """A number in a request that is not finite."""


def _reject_constant(name: str) -> Any:
    raise NonFiniteError(f"{name} is not a number JSON allows; numbers are finite")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise NonFiniteError(f"{text[:20]} is not a finite number")
    return value


def store_error(exc: Exception) -> JSONResponse:
    """The answer while the store cannot be read or written, or the table is moving to another
    server process (503, with the code and advice of a :class:`LogError`): the request may be
    sent again."""
    code, advice = (exc.code, exc.advice) if isinstance(exc, LogError) else (LogError.code, LogError.advice)
    return JSONResponse({"error": code, "message": advice}, status_code=503)


def json_error(exc: LobbyError) -> JSONResponse:
    """A refused request's answer: its status, a code, a message and the error's fields."""
    return JSONResponse({**exc.fields, "error": exc.code, "message": exc.message}, status_code=exc.status)


def answering(fn: Endpoint, unusable: tuple[type[Exception], ...] = (LogError,)) -> Endpoint:
    """``fn`` with its refusals answered: a :class:`LobbyError` by :func:`json_error`, an error of
    a store that cannot be used now (``unusable``) by :func:`store_error`. It keeps ``fn``'s name,
    which names its route."""
    @functools.wraps(fn)
    async def run(request: Request) -> Response:
        try:
            return await fn(request)
        except LobbyError as exc:
            return json_error(exc)
        except unusable as exc:
            return store_error(exc)
    return run


LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
"""The names the server answers to by default: a page served under any other ``Host`` is a
DNS-rebinding attempt (an attacker's name that resolves to 127.0.0.1)."""

_DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


def split_host(host: str | None) -> tuple[str, int | None] | None:
    """``Host`` as (lower-case name, port or ``None``); ``None`` if it is not one host."""
    if not host or len(host) > 300 or any(c in host for c in "/\\@?# "):
        return None
    try:
        parts = urllib.parse.urlsplit("//" + host)
        name, port = parts.hostname, parts.port
    except ValueError:
        return None
    if not name:
        return None
    return name.rstrip("."), port


def split_origin(origin: str) -> tuple[str, str, int] | None:
    """``Origin`` as (scheme, lower-case host, port with the scheme's default filled in). The
    scheme is compared exactly: a browser always sends it in lower case (``HTTP://`` is no origin
    a browser serializes, so it is refused)."""
    if not origin.startswith(("http://", "https://")):
        return None
    try:
        parts = urllib.parse.urlsplit(origin)
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.path or parts.query or parts.username:
        return None
    return parts.scheme, parts.hostname.rstrip("."), port or _DEFAULT_PORTS[parts.scheme]


def host_allowed(host: str | None, names: frozenset[str]) -> bool:
    """The ``Host`` header names this server: one of ``names`` (any port)."""
    split = split_host(host)
    return split is not None and split[0] in names


def origin_allowed(origin: str | None, host: str | None, allow: frozenset[str]) -> bool:
    """No ``Origin`` (a non-browser client), the page's own origin (``http://`` and the ``Host``,
    port included), or an allowlist entry: scheme, host and port compared exactly (A6)."""
    if origin is None:
        return True
    theirs = split_origin(origin)
    if theirs is None:
        return False
    if theirs in {split_origin(a) for a in allow}:
        return True
    own = split_host(host)
    return own is not None and theirs == ("http", own[0], own[1] or 80)


class HostGuard:
    """ASGI middleware: a request whose ``Host`` is not one of the server's names is refused
    (HTTP ``421``; a WebSocket is closed before it is accepted, ``403`` at the upgrade)."""

    def __init__(self, app: Any, names: frozenset[str]) -> None:
        self.app = app
        self.names = names

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        host = next((v.decode("latin-1") for k, v in scope.get("headers", ()) if k == b"host"), None)
        if host_allowed(host, self.names):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": CLOSE_POLICY})
            return
        response = JSONResponse({"error": "bad_host", "message": "this server is not reached by that name"},
                                status_code=421)
        await response(scope, receive, send)


BODY_TIMEOUT = 10.0
"""Seconds a request's body may take to arrive once its headers have (a body is at most
:data:`MAX_FRAME` bytes); a slower one is answered 408 and its connection closed."""


async def read_body(request: Request, allow: frozenset[str], *, json_only: bool = False) -> dict[str, Any]:
    """A POST's body: from an allowed origin, no more than :data:`MAX_FRAME` bytes, a JSON object.
    ``json_only``: sent as ``application/json`` too (the routes of accounts and events, which a form
    of another site must not reach: a browser sends that type across sites only after asking)."""
    if not origin_allowed(request.headers.get("origin"), request.headers.get("host"), allow):
        raise LobbyError(403, "origin", "origin not allowed")
    if json_only and request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        raise LobbyError(415, "not_json", "send JSON (Content-Type: application/json)")
    length = request.headers.get("content-length", "0")
    if not (length.isascii() and length.isdigit()) or len(length) > 9 or int(length) > MAX_FRAME:
        raise LobbyError(413, "too_big", f"request body over {MAX_FRAME} bytes")
    raw = b""
    try:
        async with asyncio.timeout(BODY_TIMEOUT):  # a body sent a byte at a time holds nothing for long
            async for chunk in request.stream():  # read no more than the cap, whatever the headers say
                raw += chunk
                if len(raw) > MAX_FRAME:
                    raise LobbyError(413, "too_big", f"request body over {MAX_FRAME} bytes")
    except TimeoutError:
        raise LobbyError(408, "slow_body", f"the request body did not come within {BODY_TIMEOUT:g} s") from None
    except ClientDisconnect:  # the client hung up halfway: nobody reads the answer, nothing to log
        raise LobbyError(400, "cut_off", "the request body was cut off") from None
    data = parse_body(raw)
    if not isinstance(data, dict):
        raise LobbyError(400, "bad_json", "the body is a JSON object")
    return data


def only(data: dict[str, Any], *keys: str) -> None:
    """A 400 if ``data`` has a field besides ``keys``."""
    extra = set(data) - set(keys)
    if extra:
        raise LobbyError(400, "bad_request", f"unknown fields; fields: {', '.join(keys)}")


def client_address(request: Request) -> str:
    """The address a request came from (``?`` if the server was not told)."""
    return request.client.host if request.client is not None else "?"
