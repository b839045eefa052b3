"""The ASGI app: the lobby's HTTP API, the game WebSocket and the static UI.

Build it with :func:`create_app`; ``cardtable serve`` runs it under uvicorn.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import math
import sys
import time
import urllib.parse
from collections.abc import AsyncIterator, Awaitable, Callable
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..bots import bot_names
from ..core.registry import game_class, game_names
from ..i18n import LANGUAGES, catalog
from .botpool import BotPool
from .cluster import Cluster, RemoteTable
from .commands import Act, AddBot, Attach, Chat, Command, Commit, Detach, Free, Hint, Leave, Reveal, Sit, Start, Undo
from .connection import Connection
from .howto import howto_endpoint
from .hub import Hub
from .limits import Limits
from .lobby import LobbyError
from .offload import Offload
from .players import Players
from .players.routes import player_routes
from .players.sessions import session_cookie
from .ports import LeasedLog, LogError
from .protocol import (
    CLOSE_BAD_TOKEN,
    CLOSE_NO_TABLE,
    CLOSE_POLICY,
    CLOSE_RESTART,
    CLOSE_TOO_BIG,
    CLOSE_UNSUPPORTED,
    MAX_BAD,
    MAX_FRAME,
    ProtocolError,
    TokenBucket,
    parse_message,
)
from .replay import replay_endpoint
from .review import review_endpoint
from .store import token_hash
from .tables import Table

HELLO_TIMEOUT = 10.0
UNDO_PER_ADDRESS = (5.0, 10.0)
"""Undos one address may ask for over all its tables: five a second, ten at once (each seat also
has its own bound, :data:`cardtable.server.lifecycle.UNDO_RATE`)."""
SECURITY_HEADERS = [
    # the page loads only its own scripts, styles and socket: no inline code, no other origin
    (b"content-security-policy", b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
     b"connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),  # a table's link is not told to other sites
]
WEB = Path(str(resources.files("cardtable").joinpath("web")))


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


def _store_error() -> JSONResponse:
    return JSONResponse({"error": "store", "message": "the server's store is not writable now; try again"},
                        status_code=503)


def _json_error(exc: LobbyError) -> JSONResponse:
    return JSONResponse({"error": exc.code, "message": exc.message}, status_code=exc.status)


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


def games_info() -> list[dict[str, Any]]:
    out = []
    for name in game_names():
        cls = game_class(name)
        out.append({
            "name": name,
            "title": cls.title,
            "presets": {p: cls.PRESET_DOCS.get(p, "") for p in cls.PRESETS},
            "options": [
                {"name": o.name, "type": o.kind.__name__, "default": o.default, "doc": o.doc,
                 "choices": list(o.choices) if o.choices else None, "minimum": o.minimum, "maximum": o.maximum}
                for o in cls.OPTIONS
            ],
            "bots": bot_names(name),
            "undo": not cls.realtime,  # a table of it may allow undo against bots (docs/web.md)
        })
    return out


def create_app(
    store: LeasedLog,
    *,
    allow_origins: tuple[str, ...] = (),
    allow_hosts: tuple[str, ...] = (),
    bot_delay: float = 0.4,
    rate: float = 20.0,
    burst: float = 40.0,
    max_per_ip: int = 20,
    hold: float | None = 60.0,
    create_rate: float = 0.5,
    create_burst: float = 30.0,
    keep: float = 600.0,
    countdown: float | None = 3.0,
    close_store: bool = False,
    max_open_per_ip: int = 10,
    max_open_per_host: int = 5,
    unjoined: float = 120.0,
    bot_workers: int = 0,
    offload: Offload | None = None,
    cluster: Cluster | None = None,
    players: Players | None = None,
) -> Starlette:
    """The app over ``store``; live games are replayed from it at start-up.

    ``hold``: seconds a person may be away while it is their turn before a
    stand-in bot moves for them (``None``: never). ``keep``: seconds an open or
    finished table nobody is at stays in memory (the database keeps it).
    ``countdown``: a real-time game (Spit) stands still while a person's seat has
    no connection and goes on this many seconds after everyone is back (``None``:
    it never waits). ``max_open_per_ip``: open tables one address may hold;
    ``max_open_per_host``: open tables one host token may hold (a creator may send the token of
    an earlier table to host the new one with it too);
    ``unjoined``: seconds an open table nobody sat at or connected to stays (P11).
    ``allow_hosts``: names the server is reached by besides
    :data:`LOOPBACK_NAMES` (the ``Host`` header is checked against them).
    ``bot_workers``: processes turn-based bots think in, addresses taking turns (0: in this
    process, on the event loop). ``close_store``: the app closes the store when it shuts down (``cardtable serve``:
    the database is closed before the process exits, whatever signal ended it). ``offload``: where
    replays and reviews of finished games are worked out (default: one worker process, started
    when first needed). ``cluster``: this process is one node of a cluster (docs/deploy.md): the
    tables it owns are written here, the others' commands go to their owners. ``players``: accounts,
    sessions, results and ratings (docs/play-online.md): a seat taken while logged in is the
    account's, and every finished game's result is recorded."""
    pool = BotPool(bot_workers) if bot_workers > 0 else None
    offload = offload if offload is not None else Offload()
    hub = Hub(store, bot_delay=bot_delay, hold=hold, keep=keep, countdown=countdown,
              max_open_per_owner=max_open_per_ip,
              max_open_per_host=max_open_per_host, unjoined=unjoined, pool=pool, cluster=cluster,
              finished=None if players is None else (lambda table: record_result(players, table)))

    async def locate(table_id: Any) -> Table | RemoteTable:
        table = await hub.locate(table_id)
        if table is None:
            raise LobbyError(404, "no_table", "no such table")
        return table
    allow = frozenset(allow_origins)
    names = frozenset(n.lower().strip("[]").rstrip(".") for n in (*LOOPBACK_NAMES, *allow_hosts))
    # per address, over every process of a cluster: open sockets; buckets of new tables (30 at once,
    # then one per 2 s), of resumes with missed events (20 at once, 2 a second) and of undos
    limits: Limits = cluster.limits if cluster is not None else Limits()

    async def may_resume(ip: str) -> bool:
        return await limits.take("resume", ip, 2.0, 20.0)

    async def may_undo(ip: str) -> bool:
        return await limits.take("undo", ip, *UNDO_PER_ADDRESS)

    async def body(request: Request) -> dict[str, Any]:
        if not origin_allowed(request.headers.get("origin"), request.headers.get("host"), allow):
            raise LobbyError(403, "origin", "origin not allowed")
        length = request.headers.get("content-length", "0")
        if not length.isdigit() or int(length) > MAX_FRAME:
            raise LobbyError(413, "too_big", f"request body over {MAX_FRAME} bytes")
        raw = b""
        async for chunk in request.stream():  # read no more than the cap, whatever the headers say
            raw += chunk
            if len(raw) > MAX_FRAME:
                raise LobbyError(413, "too_big", f"request body over {MAX_FRAME} bytes")
        data = parse_body(raw)
        if not isinstance(data, dict):
            raise LobbyError(400, "bad_json", "the body is a JSON object")
        return data

    def only(data: dict[str, Any], *keys: str) -> None:
        extra = set(data) - set(keys)
        if extra:
            raise LobbyError(400, "bad_request", f"unknown fields; fields: {', '.join(keys)}")

    ready = {"now": False}

    async def api_health(request: Request) -> Response:
        """For a load balancer: 200 once this process serves (its cluster joined), else 503;
        ``?table=ID`` adds which node owns that table (a cluster)."""
        out: dict[str, Any] = {"status": "ok" if ready["now"] else "starting", "tables": len(hub.tables)}
        if cluster is not None:
            out["node"] = cluster.node
            out["owned"] = len(cluster.owned)
            table_id = request.query_params.get("table")
            if table_id:
                out["owner"] = await cluster.owner(table_id[:64])
        return JSONResponse(out, status_code=200 if ready["now"] else 503)

    async def api_games(request: Request) -> Response:
        return JSONResponse({"games": games_info(), "languages": list(LANGUAGES)})

    async def api_tables(request: Request) -> Response:
        if request.method == "GET":
            mine = hub.listing()
            return JSONResponse({"tables": mine if cluster is None else await cluster.listing(mine)})
        try:
            ip = request.client.host if request.client is not None else "?"
            if not await limits.take("create", ip, create_rate, create_burst):
                raise LobbyError(429, "rate_limited", "too many new tables; wait a little")
            data = await body(request)
            only(data, "game", "preset", "options", "host", "undo", "rated", "clock")
            given = data.get("host")
            elsewhere = (await limits.elsewhere(f"open:{ip}"),
                         await limits.elsewhere(f"host:{token_hash(given)}") if isinstance(given, str) else 0)
            table, host = hub.create(data.get("game"), data.get("preset"), data.get("options"), owner=ip,
                                     host=given, undo=data.get("undo", False), elsewhere=elsewhere,
                                     rated=data.get("rated", False), clock=data.get("clock", "default"))
            if cluster is not None:
                await cluster.acquire(table.id)
                await limits.counted(f"open:{ip}", 1)  # the other nodes count it at once
                await limits.counted(f"host:{table.row.host_hash}", 1)
        except LobbyError as exc:
            return _json_error(exc)
        except LogError:
            return _store_error()
        return JSONResponse({"table": table.public(), "host": host}, status_code=201)

    async def api_table(request: Request) -> Response:
        try:
            table = await locate(request.path_params["table_id"])
            public = await table.public_async() if isinstance(table, RemoteTable) else table.public()
        except LobbyError as exc:
            return _json_error(exc)
        except LogError:
            return _store_error()
        return JSONResponse({"table": public})

    async def api_record(request: Request) -> Response:
        """A finished game's record (seed and actions: ``cardtable replay`` shows it; a fair game's
        commitments, seeds and deals: ``cardtable verify`` checks it); never before the end, when
        the seed would give every hidden card away (H6)."""
        try:
            table = hub.get(request.path_params["table_id"])
            if table.match is None or not table.match.is_over:
                raise LobbyError(409, "in_progress", "the record is published when the game is over")
        except LobbyError as exc:
            return _json_error(exc)
        name = f"cardtable-{table.row.game}-{table.id}.json"
        return JSONResponse(table.match.record().to_json(),
                            headers={"Content-Disposition": f'attachment; filename="{name}"'})

    async def api_table_op(request: Request) -> Response:
        op = request.path_params["op"]
        try:
            data = await body(request)
            table = await locate(request.path_params["table_id"])
            cmd = table_command(table, op, data)
            table.visitors += 1  # not swept from memory while its command waits
            try:
                reply = await table.ask(cmd)
            finally:
                table.visitors -= 1
            if players is not None:
                seat_owner(players, request, table.id, cmd, reply)
        except LobbyError as exc:
            return _json_error(exc)
        except LogError:
            return _store_error()
        return JSONResponse(reply)

    async def i18n(request: Request) -> Response:
        lang = request.path_params["lang"]
        if lang not in LANGUAGES:
            return JSONResponse({"error": "no_lang"}, status_code=404)
        keys = {k: v for k, v in catalog(lang).items() if k.startswith("web.")}
        fallback = {k: v for k, v in catalog("en").items() if k.startswith("web.")}
        return JSONResponse({**fallback, **keys})

    async def page(request: Request) -> Response:
        return FileResponse(WEB / "index.html", headers={"Cache-Control": "no-cache"})

    async def ws_endpoint(websocket: WebSocket) -> None:
        if not origin_allowed(websocket.headers.get("origin"), websocket.headers.get("host"), allow):
            await websocket.close(code=CLOSE_POLICY)  # before accept: HTTP 403 at the upgrade
            return
        ip = websocket.client.host if websocket.client is not None else "?"
        if not await limits.open_socket(ip, max_per_ip):  # P11: a cap on open sockets per address
            await websocket.close(code=CLOSE_POLICY)
            return
        table = None
        try:
            table = await hub.locate(websocket.path_params["table_id"])
            if table is not None:
                table.visitors += 1  # not swept from memory while this socket lives
            await websocket.accept()
            if table is None:
                await websocket.close(code=CLOSE_NO_TABLE)
                return
            await serve_socket(websocket, table, rate, burst, lambda: may_resume(ip), lambda: may_undo(ip))
        finally:
            if table is not None:
                table.visitors -= 1
                table.touched = time.monotonic()
            await limits.close_socket(ip)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if pool is not None:
            pool.warm()
        hub.resume_bots()
        if cluster is not None:
            await cluster.start(hub)
        ready["now"] = True
        gc.collect()
        gc.freeze()  # the replayed games and loaded modules stay out of later collections

        async def sweeper() -> None:
            while True:
                await asyncio.sleep(min(60.0, max(0.05, min(keep, unjoined) / 4)))
                hub.sweep()
                if players is not None:
                    players.sweep()

        task = asyncio.get_running_loop().create_task(sweeper())
        yield
        task.cancel()
        ready["now"] = False
        if cluster is not None:
            await cluster.stop()
        hub.close_all()
        offload.close()
        if players is not None:
            players.close()
        if pool is not None:
            pool.close()
        if close_store:
            store.close()
            print("cardtable: stopped; database closed", file=sys.stderr, flush=True)

    app = Starlette(
        routes=[
            *(player_routes(players, allow_origins=allow_origins, hub=hub) if players is not None else []),
            Route("/", page),
            Route("/t/{table_id}", page),
            Route("/t/{table_id}/replay", page),
            Route("/howto/{game}", page),
            Route("/api/howto/{game}", howto_endpoint()),
            Route("/api/games", api_games),
            Route("/api/health", api_health),
            Route("/api/tables", api_tables, methods=["GET", "POST"]),
            Route("/api/tables/{table_id}", api_table),
            Route("/api/tables/{table_id}/record", api_record),
            Route("/api/tables/{table_id}/replay", replay_endpoint(hub, offload)),
            Route("/api/tables/{table_id}/review", review_endpoint(hub, offload)),
            Route("/api/tables/{table_id}/{op}", api_table_op, methods=["POST"]),
            Route("/i18n/{lang}.json", i18n),
            WebSocketRoute("/ws/{table_id}", ws_endpoint),
            Mount("/static", app=StaticFiles(directory=WEB / "static"), name="static"),
        ],
        lifespan=lifespan,
        middleware=[Middleware(SecurityHeaders), Middleware(HostGuard, names=names)],
    )
    app.state.hub = hub
    app.state.offload = offload
    app.state.sockets_per_ip = limits.sockets
    return app


def seat_owner(players: Players, request: Request, table_id: str, cmd: Command, reply: Any) -> None:
    """A seat taken by a person who is logged in is their account's; a seat opened again before
    the start is nobody's."""
    if isinstance(cmd, Sit):
        account = players.account_for(session_cookie(request.cookies, request.url.scheme == "https"))
        if account is not None:
            ip = request.client.host if request.client is not None else "?"
            players.link_seat(account.id, table_id, int(reply["seat"]), token=reply["token"], address=ip)
    elif isinstance(cmd, Leave | Free) and reply["table"]["status"] == "open":
        players.unlink_seat(table_id, int(cmd.seat if isinstance(cmd, Free) else reply["seat"]))


def record_result(players: Players, table: Table) -> None:
    """A finished game's result (and, at a rated table, the ratings) in the players' records
    (:meth:`Players.record_table`)."""
    players.record_table(table)


async def _asked(table: Table | RemoteTable, cmd: Command, conn: Connection) -> bool:
    """``cmd`` to the table; ``False`` (the socket closes, the page reconnects and resyncs) when
    the table cannot take it here now: its owner in a cluster died or moved, or the log failed."""
    try:
        await table.ask(cmd)
    except LogError:
        conn.close_soon(CLOSE_RESTART, "the table is moving to another server process; reconnect")
        return False
    return True


async def _always() -> bool:
    return True


def table_command(table: Table | RemoteTable, op: str, data: dict[str, Any]) -> Command:
    """The command of ``POST /api/tables/{id}/{op}``, its fields checked; the host's operations
    need the table's host token."""
    fields = {"sit": ("seat", "name", "commitment"), "commit": ("token", "commitment"), "reveal": ("token", "seed"),
              "leave": ("token",), "bot": ("host", "seat", "bot"), "free": ("host", "seat"), "start": ("host",)}
    if op not in fields:
        raise LobbyError(404, "no_op", "no such operation")
    extra = set(data) - set(fields[op])
    if extra:
        raise LobbyError(400, "bad_request", f"unknown fields; fields: {', '.join(fields[op])}")
    if op == "sit":
        return Sit(data.get("seat"), data.get("name"), data.get("commitment"))
    if op == "commit":
        return Commit(data.get("token"), data.get("commitment"))
    if op == "reveal":
        return Reveal(data.get("token"), data.get("seed"))
    if op == "leave":
        return Leave(data.get("token"))
    if not table.is_host(data.get("host")):
        raise LobbyError(403, "not_host", "only the table's host may do that")
    if op == "bot":
        return AddBot(data.get("seat"), data.get("bot"))
    if op == "free":
        return Free(data.get("seat"))
    return Start()


async def serve_socket(websocket: WebSocket, table: Table | RemoteTable, rate: float, burst: float,
                       may_resume: Callable[[], Awaitable[bool]] = _always,
                       may_undo: Callable[[], Awaitable[bool]] = _always) -> None:
    """One client: hello first, then actions and pings, until it goes away. Each message becomes a
    command to the table's actor; the answers and the table's frames come back through the bus.
    A ``hello`` with ``since`` gets the events it missed only while ``may_resume()`` (the
    address's resume rate); otherwise it gets the state alone, which is all a client needs to go
    on. An undo is refused while ``may_undo()`` says no (the address's undo rate)."""

    async def close(code: int, reason: str) -> None:
        await websocket.close(code=code, reason=reason)

    conn = Connection(websocket.send_text, close)
    conn.start()
    bucket = TokenBucket(rate, burst)
    bad = 0
    dropped = 0
    cid: str | None = None
    seat: int | None = None
    try:
        while not conn.closed:
            try:
                if cid is not None:
                    message = await websocket.receive()
                else:
                    message = await asyncio.wait_for(websocket.receive(), HELLO_TIMEOUT)
            except TimeoutError:
                conn.close_soon(CLOSE_POLICY, "no hello")
                break
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text is None:
                conn.close_soon(CLOSE_UNSUPPORTED, "binary frames are not accepted")
                break
            if len(text) > MAX_FRAME or len(text.encode("utf-8", "surrogatepass")) > MAX_FRAME:
                conn.close_soon(CLOSE_TOO_BIG, f"frame over {MAX_FRAME} bytes")
                break
            try:
                msg = parse_message(text)
            except ProtocolError as exc:
                bad += 1
                conn.push({"type": "error", "code": exc.code, "message": exc.message})
                if bad >= MAX_BAD:
                    conn.close_soon(CLOSE_POLICY, "too many bad messages")
                continue
            kind = msg["type"]
            if kind == "ping":
                conn.push({"type": "pong"})
                continue
            if not bucket.take():
                dropped += 1
                conn.push({"type": "error", "code": "rate_limited", "message": "too many messages; slow down",
                           **({"seq": msg["seq"]} if kind == "act" else {})})
                if dropped >= MAX_BAD:
                    conn.close_soon(CLOSE_POLICY, "rate limit")
                continue
            dropped = 0
            if kind == "hello":
                if cid is not None:
                    conn.push({"type": "error", "code": "bad_message", "message": "hello is sent once"})
                    continue
                if "token" in msg:
                    seat = table.seat_for_token(msg["token"])
                    if seat is None:  # nothing about the game has been sent (A1)
                        conn.close_soon(CLOSE_BAD_TOKEN, "unknown seat token")
                        break
                    bucket = table.bucket(seat, bucket)  # the seat's limit: reconnecting does not refill it
                conn.lang = msg.get("lang", "en")
                since = msg.get("since")
                behind = since is not None and (table.version is None or since < table.version)
                if behind and not await may_resume():
                    since = None
                cid = table.join(conn, seat)
                if not await _asked(table, Attach(cid, seat, since, conn.lang), conn):
                    break
            elif cid is None:
                conn.close_soon(CLOSE_POLICY, "hello first")
                break
            elif seat is None:
                conn.push({"type": "error", "code": "spectator", "message": f"spectators cannot {kind}",
                           **({"seq": msg["seq"]} if kind == "act" else {})})
            elif kind == "undo" and not await may_undo():
                conn.push({"type": "error", "code": "rate_limited", "message": "too many undos; wait a little"})
            elif not await _asked(table, socket_command(kind, msg, seat, cid), conn):
                break
    except WebSocketDisconnect:
        pass
    finally:
        if cid is not None:
            with contextlib.suppress(Exception):
                await table.ask(Detach(cid))
            table.bus.leave(cid)
        conn.close_soon(1000)
        if conn.task is not None:
            with contextlib.suppress(Exception):
                await conn.task


def socket_command(kind: str, msg: dict[str, Any], seat: int, cid: str) -> Command:
    """A seated socket's message (checked by :func:`.protocol.parse_message`) as a command."""
    if kind == "chat":
        return Chat(seat, msg["text"], cid)
    if kind == "hint":
        return Hint(seat, cid)
    if kind == "undo":
        return Undo(seat, cid)
    return Act(seat, msg["seq"], msg["action"], msg.get("version"), cid)
