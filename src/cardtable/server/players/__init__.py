"""Players: accounts, sessions, results, ratings and leaderboards (docs/play-online.md).

The server builds one :class:`Players` over a database file and mounts :func:`player_routes`;
the rest is called from the lobby and the tables (the list is in docs/play-online.md).
"""

from __future__ import annotations

from .accounts import Account, Accounts
from .ratings import PROVISIONAL_GAMES, result_ranks
from .routes import player_routes
from .service import Players
from .sessions import session_cookie
from .store import AccountStore, AccountStoreError

__all__ = ["PROVISIONAL_GAMES", "Account", "AccountStore", "AccountStoreError", "Accounts", "Players", "player_routes",
           "result_ranks", "session_cookie"]
