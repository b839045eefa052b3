"""A real ``cardtable serve`` (uvicorn) in a subprocess on 127.0.0.1, for the [net] tests."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``cardtable serve`` over a database file; :meth:`restart` keeps the file and the port."""

    def __init__(self, db: Path, *extra: str, port: int | None = None, files: int | None = None) -> None:
        self.files = files  # a limit of open files for the server process (soft and hard)
        self.db = db
        self.extra = extra
        self.port = port or free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = db.with_suffix(".log")
        # One client for every request to it: ``httpx.get`` makes a client, and with it an SSL
        # context, at each call (30 ms of CPU), and the cluster bench starts a node in a thread of
        # the process that measures the failover gaps while its loop reads 300 tables' frames. The
        # URLs are plain HTTP (nothing to verify), and no connection is kept between requests, so a
        # restarted server is never asked on a socket of the process before it.
        self.client = httpx.Client(verify=False, limits=httpx.Limits(max_keepalive_connections=0))

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60.0) -> Server:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        cmd = [sys.executable, "-m", "cardtable.cli.main", "serve", "--host", "127.0.0.1", "--port", str(self.port),
               "--db", f"sqlite:///{self.db}", "--bot-delay", "0", *self.extra]
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env,
                                         preexec_fn=self._limit if self.files else None)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log.read_text()[-2000:]}")
            try:
                if self.client.get(f"{self.http}/api/games", timeout=1.0).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        raise RuntimeError("the server did not start")

    def _limit(self) -> None:
        import resource

        assert self.files is not None
        resource.setrlimit(resource.RLIMIT_NOFILE, (self.files, self.files))

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 15.0) -> int:
        assert self.proc is not None
        self.proc.send_signal(sig)
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait()

    def restart(self, sig: int = signal.SIGTERM) -> Server:
        self.stop(sig)
        return self.start()

    def post(self, path: str, **body: object) -> dict:  # type: ignore[type-arg]
        r = self.client.post(f"{self.http}{path}", json=body, timeout=5.0)
        r.raise_for_status()
        return r.json()  # type: ignore[no-any-return]

    def get(self, path: str) -> dict:  # type: ignore[type-arg]
        r = self.client.get(f"{self.http}{path}", timeout=5.0)
        r.raise_for_status()
        return r.json()  # type: ignore[no-any-return]

    def seated(
        self, bots: dict[int, str], game: str = "trash", name: str = "Ada", **options: object
    ) -> tuple[str, str, str]:
        """An open table with seat 0 taken by ``name`` and ``bots``: (id, host token, seat 0's token)."""
        created = self.post("/api/tables", game=game, options=options)
        table_id, host = created["table"]["id"], created["host"]
        token = self.post(f"/api/tables/{table_id}/sit", seat=0, name=name)["token"]
        for seat, bot in bots.items():
            self.post(f"/api/tables/{table_id}/bot", host=host, seat=seat, bot=bot)
        return table_id, host, token

    def table(
        self, bots: dict[int, str], humans: tuple[int, ...] = (0,), game: str = "trash", **options: object
    ) -> tuple[str, dict[int, str]]:
        created = self.post("/api/tables", game=game, options=options)
        table_id, host = created["table"]["id"], created["host"]
        tokens = {s: self.post(f"/api/tables/{table_id}/sit", seat=s, name=f"P{s}")["token"] for s in humans}
        for seat, bot in bots.items():
            self.post(f"/api/tables/{table_id}/bot", host=host, seat=seat, bot=bot)
        self.post(f"/api/tables/{table_id}/start", host=host)
        return table_id, tokens
