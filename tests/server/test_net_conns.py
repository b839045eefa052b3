"""Slow and half-open connections cannot take the server's descriptors."""

from __future__ import annotations

import socket
import time
from pathlib import Path

import httpx

from .netserver import Server

HONEST = "127.0.0.2"


def _slow(port: int) -> socket.socket:
    """A connection that sends the start of a request's headers and then nothing."""
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    s.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
    return s


def _closed_by_server(s: socket.socket) -> bool:
    s.settimeout(0.01)
    try:
        return s.recv(1) == b""
    except TimeoutError:
        return False
    except OSError:
        return True


def _honest_answer(port: int) -> int:
    with httpx.Client(transport=httpx.HTTPTransport(local_address=HONEST), timeout=3.0) as honest:
        return honest.get(f"http://127.0.0.1:{port}/api/games").status_code


def test_p11_ld4_connections_per_address_are_capped_and_slow_headers_time_out(tmp_path: Path):
    server = Server(tmp_path / "s.sqlite3", "--max-conn-per-ip", "20", "--header-timeout", "1.5").start()
    try:
        slow = [_slow(server.port) for _ in range(60)]
        time.sleep(0.3)
        open_now = [s for s in slow if not _closed_by_server(s)]
        assert len(open_now) == 20  # the rest are closed at once
        assert _honest_answer(server.port) == 200  # another address is served meanwhile
        time.sleep(1.6)
        assert all(_closed_by_server(s) for s in open_now)  # no headers in time: closed
        for s in slow:
            s.close()
        assert server.get("/api/games")  # and the address may connect again
    finally:
        server.stop()


def test_ld4_slow_connections_cannot_exhaust_descriptors(tmp_path: Path):
    """Under a limit of 256 open files, 400 slow connections from one address leave the server
    answering everyone else."""
    server = Server(tmp_path / "s.sqlite3", files=256).start()
    slow: list[socket.socket] = []
    try:
        for _ in range(400):
            try:
                slow.append(_slow(server.port))
            except OSError:
                break
        time.sleep(0.3)
        assert _honest_answer(server.port) == 200
    finally:
        for s in slow:
            s.close()
        server.stop()
