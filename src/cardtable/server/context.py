"""What the routes of one app share: the hub of tables, the per-address limits and the settings."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .cluster import Cluster, RemoteTable
from .hub import Hub
from .limits import Limits
from .offload import Offload
from .players import Players
from .tables import Table


@dataclass(slots=True)
class AppContext:
    """One app's parts and settings (see :func:`cardtable.server.app.create_app` for each)."""

    hub: Hub
    limits: Limits
    """Per address, over every process of a cluster: open sockets, and buckets of new tables, of
    resumes with missed events and of undos."""
    offload: Offload
    allow: frozenset[str]
    """Origins allowed besides the page's own."""
    cluster: Cluster | None
    players: Players | None
    rate: float
    burst: float
    max_per_ip: int
    create_rate: float
    create_burst: float
    ready: bool = False
    """This process serves (its cluster joined): ``/api/health`` answers 200."""
    refused: Counter[str] = field(default_factory=Counter)
    """What the sockets of this process refused since it started, by code (a bad or unknown
    message, a rate limit, a socket closed by policy), shown by ``/api/health`` (P5)."""

    async def locate(self, table_id: Any) -> Table | RemoteTable:
        """The table ``table_id`` here or on its owner in a cluster; a 404 if there is none, a 410
        if it was closed without play."""
        return await self.hub.located(table_id)
