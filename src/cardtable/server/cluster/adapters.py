"""A node's bus and limits: the one process's ``LocalBus`` and ``Limits`` (``server/bus.py``,
``server/limits.py``), extended to reach the other nodes through Redis; the players' limits
(``server/players/limits.py``) in the same Redis buckets; and quick play's tickets
(``server/players/quickplay.py``) in one Redis hash every node holds in turn."""

from __future__ import annotations

import asyncio
import hashlib
import json
import secrets
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any, cast

from redis.exceptions import RedisError

from ..bus import LocalBus
from ..connection import Outgoing
from ..limits import Limits
from ..lobby import LobbyError
from ..players.quickplay import KEEP, Ticket
from ..players.store import AccountStoreError
from .settings import LEASE_TTL

if TYPE_CHECKING:
    from .node import Cluster


def node_of(cid: str) -> str | None:
    """The node of a connection id (``{node}.{n}``); ``None`` for one without a node, nobody's
    socket (an event's runner watching its table)."""
    node, dot, _ = cid.partition(".")
    return node if dot else None


class ClusterBus(LocalBus):
    """Frames to connections: this node's directly, another node's through its Redis channel."""

    def __init__(self, cluster: Cluster) -> None:
        super().__init__(prefix=f"{cluster.node}.")
        self.cluster = cluster

    def _remote(self, cid: str) -> str | None:
        node = node_of(cid)  # None: nobody's socket (an event's runner watching a table)
        return None if node == self.cluster.node else node

    def send(self, cid: str, frame: Outgoing, latest: str | None = None) -> None:
        node = self._remote(cid)
        if node is None:
            if latest == "state":  # a socket that followed its table here may follow it on again
                remote = self.cluster.remote_of(cid)
                if remote is not None:
                    remote.seen = frame.data.get("version")
            super().send(cid, frame, latest)
        else:
            message = {"op": "send", "to": cid, "from": self.cluster.node, "text": frame.text, "latest": latest}
            if latest == "state":  # the version its socket saw last, should it follow the table elsewhere
                message["version"] = frame.data.get("version")
            self.cluster.to_node(node, message)

    def drop(self, cid: str, latest: str) -> None:
        node = self._remote(cid)
        if node is None:
            super().drop(cid, latest)
        else:
            self.cluster.to_node(node, {"op": "drop", "to": cid, "from": self.cluster.node, "latest": latest})

    def close(self, cid: str, code: int, reason: str) -> None:
        node = self._remote(cid)
        if node is None:
            super().close(cid, code, reason)
        else:
            self.cluster.to_node(node, {"op": "close", "to": cid, "from": self.cluster.node, "code": code,
                                        "reason": reason})

    def deliver(self, message: dict[str, Any]) -> None:
        """A frame from another node's table for a connection of this node. Only the node its
        socket follows now is heard: a former owner's last frames (it was paused, or cut off) are
        older than what the new owner sends."""
        conn = self.conns.get(message["to"])
        if conn is None:
            return
        remote = self.cluster.remote_of(message["to"])
        if remote is not None:
            if message.get("from") != remote.owner_node:
                return
            if message.get("version") is not None:
                remote.seen = int(message["version"])
        if message["op"] == "send":
            conn.push(Outgoing.from_text(message["text"]), message.get("latest"))
        elif message["op"] == "drop":
            conn.drop(message["latest"])
        elif message["op"] == "close":
            conn.close_soon(int(message["code"]), str(message["reason"]))


_BUCKET = """
local rate, burst, now = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local held = redis.call('hmget', KEYS[1], 'tokens', 'at')
local tokens = tonumber(held[1]) or burst
local at = tonumber(held[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - at) * rate)
local ok = 0
if tokens >= 1 then tokens = tokens - 1; ok = 1 end
redis.call('hset', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('pexpire', KEYS[1], math.ceil(burst / rate * 1000) + 1000)
return ok
"""
"""A token bucket in Redis, one per kind and address, shared by every node."""

_OTHERS_HOLD = """
local function others_hold(me, field)
  local total = 0
  for _, node in ipairs(redis.call('smembers', 'ct:nodes')) do
    if node ~= me then total = total + (tonumber(redis.call('hget', 'ct:count:' .. node, field)) or 0) end
  end
  return total
end
"""
"""A Lua function of the scripts below: how many of a count the nodes other than ``me`` hold."""

_ELSEWHERE = _OTHERS_HOLD + "return others_hold(ARGV[1], ARGV[2])"
"""How many of a count (``ARGV[2]``) the nodes other than ``ARGV[1]`` hold, in one round trip."""

_OPEN_SOCKET = _OTHERS_HOLD + """
local me, field, cap, ttl = ARGV[1], ARGV[2], tonumber(ARGV[3]), ARGV[4]
if tonumber(ARGV[5]) + others_hold(me, field) >= cap then return 0 end
redis.call('hincrby', 'ct:count:' .. me, field, 1)
redis.call('pexpire', 'ct:count:' .. me, ttl)
return 1
"""
"""A socket of an address opened on node ``ARGV[1]`` if the address holds fewer than ``ARGV[3]``
over the cluster (``ARGV[5]`` on this node, the others' from their counts), then counted in this
node's hash: the look and the count in one round trip."""


class ClusterLimits(Limits):
    """Per-address limits over every node: buckets in Redis; each node's counts (open sockets,
    open tables) in a hash of its own (``ct:count:{node}``), changed as they change and written
    whole every :data:`~.settings.SCAN_EVERY` seconds with an expiry, so a dead node's counts go with it."""

    def __init__(self, cluster: Cluster) -> None:
        super().__init__()
        self.cluster = cluster

    async def take(self, kind: str, ip: str, rate: float, burst: float) -> bool:
        ok = await self.cluster.redis.eval(_BUCKET, 1, f"ct:bucket:{kind}:{ip}", rate, burst, time.time())
        return bool(ok)

    async def open_socket(self, ip: str, cap: int) -> bool:
        """As :meth:`Limits.open_socket`, in one round trip (a page reconnecting after its node
        died waits for it). The socket counts here before the answer, so two opening side by side
        on this node see each other."""
        held = self.sockets.get(ip, 0)
        self.sockets[ip] = held + 1
        opened = False
        try:
            opened = bool(await self.cluster.redis.eval(_OPEN_SOCKET, 0, self.cluster.node, f"sock:{ip}", cap,
                                                        int(LEASE_TTL * 1000), held))
        finally:
            if not opened:
                self.uncount_socket(ip)
        return opened

    async def elsewhere(self, field: str) -> int:
        return int(await self.cluster.redis.eval(_ELSEWHERE, 0, self.cluster.node, field))

    async def counted(self, field: str, delta: int) -> None:
        key = f"ct:count:{self.cluster.node}"
        async with self.cluster.redis.pipeline(transaction=True) as pipe:
            pipe.hincrby(key, field, delta)
            pipe.pexpire(key, int(LEASE_TTL * 1000))  # gone with this node, like the whole hash
            await pipe.execute()

    async def refresh(self, counts: dict[str, int]) -> None:
        """This node's counts written whole, with an expiry (a dead node's go with it)."""
        key = f"ct:count:{self.cluster.node}"
        # "up": the hash exists while the node lives, whatever it counts (the others look for it)
        fields = {"up": 1, **{f"sock:{ip}": n for ip, n in self.sockets.items()}, **counts}
        async with self.cluster.keeper.pipeline(transaction=True) as pipe:
            pipe.delete(key)
            pipe.hset(key, mapping=cast(Any, fields))
            pipe.pexpire(key, int(LEASE_TTL * 1000))
            pipe.sadd("ct:nodes", self.cluster.node)
            await pipe.execute()


class SharedBucket:
    """One of the players' or the events' limits (``kind``: ``player-login_address``,
    ``event-create_account``, …) over every node: a Redis bucket per kind and key (the key's
    digest: a name may be long), the lobby's :meth:`ClusterLimits.take`. Redis out of reach:
    :class:`AccountStoreError` (the routes answer 503, and nothing is done)."""

    def __init__(self, limits: ClusterLimits, kind: str, rate: float, burst: float) -> None:
        self.limits = limits
        self.kind = kind
        self.rate = rate
        self.burst = burst

    async def allow(self, key: str) -> bool:
        digest = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:32]
        try:
            return await self.limits.take(self.kind, digest, self.rate, self.burst)
        except (RedisError, OSError) as exc:
            raise AccountStoreError(f"the cluster's limits cannot be read now ({exc})") from exc


_KEEP_TICKETS = """
if redis.call('get', KEYS[1]) ~= ARGV[1] then return 0 end
local n = tonumber(ARGV[2])
for i = 0, n - 1 do redis.call('hset', KEYS[2], ARGV[5 + 2 * i], ARGV[6 + 2 * i]) end
for i = 5 + 2 * n, #ARGV do redis.call('hdel', KEYS[2], ARGV[i]) end
if redis.call('exists', KEYS[2]) == 1 then redis.call('pexpire', KEYS[2], ARGV[3]) end
if ARGV[4] == '0' then redis.call('del', KEYS[1]) else redis.call('pexpire', KEYS[1], ARGV[4]) end
return 1
"""
"""The tickets a holder changed (``ARGV[2]`` pairs of id and ticket) and deleted (the ids after
them) written if the holder still holds the book (``KEYS[1]`` is ``ARGV[1]``); then the book let
go (``ARGV[4]`` 0) or held ``ARGV[4]`` milliseconds more."""

_LET_GO = "if redis.call('get', KEYS[1]) == ARGV[1] then redis.call('del', KEYS[1]) end return 1"


class RedisTickets:
    """Quick play's tickets (:class:`~cardtable.server.players.quickplay.TicketBook`) for every
    node of a cluster: one Redis hash (``ct:quick``, id → ticket), held by one request at a time
    through a lock key (``ct:quick:lock``, a random value, gone after :data:`HELD` seconds should
    its holder die). A request waits for the book at most :data:`WAIT_FOR_BOOK` seconds. Its
    changes are written in one script that writes nothing if the lock has meanwhile expired (a
    holder paused past it), so two holders never both write: when the block ends, letting the
    book go, and when the holder keeps them earlier (:meth:`_RedisHeld.keep`: quick play keeps a
    group's seats before it starts their table). The tickets' times are the wall clock, which the
    nodes share."""

    HELD = 10.0
    WAIT_FOR_BOOK = 5.0

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster
        self.clock = time.time

    @asynccontextmanager
    async def holding(self) -> AsyncIterator[_RedisHeld]:
        redis = self.cluster.redis
        held = _RedisHeld(self, secrets.token_hex(16))
        try:
            await self._take(held.key)
        except (RedisError, OSError) as exc:
            raise AccountStoreError(f"quick play's queue cannot be held now ({exc})") from exc
        try:
            raw = await redis.hgetall("ct:quick")
        except (RedisError, OSError) as exc:
            await held.write(let_go=True)  # at once (or, if Redis is gone, when the lock expires)
            raise AccountStoreError(f"quick play's queue cannot be read now ({exc})") from exc
        for ticket_id, text in cast(dict[str, str], raw).items():
            try:
                held.tickets[ticket_id] = Ticket.from_json(json.loads(text))
            except (ValueError, TypeError):
                continue  # not a ticket this version reads: left out, and dropped when written
            held.before[ticket_id] = text
        try:
            yield held
        finally:
            await held.write(let_go=True)

    async def _take(self, key: str) -> None:
        redis = self.cluster.redis
        deadline = time.monotonic() + self.WAIT_FOR_BOOK
        pause = 0.002
        while not await redis.set("ct:quick:lock", key, nx=True, px=int(self.HELD * 1000)):
            if time.monotonic() >= deadline:
                raise LobbyError(503, "busy", "quick play is busy; try again in a moment")
            await asyncio.sleep(pause)
            pause = min(pause * 2, 0.05)


class _RedisHeld:
    """The book as one request holds it (``key``: its lock's value): the tickets, and the text
    of each as last written (``before``), to write only what changed."""

    def __init__(self, book: RedisTickets, key: str) -> None:
        self.book = book
        self.key = key
        self.tickets: dict[str, Ticket] = {}
        self.before: dict[str, str] = {}

    async def keep(self) -> None:
        await self.write(let_go=False)

    async def write(self, *, let_go: bool) -> None:
        """The changes written if this request still holds the book (a 503 if not), and the book
        let go or held :attr:`RedisTickets.HELD` seconds more."""
        now = {t: json.dumps(ticket.to_json(), sort_keys=True) for t, ticket in self.tickets.items()}
        changed = [(t, text) for t, text in now.items() if self.before.get(t) != text]
        gone = [t for t in self.before if t not in now]
        redis = self.book.cluster.redis
        try:
            if not changed and not gone and let_go:
                await redis.eval(_LET_GO, 1, "ct:quick:lock", self.key)
                return
            args: list[str | int] = [self.key, len(changed), int((KEEP + self.book.HELD) * 1000),
                                     0 if let_go else int(self.book.HELD * 1000)]
            for pair in changed:
                args.extend(pair)
            kept = await redis.eval(_KEEP_TICKETS, 2, "ct:quick:lock", "ct:quick", *args, *gone)
        except (RedisError, OSError) as exc:
            raise AccountStoreError(f"quick play's queue cannot be written now ({exc})") from exc
        if not kept:
            raise LobbyError(503, "busy", "quick play took too long; try again")
        self.before = now
