"""Quick play: "Play now" for a game, and a seat at a new rated table in seconds.

The server keeps one queue per game and preset. A person who presses "Play now" gets a ticket
(a secret the page keeps; logged in or not) and waits; the page asks how the wait goes about once
a second (:meth:`QuickPlay.status`), and each such look also tries to seat the queue:

- people are seated together when they are near in rating: two tickets match when their means
  (openskill's mu; a person without an account or rating has the starting 25) differ by no more
  than both tickets' windows, and a ticket's window widens while it waits (:data:`WINDOW`);
- the oldest ticket is served first: a group is the oldest waiting ticket and the nearest in
  rating that match it and each other, up to the game's number of seats;
- a full group is seated at once; a group that is not full is seated once its oldest ticket has
  waited :attr:`QuickPlay.wait` seconds (or asked for bots at once), its empty seats filled with
  bots (:data:`BOT`).

A seat is taken as through the lobby (a :class:`~cardtable.server.commands.Sit` command to the
new table's actor), linked to the ticket's account, and the table started: rated, with the
default clock of a turn-based game. A ticket whose page stopped asking (:data:`STALE`) leaves the
queue. Joins go through the players' limits (per address and per account) and one address holds
at most :data:`MAX_PER_ADDRESS` waiting tickets.

The tickets are kept in a :class:`TicketBook`, and every request works on them while it holds the
book (one request at a time, so a ticket is seated once and a cancelled one never is). One process
keeps them in its memory (:class:`LocalTickets`: a restart forgets the waiting tickets, and their
pages join again); the nodes of a cluster share one book in Redis
(:class:`cardtable.server.cluster.adapters.RedisTickets`), so people waiting on any nodes are
seated together, by whichever node's request finds their group ready.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any, Protocol

from ...bots.roles import pick_bot
from ...core.errors import ConfigError
from ...core.registry import load
from ..commands import AddBot, Sit, Start
from ..lobby import LobbyError, clean_name

if TYPE_CHECKING:
    from ..hub import Hub
    from .accounts import Account
    from .service import Players

WAIT = 20.0
"""Seconds before the empty seats of a group that is not full go to bots (``--quick-wait``)."""
WINDOW = (3.0, 0.5)
"""A ticket's rating window: 3 points of mu at first, half a point more each second it waits
(after 20 seconds, 13: about the whole range of a new player's uncertainty, 3 sigma = 25)."""
STALE = 30.0
"""Seconds without a look from its page after which a waiting ticket leaves the queue."""
KEEP = 120.0
"""Seconds a seated ticket still answers its page (the seat's token), then it is forgotten."""
MAX_PER_ADDRESS = 3
"""Waiting tickets one address may hold at once: a household, not a flood of phantom players."""
BOT = {"trash": ("sensible",), "trex": ("medium", "rules"), "spit": ("medium",)}
"""The bots that fill empty seats, by preference (the stand-ins' level: a fair opponent)."""
START_MU = 25.0


@dataclass
class Ticket:
    id: str
    game: str
    preset: str
    name: str
    account: int | None
    mu: float
    address: str
    joined: float
    seen: float
    now: bool = False  # the person asked for bots at once
    seat: dict[str, Any] | None = None  # {"table", "seat", "token"} once seated

    def window(self, now: float) -> float:
        return WINDOW[0] + WINDOW[1] * max(0.0, now - self.joined)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Ticket:
        return cls(**data)


class Held(Protocol):
    """The book as one request holds it: every ticket (id → ticket), to read and change."""

    tickets: dict[str, Ticket]

    async def keep(self) -> None:
        """What was changed, added or deleted so far kept now, the book still held (a 503
        :class:`~cardtable.server.lobby.LobbyError` if this request no longer holds it: nothing
        was kept)."""


class TicketBook(Protocol):
    """Where the tickets are kept. ``clock``: the seconds the tickets' times are in (the nodes of
    a cluster share a wall clock; one process keeps a monotonic one)."""

    clock: Callable[[], float]

    def holding(self) -> AbstractAsyncContextManager[Held]:
        """The book, held by this request alone until the block ends; what the block changed,
        added or deleted is kept when it ends (raising :class:`~cardtable.server.lobby.LobbyError`
        503 when the book cannot be held, read or kept)."""


class LocalTickets:
    """The tickets in this process's memory, held under an :class:`asyncio.Lock`."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.tickets: dict[str, Ticket] = {}
        self._lock = asyncio.Lock()

    @asynccontextmanager
    async def holding(self) -> AsyncIterator[Held]:
        async with self._lock:
            yield _InMemory(self.tickets)


@dataclass
class _InMemory:
    tickets: dict[str, Ticket]

    async def keep(self) -> None:
        """Kept as they change."""


class QuickPlay:
    """The queues over ``hub`` (where tables are made) and ``players`` (ratings, limits, seat
    links), their tickets in ``book`` (this process's memory unless given). ``wait``: seconds
    before bots fill a group's empty seats."""

    def __init__(self, hub: Hub, players: Players, *, wait: float = WAIT, book: TicketBook | None = None) -> None:
        self.hub = hub
        self.players = players
        self.wait = wait
        self.book: TicketBook = book if book is not None else LocalTickets()

    @property
    def clock(self) -> Callable[[], float]:
        return self.book.clock

    # ------------------------------------------------------------ requests
    async def join(self, game: Any, preset: Any, name: Any, account: Account | None, address: str) -> dict[str, Any]:
        """A new ticket in the queue of ``game`` and ``preset`` (``None``: the game's default):
        its id (``ticket``) and how its wait goes (:meth:`info`)."""
        if not await self.players.limits.quick_address.allow(address) or (
                account is not None and not await self.players.limits.quick_account.allow(str(account.id))):
            raise LobbyError(429, "rate_limited", "too many tries at quick play; wait a little")
        if not isinstance(game, str) or (preset is not None and not isinstance(preset, str)):
            raise LobbyError(400, "bad_request", "game and preset are texts")
        try:
            loaded = load(game, preset)
        except ConfigError as exc:
            raise LobbyError(400, "bad_options", str(exc)) from None
        rating = None if account is None else self.players.store.rating(account.id, loaded.name)
        shown = account.username if account is not None else clean_name(name, "Player")
        async with self.book.holding() as held:
            tickets = held.tickets
            now = self.clock()
            self._forget(tickets, now)
            if account is not None:  # one wait per account and game: a second tab takes the first's place
                for t in list(tickets.values()):
                    if t.account == account.id and t.game == loaded.name and t.seat is None:
                        del tickets[t.id]
            if sum(1 for t in tickets.values() if t.address == address and t.seat is None) >= MAX_PER_ADDRESS:
                raise LobbyError(429, "too_many_waiting", f"{MAX_PER_ADDRESS} waits from one address at most",
                                 {"limit": MAX_PER_ADDRESS})
            ticket = Ticket(secrets.token_urlsafe(24), loaded.name, loaded.preset, shown,
                            None if account is None else account.id, rating.mu if rating else START_MU, address,
                            now, now)
            tickets[ticket.id] = ticket
            try:
                await self._seat_queue(held)
            except Exception:
                if ticket.seat is None:  # the person is told the join failed: no ticket of theirs waits
                    tickets.pop(ticket.id, None)
                    raise
                # seated (and kept) before another group's seating failed: the person has their seat
            return {"ticket": ticket.id, **self.info(tickets, ticket)}

    async def status(self, ticket_id: Any) -> dict[str, Any]:
        """How the wait of ``ticket_id`` goes (and a try at seating its queue)."""
        async with self.book.holding() as held:
            ticket = self._ticket(held.tickets, ticket_id)
            ticket.seen = self.clock()
            await self._seat_queue(held)
            return self.info(held.tickets, ticket)

    async def now(self, ticket_id: Any) -> dict[str, Any]:
        """The person would rather play bots now than wait longer."""
        async with self.book.holding() as held:
            ticket = self._ticket(held.tickets, ticket_id)
            ticket.now = True
            ticket.seen = self.clock()
            await self._seat_queue(held)
            return self.info(held.tickets, ticket)

    async def cancel(self, ticket_id: Any) -> dict[str, Any]:
        """"Stop waiting": the ticket leaves the queue (``{"status": "cancelled"}``), unless it was
        seated already, when the answer is the seat (as :meth:`status` gives it): the table has
        started with the person in it, and leaving it is the table's "Leave"."""
        async with self.book.holding() as held:
            ticket = self._ticket(held.tickets, ticket_id)
            if ticket.seat is not None:
                ticket.seen = self.clock()
                return self.info(held.tickets, ticket)
            del held.tickets[ticket.id]
            return {"status": "cancelled"}

    def info(self, tickets: dict[str, Ticket], ticket: Ticket) -> dict[str, Any]:
        """What the waiting page shows: how many wait in its queue and the seconds before bots,
        or the seat once it has one."""
        if ticket.seat is not None:
            return {"status": "seated", "game": ticket.game, "preset": ticket.preset, **ticket.seat}
        now = self.clock()
        return {"status": "waiting", "game": ticket.game, "preset": ticket.preset,
                "waiting": len(self.waiting(tickets, ticket.game, ticket.preset)),
                "bots_in": round(max(0.0, self.wait - (now - ticket.joined)), 1)}

    @staticmethod
    def waiting(tickets: dict[str, Ticket], game: str, preset: str) -> list[Ticket]:
        """The queue of ``game`` and ``preset``, oldest first."""
        return sorted((t for t in tickets.values() if t.seat is None and t.game == game and t.preset == preset),
                      key=lambda t: t.joined)

    # ------------------------------------------------------------ seating
    @staticmethod
    def _ticket(tickets: dict[str, Ticket], ticket_id: Any) -> Ticket:
        ticket = tickets.get(ticket_id) if isinstance(ticket_id, str) else None
        if ticket is None:
            raise LobbyError(404, "no_ticket", "this wait has ended; press Play now again")
        return ticket

    @staticmethod
    def _forget(tickets: dict[str, Ticket], now: float) -> None:
        for t in list(tickets.values()):
            if (t.seat is None and now - t.seen > STALE) or (t.seat is not None and now - t.seen > KEEP):
                del tickets[t.id]

    def groups(self, tickets: dict[str, Ticket], game: str, preset: str, seats: int) -> list[list[Ticket]]:
        """The groups to seat now: oldest ticket first, each with the nearest in rating that match
        it and every other member, full or past the oldest's wait."""
        now = self.clock()
        left = self.waiting(tickets, game, preset)
        out = []
        while left:
            first = left.pop(0)
            group = [first]
            for t in sorted(left, key=lambda t: abs(t.mu - first.mu)):
                if len(group) == seats:
                    break
                if all(abs(t.mu - g.mu) <= min(t.window(now), g.window(now)) for g in group):
                    group.append(t)
            if len(group) == seats or first.now or now - first.joined >= self.wait:
                out.append(group)
                left = [t for t in left if t not in group]
        return out

    async def _seat_queue(self, held: Held) -> None:
        """Seat every group that is ready, in every queue (the book held: a ticket is seated once)."""
        tickets = held.tickets
        self._forget(tickets, self.clock())
        for game, preset in sorted({(t.game, t.preset) for t in tickets.values() if t.seat is None}):
            seats = load(game, preset).num_players
            for group in self.groups(tickets, game, preset, seats):
                await self._seat(held, game, preset, seats, group)

    async def _seat(self, held: Held, game: str, preset: str, seats: int, group: list[Ticket]) -> None:
        """A new rated table for ``group``: its people seated and its empty seats given to bots,
        then their seats kept in the book, and only then the table started. If the book could not
        keep them (on a cluster, this request's hold ran out while it seated them: another node
        holds the book, and these tickets still wait there), nobody is told and the table is let
        go unstarted, so no rated game is played by people who were told to try again. If the
        table cannot start (its log refuses the write), its people go back to the queue and the
        table is let go the same way: nobody waits at a table that will never start."""
        table, _ = self.hub.create(game, preset, {}, rated=True)
        if self.hub.cluster is not None:  # this node writes the table (others forward to it)
            await self.hub.cluster.acquire(table.id)
        table.visitors += 1  # not swept while it is being filled
        try:
            given = []
            try:
                for seat, ticket in enumerate(group):
                    reply = await table.ask(Sit(seat, ticket.name, None, ticket.account))
                    given.append({"table": table.id, "seat": seat, "token": reply["token"]})
                    if ticket.account is not None:
                        self.players.link_seat(ticket.account, table.id, seat, token=reply["token"],
                                               address=ticket.address)
                bot = pick_bot(game, BOT)
                for seat in range(len(group), seats):
                    await table.ask(AddBot(seat, bot))
                now = self.clock()
                for ticket, seat_info in zip(group, given, strict=True):
                    ticket.seat = seat_info
                    ticket.seen = now
                await held.keep()
            except BaseException:
                await self._let_go(table.id, group, given)
                raise
            try:
                await table.ask(Start())
            except Exception:  # not a cancelled request: its Start may still be applied
                await self._let_go(table.id, group, given)
                raise
        finally:
            table.visitors -= 1

    async def _let_go(self, table_id: str, group: list[Ticket], given: list[dict[str, Any]]) -> None:
        """A table made for ``group`` that will not start: its people back in the queue (their
        tickets without a seat), the seats ``given`` unlinked from their accounts, and the table
        closed unplayed (out of memory and the lobby, closed in the log)."""
        for ticket in group:
            ticket.seat = None
        for seat_info, ticket in zip(given, group, strict=False):
            seat = seat_info["seat"]
            if ticket.account is not None:
                self.players.unlink_seat(table_id, seat)
        await self.hub.close_unplayed(table_id)
