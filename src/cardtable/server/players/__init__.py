"""Players: accounts, sessions, results, ratings and leaderboards (docs/play-online.md)."""

from __future__ import annotations

from .accounts import Account, Accounts
from .ratings import PROVISIONAL_GAMES, result_ranks
from .service import Players
from .store import AccountStore, AccountStoreError

__all__ = ["PROVISIONAL_GAMES", "Account", "AccountStore", "AccountStoreError", "Accounts", "Players",
           "result_ranks"]
