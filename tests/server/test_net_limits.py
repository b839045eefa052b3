"""Per-address limits over a real uvicorn that strangers cannot spoof (P11)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import websockets

from .netserver import Server

HONEST = "127.0.0.2"  # another loopback address: the honest visitor is not the attacker


def spoofed(i: int) -> dict[str, str]:
    return {"x-forwarded-for": f"10.{i // 65536 % 256}.{i // 256 % 256}.{i % 256}", "x-real-ip": f"10.9.9.{i % 256}"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("limits") / "s.sqlite3", "--max-open-tables", "10",
                 "--max-per-ip", "20").start()
    yield srv
    srv.stop()


def test_p11_forwarded_for_from_anyone_does_not_lift_the_table_caps(server: Server):
    """A spoofed X-Forwarded-For per request: every table counts against the one real address,
    and an honest visitor (another address) still creates a table during the flood."""
    with httpx.Client(base_url=server.http, timeout=5.0) as attacker:
        codes = [attacker.post("/api/tables", json={"game": "trash"}, headers=spoofed(i)).status_code
                 for i in range(60)]
    assert codes[:10] == [201] * 10 and set(codes[10:]) == {429}
    honest = httpx.Client(base_url=server.http, timeout=5.0, transport=httpx.HTTPTransport(local_address=HONEST))
    with honest:
        r = honest.post("/api/tables", json={"game": "trash"})
        assert r.status_code == 201, r.text
        assert honest.get("/api/tables").status_code == 200


def test_p11_forwarded_for_from_anyone_does_not_lift_the_socket_cap(server: Server):
    with httpx.Client(base_url=server.http, transport=httpx.HTTPTransport(local_address="127.0.0.3")) as other:
        table_id = other.post("/api/tables", json={"game": "trash"}).json()["table"]["id"]

    async def main() -> int:
        opened = []
        refused = 0
        for i in range(40):
            try:
                ws = await websockets.connect(f"{server.ws}/ws/{table_id}", additional_headers=spoofed(i),
                                              open_timeout=5)
            except websockets.InvalidStatus:
                refused += 1
                continue
            opened.append(ws)
        for ws in opened:
            await ws.close()
        assert len(opened) == 20
        return refused

    assert asyncio.run(main()) == 20


def test_p11_forwarded_for_is_trusted_from_a_configured_proxy(tmp_path: Path):
    srv = Server(tmp_path / "s.sqlite3", "--max-open-tables", "3", "--forwarded-allow-ips", "127.0.0.1").start()
    try:
        with httpx.Client(base_url=srv.http, timeout=5.0) as proxy:
            codes = [proxy.post("/api/tables", json={"game": "trash"}, headers=spoofed(i)).status_code
                     for i in range(8)]
            assert codes == [201] * 8  # eight visitors behind the proxy, one table each
            same = [proxy.post("/api/tables", json={"game": "trash"}, headers=spoofed(99)).status_code
                    for _ in range(4)]
            assert same == [201] * 3 + [429]
    finally:
        srv.stop()
