"""Events: tournaments on the server (docs/tournaments.md).

:mod:`.store` keeps events in the action log's database; :mod:`.service` creates them and
registers entrants; :mod:`.runner` runs them over the server's tables; :mod:`.routes` is their
HTTP API and pages. The pairing and scoring are :mod:`cardtable.tournaments`'.
"""

from __future__ import annotations

from .store import EntrantRow, EventLog, EventRow, PgEvents, SqliteEvents, open_events

__all__ = ["EntrantRow", "EventLog", "EventRow", "PgEvents", "SqliteEvents", "open_events"]
