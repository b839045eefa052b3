"""Every live table of the server: loaded from the store, created, found, swept (LD8)."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import sys
import time
from collections.abc import AsyncGenerator, Callable
from typing import TYPE_CHECKING, Any, cast

from ..core.errors import ConfigError
from ..core.registry import load
from . import moveclock
from .actor import LogRunner
from .botpool import BotPool
from .bus import LocalBus
from .lobby import TOKEN, LobbyError, check_row, new_token
from .ports import Bus, LeasedLog, LogError
from .protocol import CLOSE_RESTART, dumps
from .store import CLOSED, BadRow, SeatRow, TableRow, Taken, token_hash
from .tables import Table
from .talk import CHAT_KEPT

if TYPE_CHECKING:
    from .cluster import Cluster, RemoteTable

CLOSED_WITHOUT_PLAY = "closed without play"
"""Why :attr:`Hub.broken` keeps a table out that the log holds as :data:`~.store.CLOSED` (an event's
table closed by a no-show): it answers 410, not 404."""
FORFEITED = "this event's game was not played: a player did not come (see the event's page)"
"""What a request for a table closed by a no-show is told (410)."""


ABANDONED = 60.0
"""Seconds a game in progress with nobody at it stays in the lobby's list."""


class Hub:
    """Every live table: games in progress (replayed) and open tables younger than
    :attr:`keep` are loaded from the store at start; any other one but a table closed without
    play (:data:`~.store.CLOSED`) is loaded again when someone asks for it. :meth:`sweep` lets
    go of tables nobody is at (LD8)."""

    def __init__(
        self,
        store: LeasedLog,
        *,
        bot_delay: float = 0.0,
        max_tables: int = 10_000,
        hold: float | None = 60.0,
        keep: float = 600.0,
        countdown: float | None = None,
        max_open_per_owner: int = 10,
        max_open_per_host: int = 5,
        unjoined: float = 120.0,
        pool: BotPool | None = None,
        cluster: Cluster | None = None,
        finished: Callable[[Table], None] | None = None,
    ) -> None:
        self.store = store
        self.cluster = cluster  # one node of many: tables are loaded when this node owns them
        self.finished = finished  # called with a table whose game's end is stored (results, ratings)
        self.runner = LogRunner(store)  # the log's calls one at a time; the tables' writes in its thread
        self.bus: Bus = cluster.bus if cluster is not None else LocalBus()
        self.pool = pool
        self.max_open_per_owner = max_open_per_owner
        self.max_open_per_host = max_open_per_host
        self.unjoined = unjoined
        self.hold = hold
        self.countdown = countdown
        self.keep = keep
        self.bot_delay = bot_delay
        self.max_tables = max_tables
        self.tables: dict[str, Table] = {}
        self.broken: dict[str, str] = {}
        self._arriving: dict[str, asyncio.Event] = {}  # tables being loaded from the log (cluster)
        stale = time.time() - keep  # an open table older than that waits for its link, not in the lobby
        rows = [] if cluster is not None else self.runner.call(lambda: store.tables(("open", "playing")))
        wanted = []
        for row in rows:
            if isinstance(row, BadRow):
                self._mark_broken(row.table_id, str(row))
            elif row.status == "playing" or row.created >= stale:
                wanted.append(row.id)
        taken = self.runner.call(lambda: store.take(wanted, CHAT_KEPT)) if wanted else {}
        for table_id in wanted:
            self._load(taken.get(table_id), table_id)

    def _load(self, taken: Taken | BadRow | None, table_id: str) -> Table | None:
        """The table ``taken`` from the log, in memory from now on; ``None`` if it was not found,
        was closed without play (kept out like a broken one, without a line in the log) or cannot
        be served (then marked broken)."""
        if taken is None:
            return None
        if isinstance(taken, BadRow):
            self._mark_broken(table_id, str(taken))
            return None
        row = taken.row
        if row.status == CLOSED:
            self.broken[row.id] = CLOSED_WITHOUT_PLAY
            return None
        try:
            check_row(row)
            table = self._table(taken)
            dumps(table.public())  # what the lobby and the socket will send of it must be sendable
        except Exception as exc:  # a row this version cannot load, replay or show (S10): serve the rest
            self._mark_broken(row.id, f"{row.game} {exc}")
            return None
        self.tables[row.id] = table
        return table

    def _table(self, taken: Taken) -> Table:
        return Table(taken, self.runner, bot_delay=self.bot_delay, hold=self.hold, countdown=self.countdown,
                     pool=self.pool, bus=self.bus, lost=self.drop, finished=self._finished)

    def _finished(self, table: Table) -> None:
        """A table's game ended: :attr:`finished` as it is now (it may be set after the tables
        of the last run were loaded)."""
        if self.finished is not None:
            self.finished(table)

    def _mark_broken(self, table_id: str, why: str) -> None:
        """Leave a table out of memory and the lobby from now on (one line in the log)."""
        self.broken[table_id] = why
        print(f"cardtable serve: table {table_id} not loaded: {why}", file=sys.stderr)

    def resume_bots(self) -> None:
        """After a restart, let bots that are to move go on (needs a running loop)."""
        for table in self.tables.values():
            table.resume()

    def find(self, table_id: Any) -> Table | None:
        """The table ``table_id``, loaded from the store if it is not in memory; ``None`` if none."""
        if not isinstance(table_id, str) or not 0 < len(table_id) <= 64:
            return None
        table = self.tables.get(table_id)
        if table is None and table_id not in self.broken:
            taken = self.runner.call(lambda: self.store.take([table_id], CHAT_KEPT))
            table = self._load(taken.get(table_id), table_id)
            if table is not None:
                table.resume()
        return table

    async def locate(self, table_id: Any) -> Table | RemoteTable | None:
        """:meth:`find` across a cluster: the table here if this node owns it (or nobody did: it
        takes it), a finished one read from the log, or a :class:`~.cluster.RemoteTable` whose
        commands go to the node that owns it. The log is read off the event loop."""
        if self.cluster is None:
            return self.find(table_id)
        if not isinstance(table_id, str) or not 0 < len(table_id) <= 64 or table_id in self.broken:
            return None
        await self.cluster.arrived(table_id)  # being taken over by this node: served once it is loaded
        if table_id in self.tables:
            return self.tables[table_id]
        try:
            row = await self.runner.read(lambda: self.store.table(table_id))
        except BadRow as exc:
            self._mark_broken(table_id, str(exc))
            return None
        if row is None:
            return None
        if row.status == CLOSED:
            self.broken[table_id] = CLOSED_WITHOUT_PLAY
            return None
        if row.status == "over":
            return await self._fetch(table_id)  # read from the log: nobody writes it any more
        owner = await self.cluster.owner(table_id)
        if owner is None and await self.cluster.acquire(table_id):
            table = await self._fetch(table_id)
            if table is not None:
                self.cluster.moved(table_id)  # other sockets to it, on other nodes, come here
            return table
        owner = owner or await self.cluster.owner(table_id)
        if owner is None or owner == self.cluster.node:
            return await self._fetch(table_id)
        from .cluster import RemoteTable

        return RemoteTable(self.cluster, row, owner)

    async def _fetch(self, table_id: str) -> Table | None:
        """:meth:`find` with the log read in its writer thread; a table being loaded meanwhile
        is waited for, never loaded twice."""
        async with contextlib.aclosing(self.take_over([table_id], drop=False)) as loading:
            async for _, table in loading:
                return table
        return self.tables.get(table_id)

    async def take_over(self, table_ids: list[str], *,
                        drop: bool = True) -> AsyncGenerator[tuple[str, Table | None], None]:
        """Tables this node holds the leases of now (their owner died), claimed and read from the
        log in one call (in the log's writer thread: the loop serves the other tables meanwhile),
        then replayed one after another: each id with its table, or ``None`` when it cannot be
        loaded (gone, broken). With ``drop``, a copy of one still in memory is let go first.
        A table already being loaded (by another call) is waited for and given as it is then."""
        if drop:
            for table_id in table_ids:
                self.drop(table_id)
        waiting = {t: self._arriving[t] for t in table_ids if t in self._arriving}
        mine = [t for t in table_ids if t not in waiting and t not in self.tables]
        events = {t: asyncio.Event() for t in mine}
        self._arriving.update(events)
        try:
            taken = await self.runner.write(lambda: self.store.take(mine, CHAT_KEPT)) if mine else {}
            for table_id in table_ids:
                if table_id in waiting:
                    await waiting[table_id].wait()
                elif table_id in events:
                    table = self._load(taken.get(table_id), table_id)
                    if table is not None:
                        table.resume()
                    del self._arriving[table_id]
                    events.pop(table_id).set()
                yield table_id, self.tables.get(table_id)
        finally:
            for table_id, event in events.items():
                self._arriving.pop(table_id, None)
                event.set()

    async def arrived(self, table_id: str) -> None:
        """Until a table being read and replayed here is in memory (or could not be loaded)."""
        arriving = self._arriving.get(table_id)
        if arriving is not None:
            await arriving.wait()

    def loading(self, table_id: str) -> bool:
        """Whether the table is being read from the log and replayed here now."""
        return table_id in self._arriving

    async def close_unplayed(self, table_id: str) -> None:
        """A table this process made and will never start: out of memory and the lobby,
        :data:`~.store.CLOSED` in the log (no restart or other node loads it again), and on a
        cluster its lease let go."""
        self.drop(table_id)
        self.broken[table_id] = CLOSED_WITHOUT_PLAY
        with contextlib.suppress(LogError, BadRow):
            await self.runner.write(lambda: self.store.set_status(table_id, CLOSED))
        if self.cluster is not None:
            self.cluster.release([table_id])

    def drop(self, table_id: str, code: int = CLOSE_RESTART) -> None:
        """Forget a table another node owns now: its sockets here are closed with ``code`` (by
        default 1012: they reconnect and find the owner)."""
        table = self.tables.pop(table_id, None)
        if table is not None:
            table.close_all(code)
            table.release()

    def get(self, table_id: Any) -> Table:
        """:meth:`find` in this process (one server, the tests), or a 404."""
        table = self.find(table_id)
        if table is None:
            raise LobbyError(404, "no_table", "no such table")
        return table

    async def held(self, table_id: str) -> Table | RemoteTable | None:
        """The table a process holds and writes now: in this one's memory, or on a cluster a
        :class:`~.cluster.RemoteTable` of the node whose lease it holds; ``None`` if no process
        does (a finished table, or one nobody has loaded), and nothing is loaded."""
        table = self.tables.get(table_id)
        if self.cluster is None:
            return table
        if table is not None and table_id in self.cluster.owned:
            return table
        owner = await self.cluster.owner(table_id)  # a copy read here of a table nobody writes is not held
        if owner is None or owner == self.cluster.node:
            return None
        row = await self.runner.read(lambda: self.store.table(table_id))
        if row is None:
            return None
        from .cluster import RemoteTable

        return RemoteTable(self.cluster, row, owner)

    async def located(self, table_id: Any) -> Table | RemoteTable:
        """:meth:`locate`, or a 404 if there is no such table, a 410 if it was closed without play."""
        table = await self.locate(table_id)
        if table is None:
            if self.broken.get(table_id) == CLOSED_WITHOUT_PLAY:
                raise LobbyError(410, "forfeited", FORFEITED)
            raise LobbyError(404, "no_table", "no such table")
        return table

    async def over(self, table_id: Any, in_progress: str) -> Table:
        """The table ``table_id`` once its game is over, for its record, replay or review: a
        finished table is read from the log on any node, and a game in progress is answered 409
        ``in_progress`` (saying ``in_progress``) without being taken from the node that owns it."""
        table = await self.located(table_id)
        match = getattr(table, "match", None)  # a table another node owns is played there
        if match is None or not match.is_over:
            raise LobbyError(409, "in_progress", in_progress)
        return cast("Table", table)

    def sweep(self, now: float | None = None) -> list[str]:
        """Drop from memory the tables nobody has been at for :attr:`keep` seconds
        that are open or over, and open tables nobody joined (no one sat or connected) after
        :attr:`unjoined` seconds, so a flood of empty tables cannot hold the caps (the store
        keeps them; :meth:`find` loads them again). A game in progress stays: its bots and
        timers are running."""
        now = time.monotonic() if now is None else now
        gone = [
            tid for tid, t in self.tables.items()
            if (t.row.status in ("open", "over") and t.idle_since(now) >= self.keep)
            or (t.row.status == "open" and not t.joined and t.idle_since(now) >= self.unjoined)
        ]
        for tid in gone:
            self.tables.pop(tid).release()
        return gone

    def open_tables_of(self, owner: str) -> int:
        return sum(1 for t in self.tables.values() if t.owner == owner and t.row.status == "open")

    def open_tables_hosted(self, host_hash: str) -> int:
        return sum(1 for t in self.tables.values() if t.row.host_hash == host_hash and t.row.status == "open")

    def open_counts(self) -> dict[str, int]:
        """Open tables per creator's address (``open:IP``) and per host token (``host:DIGEST``)."""
        out: dict[str, int] = {}
        for t in self.tables.values():
            if t.row.status == "open":
                for field in (f"host:{t.row.host_hash}", *((f"open:{t.owner}",) if t.owner else ())):
                    out[field] = out.get(field, 0) + 1
        return out

    def _over_caps(self, owner: str | None, host_hash: str, elsewhere: tuple[int, int] = (0, 0)) -> str:
        """Whose cap of open tables a new one would pass ("" if none); ``elsewhere``: the open
        tables of this address and of this host token on the other processes of a cluster."""
        if self.open_tables_hosted(host_hash) + elsewhere[1] >= self.max_open_per_host:
            return "one host token"
        if owner is not None and self.open_tables_of(owner) + elsewhere[0] >= self.max_open_per_owner:
            return "one address"
        return ""

    def create(self, game: Any, preset: Any = None, options: Any = None, owner: str | None = None,
               host: Any = None, undo: Any = False, elsewhere: tuple[int, int] = (0, 0), rated: Any = False,
               clock: Any = "default") -> tuple[Table, str]:
        """A new open table; returns it and its host token (to add bots and start).
        ``owner`` (the creator's address) may hold :attr:`max_open_per_owner` open tables.
        ``host``: a host token the creator already holds (of an earlier table), kept for this one
        too, so one person hosts all their tables with one token; one token may host
        :attr:`max_open_per_host` open tables (people behind one address share its cap, not this one).
        ``undo``: a person alone against bots may take their moves back (docs/web.md, "Undo against bots"); never
        in a real-time game (Spit). ``rated``: the result moves the players' ratings (no undo then);
        ``clock``: a rated table's per-move clock (:func:`.moveclock.check`: ``"default"``, ``None``
        or its settings; a casual table has one only if asked)."""
        if host is not None and not (isinstance(host, str) and TOKEN.fullmatch(host)):
            raise LobbyError(400, "bad_request", "host is a host token this server gave out")
        host = host or new_token()
        host_hash = token_hash(host)
        if self._over_caps(owner, host_hash, elsewhere):
            self.sweep()  # tables nobody joined may have expired meanwhile
            whose = self._over_caps(owner, host_hash, elsewhere)
            if whose:
                cap = self.max_open_per_host if whose == "one host token" else self.max_open_per_owner
                raise LobbyError(429, "too_many_open", f"{cap} open tables from {whose} at most: "
                                 "start one, or wait until an unjoined one expires",
                                 {"limit": cap, "per": "host" if whose == "one host token" else "address"})
        if len(self.tables) >= self.max_tables:
            self.sweep()
            if len(self.tables) >= self.max_tables:
                raise LobbyError(503, "full", "too many tables")
        if not isinstance(game, str) or (preset is not None and not isinstance(preset, str)):
            raise LobbyError(400, "bad_request", "game and preset are strings")
        options = {} if options is None else options
        if not isinstance(options, dict) or len(options) > 32:
            raise LobbyError(400, "bad_request", "options is an object")
        try:
            loaded = load(game, preset, **options)
            dumps(loaded.changed_options())  # finite numbers only: the lobby shows them as JSON
        except (ConfigError, TypeError) as exc:
            raise LobbyError(400, "bad_options", str(exc)) from None
        except ValueError:
            raise LobbyError(400, "bad_options", "option values are finite numbers, texts or lists") from None
        if not isinstance(undo, bool):
            raise LobbyError(400, "bad_request", "undo is true or false")
        if undo and loaded.realtime:
            raise LobbyError(400, "undo_realtime", f"{loaded.title} is played in real time: it has no undo")
        if not isinstance(rated, bool):
            raise LobbyError(400, "bad_request", "rated is true or false")
        if rated and undo:
            raise LobbyError(400, "undo_rated", "a rated table has no undo")
        if clock == "default" and not rated:
            clock = None
        clock = moveclock.check(clock, rated=rated, realtime=loaded.realtime)
        row = TableRow(
            id=secrets.token_urlsafe(8),
            game=loaded.name,
            preset=loaded.preset,
            options=loaded.changed_options(),
            seed=None,
            bot_seed=secrets.randbits(63),
            host_hash=host_hash,
            status="open",
            created=time.time(),
            seats=[SeatRow(s, "open", "") for s in range(loaded.num_players)],
            undo=undo,
            rated=rated,
            clock=clock,
        )
        self.runner.call(lambda: self.store.create_table(row))
        table = self._table(Taken(row, self.runner.call(lambda: self.store.claim(row.id))))
        table.owner = owner
        self.tables[row.id] = table
        return table, host

    def listing(self) -> list[dict[str, Any]]:
        """The lobby: the last 100 open or playing tables, but not a game in progress that nobody
        has been at (no player, no spectator) for :data:`ABANDONED` seconds: abandoned, it is no
        game to watch or join (its link still works, and it is listed again once someone is back). A table whose summary
        cannot be sent (whatever its row holds) is left out and marked broken; the rest is listed."""
        now = time.monotonic()
        out: list[dict[str, Any]] = []
        for t in reversed(list(self.tables.values())):  # the newest first: at most 100 summaries are made
            if len(out) == 100:
                break
            if t.row.status not in ("open", "playing") or (
                    t.row.status == "playing" and t.idle_since(now) >= min(self.keep, ABANDONED)):
                continue
            try:
                entry = t.public()
                dumps(entry)
            except Exception as exc:
                self.tables.pop(t.id).release()
                self._mark_broken(t.id, f"{type(exc).__name__}: {exc}")
                continue
            out.append(entry)
        return out[::-1]

    def close_all(self) -> None:
        """Every socket closed (the server stops), every table's timers and tasks forgotten."""
        for table in self.tables.values():
            table.close_all()
            table.release()
        self.runner.close()
