"""``cardtable serve``: the browser server (found by the CLI through ``EXTRA_COMMANDS``)."""

from __future__ import annotations

import argparse
import errno
import re
import socket
import sys
from typing import Any

from ..core.errors import ConfigError
from .ports import LogError

MISSING = "the web server needs its extra: pip install 'cardtable[web]'"


def port_number(text: str) -> int:
    """``--port``: a TCP port, 1 to 65535 (0: any free port, the one taken is announced)."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port: ports are 1 to 65535") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a port: ports are 1 to 65535")
    return port


def _figure(x: float) -> str:
    return f"{int(x):,}" if float(x).is_integer() else f"{x:g}"


def bounded(low: float, high: float, *, whole: bool = False, above: bool = False, unit: str = "") -> Any:
    """An argument type: a finite number from ``low`` (above it, if ``above``) to ``high``; a
    whole number if ``whole``; ``unit`` names what it counts ("seconds"). NaN, infinities and
    numbers out of range are refused in one line."""
    kind = ("a whole number" if whole else "a number") + (f" of {unit}" if unit else "")
    span = f"{'above' if above else 'from'} {_figure(low)} to {_figure(high)}"

    def parse(text: str) -> float | int:
        try:
            value: float | int = int(text) if whole else float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {kind} ({span})") from None
        if not (low < value if above else low <= value) or not value <= high:  # NaN fails both
            raise argparse.ArgumentTypeError(f"{text} is out of range: {kind} {span}")
        return value

    parse.__name__ = "whole number" if whole else "number"  # argparse names the type in its messages
    return parse


DAY = 86_400.0
LOTS = 1_000_000
def add_commands(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    serve = sub.add_parser("serve", help="play in the browser: run the web server")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=port_number, default=8000, help="port, 1 to 65535 (default 8000)")
    serve.add_argument("--db", default=None,
                       help="database: sqlite:///path (default: a file in the user's data directory) or "
                            "postgresql://user@host/db (the cluster extra; docs/deploy.md)")
    serve.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                       help="an extra browser origin allowed to connect (exact scheme, host and port; repeatable)")
    serve.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                       help="a name (or address) the server is reached by, besides the loopback names and "
                            "--host; the Host header is checked against them (DNS rebinding; repeatable)")
    serve.add_argument("--forwarded-allow-ips", default=None, metavar="IPS",
                       help="comma-separated proxy addresses whose X-Forwarded-For is trusted "
                            "(default: none; clients are known by their own address)")
    serve.add_argument("--bot-delay", type=bounded(0, 60), default=0.6, help="seconds a bot waits before it moves")
    serve.add_argument("--rate", type=bounded(0, LOTS, above=True), default=20.0,
                       help="messages a second per connection (default 20)")
    serve.add_argument("--burst", type=bounded(1, LOTS), default=40.0,
                       help="burst of messages per connection (default 40)")
    serve.add_argument("--create-rate", type=bounded(0, LOTS, above=True), default=0.5,
                       help="new tables a second per address, after a burst of 30 (default 0.5)")
    serve.add_argument("--hold", type=bounded(0, DAY), default=60.0,
                       help="seconds a disconnected player's turn waits before a stand-in bot moves (0: never)")
    serve.add_argument("--countdown", type=bounded(0, 600), default=3.0,
                       help="Spit stands still while a player is disconnected (up to --hold seconds) and goes on "
                            "this many seconds after everyone is back (default 3; 0: never stand still)")
    serve.add_argument("--keep", type=bounded(1, 30 * DAY), default=600.0,
                       help="seconds an open or finished table nobody is at stays in memory (default 600; "
                            "the database keeps it and it is loaded again when asked for)")
    serve.add_argument("--max-per-ip", type=bounded(1, LOTS, whole=True), default=20,
                       help="open WebSockets allowed from one address (default 20)")
    serve.add_argument("--max-open-tables", type=bounded(1, LOTS, whole=True), default=10,
                       help="open (not started) tables one address may hold (default 10)")
    serve.add_argument("--max-open-per-host", type=bounded(1, LOTS, whole=True), default=5,
                       help="open tables one host token may hold: a page hosts its tables with one token, "
                            "so people behind one address share its cap, not this one (default 5)")
    serve.add_argument("--unjoined", type=bounded(1, DAY), default=120.0,
                       help="seconds an open table nobody sat at or connected to stays listed (default 120)")
    serve.add_argument("--max-conn-per-ip", type=bounded(2, LOTS, whole=True), default=64,
                       help="open connections (HTTP and WebSocket) allowed from one address (default 64)")
    serve.add_argument("--header-timeout", type=bounded(0, 3600, above=True), default=10.0,
                       help="seconds a request's headers may take before its connection is closed (default 10)")
    serve.add_argument("--bot-workers", type=bounded(0, 1024, whole=True), default=None,
                       help="processes bots think in, each address's tables taking turns "
                            "(default: one per core; 0: on the server's event loop)")
    serve.add_argument("--sync", choices=("NORMAL", "FULL"), default="NORMAL",
                       help="SQLite synchronous: NORMAL survives a crash of the process, FULL a power cut too")
    serve.add_argument("--bus", default=None, metavar="URL",
                       help="redis://host:port/N: join a cluster of server processes sharing --db (docs/deploy.md)")
    serve.add_argument("--quick-wait", type=bounded(0, 3600), default=20.0, metavar="SECONDS",
                       help="seconds quick play waits for people before bots fill the empty seats (default 20)")
    serve.add_argument("--no-show", type=bounded(5, 3600, unit="seconds"), default=120.0, metavar="SECONDS",
                       help="seconds a tournament table waits for its people before the absent forfeit "
                            "(Swiss) or a stand-in plays for them (duplicate), 5 to 3600 (default 120)")
    serve.add_argument("--node", default=None, help="this process's name in a cluster (default: a random one)")
    serve.set_defaults(run=cmd_serve)


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port``, or a :class:`ConfigError` that says why not."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise ConfigError(f"--host {host}: not an address of this machine ({exc.strerror})") from None
    except UnicodeError:  # a name that cannot be one (a label over 63 characters, say)
        raise ConfigError(f"--host {host[:80]}: not a host name or an address") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(2048)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise ConfigError(f"port {port} on {host} is in use by another program: "
                              "stop it or choose another --port") from None
        if exc.errno == errno.EACCES:
            raise ConfigError(f"port {port} on {host} needs privileges: choose a --port above 1023") from None
        raise ConfigError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    return sock


def open_store(url: str | None, synchronous: str) -> Any:
    """The server's action log from ``--db`` (a SQLite file, or PostgreSQL: :func:`.store.open_log`);
    a :class:`ConfigError` naming the database when it is not one this server can use."""
    from .store import db_path_from_url, open_log

    try:
        where = url if url is not None and url.startswith(("postgresql://", "postgres://")) else db_path_from_url(url)
        return open_log(url, synchronous=synchronous)
    except ValueError as exc:
        raise ConfigError(f"--db: {exc}") from None
    except ImportError:
        raise ConfigError("--db postgresql:// needs the cluster extra: pip install 'cardtable[cluster]'") from None
    except LogError as exc:
        raise ConfigError(f"--db {where}: not a cardtable database, damaged or unreachable ({exc}); "
                          "move it away or name another") from None
    except OSError as exc:
        raise ConfigError(f"--db {where}: {exc.strerror}") from None


def described(store: Any) -> str:
    """The database in a line of the log (a PostgreSQL URL without its password)."""
    from .store import Store

    return f"database {store.path}" if isinstance(store, Store) else "PostgreSQL"


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        import starlette  # noqa: F401
        import uvicorn
    except ImportError:
        raise ConfigError(MISSING) from None
    from .app import create_app
    from .botpool import machine_workers
    from .guard import ConnectionGuard, guarded_http, raise_open_file_limit
    from .logs import quiet_client_noise

    store = open_store(args.db, args.sync)
    try:
        sock = bind(args.host, args.port)
    except ConfigError:
        store.close()
        raise
    hosts = (*args.allow_host, *((args.host,) if args.host not in ("0.0.0.0", "::", "") else ()))
    cluster = None
    if args.bus is not None:
        if not args.bus.startswith(("redis://", "rediss://", "unix://")):
            sock.close()
            store.close()
            raise ConfigError("--bus is a Redis URL: redis://host:port/N")
        try:
            from .cluster import Cluster
        except ImportError:
            sock.close()
            store.close()
            raise ConfigError("--bus needs the cluster extra: pip install 'cardtable[cluster]'") from None
        if args.node is not None and not re.fullmatch(r"[A-Za-z0-9_-]{1,32}", args.node):
            sock.close()
            store.close()
            raise ConfigError("--node is 1 to 32 letters, digits, - or _")
        cluster = Cluster(args.bus, node=args.node)
        try:
            cluster.preflight()
        except ConfigError:
            sock.close()
            store.close()
            raise
    players = None
    from .store import Store

    if isinstance(store, Store) and cluster is None:  # accounts on the same file
        from .players import Players

        players = Players(store.path, log=store, quick_wait=args.quick_wait)
    elif not isinstance(store, Store):  # PostgreSQL: accounts in the log's database, for every node
        from .players import AccountStoreError, Players
        from .players.pgstore import PgAccountStore

        limits = book = None
        if cluster is not None:  # the limits count over every node, and quick play seats from every node
            from .cluster.adapters import RedisTickets, SharedBucket
            from .players.limits import Limits, shared

            node_limits = cluster.limits
            limits = shared(Limits(), lambda kind, rate, burst: SharedBucket(node_limits, f"player-{kind}", rate,
                                                                             burst))
            book = RedisTickets(cluster)
        try:
            players = Players(None, store=PgAccountStore(store), log=store, quick_wait=args.quick_wait,
                              limits=limits, quick_book=book)
        except AccountStoreError as exc:
            sock.close()
            store.close()
            raise ConfigError(f"--db {described(store)}: the players' tables cannot be made ({exc})") from None
    try:
        app = create_app(store, allow_origins=tuple(args.allow_origin), allow_hosts=hosts,
                         bot_delay=args.bot_delay, rate=args.rate, burst=args.burst, max_per_ip=args.max_per_ip,
                         hold=args.hold or None, create_rate=args.create_rate, keep=args.keep,
                         countdown=args.countdown if args.countdown > 0 else None, close_store=True,
                         max_open_per_ip=args.max_open_tables,
                         max_open_per_host=args.max_open_per_host, unjoined=args.unjoined,
                         bot_workers=machine_workers() if args.bot_workers is None else args.bot_workers,
                         cluster=cluster, players=players)
        if players is not None:  # tournaments need accounts (docs/tournaments.md)
            from .events.routes import with_events
            from .events.store import PgEvents, SqliteEvents

            events = SqliteEvents(store.path) if isinstance(store, Store) else PgEvents(store.url)
            event_limits = None
            if cluster is not None:  # their limits count over every node, as the players' do
                from .cluster.adapters import SharedBucket
                from .events import service as event_service
                from .players.limits import shared

                node_limits = cluster.limits
                event_limits = shared(event_service.Limits(), lambda kind, rate, burst: SharedBucket(
                    node_limits, f"event-{kind}", rate, burst), event_service.LIMITS)
            with_events(app, players, events, allow_origins=tuple(args.allow_origin), no_show=args.no_show,
                        limits=event_limits)
    except LogError as exc:
        sock.close()
        store.close()
        raise ConfigError(f"--db {described(store)}: not a cardtable database or damaged ({exc})") from None
    port = sock.getsockname()[1]
    shown = f"[{args.host}]" if ":" in args.host else args.host
    node = "" if cluster is None else f", node {cluster.node} of the cluster on {args.bus}"
    print(f"cardtable: serving on http://{shown}:{port}/ ({described(store)}{node})", file=sys.stderr, flush=True)
    guard = ConnectionGuard(per_address=args.max_conn_per_ip, header_timeout=args.header_timeout)
    files = raise_open_file_limit()
    config = uvicorn.Config(
        app,
        http=guarded_http(guard),  # a cap per address and a deadline for headers: descriptors cannot run out
        timeout_keep_alive=5,
        limit_concurrency=max(64, files - 64),  # past that, 503 rather than no answer at all
        ws_max_size=16384,
        ws_ping_interval=5.0,
        ws_ping_timeout=10.0,
        log_level="warning",
        access_log=False,  # no seat tokens travel in URLs, but keep the log quiet anyway
        proxy_headers=args.forwarded_allow_ips is not None,  # X-Forwarded-For only from named proxies (P11)
        forwarded_allow_ips=args.forwarded_allow_ips or "",
    )
    quiet_client_noise()  # after uvicorn.Config has set its loggers up
    uvicorn.Server(config).run(sockets=[sock])
    return 0
