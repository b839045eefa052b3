"""The ASGI app: the lobby's HTTP API, the game WebSocket and the static UI.

Build it with :func:`create_app`; ``cardtable serve`` runs it under uvicorn. The routes live by
concern: the lobby's in :mod:`.routes_lobby`, a table's in :mod:`.routes_table`, the game socket in
:mod:`.routes_socket`, the players' in :mod:`.players.routes`; the checks every request passes
(host, origin, body, security headers) in :mod:`.edge`.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import AsyncIterator

from starlette.applications import Starlette
from starlette.middleware import Middleware

from .botpool import BotPool
from .cluster import Cluster
from .collector import Collector
from .context import AppContext
from .edge import LOOPBACK_NAMES, HostGuard, SecurityHeaders
from .hub import Hub
from .limits import Limits
from .offload import Offload
from .players import Players
from .players.routes import player_routes
from .ports import LeasedLog
from .routes_lobby import lobby_routes
from .routes_socket import socket_routes
from .routes_table import table_routes
from .tables import Table
from .watchdog import Watchdog

__all__ = ["create_app"]


def create_app(
    store: LeasedLog,
    *,
    allow_origins: tuple[str, ...] = (),
    allow_hosts: tuple[str, ...] = (),
    bot_delay: float = 0.4,
    rate: float = 20.0,
    burst: float = 40.0,
    max_per_ip: int = 20,
    hold: float | None = 60.0,
    create_rate: float = 0.5,
    create_burst: float = 30.0,
    keep: float = 600.0,
    countdown: float | None = 3.0,
    close_store: bool = False,
    max_open_per_ip: int = 10,
    max_open_per_host: int = 5,
    unjoined: float = 120.0,
    bot_workers: int = 0,
    offload: Offload | None = None,
    cluster: Cluster | None = None,
    players: Players | None = None,
) -> Starlette:
    """The app over ``store``; live games are replayed from it at start-up.

    ``hold``: seconds a person may be away while it is their turn before a
    stand-in bot moves for them (``None``: never). ``keep``: seconds an open or
    finished table nobody is at stays in memory (the database keeps it).
    ``countdown``: a real-time game (Spit) stands still while a person's seat has
    no connection and goes on this many seconds after everyone is back (``None``:
    it never waits). ``max_open_per_ip``: open tables one address may hold;
    ``max_open_per_host``: open tables one host token may hold (a creator may send the token of
    an earlier table to host the new one with it too);
    ``unjoined``: seconds an open table nobody sat at or connected to stays (P11).
    ``allow_hosts``: names the server is reached by besides
    :data:`LOOPBACK_NAMES` (the ``Host`` header is checked against them).
    ``bot_workers``: processes turn-based bots think in, addresses taking turns (0: in this
    process, on the event loop). ``close_store``: the app closes the store when it shuts down (``cardtable serve``:
    the database is closed before the process exits, whatever signal ended it). ``offload``: where
    replays and reviews of finished games are worked out (default: one worker process, started
    when first needed). ``cluster``: this process is one node of a cluster (docs/deploy.md): the
    tables it owns are written here, the others' commands go to their owners. ``players``: accounts,
    sessions, results and ratings (docs/play-online.md): a seat taken while logged in is the
    account's, and every finished game's result is recorded."""
    pool = BotPool(bot_workers) if bot_workers > 0 else None
    offload = offload if offload is not None else Offload()
    hub = Hub(store, bot_delay=bot_delay, hold=hold, keep=keep, countdown=countdown,
              max_open_per_owner=max_open_per_ip,
              max_open_per_host=max_open_per_host, unjoined=unjoined, pool=pool, cluster=cluster,
              finished=None if players is None else (lambda table: record_result(players, table)))
    ctx = AppContext(hub=hub, limits=cluster.limits if cluster is not None else Limits(), offload=offload,
                     allow=frozenset(allow_origins), cluster=cluster, players=players, rate=rate, burst=burst,
                     max_per_ip=max_per_ip, create_rate=create_rate, create_burst=create_burst)
    names = frozenset(n.lower().strip("[]").rstrip(".") for n in (*LOOPBACK_NAMES, *allow_hosts))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if pool is not None:
            pool.warm()
        hub.resume_bots()
        if cluster is not None:
            await cluster.start(hub)
        ctx.ready = True

        async def sweeper() -> None:
            while True:
                await asyncio.sleep(min(60.0, max(0.05, min(keep, unjoined) / 4)))
                hub.sweep()
                if players is not None:
                    players.sweep()

        loop = asyncio.get_running_loop()
        tasks = [loop.create_task(sweeper()), loop.create_task(Collector().run()), loop.create_task(Watchdog().run())]
        yield
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        ctx.ready = False
        if cluster is not None:
            await cluster.stop()
        hub.close_all()
        offload.close()
        if players is not None:
            players.close()
        if pool is not None:
            pool.close()
        if close_store:
            store.close()
            print("cardtable: stopped; database closed", file=sys.stderr, flush=True)

    app = Starlette(
        routes=[
            *(player_routes(players, allow_origins=allow_origins, hub=hub) if players is not None else []),
            *lobby_routes(ctx),
            *table_routes(ctx),
            *socket_routes(ctx),
        ],
        lifespan=lifespan,
        middleware=[Middleware(SecurityHeaders), Middleware(HostGuard, names=names)],
    )
    app.state.hub = hub
    app.state.offload = offload
    app.state.sockets_per_ip = ctx.limits.sockets
    return app


def record_result(players: Players, table: Table) -> None:
    """A finished game's result (and, at a rated table, the ratings) in the players' records
    (:meth:`Players.record_table`)."""
    players.record_table(table)
