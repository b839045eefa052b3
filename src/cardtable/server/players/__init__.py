"""Players: accounts, sessions, results, ratings and leaderboards (docs/play-online.md)."""

from __future__ import annotations

from .accounts import Account, Accounts
from .store import AccountStore, AccountStoreError

__all__ = ["Account", "AccountStore", "AccountStoreError", "Accounts"]
