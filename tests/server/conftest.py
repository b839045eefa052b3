"""Fixtures for the server tests: a fresh SQLite store and an in-process app."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install 'cardtable[web]'")

from starlette.testclient import TestClient

from cardtable.server.app import create_app
from cardtable.server.store import Store


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "server.sqlite3"


@pytest.fixture
def client(db_path: Path) -> Iterator[TestClient]:
    store = Store(db_path)
    app = create_app(store, bot_delay=0.0, allow_origins=("https://good.example",))
    with TestClient(app, base_url="http://testserver") as c:
        yield c
    store.close()


@pytest.fixture
def fast_client(db_path: Path) -> Iterator[TestClient]:
    """A client whose rate limit lets a scripted player move as fast as it can."""
    store = Store(db_path)
    app = create_app(store, bot_delay=0.0, rate=1e6, burst=1e6)
    with TestClient(app, base_url="http://testserver") as c:
        yield c
    store.close()
