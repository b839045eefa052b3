"""Fixtures for the server tests: a fresh SQLite store and an in-process app."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from cardtable.server.app import create_app
from cardtable.server.store import Store

from .services import pg_url, postgres, redis, redis_url  # noqa: F401  (fixtures of the real engines)

if TYPE_CHECKING:
    from starlette.testclient import TestClient


def _client(store: Store, **kwargs: object) -> TestClient:
    with warnings.catch_warnings():  # starlette's notice about httpx, not ours
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    kwargs.setdefault("allow_hosts", ("testserver",))  # the test client's Host
    return TestClient(create_app(store, **kwargs), base_url="http://testserver")  # type: ignore[arg-type]


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "server.sqlite3"


@pytest.fixture
def client(db_path: Path) -> Iterator[TestClient]:
    store = Store(db_path)
    with _client(store, bot_delay=0.0, allow_origins=("https://good.example",)) as c:
        yield c
    store.close()


@pytest.fixture
def fast_client(db_path: Path) -> Iterator[TestClient]:
    """A client whose rate limit lets a scripted player move as fast as it can."""
    store = Store(db_path)
    with _client(store, bot_delay=0.0, rate=1e6, burst=1e6) as c:
        yield c
    store.close()
