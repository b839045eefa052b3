"""Fixtures for the page tests: the browser fixtures of tests/web/browser.py (shared with
tests/server/test_browser*.py) and an in-process app."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.browser import browser_fixture, server_fixture, watched_fixture  # noqa: F401  (fixtures)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[Any]:
    """An in-process app over a fresh store (as tests/server/conftest.py's ``client``)."""
    import warnings

    from cardtable.server.app import create_app
    from cardtable.server.store import Store

    with warnings.catch_warnings():  # starlette's notice about httpx, not ours
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    store = Store(tmp_path / "server.sqlite3")
    with TestClient(create_app(store, bot_delay=0.0, allow_hosts=("testserver",)), base_url="http://testserver") as c:
        yield c
    store.close()
