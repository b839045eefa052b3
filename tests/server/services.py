"""Throwaway PostgreSQL and Redis servers for the tests that need the real engines.

Each test process (each xdist worker) starts its own, the first time a test asks for one: a
PostgreSQL cluster made by ``initdb`` in a fresh temporary folder and a Redis with its own folder,
each on a free port of 127.0.0.1 (its unix socket in that folder too), ready when a real
connection answers. They are stopped and their folders deleted when the session ends; a test
process that dies takes them with it (``setpriv --pdeathsig``), so none outlives its owner.

``scripts/install-services.sh`` (``make services``, which ``make test`` runs) installs Debian's
``postgresql`` and ``redis-server``; without them the tests that need them are skipped, and say why.

As root, PostgreSQL runs as the ``postgres`` system user the package creates (``initdb`` refuses
root), which owns the temporary folder.

Fixtures: ``postgres`` and ``redis`` (the servers, for a test that stops or restarts one: it is
started again for the next test), ``pg_url`` (a new empty database of its own per test) and
``redis_url`` (the server emptied for the test).
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from itertools import count
from pathlib import Path

import pytest

READY = 60.0
"""Seconds a server has to answer after it was started (generous: a loaded machine is slow)."""
INSTALL = "run scripts/install-services.sh as root (make services)"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _wait(what: str, ready: Callable[[], bool], proc: subprocess.Popen[bytes], log: Path) -> None:
    """Until ``ready()``; a :class:`RuntimeError` with the server's log if it ended or took too long."""
    deadline = time.monotonic() + READY
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} ended with {proc.returncode}: {_tail(log)}")
        if ready():
            return
        time.sleep(0.05)
    raise RuntimeError(f"{what} did not answer within {READY:.0f} s: {_tail(log)}")


def _tail(log: Path) -> str:
    try:
        return log.read_text(errors="replace")[-2000:]
    except OSError as exc:
        return f"(no log: {exc.strerror})"


def _owned_by_parent(user: pwd.struct_passwd | None) -> list[str]:
    """The command prefix that runs a server as ``user`` (``None``: as this process) and kills it
    with SIGKILL if this process dies first."""
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        if user is not None:
            return ["runuser", "-u", user.pw_name, "--"]
        return []
    prefix = [setpriv, "--pdeathsig", "KILL"]
    if user is not None:
        prefix += ["--reuid", str(user.pw_uid), "--regid", str(user.pw_gid), "--clear-groups"]
    return [*prefix, "--"]


class Server:
    """A server process of ours on a port of 127.0.0.1, in a temporary folder deleted at :meth:`close`."""

    name = ""

    def __init__(self, user: pwd.struct_passwd | None = None) -> None:
        self.user = user
        self.root = Path(tempfile.mkdtemp(prefix=f"cardtable-{self.name}-"))
        if user is not None:
            os.chown(self.root, user.pw_uid, user.pw_gid)
        self.log = self.root / "server.log"
        self.port = 0
        self.proc: subprocess.Popen[bytes] | None = None

    def command(self) -> list[str]:
        raise NotImplementedError

    def ready(self) -> bool:
        raise NotImplementedError

    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def start(self) -> None:
        """Start it (on a new free port the first time, on the same port after :meth:`stop`) and
        wait until it answers. A free port another process took meanwhile is tried again elsewhere."""
        if self.running():
            return
        again = bool(self.port)  # a restart keeps its port: the tests hold its URLs
        for attempt in range(1 if again else 3):
            if not again:
                self.port = free_port()
            with open(self.log, "ab") as log:
                self.proc = subprocess.Popen([*_owned_by_parent(self.user), *self.command()], stdout=log,
                                             stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
            try:
                _wait(f"{self.name} on port {self.port}", self.ready, self.proc, self.log)
                return
            except RuntimeError:
                self.stop()
                if attempt == 2 or "already in use" not in _tail(self.log):
                    raise

    def stop(self, sig: int = signal.SIGINT) -> None:
        """Stop it (``SIGINT``: PostgreSQL's fast shutdown, Redis's save-and-quit) and wait for its end."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout=READY)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=READY)
        self.proc = None

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.root, ignore_errors=True)


class Postgres(Server):
    name = "postgres"

    def __init__(self, bindir: Path) -> None:
        user = None
        if os.geteuid() == 0:
            try:
                user = pwd.getpwnam("postgres")
            except KeyError:
                pytest.skip("PostgreSQL refuses to run as root and there is no postgres user: " + INSTALL)
        super().__init__(user)
        self.bindir = bindir
        self.data = self.root / "data"
        self.sockets = self.root / "sockets"
        self.databases = count(1)
        for folder in (self.sockets,):
            folder.mkdir()
            if user is not None:
                os.chown(folder, user.pw_uid, user.pw_gid)
        made = subprocess.run([*_owned_by_parent(user), str(bindir / "initdb"), "-D", str(self.data), "-A", "trust",
                               "-U", "postgres", "-E", "UTF8", "--no-locale", "--no-sync"],
                              capture_output=True, text=True, timeout=300)
        if made.returncode != 0:
            raise RuntimeError(f"initdb failed: {made.stdout}{made.stderr}")

    def command(self) -> list[str]:
        # a throwaway cluster: no fsync (a crash of the machine loses it anyway), few connections
        return [str(self.bindir / "postgres"), "-D", str(self.data), "-p", str(self.port), "-k", str(self.sockets),
                "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "synchronous_commit=off",
                "-c", "full_page_writes=off", "-c", "max_connections=60", "-c", "shared_buffers=16MB"]

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def ready(self) -> bool:
        import psycopg

        try:
            with psycopg.connect(self.url(), connect_timeout=2) as conn:
                conn.execute("SELECT 1")
            return True
        except psycopg.Error:
            return False

    def admin(self, sql: str) -> None:
        import psycopg

        with psycopg.connect(self.url(), autocommit=True, connect_timeout=10) as conn:
            conn.execute(sql)  # type: ignore[arg-type]  # statements made here of our own names

    def new_database(self) -> str:
        """The URL of a new empty schema of its own (a schema rather than a database: made in a
        millisecond, where ``CREATE DATABASE`` copies a template); the log finds it by its
        ``search_path``, as an operator's would."""
        name = f"t{os.getpid()}_{next(self.databases)}"
        self.admin(f"CREATE SCHEMA {name}")
        return self.url() + f"?options=-csearch_path%3D{name}"

    def drop_database(self, url: str) -> None:
        """Drop the schema of ``url``, after ending every other session (one a test left open
        would hold its locks)."""
        name = url.rsplit("%3D", 1)[1]
        assert re.fullmatch(r"t\d+_\d+", name), name
        self.admin("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                   " WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()")
        self.admin(f"DROP SCHEMA {name} CASCADE")


class Redis(Server):
    name = "redis"

    def __init__(self, binary: str, durable: bool = True) -> None:
        super().__init__()
        self.binary = binary
        self.durable = durable

    def command(self) -> list[str]:
        # durable: every write appended to its file and flushed before the reply (a restart, even
        # after a SIGKILL, keeps what was acknowledged: "everysec" may postpone a write while the
        # disk is slow), no snapshots. Not durable: nothing written to disk, as docs/deploy.md runs
        # a cluster's Redis (what the nodes keep there, they write again after a restart)
        keep = ["--appendonly", "yes", "--appendfsync", "always"] if self.durable else ["--appendonly", "no"]
        return [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.root),
                "--unixsocket", str(self.root / "redis.sock"), "--save", "", *keep,
                "--protected-mode", "no", "--daemonize", "no", "--logfile", ""]

    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def call(self, *words: str) -> bytes:
        """One command, its raw reply (the first line of it)."""
        request = b"".join(b"$%d\r\n%s\r\n" % (len(w.encode()), w.encode()) for w in words)
        with socket.create_connection(("127.0.0.1", self.port), timeout=5) as s:
            s.sendall(b"*%d\r\n" % len(words) + request)
            return s.recv(4096)

    def ready(self) -> bool:
        """It answers, and its first append-only file is written (a write acknowledged while Redis
        still rewrites it at start could be lost to a SIGKILL then)."""
        try:
            if not self.call("PING").startswith(b"+PONG"):
                return False
            info = self.info("persistence")
        except OSError:
            return False
        return b"aof_rewrite_in_progress:0" in info and b"aof_rewrite_scheduled:0" in info and b"loading:0" in info

    def info(self, section: str) -> bytes:
        """``INFO section``, whole."""
        request = b"*2\r\n$4\r\nINFO\r\n$%d\r\n%s\r\n" % (len(section), section.encode())
        with socket.create_connection(("127.0.0.1", self.port), timeout=5) as s:
            s.sendall(request)
            head = s.recv(64)
            size = int(head[1:head.index(b"\r\n")])
            body = head[head.index(b"\r\n") + 2:]
            while len(body) < size:
                chunk = s.recv(65536)
                if not chunk:
                    break
                body += chunk
            return body


def postgres_bindir() -> Path | None:
    """The newest PostgreSQL's programs Debian installed, if any."""
    found = [Path(p) for p in glob.glob("/usr/lib/postgresql/*/bin") if os.access(Path(p) / "postgres", os.X_OK)]
    return max(found, key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0, default=None)


def redis_binary() -> str | None:
    found = shutil.which("redis-server")
    if found is None and os.access("/usr/bin/redis-server", os.X_OK):  # PATH without /usr/bin
        found = "/usr/bin/redis-server"
    return found


@contextlib.contextmanager
def _serving(server: Server) -> Iterator[Server]:
    try:
        server.start()
        yield server
    finally:
        server.close()


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    """This test process's PostgreSQL (superuser ``postgres``, no password, on 127.0.0.1)."""
    pytest.importorskip("psycopg", reason="the cluster extra is not installed (pip install -e '.[cluster]')")
    bindir = postgres_bindir()
    if bindir is None:
        pytest.skip(f"no PostgreSQL under /usr/lib/postgresql: {INSTALL}")
    with _serving(Postgres(bindir)) as server:
        assert isinstance(server, Postgres)
        yield server


@pytest.fixture
def pg_url(postgres: Postgres) -> Iterator[str]:
    """A new empty database for this test alone (dropped after it)."""
    postgres.start()  # again, if an earlier test stopped it
    url = postgres.new_database()
    yield url
    postgres.start()
    postgres.drop_database(url)


@pytest.fixture(scope="session")
def redis() -> Iterator[Redis]:
    """This test process's Redis (no password, appends every write to its file)."""
    binary = redis_binary()
    if binary is None:
        pytest.skip(f"no redis-server: {INSTALL}")
    with _serving(Redis(binary)) as server:
        assert isinstance(server, Redis)
        yield server


@pytest.fixture
def redis_url(redis: Redis) -> str:
    """The Redis URL, the server emptied for this test."""
    redis.start()
    assert redis.call("FLUSHALL").startswith(b"+OK")
    return redis.url()
