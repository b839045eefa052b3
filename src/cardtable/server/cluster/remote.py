"""A socket's table that another node owns: its commands go to the owner over Redis, and it follows
the table when the owner changes."""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING, Any

from ..commands import (
    Act,
    AddBot,
    Attach,
    Chat,
    Command,
    Commit,
    Detach,
    Free,
    Hint,
    Leave,
    Look,
    RenameSeat,
    Reveal,
    Show,
    Sit,
    Start,
    Undo,
)
from ..connection import Connection
from ..lobby import LobbyError
from ..ports import LogError, TableMoving
from ..protocol import CLOSE_RESTART, TokenBucket
from ..seating import is_host, seat_for_token
from ..store import TableRow
from .settings import ASK_TIMEOUT

if TYPE_CHECKING:
    from .node import Cluster


class OwnerGone(TableMoving):
    """The node a command was forwarded to no longer owns the table: it died, or let it go.
    ``owner`` is the table's owner now (``None``: nobody has taken it yet)."""

    def __init__(self, owner: str | None) -> None:
        super().__init__("the table's owner did not answer; reconnect")
        self.owner = owner


FORWARDED: dict[str, type[Command]] = {c.__name__: c for c in (
    Sit, Commit, Reveal, Leave, AddBot, Free, Start, Attach, Detach, Act, Undo, Chat, Hint, Show, Look, RenameSeat)}
"""The commands a node forwards to a table's owner (all of plain JSON fields)."""
RESENT = (Attach, Act, Hint, Show, Look)
"""The commands sent again to a table's new owner when its former owner died before answering:
an ``Act`` carries its client's ``seq``, which the table applies once however often it comes
(:func:`~..lifecycle.act`), and the others change nothing twice. A chat line or an undo is not
sent again: its socket reconnects, and its person sees whether it was taken."""


class RemoteTable:
    """A table another node owns, as one socket of this node sees it: its row read from the
    shared log (seats' token digests, the host's), commands forwarded to the owner. When the table
    moves to another owner the socket follows it (:meth:`follow`)."""

    def __init__(self, cluster: Cluster, row: TableRow, owner: str) -> None:
        self.cluster = cluster
        self.row = row
        self.id = row.id
        self.owner_node = owner
        self.bus = cluster.bus
        self.visitors = 0
        self.touched = 0.0
        self.version: int | None = None  # not known here: a resume asks the owner
        self.buckets: dict[str, TokenBucket] = {}
        self.conn: Connection | None = None
        self.cid: str | None = None
        self.seat: int | None = None
        self.holder: str | None = None  # the digest of the token of the socket's hello (its seat's)
        self.seen: int | None = None  # the version of the last state its owner sent the socket
        self.detached = False
        self._attaching = 0  # attaches of this socket waiting for an owner's answer
        self._followed = asyncio.Event()  # set when the table moves, then made anew
        self._tasks: set[asyncio.Task[None]] = set()

    def seat_for_token(self, token: str) -> int | None:
        return seat_for_token(self.row, token)

    def is_host(self, token: Any) -> bool:
        return is_host(self.row, token)

    def bucket(self, seat: int, fresh: TokenBucket) -> TokenBucket:
        holder = self.row.seats[seat].token_hash or str(seat)
        return self.buckets.setdefault(holder, fresh)

    def join(self, conn: Connection, seat: int | None) -> str:
        from ..presence import SPECTATOR_PACE

        cid = self.bus.join(conn)
        conn.seat = seat
        if seat is None:
            conn.pace = SPECTATOR_PACE
        self.conn, self.cid, self.seat = conn, cid, seat
        self.cluster.watch(self)
        return cid

    async def ask(self, cmd: Command) -> Any:
        """``cmd``'s answer from the owner. One of :data:`RESENT` whose owner died before
        answering goes to the new owner once there is one (within :data:`ASK_TIMEOUT` seconds)."""
        if isinstance(cmd, Detach):
            self.detached = True
            self.cluster.unwatch(self)
        elif isinstance(cmd, Attach):
            self.holder = cmd.holder  # the new owner checks it again when the socket follows the table
        deadline = asyncio.get_running_loop().time() + ASK_TIMEOUT
        self._attaching += isinstance(cmd, Attach)
        try:
            while True:
                owner = self.owner_node
                try:
                    return await self.cluster.forward(owner, self.id, cmd)
                except OwnerGone as exc:
                    if not isinstance(cmd, RESENT) or self.detached:
                        raise
                    await self._moved_from(owner, exc.owner, deadline)
        finally:
            self._attaching -= isinstance(cmd, Attach)

    async def _moved_from(self, owner: str, found: str | None, deadline: float) -> None:
        """Until the table has an owner other than ``owner`` (``found``, if one was), followed:
        told by the news of the new owner, or seen in its lease (:meth:`Cluster.watch_owner`)."""
        if self.owner_node == owner and found is not None and found != owner:
            self.follow(found)

        def moved(now: str | None) -> bool:
            if now is None or now == owner:
                return False
            self.follow(now)
            return True

        loop = asyncio.get_running_loop()
        stop = self.cluster.watch_owner(self.id, moved) if self.owner_node == owner else None
        try:
            while self.owner_node == owner:
                if loop.time() >= deadline:
                    raise TableMoving("the table has no owner; reconnect")
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._followed.wait(), deadline - loop.time())
        finally:
            if stop is not None:
                stop()
        await asyncio.sleep(0)  # the socket's attach (a task's first step) is sent first

    def follow(self, owner: str) -> None:
        """The table is ``owner``'s now: this socket's commands go there, and the socket attaches
        there with the version it saw last (unless an attach of its own is on its way), so it gets
        what it missed and the table's frames from now on. If that fails, the socket closes and
        its page reconnects."""
        if owner == self.owner_node:
            return
        self.owner_node = owner
        self._followed.set()
        self._followed = asyncio.Event()
        if self.cid is None or self.conn is None or self.detached or self._attaching:
            return
        task = asyncio.get_running_loop().create_task(self._attach(self.conn, self.cid))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _attach(self, conn: Connection, cid: str) -> None:
        try:
            await self.ask(Attach(cid, self.seat, self.seen, conn.lang, self.holder))
        except (LogError, LobbyError):
            conn.close_soon(CLOSE_RESTART, "the table moved to another server process; reconnect")

    async def public_async(self) -> dict[str, Any]:
        reply: dict[str, Any] = await self.ask(Show())
        return reply
