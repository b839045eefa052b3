"""Rate limits keyed by an address or an account name, made of the server's own
:class:`~cardtable.server.protocol.TokenBucket` (the lobby's per-address limits are the same
buckets)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from ..protocol import TokenBucket

MAX_KEYS = 10_000
"""Keys kept per limit; past it the limit starts afresh (as the lobby's per-address buckets do),
so a flood of made-up keys cannot fill the memory."""


class KeyedLimit:
    """``rate`` a second with bursts of ``burst``, for each key on its own."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.buckets: dict[str, TokenBucket] = {}

    def take(self, key: str) -> bool:
        """One of ``key``'s tokens, if it has one left."""
        bucket = self.buckets.get(key)
        if bucket is None:
            if len(self.buckets) >= MAX_KEYS:
                self.buckets.clear()
            bucket = self.buckets[key] = TokenBucket(self.rate, self.burst, self.clock)
        return bucket.take()

    async def allow(self, key: str) -> bool:
        """:meth:`take`, as a request handler asks it (a cluster's shared limit goes to Redis)."""
        return self.take(key)


class SharedLimit(Protocol):
    """A keyed limit whose buckets several processes share (a cluster's, in Redis)."""

    async def allow(self, key: str) -> bool: ...


class Limits:
    """The players layer's limits (each ``(rate per second, burst)``), in this process's memory
    (a cluster's nodes share theirs: :func:`shared`):

    - ``login_address``: logins from one address, whatever the name: 10 at once, then one every
      6 seconds;
    - ``login_account``: logins naming one username, from anywhere, whether or not it exists (so a
      refusal tells nothing about which names exist): 5 at once, then one a minute;
    - ``signup_address``: accounts made from one address: 5 at once, then one every 5 minutes;
    - ``account_address``: other changes (logout, delete, linking seats) from one address: 20 at
      once, then one a second;
    - ``quick_address``: quick play joins from one address: 10 at once, then one every 3 seconds;
    - ``quick_account``: quick play joins of one account, from anywhere: 5 at once, then one every
      5 seconds.
    """

    def __init__(self, *, login_address: tuple[float, float] = (1 / 6, 10),
                 login_account: tuple[float, float] = (1 / 60, 5),
                 signup_address: tuple[float, float] = (1 / 300, 5),
                 account_address: tuple[float, float] = (1.0, 20),
                 quick_address: tuple[float, float] = (1 / 3, 10),
                 quick_account: tuple[float, float] = (1 / 5, 5),
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.login_address = KeyedLimit(*login_address, clock=clock)
        self.login_account = KeyedLimit(*login_account, clock=clock)
        self.signup_address = KeyedLimit(*signup_address, clock=clock)
        self.account_address = KeyedLimit(*account_address, clock=clock)
        self.quick_address = KeyedLimit(*quick_address, clock=clock)
        self.quick_account = KeyedLimit(*quick_account, clock=clock)


L = TypeVar("L", bound=Any)

KINDS = ("login_address", "login_account", "signup_address", "account_address", "quick_address", "quick_account")
"""The limits of :class:`Limits`, by attribute."""


def shared(limits: L, make: Callable[[str, float, float], SharedLimit], kinds: Sequence[str] = KINDS) -> L:
    """``limits`` with each of its ``kinds`` (its attributes: the players' :data:`KINDS`, or the
    events' :data:`~..events.service.LIMITS`) replaced by ``make(kind, rate, burst)``: the same
    rates, in buckets every node of a cluster shares, so that an address or a name gets no more
    tries from a cluster than from one process."""
    for kind in kinds:
        own = getattr(limits, kind)
        setattr(limits, kind, make(kind, own.rate, own.burst))
    return limits
