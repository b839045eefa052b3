"""What the players tests share: cheap argon2 parameters, and the server's app with the players'
routes mounted as the server will mount them."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

from argon2 import PasswordHasher

from cardtable.server.app import create_app
from cardtable.server.events.routes import with_events
from cardtable.server.events.store import SqliteEvents
from cardtable.server.players import Players, player_routes
from cardtable.server.players.limits import Limits
from cardtable.server.store import Store

with warnings.catch_warnings():  # starlette's notice about httpx, not ours
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

CHEAP = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
"""argon2id at its smallest: the tests hash hundreds of times (the real parameters are checked once)."""
ORIGIN = "http://testserver"
JSON = {"Origin": ORIGIN}


def open_limits() -> Limits:
    """Limits no test reaches unless it means to."""
    wide = (1000.0, 1000.0)
    return Limits(login_address=wide, login_account=wide, signup_address=wide, account_address=wide)


def make_app(tmp: Path, *, limits: Limits | None = None, hasher: PasswordHasher = CHEAP, clock: Any = None,
             **routes: Any) -> tuple[Any, Store, Players]:
    """The lobby's app over a fresh store, with the players' routes over the same database file."""
    store = Store(tmp / "server.sqlite3")
    kwargs: dict[str, Any] = {"clock": clock} if clock is not None else {}
    players = Players(tmp / "server.sqlite3", log=store, hasher=hasher, limits=limits or open_limits(), **kwargs)
    app = create_app(store, bot_delay=0.0, allow_hosts=("testserver",))
    app.router.routes[0:0] = player_routes(players, **routes)
    with_events(app, players, SqliteEvents(tmp / "server.sqlite3"))  # as cardtable serve does with accounts
    return app, store, players


def client(app: Any, address: str = "testclient", base_url: str = "http://testserver") -> TestClient:
    return TestClient(app, base_url=base_url, client=(address, 50000))


def signup(c: TestClient, username: str, password: str = "correct horse", **extra: Any) -> Any:
    r = c.post("/api/players/signup", json={"username": username, "password": password, **extra}, headers=JSON)
    assert r.status_code == 201, r.text
    return r.json()


def login(c: TestClient, username: str, password: str = "correct horse") -> Any:
    return c.post("/api/players/login", json={"username": username, "password": password}, headers=JSON)
