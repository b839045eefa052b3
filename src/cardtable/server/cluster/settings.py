"""A cluster's timings and bounds: how long a lease lasts, how often a node renews and looks,
how long it waits."""

from __future__ import annotations

LEASE_TTL = 0.6
"""Seconds a table's owner lease lasts unless renewed (renewed every :data:`RENEW_EVERY` seconds,
by a thread of its own: a node whose event loop is busy, taking tables over or serving a crowd,
still renews them; one whose loop stood still for :data:`LOOP_DEAD` seconds lets them run out)."""
LEAD_TTL = 3.0
"""Seconds a node's lead of a role (the events' runner, :meth:`~.node.Cluster.lead`) lasts
unless taken again: the role's loop takes it again every turn (the events' every half second), so
a node whose loop stands still this long, or that died, leaves the role to another."""
LOOP_DEAD = 3.0
"""Seconds without a heartbeat of the event loop after which the renewals stop: a node whose loop
is stuck serves nobody, and its tables go to the living nodes."""
LOBBY_EVERY = 1.0
"""Seconds between two writes of this node's part of the lobby (a summary of up to 100 tables: at
every :data:`SCAN_EVERY` it took a tenth of a busy node's event loop)."""
LOBBY_TTL = 3.0
"""Seconds a node's part of the lobby is kept in Redis unless written again."""
RENEW_EVERY = 0.15
"""Seconds between two renewals of a node's leases: four renewals a lease."""
LOOK_EVERY = 0.1
"""Seconds between two looks for live tables whose owner's lease ran out: a table whose owner died
goes on within about ``LEASE_TTL + LOOK_EVERY`` seconds and the time to read and replay it."""
REPLAY_SLICE = 0.15
"""Seconds of replay after which a take-over lets the event loop serve the other tables once. A
turn of a busy loop takes tens of milliseconds, so the slice sets how much of the loop the
take-over gets: a node already serving 150 tables replayed 75 more in 1.6 s with slices of 0.03 s
(replays of a few milliseconds each) and in 0.4 s with 0.15 s (docs/deploy.md, "Measured"); its own
tables wait at most one slice."""
ROUND_GRACE = 0.5
"""Seconds a node that took its share of a dead node's tables leaves the rest to the living nodes
that have not looked yet, before it takes them itself (:data:`~.lease_scripts.LOOK_SCRIPT`)."""
ROUND_TTL = 10.0
"""Seconds a round of sharing a dead node's tables is remembered (:data:`~.lease_scripts.LOOK_SCRIPT`)."""
SWEEP_EVERY = 2.0
"""Seconds between two looks at every live table's lease while every node lives (a lease can also
run out without its node dying: a table nobody took back after a Redis restart)."""
ANSWER_POLL = 0.1
"""Seconds between two looks at who owns the tables whose forwarded commands wait for an answer
(one look for them all, :meth:`~.node.Cluster.watch_owner`): when an owner died its sockets go after the
table's new owner at once, not after :data:`ASK_TIMEOUT`."""
SCAN_EVERY = 0.2
"""Seconds between two writes of this node's counts (its lobby: :data:`LOBBY_EVERY`)."""
ASK_TIMEOUT = 10.0
"""Seconds a node waits for the owner's answer to a forwarded command."""
REDIS_CONNECTIONS = 32
"""Redis connections the node's requests share (limits, forwarded frames, the lobby): a burst of
sockets opening at once waits for one rather than opening hundreds or failing."""
REDIS_WAIT = 10.0
"""Seconds a request waits for one of those connections before it fails."""
