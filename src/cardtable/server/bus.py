"""The in-process bus: frames from a table's actor to the connections of this process.

A table addresses a connection by its id (:meth:`LocalBus.join`); the frames are already
filtered for their reader (:mod:`.fanout`), so the bus only delivers them, in order.
"""

from __future__ import annotations

import itertools

from .connection import Connection, Outgoing


class LocalBus:
    """Connections of this process by id (the :class:`~.ports.Bus` of a single process)."""

    def __init__(self, prefix: str = "c") -> None:
        self.conns: dict[str, Connection] = {}
        self._ids = itertools.count(1)
        self._prefix = prefix

    def join(self, conn: Connection) -> str:
        """``conn`` gets frames from now on: its id."""
        cid = f"{self._prefix}{next(self._ids)}"
        self.conns[cid] = conn
        return cid

    def leave(self, cid: str) -> None:
        self.conns.pop(cid, None)

    def send(self, cid: str, frame: Outgoing, latest: str | None = None) -> None:
        conn = self.conns.get(cid)
        if conn is not None:
            conn.push(frame, latest)

    def drop(self, cid: str, latest: str) -> None:
        conn = self.conns.get(cid)
        if conn is not None:
            conn.drop(latest)

    def close(self, cid: str, code: int, reason: str) -> None:
        conn = self.conns.get(cid)
        if conn is not None:
            conn.close_soon(code, reason)
