"""Many server processes, one lobby: Redis carries commands to a table's owner and frames back.

Each process of a cluster is a node (:attr:`Cluster.node`). A live table has exactly one owner
node, the one whose actor writes it: ownership is a Redis key per table (``ct:lease:{id}``, set
only if absent, expiring :data:`LEASE_TTL` seconds after the owner stops renewing it), and the
owner claims the table in the action log too (:meth:`~.ports.OwnerLease.claim`), so the log
refuses every write of a former owner that was paused or cut off (fencing: the lease decides who
may write, the log's epoch makes sure nobody else does).

Any node serves any socket and any lobby request. For a table another node owns, the commands go
to the owner (:class:`RemoteTable`, over the owner's Redis channel) and the owner's frames come back
to the node that holds the socket: a connection's id names its node (``{node}.{n}``), and the
:class:`ClusterBus` delivers to local connections itself and publishes the rest. The frames are
already filtered per reader by the owner (the one view filter stays in one place).

When an owner dies its leases expire; every node looks for live tables without an owner every
:data:`LOOK_EVERY` seconds (from a thread of its own, :class:`Looker`, as its leases are renewed
from another, :class:`LeaseRenewer`), claims its share of them, reads their logs in one call,
replays them and carries on (bots, timers, Spit's countdown), and tells every node. Their sockets
to that table follow it where they are (:meth:`RemoteTable.follow`): each attaches to the new owner
with the version it saw last and gets what it missed, without a new handshake; a command waiting
for the dead owner's answer is sent again to the new one when sending it twice cannot do it twice
(:data:`RESENT`). The sockets that were on the dead node itself reconnect (to any node) and resync
with ``since``. Frames in flight when Redis restarts are lost, never an acknowledged action (it is
in the log): a node that loses Redis closes its sockets to other nodes' tables with
``CLOSE_RESTART``, and the pages reconnect and resync.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import secrets
import sys
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from .bus import LocalBus
from .commands import (
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
    Reveal,
    Show,
    Sit,
    Start,
    Undo,
)
from .connection import Connection, Outgoing
from .limits import Limits
from .lobby import LobbyError
from .ports import LogError
from .protocol import CLOSE_RESTART, TokenBucket
from .seating import is_host, seat_for_token
from .store import TableRow

if TYPE_CHECKING:
    from .hub import Hub


def utc_stamp(wall: float) -> str:
    """A wall-clock time as the nodes' log lines give it: UTC, to the millisecond."""
    return time.strftime("%H:%M:%S", time.gmtime(wall)) + f".{int(wall % 1 * 1000):03d}"


def _why(exc: BaseException) -> str:
    """An exception for a log line: its class and its message (a Redis error's ``repr`` has no message)."""
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


class OwnerGone(LogError):
    """The node a command was forwarded to no longer owns the table: it died, or let it go.
    ``owner`` is the table's owner now (``None``: nobody has taken it yet)."""

    def __init__(self, owner: str | None) -> None:
        super().__init__("the table's owner did not answer; reconnect")
        self.owner = owner

LEASE_TTL = 0.6
"""Seconds a table's owner lease lasts unless renewed (renewed every :data:`RENEW_EVERY` seconds,
by a thread of its own: a node whose event loop is busy, taking tables over or serving a crowd,
still renews them; one whose loop stood still for :data:`LOOP_DEAD` seconds lets them run out)."""
LOOP_DEAD = 3.0
"""Seconds without a heartbeat of the event loop after which the renewals stop: a node whose loop
is stuck serves nobody, and its tables go to the living nodes."""
LOBBY_EVERY = 1.0
"""Seconds between two writes of this node's part of the lobby (a summary of up to 100 tables: at
every :data:`SCAN_EVERY` it took a tenth of a busy node's event loop)."""
LOBBY_TTL = 3.0
"""Seconds a node's part of the lobby is kept in Redis unless written again."""
RENEW_EVERY = 0.15
"""Seconds between two renewals of a node's leases: four renewals a lease."""
LOOK_EVERY = 0.1
"""Seconds between two looks for live tables whose owner's lease ran out: a table whose owner died
goes on within about ``LEASE_TTL + LOOK_EVERY`` seconds and the time to read and replay it."""
REPLAY_SLICE = 0.15
"""Seconds of replay after which a take-over lets the event loop serve the other tables once. A
turn of a busy loop takes tens of milliseconds, so the slice sets how much of the loop the
take-over gets: a node already serving 150 tables replayed 75 more in 1.6 s with slices of 0.03 s
(replays of a few milliseconds each) and in 0.4 s with 0.15 s (docs/deploy.md, "Measured"); its own
tables wait at most one slice."""
ROUND_GRACE = 0.5
"""Seconds a node that took its share of a dead node's tables leaves the rest to the living nodes
that have not looked yet, before it takes them itself (:data:`_LOOK`)."""
ROUND_TTL = 10.0
"""Seconds a round of sharing a dead node's tables is remembered (:data:`_LOOK`)."""
SWEEP_EVERY = 2.0
"""Seconds between two looks at every live table's lease while every node lives (a lease can also
run out without its node dying: a table nobody took back after a Redis restart)."""
ANSWER_POLL = 0.1
"""Seconds between two looks at who owns the tables whose forwarded commands wait for an answer
(one look for them all, :meth:`Cluster.watch_owner`): when an owner died its sockets go after the
table's new owner at once, not after :data:`ASK_TIMEOUT`."""
SCAN_EVERY = 0.2
"""Seconds between two writes of this node's counts (its lobby: :data:`LOBBY_EVERY`)."""
ASK_TIMEOUT = 10.0
"""Seconds a node waits for the owner's answer to a forwarded command."""
REDIS_CONNECTIONS = 32
"""Redis connections the node's requests share (limits, forwarded frames, the lobby): a burst of
sockets opening at once waits for one rather than opening hundreds or failing."""
REDIS_WAIT = 10.0
"""Seconds a request waits for one of those connections before it fails."""

FORWARDED: dict[str, type[Command]] = {c.__name__: c for c in (
    Sit, Commit, Reveal, Leave, AddBot, Free, Start, Attach, Detach, Act, Undo, Chat, Hint, Show)}
"""The commands a node forwards to a table's owner (all of plain JSON fields)."""
RESENT = (Attach, Act, Hint, Show)
"""The commands sent again to a table's new owner when its former owner died before answering:
an ``Act`` carries its client's ``seq``, which the table applies once however often it comes
(:func:`~.lifecycle.act`), and the others change nothing twice. A chat line or an undo is not
sent again: its socket reconnects, and its person sees whether it was taken."""

_RENEW = """
local owner = redis.call('get', KEYS[1])
if owner == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end
if not owner then redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2]); return 1 end
return 0
"""
"""Renew this node's lease of a table; one that is gone (Redis restarted) is taken again, one that
another node holds is not."""

_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then redis.call('del', KEYS[1]) end
return redis.call('srem', 'ct:live', ARGV[2])
"""
"""End this node's lease of a table it let go (one another node holds is left alone) and its
place among the live tables."""

_LOOK = """
local me, ttl, sweep, round_ms, grace_ms = ARGV[1], ARGV[2], ARGV[3] == '1', tonumber(ARGV[4]), tonumber(ARGV[5])
local nodes = redis.call('smembers', 'ct:nodes')
local dead = {}
for _, node in ipairs(nodes) do
  if node ~= me and redis.call('exists', 'ct:count:' .. node) == 0 then table.insert(dead, node) end
end
if #dead == 0 and not sweep then return {dead, {}} end
local orphans = {}
for _, t in ipairs(redis.call('smembers', 'ct:live')) do
  if redis.call('exists', 'ct:lease:' .. t) == 0 then table.insert(orphans, t) end
end
if #orphans == 0 then
  if #dead > 0 then redis.call('srem', 'ct:nodes', unpack(dead)) end
  return {dead, {}}
end
local alive = math.max(1, #nodes - #dead)
local want = math.ceil(#orphans / alive)
if #dead > 0 then
  table.sort(dead)
  local round = 'ct:round:' .. table.concat(dead, ',')
  local others, mine = 0, false
  for _, node in ipairs(redis.call('smembers', round)) do
    if node == me then mine = true else others = others + 1 end
  end
  if not mine then
    want = math.ceil(#orphans / math.max(1, alive - others))
    redis.call('sadd', round, me)
    if others == 0 then redis.call('pexpire', round, round_ms) end
  elseif others >= alive - 1 or redis.call('pttl', round) <= round_ms - grace_ms then
    want = #orphans
  else
    return {dead, {}}
  end
end
local got = {}
for i = 1, want do
  redis.call('set', 'ct:lease:' .. orphans[i], me, 'PX', ttl)
  table.insert(got, orphans[i])
end
return {dead, got}
"""
"""A look for tables to take over, in one round trip (the keys it reads are found, not declared:
a standalone Redis, as the cluster uses). The nodes whose counts' hash ran out are dead. Unless
one is, or ``sweep`` is asked, nothing more. Otherwise the live tables without a lease are
orphans. When nodes died the living nodes share them in a round (``ct:round:{the dead nodes}``,
the nodes that took their part): a node takes the orphans' fair part among the living nodes that
have not taken theirs, rounded up, so the last of them takes all that is left, and each node's
first look takes its whole share. A node that took its part takes more only once every living
node took theirs, or :data:`ROUND_GRACE` seconds after the round began (a node that does not
look, its loop stuck). Orphans a sweep found with no node dead (a lease lost in a Redis restart)
are taken a fair part, rounded up, a look. Leases are set as the script looks, so two nodes'
looks never take one table. A dead node whose tables all have owners again is forgotten. Returns
the dead nodes and the tables taken."""


class ClusterBus(LocalBus):
    """Frames to connections: this node's directly, another node's through its Redis channel."""

    def __init__(self, cluster: Cluster) -> None:
        super().__init__(prefix=f"{cluster.node}.")
        self.cluster = cluster

    def _remote(self, cid: str) -> str | None:
        node, _, _ = cid.partition(".")
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
    whole every :data:`SCAN_EVERY` seconds with an expiry, so a dead node's counts go with it."""

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


class BesideTheLoop(threading.Thread):
    """A thread of a node with a Redis connection of its own, doing one round of its work every
    ``every`` seconds (:meth:`round`) without waiting for the event loop, however busy it is; it
    does nothing while the loop stands still for :data:`LOOP_DEAD` seconds (a node whose loop is
    stuck serves nobody). A call answered later than a lease's length fails: what it was for has
    run out meanwhile."""

    every: float  # seconds between two rounds, set by each kind of thread

    def __init__(self, cluster: Cluster, loop: asyncio.AbstractEventLoop, name: str) -> None:
        super().__init__(name=name, daemon=True)
        import redis

        self.cluster = cluster
        self.loop = loop
        self.client = redis.Redis.from_url(cluster.url, decode_responses=True, socket_timeout=LEASE_TTL,
                                           socket_connect_timeout=LEASE_TTL)
        self._halt = threading.Event()

    def run(self) -> None:
        while not self._halt.wait(self.every):
            if time.monotonic() - self.cluster.beat <= LOOP_DEAD:
                self.round()

    def round(self) -> None:
        raise NotImplementedError

    def stop(self) -> None:
        self._halt.set()
        self.join(timeout=5 * LEASE_TTL)
        self.client.close()


class LeaseRenewer(BesideTheLoop):
    """Renews a node's leases every :data:`RENEW_EVERY` seconds, in one round trip, beside the
    event loop: only a node that died, was paused or whose loop stood still for :data:`LOOP_DEAD`
    seconds loses its tables. Its counts' hash is kept alive with them (the other nodes count it
    as living by that hash). A lease found in another node's hands is handed to the loop
    (:meth:`Cluster.lost`)."""

    every = RENEW_EVERY

    def __init__(self, cluster: Cluster, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(cluster, loop, "lease-renewer")
        self._last = time.monotonic()

    def round(self) -> None:
        began = time.monotonic()
        if began - self._last > LEASE_TTL / 2:
            self.cluster.say(f"leases renewed {began - self._last:.2f} s after the last time")
        try:
            self.renew()
        except Exception as exc:  # Redis away: the loop's own calls notice it too
            self.cluster.say(f"renewing leases: {_why(exc)}")
        self._last = time.monotonic()

    def renew(self) -> None:
        """One round of renewals: every lease of the node, its counts' hash, its place in
        ``ct:nodes``; then the leases of the tables it let go end (:meth:`Cluster.release`)."""
        cluster = self.cluster
        released = cluster.released()
        owned = [t for t in cluster.owned.copy() if t not in released]
        ttl = int(LEASE_TTL * 1000)
        pipe = self.client.pipeline(transaction=False)
        for table_id in owned:
            pipe.eval(_RENEW, 1, f"ct:lease:{table_id}", cluster.node, ttl)
        if owned:
            pipe.sadd("ct:live", *owned)  # again after a Redis restart
        pipe.pexpire(f"ct:count:{cluster.node}", ttl)
        pipe.sadd("ct:nodes", cluster.node)
        for table_id in released:
            pipe.eval(_RELEASE, 1, f"ct:lease:{table_id}", cluster.node, table_id)
        try:
            renewed = pipe.execute()
        except Exception:
            cluster.release(list(released))  # their leases end in the next round
            raise
        lost = [t for t, kept in zip(owned, renewed, strict=False) if not kept]
        if lost:
            self.loop.call_soon_threadsafe(cluster.lost, lost)


class Looker(BesideTheLoop):
    """Looks for tables to take over every :data:`LOOK_EVERY` seconds (:meth:`Cluster.look`)
    beside the event loop, as the leases are renewed: a node whose loop is busy (its own tables, a
    dead node's sockets coming back to it) takes its share of a dead node's tables as soon as
    their leases run out, and its loop replays them (a look made by a busy loop can come 0.6 s late,
    and the round's grace then gives its share to the other nodes)."""

    every = LOOK_EVERY

    def __init__(self, cluster: Cluster, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(cluster, loop, "table-looker")

    def round(self) -> None:
        try:
            dead, mine = self.cluster.look(self.client)
        except Exception as exc:  # Redis away: the next look tries again
            self.cluster.say(f"looking for tables to take over: {_why(exc)}")
            return
        if dead or mine:
            self.loop.call_soon_threadsafe(self.cluster.looked, dead, mine)


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
        from .presence import SPECTATOR_PACE

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
                    raise LogError("the table has no owner; reconnect")
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
            await self.ask(Attach(cid, self.seat, self.seen, conn.lang))
        except (LogError, LobbyError):
            conn.close_soon(CLOSE_RESTART, "the table moved to another server process; reconnect")

    async def public_async(self) -> dict[str, Any]:
        reply: dict[str, Any] = await self.ask(Show())
        return reply


class Cluster:
    """This node: its Redis connection, the leases it holds, what it forwards and delivers."""

    def __init__(self, url: str, node: str | None = None) -> None:
        import redis.asyncio as aioredis

        self.url = url
        self.node = node or secrets.token_hex(4)
        def client(connections: int) -> aioredis.Redis:
            pool = aioredis.BlockingConnectionPool.from_url(url, decode_responses=True, max_connections=connections,
                                                            timeout=REDIS_WAIT)
            return aioredis.Redis(connection_pool=pool)

        self.redis = client(REDIS_CONNECTIONS)
        # the leases' own connections: taking a lease never waits behind the sockets' requests,
        # and the renewals have one of their own that nothing else waits on, so no burst of
        # sockets or take-overs can let this node's leases run out
        self.keeper = client(2)
        self.beat = time.monotonic()  # the event loop's last heartbeat (:meth:`_beat`)
        self._renewer: LeaseRenewer | None = None
        self._looker: Looker | None = None
        self._stopping = False
        self.bus = ClusterBus(self)
        self.limits = ClusterLimits(self)
        self.hub: Hub | None = None
        self.owned: set[str] = set()
        self._replies: dict[str, asyncio.Future[Any]] = {}
        # what waits for a table's lease to name another node (:meth:`watch_owner`), by table
        self._owner_checks: dict[str, dict[int, Callable[[str | None], bool]]] = {}
        self._owner_watch: asyncio.Task[None] | None = None
        self._outbox: asyncio.Queue[tuple[str, str]] = asyncio.Queue()  # (channel, text) to publish
        self._watched: dict[str, dict[str, RemoteTable]] = {}  # another node's table -> this node's sockets to it
        self._remotes: dict[str, RemoteTable] = {}  # the same sockets by connection id
        self._tasks: list[asyncio.Task[None]] = []
        self._loading: set[asyncio.Task[None]] = set()  # take-overs being read and replayed
        # the tables they load (owned, not yet in memory), each with an event set once it is in
        self._arriving: dict[str, asyncio.Event] = {}
        self._next = 0
        self._sweep_at = 0.0  # when a look is to look up every live table's lease again
        self._dead: set[str] = set()  # the dead nodes the last look found
        self._released: set[str] = set()  # tables let go whose lease the renewer ends next (:meth:`release`)
        self._released_lock = threading.Lock()

    def say(self, text: str) -> None:
        """One line of this node's log on stderr: the time (UTC, to the millisecond), the node, what."""
        print(f"{utc_stamp(time.time())} cardtable serve: node {self.node}: {text}", file=sys.stderr, flush=True)

    # ------------------------------------------------------------ start and stop
    async def start(self, hub: Hub) -> None:
        self.hub = hub
        await self.redis.ping()
        # its counts' hash first, then its place in ``ct:nodes``: never counted as a dead node
        await self.limits.refresh(hub.open_counts())
        await self._announce_live()
        loop = asyncio.get_running_loop()
        self.beat = time.monotonic()
        self._renewer = LeaseRenewer(self, loop)
        self._renewer.start()
        self._looker = Looker(self, loop)
        self._looker.start()
        self._tasks = [loop.create_task(self._listen()), loop.create_task(self._publish()),
                       loop.create_task(self._beat()), loop.create_task(self._keep())]

    async def _announce_live(self) -> None:
        """The log's live tables are the cluster's to own, whoever wrote them last: at the start, and
        after Redis came back empty (a node that died meanwhile left tables that no renewal names).
        Live are the games in progress and the open tables younger than the hub's ``keep``; an older
        open table waits for its link in the log, as in one process (LD8)."""
        assert self.hub is not None
        hub = self.hub
        rows = await hub.runner.read(lambda: hub.store.tables(("open", "playing")))
        stale = time.time() - hub.keep
        live = [row.id for row in rows
                if isinstance(row, TableRow) and (row.status == "playing" or row.created >= stale)]
        if live:
            await self.redis.sadd("ct:live", *live)

    async def stop(self) -> None:
        self._stopping = True
        for thread in (self._looker, self._renewer):
            if thread is not None:
                await asyncio.to_thread(thread.stop)
        tasks = [*self._tasks, *self._loading, *([self._owner_watch] if self._owner_watch is not None else [])]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        with contextlib.suppress(Exception):
            if self.owned:
                await self.redis.delete(*[f"ct:lease:{t}" for t in self.owned])
            for table_id in self.released():
                await self.redis.eval(_RELEASE, 1, f"ct:lease:{table_id}", self.node, table_id)
        for client in (self.redis, self.keeper):
            with contextlib.suppress(Exception):
                await client.aclose()

    # ------------------------------------------------------------ leases
    async def acquire(self, table_id: str) -> bool:
        """This node owns ``table_id`` from now on, if nobody does."""
        if await self.keeper.set(f"ct:lease:{table_id}", self.node, nx=True, px=int(LEASE_TTL * 1000)):
            self.owned.add(table_id)
            await self.keeper.sadd("ct:live", table_id)
            return True
        return False

    def release(self, table_ids: list[str]) -> None:
        """Let go of tables this node owns that ended or left memory: no longer owned from now on,
        their leases and places among the live tables end in the renewer's next round. Ending
        them there, in the thread that renews, keeps a renewal already under way from taking a
        lease again just after it ended (a renewal takes back a lease it finds gone, as after a
        Redis restart): that left the table live without an owner, and another node took it over
        for nothing."""
        self.owned.difference_update(table_ids)
        with self._released_lock:
            self._released.update(table_ids)

    def released(self) -> set[str]:
        """The tables let go since the last call, less any this node owns again."""
        with self._released_lock:
            released, self._released = self._released, set()
        return released - self.owned

    async def owner(self, table_id: str) -> str | None:
        value = await self.redis.get(f"ct:lease:{table_id}")
        return None if value is None else str(value)

    async def _beat(self) -> None:
        """The event loop's heartbeat, which the lease renewals go by (:data:`LOOP_DEAD`)."""
        while True:
            self.beat = time.monotonic()
            await asyncio.sleep(SCAN_EVERY / 2)

    async def _keep(self) -> None:
        """Let go of the leases of tables that ended or left memory, write this node's counts and
        detach the sockets of dead nodes, every :data:`SCAN_EVERY` seconds, and its part of the
        lobby every :data:`LOBBY_EVERY` seconds (the leases themselves are renewed by a
        :class:`LeaseRenewer`)."""
        assert self.hub is not None
        lobby_at = 0.0  # when this node's part of the lobby is written next
        while True:
            try:
                self._forget()
                if time.monotonic() >= lobby_at:
                    lobby_at = time.monotonic() + LOBBY_EVERY
                    await self.keeper.set(f"ct:lobby:{self.node}", json.dumps(self.hub.listing()),
                                          px=int(LOBBY_TTL * 1000))
                await self.limits.refresh(self.hub.open_counts())
                await self._forget_dead_nodes()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # Redis away: the sockets to other nodes' tables resync later
                self.say(_why(exc))
                self._lost_redis()
            await asyncio.sleep(SCAN_EVERY)

    def _forget(self) -> None:
        """The tables this node owns that ended, or left memory, are let go (:meth:`release`; a
        table still being read and replayed is kept)."""
        assert self.hub is not None
        for table_id in list(self.owned):
            if self.loading(table_id):
                continue
            table = self.hub.tables.get(table_id)
            if table is None or table.row.status == "over":
                self.release([table_id])

    def loading(self, table_id: str) -> bool:
        """Whether this node is taking ``table_id`` over now (acquired, not yet in memory)."""
        assert self.hub is not None
        return table_id in self._arriving or self.hub.loading(table_id)

    async def arrived(self, table_id: str) -> None:
        """Until a table this node is taking over is in memory (or could not be loaded)."""
        assert self.hub is not None
        event = self._arriving.get(table_id)
        if event is not None:
            await event.wait()
        await self.hub.arrived(table_id)

    def moved(self, table_id: str) -> None:
        """Tell every node that this node owns ``table_id`` now: their sockets to it follow it here."""
        self._outbox.put_nowait(("ct:all", json.dumps({"op": "moved", "table": table_id, "owner": self.node})))

    def lost(self, table_ids: list[str]) -> None:
        """Leases another node holds now (:class:`LeaseRenewer` found them so): it writes those
        tables from now on, and their sockets here reconnect to it (the sockets of other nodes
        follow its news)."""
        assert self.hub is not None
        self.say(f"the leases of {len(table_ids)} tables are in other hands now")
        for table_id in table_ids:
            if table_id in self.owned and not self.loading(table_id):
                self.owned.discard(table_id)
                self.hub.drop(table_id)

    def look(self, client: Any) -> tuple[set[str], list[str]]:
        """One look for the live tables whose owner's lease ran out, through ``client`` (a Redis
        client of the :class:`Looker`'s thread): the dead nodes, and the tables this node took,
        which it owns from now on and loads as soon as its loop hands them on (:meth:`looked`).
        Each look takes this node's share in one go, so the living nodes replay a dead node's
        tables side by side (the last of them to look takes all that is left). A look is one
        round trip (:data:`_LOOK`). It asks only which nodes live (their counts' hash, kept alive
        with their leases) unless one died or :data:`SWEEP_EVERY` seconds have passed: only then
        are the live tables' leases looked up, and a dead node whose tables all have owners again
        is forgotten."""
        now = time.monotonic()
        sweep = now >= self._sweep_at
        found, got = client.eval(_LOOK, 0, self.node, int(LEASE_TTL * 1000), int(sweep), int(ROUND_TTL * 1000),
                                 int(ROUND_GRACE * 1000))
        if found or sweep:
            self._sweep_at = now + SWEEP_EVERY
        dead = {str(node) for node in found}
        if dead - self._dead:
            self.say(f"node {', '.join(sorted(dead - self._dead))} stopped: its tables go to the living nodes")
        self._dead = dead
        # a lease of this node's own that had lapsed (it renews it anyway) is no take-over
        mine = [str(t) for t in got if str(t) not in self.owned]
        # arriving before owned: the loop never takes a table owned and not loading for one let go
        self._arriving.update({t: asyncio.Event() for t in mine})
        self.owned.update(mine)
        return dead, mine

    def looked(self, dead: set[str], mine: list[str]) -> None:
        """A look's findings, on the event loop: the tables taken are read and replayed in a task
        while the next looks go on, and while a node is dead this node's sockets to its tables
        follow them as soon as their leases name new owners (:meth:`_follow_dead`)."""
        if self._stopping:  # a look handed on as the node stopped: its tables' leases end with it
            return
        loop = asyncio.get_running_loop()
        tasks = [loop.create_task(self._follow_dead(dead))] if dead else []
        if mine:
            tasks.append(loop.create_task(self._load(mine)))
        for task in tasks:
            self._loading.add(task)
            task.add_done_callback(self._loading.discard)

    async def _follow_dead(self, dead: set[str]) -> None:
        """This node's sockets to tables of the ``dead`` nodes follow each table as soon as its
        lease names a new owner: their attach reaches it while it replays the table and is
        answered once the table is in, without waiting for its news (a round trip between two
        busy nodes)."""
        tables = [t for t, remotes in self._watched.items() if any(r.owner_node in dead for r in remotes.values())]
        if not tables:
            return
        try:
            owners = await self.keeper.mget([f"ct:lease:{t}" for t in tables])
        except Exception as exc:  # Redis away: the next look's findings try again
            self.say(f"following the tables of a dead node: {_why(exc)}")
            return
        for table_id, owner in zip(tables, owners, strict=True):
            if owner is not None and owner not in dead:
                self._follow(table_id, str(owner))

    async def _load(self, mine: list[str]) -> None:
        """Read and replay the tables this node just acquired, telling every node of each."""
        assert self.hub is not None
        began, done = time.monotonic(), set()
        served = began  # when the loop last served the other tables
        first = 0.0  # seconds to the first table in memory: the logs' read, mostly
        try:
            async for table_id, table in self.hub.take_over(mine):
                first = first or time.monotonic() - began
                done.add(table_id)
                self._arriving.pop(table_id).set()
                if table is None:  # gone from the log, or broken: no longer live
                    self.release([table_id])
                    continue
                self.moved(table_id)
                if time.monotonic() - served >= REPLAY_SLICE:  # the loop serves the other tables
                    await asyncio.sleep(0)
                    served = time.monotonic()
            self.say(f"took over {sum(t in self.owned for t in mine)} of {len(mine)} "
                     f"tables in {time.monotonic() - began:.2f} s (the first in {first:.2f} s)")
        except Exception as exc:  # the log away: the tables not loaded go back to the looks
            self.say(f"taking tables over: {_why(exc)}")
        finally:
            for table_id in mine:
                event = self._arriving.pop(table_id, None)
                if event is not None:
                    event.set()
            left = [t for t in mine if t not in done]
            self.owned.difference_update(left)
            if left:  # not loaded (the log failed): let another look, here or elsewhere, take them
                with contextlib.suppress(Exception):
                    await self.keeper.delete(*[f"ct:lease:{t}" for t in left])

    async def listing(self, mine: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The lobby of the whole cluster: this node's tables and what the others last said of theirs."""
        out = list(mine)
        seen = {t["id"] for t in mine}
        async for key in self.redis.scan_iter(match="ct:lobby:*", count=100):
            if key == f"ct:lobby:{self.node}":
                continue
            text = await self.redis.get(key)
            for entry in json.loads(text) if text else []:
                if entry.get("id") not in seen:
                    seen.add(entry["id"])
                    out.append(entry)
        return out[-100:]

    async def _forget_dead_nodes(self) -> None:
        """Connections of nodes that stopped (their counts expired) leave the tables of this node:
        a seat whose socket was on a dead node is away, and its person reconnects elsewhere."""
        assert self.hub is not None
        nodes = {cid.partition(".")[0] for table in self.hub.tables.values() for cid in table.s.connections()}
        nodes.discard(self.node)
        if not nodes:
            return
        alive = {node for node in nodes if await self.keeper.exists(f"ct:count:{node}")}
        for table in list(self.hub.tables.values()):
            for cid in table.s.connections():
                if cid.partition(".")[0] in nodes - alive:
                    table.post(Detach(cid))

    # ------------------------------------------------------------ routing
    def to_node(self, node: str, message: dict[str, Any]) -> None:
        self._outbox.put_nowait((f"ct:node:{node}", json.dumps(message)))

    async def _publish(self) -> None:
        while True:
            channel, text = await self._outbox.get()
            batch = [(channel, text)]
            while not self._outbox.empty() and len(batch) < 256:
                batch.append(self._outbox.get_nowait())
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for channel, text in batch:
                        pipe.publish(channel, text)
                    await pipe.execute()
            except Exception as exc:  # frames lost, never an action: the pages resync
                self.say(_why(exc))

    async def forward(self, node: str, table_id: str, cmd: Command) -> Any:
        """``cmd`` to ``table_id``'s owner ``node``; its answer (a lobby error raised here too).
        A socket that followed its table to this node asks it here, without Redis."""
        if node == self.node:
            reply = await self._serve(table_id, cmd)
        else:
            self._next += 1
            rid = f"{self.node}:{self._next}"
            future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
            self._replies[rid] = future
            fields = dataclasses.asdict(cmd)
            self.to_node(node, {"op": "cmd", "table": table_id, "kind": type(cmd).__name__, "fields": fields,
                                "reply": rid})
            try:
                reply = await self._answer(future, node, table_id)
            finally:
                self._replies.pop(rid, None)
        if "error" in reply:
            status, code, message = reply["error"]
            raise LobbyError(int(status), str(code), str(message))
        if "log" in reply:
            raise LogError(str(reply["log"]))
        return reply.get("ok")

    async def _answer(self, future: asyncio.Future[Any], node: str, table_id: str) -> Any:
        """The owner's answer; :class:`OwnerGone` as soon as the table's lease names another
        owner (or none: its owner died), a :class:`LogError` after :data:`ASK_TIMEOUT` seconds."""

        def gone(owner: str | None) -> bool:
            if owner == node:
                return False
            if not future.done():
                future.set_exception(OwnerGone(owner))
            return True

        stop = self.watch_owner(table_id, gone)
        try:
            return await asyncio.wait_for(future, ASK_TIMEOUT)
        except TimeoutError:
            raise LogError("the table's owner did not answer; reconnect") from None
        finally:
            stop()

    def watch_owner(self, table_id: str, check: Callable[[str | None], bool]) -> Callable[[], None]:
        """Call ``check`` with the node the lease of ``table_id`` names (``None``: no lease)
        every :data:`ANSWER_POLL` seconds, until it returns true or the function returned here is
        called. The leases of every table watched are read in one round trip a poll
        (:meth:`_watch_owners`), however many commands and sockets of this node wait: after a
        node died, a hundred of them each asking Redis ten times a second kept the connections
        and the loop of a busy node from the sockets coming back."""
        self._next += 1
        key = self._next
        self._owner_checks.setdefault(table_id, {})[key] = check
        if self._owner_watch is None or self._owner_watch.done():
            self._owner_watch = asyncio.get_running_loop().create_task(self._watch_owners())
        return lambda: self._unwatch_owner(table_id, key)

    def _unwatch_owner(self, table_id: str, key: int) -> None:
        checks = self._owner_checks.get(table_id)
        if checks is not None:
            checks.pop(key, None)
            if not checks:
                del self._owner_checks[table_id]

    async def _watch_owners(self) -> None:
        """The owners of the tables watched (:meth:`watch_owner`), while any are."""
        while self._owner_checks:
            await asyncio.sleep(ANSWER_POLL)
            tables = list(self._owner_checks)
            if not tables:
                continue
            try:
                owners = await self.redis.mget([f"ct:lease:{t}" for t in tables])
            except Exception:  # Redis away: the commands waiting fail at their deadline
                continue
            for table_id, owner in zip(tables, owners, strict=True):
                for key, check in list(self._owner_checks.get(table_id, {}).items()):
                    if check(None if owner is None else str(owner)):
                        self._unwatch_owner(table_id, key)

    async def _listen(self) -> None:
        """This node's channel, subscribed again after Redis went away (what was sent meanwhile is
        lost: the sockets to other nodes' tables reconnect and resync; the live tables are
        announced again, should Redis have come back without them)."""
        again = False
        while True:
            try:
                await self._listen_once(again)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self.say(f"{_why(exc)}; subscribing again")
                self._lost_redis()
                again = True
                await asyncio.sleep(SCAN_EVERY)

    async def _listen_once(self, again: bool) -> None:
        pubsub = self.redis.pubsub()
        await pubsub.subscribe(f"ct:node:{self.node}", "ct:all")
        if again:
            await self._announce_live()
        async for message in pubsub.listen():
            if message.get("type") != "message":
                continue
            try:
                data = json.loads(message["data"])
            except (TypeError, ValueError):
                continue
            op = data.get("op")
            if op in ("send", "drop", "close"):
                self.bus.deliver(data)
            elif op == "cmd":
                asyncio.get_running_loop().create_task(self._apply(data))
            elif op == "reply":
                future = self._replies.get(data.get("id", ""))
                if future is not None and not future.done():
                    future.set_result(data)
            elif op == "moved":
                self._moved(str(data.get("table")), data.get("owner"))

    async def _apply(self, data: dict[str, Any]) -> None:
        """A command forwarded by another node to a table this node owns."""
        cls = FORWARDED.get(data.get("kind", ""))
        if cls is None:
            reply: dict[str, Any] = {"log": "no such command"}
        else:
            reply = await self._serve(str(data["table"]), cls(**data["fields"]))
        requester = str(data["reply"]).partition(":")[0]
        self.to_node(requester, {"op": "reply", "id": data["reply"], **reply})

    async def _serve(self, table_id: str, cmd: Command) -> dict[str, Any]:
        """``cmd`` to a table this node owns: its answer as ``{"ok": ...}``, ``{"error": [status,
        code, message]}`` (a lobby error) or ``{"log": reason}`` (not here, or the log failed)."""
        assert self.hub is not None
        if table_id in self.owned:  # a socket that found this node while it loads the table waits for it
            await self.arrived(table_id)
        table = self.hub.tables.get(table_id) if table_id in self.owned else None
        if table is None:
            return {"log": "this node does not own that table now; try again"}
        try:
            return {"ok": await table.ask(cmd)}
        except LobbyError as exc:
            return {"error": [exc.status, exc.code, exc.message]}
        except LogError as exc:
            return {"log": str(exc)}

    # ------------------------------------------------------------ sockets to other nodes' tables
    def watch(self, remote: RemoteTable) -> None:
        """A socket here whose commands go to another node's table."""
        assert remote.cid is not None
        self._watched.setdefault(remote.id, {})[remote.cid] = remote
        self._remotes[remote.cid] = remote

    def unwatch(self, remote: RemoteTable) -> None:
        if remote.cid is not None:
            self._remotes.pop(remote.cid, None)
            watched = self._watched.get(remote.id, {})
            watched.pop(remote.cid, None)
            if not watched:
                self._watched.pop(remote.id, None)

    def remote_of(self, cid: str) -> RemoteTable | None:
        return self._remotes.get(cid)

    def _moved(self, table_id: str, owner: str | None = None) -> None:
        """``table_id`` has a new owner: this node's sockets to it follow it there. With no owner
        named (Redis was lost: what it carried meanwhile is not known) they close, and their pages
        reconnect and resync."""
        if owner is not None:
            self._follow(table_id, owner)
        else:
            for remote in list(self._watched.get(table_id, {}).values()):
                self.unwatch(remote)
                if remote.cid is not None:
                    self.bus.close(remote.cid, CLOSE_RESTART, "the table moved to another server process")
        if self.hub is not None and table_id not in self.owned:
            self.hub.drop(table_id)

    def _follow(self, table_id: str, owner: str) -> None:
        for remote in list(self._watched.get(table_id, {}).values()):
            remote.follow(owner)

    def _lost_redis(self) -> None:
        for table_id in list(self._watched):
            self._moved(table_id)

