"""The port the players layer stands on: :class:`PlayerData`, what any database behind it must do.

Its adapters are :class:`cardtable.server.players.store.AccountStore` (SQLite) and
:class:`cardtable.server.players.pgstore.PgAccountStore` (PostgreSQL). Every method is
one short read or one transaction, durable when it returns, and raises
:class:`~cardtable.server.players.store.AccountStoreError` (:class:`~cardtable.server.players.store.NameTaken`
for a name already held) and nothing else; secrets arrive already hashed or digested.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from .store import AccountRow, HistoryRow, RatingRow, ResultRow, SeatLink


class PlayerData(Protocol):
    def close(self) -> None: ...

    def secret(self) -> bytes:
        """A random key made once per database (keys the CSRF tokens and address digests)."""

    # accounts: ``kind`` "person" or "bot", ``folded`` the case-folded name, unique per kind
    def add_account(self, kind: str, username: str, folded: str, password: str | None) -> AccountRow: ...

    def account_named(self, kind: str, folded: str) -> AccountRow | None: ...

    def account(self, account_id: int) -> AccountRow | None: ...

    def set_password(self, account_id: int, password: str) -> None: ...

    def set_operator(self, account_id: int, operator: bool) -> None: ...

    def delete_account(self, account_id: int, label: str) -> list[SeatLink]:
        """The account, its sessions and ratings gone, its seats relabelled, in one transaction."""

    # sessions, by the digest of their id
    def add_session(self, digest: str, account_id: int, created: float, expires: float) -> None: ...

    def session(self, digest: str) -> tuple[int, float] | None: ...

    def drop_session(self, digest: str) -> None: ...

    def drop_expired(self, now: float) -> int: ...

    # who played which seat
    def link_seat(self, table_id: str, seat: int, account_id: int, address: str | None, token: str | None) -> bool:
        """Linked anew only when ``token`` (a digest) differs from the link's; else the first stays."""

    def drop_link(self, table_id: str, seat: int) -> None: ...

    def seat_links(self, table_id: str) -> dict[int, SeatLink]: ...

    # results and ratings
    def save_result(self, result: ResultRow, accounts: Sequence[int],
                    rate: Callable[[dict[int, RatingRow | None]], Sequence[RatingRow]]) -> bool:
        """The result and its rating changes in one transaction, ``accounts`` held meanwhile (their
        ratings read there are what ``rate`` works from); ``False`` if the table has one."""

    def result(self, table_id: str) -> ResultRow | None: ...

    def results_of(self, account_id: int, limit: int, offset: int) -> list[tuple[ResultRow, int]]: ...

    def played(self, account_id: int) -> dict[str, tuple[int, int]]: ...

    def rating(self, account_id: int, game: str) -> RatingRow | None: ...

    def ratings_of(self, account_id: int) -> list[RatingRow]: ...

    def history(self, account_id: int, game: str) -> list[HistoryRow]: ...

    def leaderboard(self, game: str, limit: int, offset: int, now: float) -> list[tuple[AccountRow, RatingRow]]:
        """By conservative rating at ``now``: mu − 3 × :func:`~cardtable.server.players.idle.idle_sigma`."""

    def meetings(self, account_id: int, since: float) -> list[tuple[int, int]]: ...
