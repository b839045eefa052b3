"""``cardtable serve``: the browser server (found by the CLI through ``EXTRA_COMMANDS``)."""

from __future__ import annotations

import argparse
import sys

from ..core.errors import ConfigError

MISSING = "the web server needs its extra: pip install 'cardtable[web]'"


def add_commands(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    serve = sub.add_parser("serve", help="play in the browser: run the web server")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    serve.add_argument("--db", default=None,
                       help="database URL sqlite:///path (default: the user's data directory)")
    serve.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                       help="an extra browser origin allowed to connect (exact match; repeatable)")
    serve.add_argument("--bot-delay", type=float, default=0.6, help="seconds a bot waits before it moves")
    serve.add_argument("--rate", type=float, default=20.0, help="messages a second per connection (default 20)")
    serve.add_argument("--burst", type=float, default=40.0, help="burst of messages per connection (default 40)")
    serve.add_argument("--create-rate", type=float, default=0.5,
                       help="new tables a second per address, after a burst of 30 (default 0.5)")
    serve.add_argument("--hold", type=float, default=60.0,
                       help="seconds a disconnected player's turn waits before a stand-in bot moves (0: never)")
    serve.add_argument("--countdown", type=float, default=3.0,
                       help="Spit stands still while a player is disconnected (up to --hold seconds) and goes on "
                            "this many seconds after everyone is back (default 3; 0: never stand still)")
    serve.add_argument("--keep", type=float, default=600.0,
                       help="seconds an open or finished table nobody is at stays in memory (default 600; "
                            "the database keeps it and it is loaded again when asked for)")
    serve.add_argument("--max-per-ip", type=int, default=20,
                       help="open WebSockets allowed from one address (default 20)")
    serve.add_argument("--sync", choices=("NORMAL", "FULL"), default="NORMAL",
                       help="SQLite synchronous: NORMAL survives a crash of the process, FULL a power cut too")
    serve.set_defaults(run=cmd_serve)


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        import starlette  # noqa: F401
        import uvicorn
    except ImportError:
        raise ConfigError(MISSING) from None
    if args.keep < 1:
        raise ConfigError("--keep is at least 1 second")
    from .app import create_app
    from .store import Store, db_path_from_url

    try:
        path = db_path_from_url(args.db)
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    store = Store(path, synchronous=args.sync)
    app = create_app(store, allow_origins=tuple(args.allow_origin), bot_delay=args.bot_delay,
                     rate=args.rate, burst=args.burst, max_per_ip=args.max_per_ip,
                     hold=args.hold or None, create_rate=args.create_rate, keep=args.keep,
                     countdown=args.countdown if args.countdown > 0 else None)
    print(f"cardtable: serving on http://{args.host}:{args.port}/ (database {path})", file=sys.stderr, flush=True)
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        ws_max_size=16384,
        ws_ping_interval=5.0,
        ws_ping_timeout=10.0,
        log_level="warning",
        access_log=False,  # no seat tokens travel in URLs, but keep the log quiet anyway
    )
    store.close()
    return 0
