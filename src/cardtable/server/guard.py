"""Connections before the app sees them: a cap per address and a deadline for request headers.

uvicorn has no deadline for a request's headers and no per-address cap: thousands of slow
connections (a few header bytes now and then) from one address hold a file descriptor each
until the process runs out and answers nobody. :func:`guarded_http` makes uvicorn's HTTP
protocol (httptools) refuse a connection over :attr:`ConnectionGuard.per_address` open ones from
its address, and close one whose request headers are not complete within
:attr:`ConnectionGuard.header_timeout` seconds (idle keep-alive is uvicorn's
``timeout_keep_alive``; a WebSocket that says no ``hello`` is closed by the app). A WebSocket
keeps counting against its address for as long as it is open (it is the same connection).
"""

from __future__ import annotations

import asyncio
import resource
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol


class ConnectionGuard:
    """Open connections per address (pruned of closed ones whenever one arrives)."""

    def __init__(self, per_address: int = 64, header_timeout: float = 10.0) -> None:
        self.per_address = per_address
        self.header_timeout = header_timeout
        self.open: dict[str, set[asyncio.BaseTransport]] = {}
        self.refused = 0

    def admit(self, address: str, transport: asyncio.BaseTransport) -> bool:
        if len(self.open) > 10_000:  # forget the addresses with nothing open
            live = {a: {c for c in conns if not c.is_closing()} for a, conns in self.open.items()}
            self.open = {a: conns for a, conns in live.items() if conns}
        conns = {c for c in self.open.get(address, ()) if not c.is_closing()}
        if len(conns) >= self.per_address:
            self.open[address] = conns
            self.refused += 1
            return False
        conns.add(transport)
        self.open[address] = conns
        return True


def guarded_http(guard: ConnectionGuard) -> type[asyncio.Protocol]:
    """uvicorn's httptools protocol under ``guard`` (pass it as ``uvicorn.Config(http=...)``)."""

    class GuardedHttp(HttpToolsProtocol):
        _deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            peer = transport.get_extra_info("peername")
            address = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
            if not guard.admit(address, transport):
                transport.close()
                return
            self._arm()

        def _arm(self) -> None:
            if self._deadline is None:
                self._deadline = self.loop.call_later(guard.header_timeout, self._too_slow)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _too_slow(self) -> None:
            self._deadline = None
            if not self.transport.is_closing():
                self.transport.close()

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._arm()

        def on_headers_complete(self) -> None:
            self._disarm()
            super().on_headers_complete()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

    return GuardedHttp


def raise_open_file_limit() -> int:
    """The soft limit of open files raised to the hard one (so connections, not the limit, run out
    first); returns the limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY:
        hard = max(soft, 65536)
    if soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        except (ValueError, OSError):
            return soft
    return hard
