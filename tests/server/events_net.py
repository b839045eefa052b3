"""What the tests of events on a real ``cardtable serve`` share (tests/server/test_events_net.py,
tests/web/test_events_pages.py): the server, each person at an address of their own (behind
the proxy the server trusts: new accounts are limited per address), and a person's session."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from .netserver import Server


@pytest.fixture(name="served")
def served_fixture(tmp_path: Path) -> Iterator[Server]:
    srv = Server(tmp_path / "server.sqlite3", "--forwarded-allow-ips", "127.0.0.1").start(timeout=60)
    yield srv
    srv.stop()


class Person:
    """A scripted person: an account and its session in an httpx client of its own."""

    def __init__(self, served: Server, name: str, address: str) -> None:
        self.http = httpx.Client(base_url=served.http, headers={"Origin": served.http, "X-Forwarded-For": address},
                                 timeout=30)
        r = self.http.post("/api/players/signup", json={"username": name, "password": "correct horse"})
        assert r.status_code == 201, r.text
        self.csrf = r.json()["csrf"]
        self.name = name

    def post(self, path: str, body: Any) -> Any:
        return self.http.post(path, json=body, headers={"X-CSRF-Token": self.csrf})
