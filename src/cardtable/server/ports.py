"""The ports a table's writer stands on: the action log and the owner lease.

A table is written by one owner at a time. What it writes goes to an :class:`ActionLog` (today's
adapter: :class:`cardtable.server.store.Store`, SQLite), which raises :class:`LogError` and nothing
else, so no part of the server knows which database is behind it. Which process owns a table is
an :class:`OwnerLease`: :meth:`OwnerLease.claim` hands out a new, higher epoch for the table, and
every append and undo carries the writer's epoch; the log refuses one from an epoch older than the
newest claim (:class:`StaleLease`) in the same transaction as the write, so a writer that was
paused or cut off while another took the table over can never write again.

Several server processes share tables by :class:`TimedLease`: leases with an owner that run out
unless renewed, so the tables of a process that stopped are taken over by another.

This is the contract every adapter (:class:`cardtable.server.store.Store` on SQLite,
:class:`cardtable.server.pglog.PgLog` on PostgreSQL) meets: ``tests/server/test_ports.py`` runs
the same checks on each.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from .connection import Connection, Outgoing
    from .store import ActionRow, BadRow, SeatRow, TableRow, Taken


class LogError(Exception):
    """The action log could not be written or read now (full, locked, unreachable): nothing
    was written, and trying again later may work. ``code`` and ``advice`` are what a refused
    request or a closed socket is told (:func:`~.edge.store_error`)."""

    code = "store"
    advice = "the server's store cannot be used now; try again"


class LogBroken(LogError):
    """The log is unusable until the server restarts (its file changed under it): nothing more
    is written, so nothing more is acknowledged."""


class TableMoving(LogError):
    """The table is served by another server process now, or will be once one takes it up:
    nothing was done, and the same request sent again reaches the table where it is."""

    code = "moved"
    advice = "the table is moving to another server process; try again"


class StaleLease(TableMoving):
    """A write from an owner whose lease epoch is older than the table's newest claim: another
    owner has the table now. Nothing was written."""

    @classmethod
    def taken_over(cls, table_id: str, epoch: int, newest: int) -> StaleLease:
        """The refusal of a write of ``epoch`` to a table claimed since at ``newest``."""
        return cls(f"table {table_id}: the lease of epoch {epoch} was taken over (epoch {newest})")


class TableLetGo(TableMoving):
    """The table was let go by this process (another owner took it over, or it left memory)
    before the command was applied: nothing was written, and the table is served again after a
    reconnection (to this process or another)."""

    advice = "the table is moving or being reloaded; try again"


class VersionConflict(LogError):
    """An append whose version is not the next one of the table's log (one already there, or a
    gap): the writer's idea of the game is not the log's. Nothing was written."""


class OwnerLease(Protocol):
    def claim(self, table_id: str) -> int:
        """Take the table over: its new epoch, higher than every earlier claim's (and the end of
        any :class:`TimedLease` of it)."""

    def epoch(self, table_id: str) -> int:
        """The table's newest epoch (0: never claimed)."""

    def take(self, table_ids: list[str], chat: int) -> dict[str, Taken | BadRow]:
        """Each table claimed as :meth:`claim` claims it, then read for its replay (its row,
        actions, undone seqs and last ``chat`` lines), all in one transaction: the writes of a
        former owner are in what is read, or refused. A table that does not exist is left out;
        one whose row cannot be read is a :class:`~cardtable.server.store.BadRow`."""


class TimedLease(OwnerLease, Protocol):
    """Owner leases that run out unless renewed: how the server processes of a cluster share the
    tables. A process takes a table with :meth:`acquire` and renews all of its leases every so
    often (:meth:`renew`); when it stops (dies, is paused, is cut off) its leases end ``ttl``
    seconds after their last renewal, :meth:`unowned` lists those tables, and another process
    acquires each with a new epoch, which fences off every later write of the first.
    ``owner`` names a process (unique, e.g. its host, pid and start time); times are the log's
    clock (the database server's where there is one)."""

    def acquire(self, table_id: str, owner: str, ttl: float) -> int | None:
        """The table's lease for ``owner``, running ``ttl`` seconds from now: its epoch (a new one,
        higher than every earlier claim's, unless ``owner`` holds the lease already and no one
        took it since), or ``None`` while another owner's lease runs."""

    def renew(self, owner: str, ttl: float) -> dict[str, int]:
        """Every lease ``owner`` still holds, each running ``ttl`` seconds from now: table id to
        epoch. A table that is missing, or whose epoch is not the owner's, was taken over."""

    def release(self, table_id: str, owner: str) -> None:
        """``owner``'s lease of the table ends now (if ``owner`` still holds it), so another
        process may take the table at once; a process that stops cleanly releases its tables."""

    def holder(self, table_id: str) -> str | None:
        """The owner whose lease of the table runs now (``None``: nobody's)."""

    def unowned(self, statuses: tuple[str, ...] = ("playing",)) -> list[str]:
        """The tables of ``statuses`` whose lease has ended or was never taken, oldest first."""


class ActionLog(OwnerLease, Protocol):
    """Tables, seats, each game's actions, undos and chat, durable when a call returns."""

    def create_table(self, row: TableRow) -> None: ...

    # The writes of a table's owner take its lease ``epoch``: refused (StaleLease), with nothing
    # written, when the table was claimed since (a paused or cut-off owner never writes again).
    def set_seat(self, table_id: str, seat: SeatRow, epoch: int | None = None) -> None: ...

    def set_fair(self, table_id: str, fair: dict[str, Any] | None, epoch: int | None = None) -> None: ...

    def start(self, table_id: str, seed: int, epoch: int | None = None) -> None: ...

    def set_status(self, table_id: str, status: str, epoch: int | None = None) -> None: ...

    def append(self, table_id: str, version: int, seat: int, action: str, client_seq: int | None,
               epoch: int | None = None) -> None:
        """One accepted action, committed when this returns; :class:`StaleLease` if ``epoch`` is
        older than the table's newest claim, :class:`VersionConflict` unless ``version`` is one
        more than the log's last."""

    def undo(self, table_id: str, keep: int, epoch: int | None = None) -> int:
        """Every action after version ``keep`` taken back (kept apart), in one transaction."""

    def undone_seqs(self, table_id: str) -> dict[int, int]: ...

    def add_chat(self, table_id: str, seat: int, name: str, text: str, epoch: int | None = None) -> None: ...

    def chat(self, table_id: str, last: int) -> list[dict[str, Any]]: ...

    def actions(self, table_id: str) -> list[ActionRow]: ...

    def tables(self, statuses: tuple[str, ...] = ("open", "playing")) -> list[TableRow | BadRow]: ...

    def table(self, table_id: str) -> TableRow | None: ...

    def close(self) -> None: ...


class LeasedLog(ActionLog, TimedLease, Protocol):
    """An action log with timed owner leases: what every adapter is
    (:func:`cardtable.server.store.open_log`)."""


class Bus(Protocol):
    """Frames from a table's actor to connections, by connection id: the frames are already
    filtered for their reader (:mod:`cardtable.server.fanout`), so a bus only delivers them, in
    order. :class:`~cardtable.server.bus.LocalBus` delivers within one process;
    :class:`~cardtable.server.cluster.ClusterBus` also to the connections of other processes."""

    def join(self, conn: Connection) -> str:
        """``conn`` gets frames from now on: its id."""

    def leave(self, cid: str) -> None: ...

    def send(self, cid: str, frame: Outgoing, latest: str | None = None) -> None: ...

    def drop(self, cid: str, latest: str) -> None: ...

    def close(self, cid: str, code: int, reason: str) -> None: ...
