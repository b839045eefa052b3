"""Slow and half-open connections cannot take the server's descriptors."""

from __future__ import annotations

import socket
import time
from collections.abc import Callable
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
    with httpx.Client(transport=httpx.HTTPTransport(local_address=HONEST), timeout=30.0) as honest:
        return honest.get(f"http://127.0.0.1:{port}/api/games").status_code


def _still_open(sockets: list[socket.socket]) -> list[socket.socket]:
    return [s for s in sockets if not _closed_by_server(s)]


def _until(condition: Callable[[], bool], seconds: float = 60.0) -> None:
    """Wait for ``condition``, however loaded the machine; fail after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the server did not get there in time"
        time.sleep(0.05)


def test_p11_ld4_connections_per_address_are_capped(tmp_path: Path):
    """Of 60 connections from one address that send no whole header, the server keeps 20 (the
    cap; their header deadline is far off) and closes the rest at once; another address is served."""
    server = Server(tmp_path / "s.sqlite3", "--max-conn-per-ip", "20", "--header-timeout", "300").start()
    slow: list[socket.socket] = []
    try:
        slow = [_slow(server.port) for _ in range(60)]
        _until(lambda: len(_still_open(slow)) <= 20)
        assert len(_still_open(slow)) == 20
        assert _honest_answer(server.port) == 200  # another address is served meanwhile
        for s in slow:
            s.close()
        assert server.get("/api/games")  # and the address may connect again
    finally:
        for s in slow:
            s.close()
        server.stop()


def test_p11_ld4_a_connection_without_its_headers_in_time_is_closed(tmp_path: Path):
    server = Server(tmp_path / "s.sqlite3", "--header-timeout", "1.5").start()
    try:
        started = time.monotonic()  # before the connection: the server's clock starts later
        slow = _slow(server.port)
        _until(lambda: _closed_by_server(slow))
        assert time.monotonic() - started >= 1.5  # not before its deadline
        slow.close()
        assert server.get("/api/games")
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


def test_ld4_a_request_body_that_does_not_come_in_time_is_answered_408(tmp_path: Path):
    """Once the headers are in, the body (at most 4 KiB) must come within BODY_TIMEOUT: a POST that
    sends one byte of its body and then nothing is answered 408 and its connection closed, so slow
    bodies from many addresses cannot hold the server's connections."""
    from cardtable.server.edge import BODY_TIMEOUT

    server = Server(tmp_path / "s.sqlite3").start()
    try:
        started = time.monotonic()
        s = socket.create_connection(("127.0.0.1", server.port), timeout=5)
        origin = f"http://127.0.0.1:{server.port}"
        s.sendall(f"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nOrigin: {origin}\r\n"
                  "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{".encode())
        answer = b""
        s.settimeout(BODY_TIMEOUT + 60.0)  # the deadline, and then as long as a loaded machine needs
        while not answer.endswith(b"}") and (chunk := s.recv(4096)):
            answer += chunk
        assert answer.startswith(b"HTTP/1.1 408") and b"slow_body" in answer, answer
        assert time.monotonic() - started >= BODY_TIMEOUT  # not before its deadline
        s.close()
        assert server.get("/api/games")
    finally:
        server.stop()
