"""A client cannot fill the server's log (one short line, rate-limited)."""

from __future__ import annotations

import base64
import logging
import os
import socket
import struct
from pathlib import Path

from cardtable.server.logs import ClientNoise

from .netserver import Server


def _masked_text_frame(payload: bytes) -> bytes:
    key = os.urandom(4)
    head = bytes([0x81, 0x80 | len(payload)]) if len(payload) < 126 else bytes([0x81, 0xFE]) + struct.pack(
        ">H", len(payload))
    return head + key + bytes(c ^ key[i % 4] for i, c in enumerate(payload))


def _upgrade(port: int, table_id: str) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall((f"GET /ws/{table_id} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
               f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    assert b"101" in s.recv(4096).split(b"\r\n")[0]
    return s


def test_p1_malformed_frames_and_requests_log_one_line_each_rate_limited(tmp_path: Path):
    server = Server(tmp_path / "s.sqlite3").start()
    try:
        table_id = server.post("/api/tables", game="trash")["table"]["id"]
        before = server.log.stat().st_size
        for _ in range(200):  # text frames that are not UTF-8
            s = _upgrade(server.port, table_id)
            s.sendall(_masked_text_frame(b"\xff\xfe\xfd"))
            s.recv(64)  # the 1007 close
            s.close()
        for _ in range(200):  # requests that are not HTTP
            with socket.create_connection(("127.0.0.1", server.port), timeout=5) as s:
                s.sendall(b"\x16\x03\x01 not http at all\r\n\r\n")
                s.recv(64)
        assert server.get("/api/games")  # still answering
    finally:
        server.stop()
    log = server.log.read_text()[before:]
    assert "Traceback" not in log
    assert 0 < log.count("client mistake: Invalid UTF-8") <= 5
    assert 0 < log.count("client mistake: Invalid HTTP request") <= 5
    assert len(log) < 3000, log[:3000]


def test_p1_a_real_fault_keeps_its_traceback_and_the_count_of_left_out_lines_is_told():
    noise = ClientNoise(lines=2, window=0.0)
    fault = logging.LogRecord("uvicorn.error", logging.ERROR, __file__, 1, "Exception in ASGI application\n", (),
                              (ValueError, ValueError("x"), None))
    assert noise.filter(fault) and fault.exc_info is not None and fault.levelno == logging.ERROR
    noise = ClientNoise(lines=2, window=60.0)
    records = [logging.LogRecord("uvicorn.error", logging.ERROR, __file__, 1,
                                 "Invalid UTF-8 sequence received from client.", (), (ValueError, ValueError(), None))
               for _ in range(10)]
    kept = [r for r in records if noise.filter(r)]
    assert len(kept) == 2 and all(r.exc_info is None and r.levelno == logging.WARNING for r in kept)
