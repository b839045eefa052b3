"""The two threads beside a node's event loop: one renews its leases, one looks for tables to take
over, so a busy loop neither loses its tables nor leaves a dead node's waiting."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import TYPE_CHECKING

from .lease_scripts import RELEASE_SCRIPT, RENEW_SCRIPT
from .log_lines import why
from .settings import LEASE_TTL, LOOK_EVERY, LOOP_DEAD, RENEW_EVERY

if TYPE_CHECKING:
    from .node import Cluster


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
            self.cluster.say(f"renewing leases: {why(exc)}")
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
            pipe.eval(RENEW_SCRIPT, 1, f"ct:lease:{table_id}", cluster.node, ttl)
        if owned:
            pipe.sadd("ct:live", *owned)  # again after a Redis restart
        count = f"ct:count:{cluster.node}"
        pipe.hsetnx(count, "up", 1)  # made again if Redis restarted empty: never a living node counted dead
        pipe.pexpire(count, ttl)
        pipe.sadd("ct:nodes", cluster.node)
        for table_id in released:
            pipe.eval(RELEASE_SCRIPT, 1, f"ct:lease:{table_id}", cluster.node, table_id)
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
            self.cluster.say(f"looking for tables to take over: {why(exc)}")
            return
        if dead or mine:
            self.loop.call_soon_threadsafe(self.cluster.looked, dead, mine)
