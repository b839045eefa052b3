"""Many server processes, one lobby: Redis carries commands to a table's owner and frames back.

Each process of a cluster is a node (:attr:`Cluster.node`). A live table has exactly one owner
node, the one whose actor writes it: ownership is a Redis key per table (``ct:lease:{id}``, set
only if absent, expiring :data:`LEASE_TTL` seconds after the owner stops renewing it), and the
owner claims the table in the action log too (:meth:`~..ports.OwnerLease.claim`), so the log
refuses every write of a former owner that was paused or cut off (fencing: the lease decides who
may write, the log's epoch makes sure nobody else does).

Any node serves any socket and any lobby request. For a table another node owns, the commands go
to the owner (:class:`RemoteTable`, over the owner's Redis channel) and the owner's frames come back
to the node that holds the socket: a connection's id names its node (``{node}.{n}``), and the
:class:`ClusterBus` delivers to local connections itself and publishes the rest. The frames are
already filtered per reader by the owner (the one view filter stays in one place).

When an owner dies its leases expire; every node looks for live tables without an owner every
:data:`LOOK_EVERY` seconds (from a thread of its own, :class:`Looker`, as its leases are renewed
from another, :class:`LeaseRenewer`), claims its share of them, reads their logs in one call,
replays them and carries on (bots, timers, Spit's countdown), and tells every node. Their sockets
to that table follow it where they are (:meth:`RemoteTable.follow`): each attaches to the new owner
with the version it saw last and gets what it missed, without a new handshake; a command waiting
for the dead owner's answer is sent again to the new one when sending it twice cannot do it twice
(:data:`RESENT`). The sockets that were on the dead node itself reconnect (to any node) and resync
with ``since``. Frames in flight when Redis restarts are lost, never an acknowledged action (it is
in the log): a node that loses Redis closes its sockets to other nodes' tables with
``CLOSE_RESTART``, and the pages reconnect and resync.

The modules: :mod:`.node` (:class:`Cluster`, this process as a node of the cluster, whose id is
``Cluster.node``: its leases, take-overs, the lobby, routing), :mod:`.remote`
(:class:`RemoteTable`, a socket's table on another node), :mod:`.adapters` (the hub's bus and
limits over Redis, with the limits' Lua scripts), :mod:`.threads` (the lease renewer and the
looker beside the event loop), :mod:`.lease_scripts` (the leases' Lua scripts), :mod:`.settings`
(timings and bounds) and :mod:`.log_lines` (how a node's log lines give a time and an error).
"""

from .adapters import ClusterBus, ClusterLimits
from .log_lines import utc_stamp
from .node import Cluster
from .remote import FORWARDED, RESENT, OwnerGone, RemoteTable
from .settings import (
    ANSWER_POLL,
    ASK_TIMEOUT,
    LEAD_TTL,
    LEASE_TTL,
    LOBBY_EVERY,
    LOBBY_TTL,
    LOOK_EVERY,
    LOOP_DEAD,
    REDIS_CONNECTIONS,
    REDIS_WAIT,
    RENEW_EVERY,
    REPLAY_SLICE,
    ROUND_GRACE,
    ROUND_TTL,
    SCAN_EVERY,
    SWEEP_EVERY,
)
from .threads import BesideTheLoop, LeaseRenewer, Looker

__all__ = [
    "ANSWER_POLL", "ASK_TIMEOUT", "FORWARDED", "LEAD_TTL", "LEASE_TTL", "LOBBY_EVERY", "LOBBY_TTL", "LOOK_EVERY",
    "LOOP_DEAD", "REDIS_CONNECTIONS", "REDIS_WAIT", "RENEW_EVERY", "REPLAY_SLICE", "RESENT", "ROUND_GRACE",
    "ROUND_TTL", "SCAN_EVERY", "SWEEP_EVERY", "BesideTheLoop", "Cluster", "ClusterBus", "ClusterLimits", "LeaseRenewer",
    "Looker", "OwnerGone", "RemoteTable", "utc_stamp",
]
