"""A node of a cluster (:class:`Cluster`): its leases, its share of a dead node's tables, the
lobby of every node, and the commands and frames it routes."""

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
from typing import TYPE_CHECKING, Any

from ...core.errors import ConfigError
from ..commands import Command, Detach
from ..lobby import LobbyError
from ..ports import LogError
from ..protocol import CLOSE_RESTART
from ..store import TableRow
from .adapters import ClusterBus, ClusterLimits, node_of
from .lease_scripts import LOOK_SCRIPT, RELEASE_SCRIPT
from .log_lines import utc_stamp, why
from .remote import FORWARDED, OwnerGone, RemoteTable
from .settings import (
    ANSWER_POLL,
    ASK_TIMEOUT,
    LEAD_TTL,
    LEASE_TTL,
    LOBBY_EVERY,
    LOBBY_TTL,
    REDIS_CONNECTIONS,
    REDIS_WAIT,
    REPLAY_SLICE,
    ROUND_GRACE,
    ROUND_TTL,
    SCAN_EVERY,
    SWEEP_EVERY,
)
from .threads import LeaseRenewer, Looker

if TYPE_CHECKING:
    from ..hub import Hub


_LEAD = """
local held = redis.call('get', KEYS[1])
if held == false or held == ARGV[1] then
  redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
"""
"""A role (``KEYS[1]``) taken by node ``ARGV[1]``, or held longer, if nobody else holds it."""

_LET_GO_LEAD = "if redis.call('get', KEYS[1]) == ARGV[1] then redis.call('del', KEYS[1]) end return 1"


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
        self._leads: set[str] = set()  # the roles this node leads (:meth:`lead`)

    def say(self, text: str) -> None:
        """One line of this node's log on stderr: the time (UTC, to the millisecond), the node, what."""
        print(f"{utc_stamp(time.time())} cardtable serve: node {self.node}: {text}", file=sys.stderr, flush=True)

    # ------------------------------------------------------------ start and stop
    def preflight(self) -> None:
        """Before the server starts: Redis answers at the URL, and no live node has this node's
        name (two processes of one name would each take the other's forwarded commands). A node
        of the name that just stopped is waited for, until its counts expire. :class:`ConfigError`
        otherwise, in one line."""
        import redis

        client = redis.Redis.from_url(self.url, socket_connect_timeout=5, socket_timeout=5)
        try:
            client.ping()
            deadline = time.monotonic() + 3 * LEASE_TTL
            while client.exists(f"ct:count:{self.node}"):  # renewed while that node lives
                if time.monotonic() > deadline:
                    raise ConfigError(f"--node {self.node}: a node of that name is running; give each its own")
                time.sleep(LEASE_TTL / 4)
        except redis.RedisError as exc:
            raise ConfigError(f"--bus {self.url}: Redis cannot be used: {exc}") from None
        finally:
            client.close()

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
                await self.redis.eval(RELEASE_SCRIPT, 1, f"ct:lease:{table_id}", self.node, table_id)
            for role in self._leads:  # another node takes the role at its next turn
                await self.redis.eval(_LET_GO_LEAD, 1, f"ct:lead:{role}", self.node)
        for client in (self.redis, self.keeper):
            with contextlib.suppress(Exception):
                await client.aclose()

    # ------------------------------------------------------------ leases
    async def lead(self, role: str) -> bool:
        """Whether this node leads ``role`` (one node of the cluster at a time: the events'
        runner), taking the role if nobody holds it and holding it :data:`LEAD_TTL` seconds more
        if this node does. Called every turn of the role's loop; Redis out of reach: ``False``."""
        try:
            held = bool(await self.keeper.eval(_LEAD, 1, f"ct:lead:{role}", self.node, int(LEAD_TTL * 1000)))
        except Exception as exc:
            self.say(f"leading {role}: {why(exc)}")
            held = False
        if held and role not in self._leads:
            self.say(f"leads {role} from now on")
        (self._leads.add if held else self._leads.discard)(role)
        return held

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
        """The event loop's heartbeat, which the lease renewals go by (:data:`~.settings.LOOP_DEAD`)."""
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
                self.say(why(exc))
                self._lost_redis()
            await asyncio.sleep(SCAN_EVERY)

    def _forget(self) -> None:
        """The tables this node owns that ended (``over`` written in the log: until then another
        node would take the table and finish it again), or left memory, are let go
        (:meth:`release`; a table still being read and replayed is kept)."""
        assert self.hub is not None
        for table_id in list(self.owned):
            if self.loading(table_id):
                continue
            table = self.hub.tables.get(table_id)
            if table is None or table.ended():
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
        round trip (:data:`~.lease_scripts.LOOK_SCRIPT`). It asks only which nodes live (their
        counts' hash, kept alive with their leases) unless one died or :data:`SWEEP_EVERY` seconds
        have passed: only then are the live tables' leases looked up, and a dead node whose tables
        all have owners again is forgotten."""
        now = time.monotonic()
        sweep = now >= self._sweep_at
        found, got = client.eval(LOOK_SCRIPT, 0, self.node, int(LEASE_TTL * 1000), int(sweep), int(ROUND_TTL * 1000),
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
            self.say(f"following the tables of a dead node: {why(exc)}")
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
            self.say(f"taking tables over: {why(exc)}")
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
        nodes = {node_of(cid) for table in self.hub.tables.values() for cid in table.s.connections()}
        nodes -= {self.node, None}
        if not nodes:
            return
        alive = {node for node in nodes if await self.keeper.exists(f"ct:count:{node}")}
        for table in list(self.hub.tables.values()):
            for cid in table.s.connections():
                if node_of(cid) in nodes - alive:
                    table.post(Detach(cid))

    def _drop_remote_connections(self) -> None:
        """Redis came back: the sockets other nodes had at this node's tables were closed there
        when they lost it (their pages reconnect), and the detach each sent meanwhile was lost.
        So their connections leave these tables now (a seat shows away and its hold runs, a
        spectator is no longer counted), and any such socket still open is closed, to reconnect
        and resync. Its commands come through Redis, so none came since it came back."""
        assert self.hub is not None
        for table in list(self.hub.tables.values()):
            for cid in table.s.connections():
                if node_of(cid) not in (self.node, None):
                    table.post(Detach(cid))
                    self.bus.close(cid, CLOSE_RESTART, "the cluster's bus restarted; reconnect")

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
                self.say(why(exc))

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
                self.say(f"{why(exc)}; subscribing again")
                self._lost_redis()
                again = True
                await asyncio.sleep(SCAN_EVERY)

    async def _listen_once(self, again: bool) -> None:
        pubsub = self.redis.pubsub()
        await pubsub.subscribe(f"ct:node:{self.node}", "ct:all")
        if again:
            self._drop_remote_connections()
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
            elif op == "forget":
                self._forget_copy(str(data.get("table")))

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
        table = self.hub.tables.get(table_id)
        if table is not None and table_id not in self.owned and not table.ended():
            table = None  # another node writes it now (a finished one, let go, is still served here)
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

    def forget(self, table_id: str) -> None:
        """Every node drops the copy it holds of ``table_id``, unless it owns it: the log's rows
        changed beside the table (a deleted account's seat renamed in a finished game), and the
        next reader reads them again."""
        self._forget_copy(table_id)
        self._outbox.put_nowait(("ct:all", json.dumps({"op": "forget", "table": table_id})))

    def _forget_copy(self, table_id: str) -> None:
        if self.hub is not None and table_id not in self.owned:
            self.hub.drop(table_id)

    def _follow(self, table_id: str, owner: str) -> None:
        for remote in list(self._watched.get(table_id, {}).values()):
            remote.follow(owner)

    def _lost_redis(self) -> None:
        for table_id in list(self._watched):
            self._moved(table_id)
