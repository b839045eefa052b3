"""A server's app under uvicorn on a free port, in a thread of the test (the players' and
tournaments' browser tests, which reach into the app's parts while the page runs)."""

from __future__ import annotations

import threading
import time
from typing import Any

import httpx

from cardtable.server.players import Players
from cardtable.server.store import Store
from tests.server.netserver import free_port

START = 60.0
"""Seconds the server may take to start on a loaded machine."""


class Served:
    """``app`` served at :attr:`http` until :meth:`stop`, which also closes ``players`` and ``store``."""

    def __init__(self, app: Any, store: Store, players: Players) -> None:
        import uvicorn

        self.app, self.store, self.players = app, store, players
        self.port = free_port()
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + START
        while not self.server.started:
            assert time.monotonic() < deadline and self.thread.is_alive(), "the server did not start"
            time.sleep(0.05)
        self.http = f"http://127.0.0.1:{self.port}"

    def post(self, path: str, body: dict[str, Any]) -> Any:
        r = httpx.post(self.http + path, json=body, timeout=30)
        assert r.status_code < 300, r.text
        return r.json()

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(60)
        self.players.close()
        self.store.close()
