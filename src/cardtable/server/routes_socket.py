"""The game's WebSocket: ``/ws/{table_id}``, one client's session with a table.

The socket is checked before it is accepted (origin, open sockets per address: P11), then
:func:`serve_socket` turns each message into a command to the table's actor; the answers and the
table's frames come back through the bus to the socket's :class:`~.connection.Connection`.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.routing import BaseRoute, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from .cluster import RemoteTable
from .commands import Act, Attach, Chat, Command, Detach, Hint, Undo
from .connection import Connection
from .context import AppContext
from .edge import origin_allowed
from .ports import LogError
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
from .store import token_hash
from .tables import Table

HELLO_TIMEOUT = 10.0
"""Seconds from a socket's accept within which its ``hello`` must come (else it is closed 1008)."""
UNDO_PER_ADDRESS = (5.0, 10.0)
"""Undos one address may ask for over all its tables: five a second, ten at once (each seat also
has its own bound, :data:`cardtable.server.lifecycle.UNDO_RATE`)."""
RESUME_PER_ADDRESS = (2.0, 20.0)
"""Resumes with missed events one address may ask for: two a second, twenty at once."""


def socket_routes(ctx: AppContext) -> list[BaseRoute]:
    """``/ws/{table_id}``."""
    hub, limits = ctx.hub, ctx.limits

    async def ws_endpoint(websocket: WebSocket) -> None:
        if not origin_allowed(websocket.headers.get("origin"), websocket.headers.get("host"), ctx.allow):
            await websocket.close(code=CLOSE_POLICY)  # before accept: HTTP 403 at the upgrade
            return
        ip = websocket.client.host if websocket.client is not None else "?"
        if not await limits.open_socket(ip, ctx.max_per_ip):  # P11: a cap on open sockets per address
            await websocket.close(code=CLOSE_POLICY)
            return

        async def may_resume() -> bool:
            return await limits.take("resume", ip, *RESUME_PER_ADDRESS)

        async def may_undo() -> bool:
            return await limits.take("undo", ip, *UNDO_PER_ADDRESS)

        table = None
        try:
            table = await hub.locate(websocket.path_params["table_id"])
            if table is not None:
                table.visitors += 1  # not swept from memory while this socket lives
            await websocket.accept()
            if table is None:
                await websocket.close(code=CLOSE_NO_TABLE)
                return
            await serve_socket(websocket, table, ctx.rate, ctx.burst, may_resume, may_undo, ctx.refused)
        finally:
            if table is not None:
                table.visitors -= 1
                table.touched = time.monotonic()
            await limits.close_socket(ip)

    return [WebSocketRoute("/ws/{table_id}", ws_endpoint)]


async def _asked(table: Table | RemoteTable, cmd: Command, conn: Connection) -> bool:
    """``cmd`` to the table; ``False`` (the socket closes, the page reconnects and resyncs) when
    the table cannot take it here now: its owner in a cluster died or moved, or the log failed."""
    try:
        await table.ask(cmd)
    except LogError as exc:
        conn.close_soon(CLOSE_RESTART, exc.advice)
        return False
    return True


async def _always() -> bool:
    return True


async def serve_socket(websocket: WebSocket, table: Table | RemoteTable, rate: float, burst: float,
                       may_resume: Callable[[], Awaitable[bool]] = _always,
                       may_undo: Callable[[], Awaitable[bool]] = _always,
                       refused: Counter[str] | None = None) -> None:
    """One client: hello first, then actions and pings, until it goes away. Each message becomes a
    command to the table's actor; the answers and the table's frames come back through the bus.
    A ``hello`` with ``since`` gets the events it missed only while ``may_resume()`` (the
    address's resume rate); otherwise it gets the state alone, which is all a client needs to go
    on. An undo is refused while ``may_undo()`` says no (the address's undo rate). What the socket
    refuses is counted in ``refused`` by code (:attr:`.context.AppContext.refused`)."""
    counts: Counter[str] = Counter() if refused is None else refused

    async def close(code: int, reason: str) -> None:
        await websocket.close(code=code, reason=reason)

    conn = Connection(websocket.send_text, close)
    conn.start()
    bucket = TokenBucket(rate, burst)
    bad = 0
    dropped = 0
    cid: str | None = None
    seat: int | None = None
    holder: str | None = None  # the digest of the seat token of the socket's hello
    loop = asyncio.get_running_loop()
    hello_by = loop.time() + HELLO_TIMEOUT  # one deadline from the accept: pings and bad frames do not move it
    try:
        while not conn.closed:
            try:
                if cid is not None:
                    message = await websocket.receive()
                else:
                    message = await asyncio.wait_for(websocket.receive(), max(0.0, hello_by - loop.time()))
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
                counts[exc.code] += 1
                if bad >= MAX_BAD:
                    conn.close_soon(CLOSE_POLICY, "too many bad messages")
                    counts["closed_bad_messages"] += 1
                continue
            kind = msg["type"]
            if kind == "ping":
                conn.push({"type": "pong"})
                continue
            if not bucket.take():
                dropped += 1
                counts["rate_limited"] += 1
                conn.push({"type": "error", "code": "rate_limited", "message": "too many messages; slow down",
                           **({"seq": msg["seq"]} if kind == "act" else {})})
                if dropped >= MAX_BAD:
                    conn.close_soon(CLOSE_POLICY, "rate limit")
                    counts["closed_rate_limit"] += 1
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
                    holder = token_hash(msg["token"])  # the table checks it too, as it is then (H12)
                    bucket = table.bucket(seat, bucket)  # the seat's limit: reconnecting does not refill it
                conn.lang = msg.get("lang", "en")
                since = msg.get("since")
                if since == -1 and table.version == 0:  # a new page at a table where nothing was played
                    since = None
                behind = since is not None and (table.version is None or since < table.version)
                if behind and not await may_resume():
                    since = None
                cid = table.join(conn, seat)
                if not await _asked(table, Attach(cid, seat, since, conn.lang, holder), conn):
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
