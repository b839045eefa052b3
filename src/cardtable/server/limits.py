"""Per-address limits (P8, P11): token buckets and the open sockets of one address.

:class:`Limits` keeps them in this process. A cluster's nodes share them through Redis
(:class:`~.cluster.ClusterLimits`), so an address cannot multiply a limit by the number of server
processes it spreads its requests over.
"""

from __future__ import annotations

from .protocol import TokenBucket

KEPT = 10_000
"""Addresses whose buckets are kept per kind; past that they all start afresh."""


class Limits:
    """The limits of one server process."""

    def __init__(self) -> None:
        self.buckets: dict[str, dict[str, TokenBucket]] = {}
        self.sockets: dict[str, int] = {}

    async def take(self, kind: str, ip: str, rate: float, burst: float) -> bool:
        """One of ``ip``'s tokens of ``kind`` (``rate`` a second, ``burst`` at once)."""
        buckets = self.buckets.setdefault(kind, {})
        bucket = buckets.get(ip)
        if bucket is None:
            if len(buckets) > KEPT:
                buckets.clear()
            bucket = buckets[ip] = TokenBucket(rate, burst)
        return bucket.take()

    async def open_socket(self, ip: str, cap: int) -> bool:
        """``ip`` opens a socket if it holds fewer than ``cap`` (then it counts)."""
        if self.sockets.get(ip, 0) + await self.elsewhere(f"sock:{ip}") >= cap:
            return False
        self.sockets[ip] = self.sockets.get(ip, 0) + 1
        await self.counted(f"sock:{ip}", 1)
        return True

    async def close_socket(self, ip: str) -> None:
        self.uncount_socket(ip)
        await self.counted(f"sock:{ip}", -1)

    def uncount_socket(self, ip: str) -> None:
        """One socket fewer of ``ip`` in this process's count."""
        self.sockets[ip] -= 1
        if not self.sockets[ip]:
            del self.sockets[ip]

    async def elsewhere(self, field: str) -> int:
        """How many of ``field`` (``sock:IP``, ``open:IP``, ``host:DIGEST``) other processes hold."""
        return 0

    async def counted(self, field: str, delta: int) -> None:
        """This process's count of ``field`` changed by ``delta`` (told to the others)."""
