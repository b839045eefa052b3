"""The players layer in one object: what the server calls (:class:`Players`)."""

from __future__ import annotations

import hashlib
import hmac
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from argon2 import PasswordHasher

from ...core.game import Outcome
from ..commands import RenameSeat
from ..lobby import LobbyError
from ..ports import LogError
from ..store import BadRow, SeatRow, token_hash
from .accounts import Account, Accounts
from .limits import Limits
from .ports import PlayerData
from .ratings import GAMES, Player, Rated, Ratings, grown, rating_json
from .sessions import Sessions
from .store import AccountStore, RatingRow, SeatLink

if TYPE_CHECKING:
    from ..cluster import RemoteTable
    from ..ports import ActionLog
    from ..tables import Table
    from .quickplay import QuickPlay, TicketBook

MEETING_GAMES = 3
"""Two accounts are flagged once they have met at :data:`MEETING_GAMES` or more rated tables,
finished within :data:`MEETING_DAYS`, playing from one address (the same address digest at both
seats). Three, because one shared game is a household or a café and two can be chance, while a
third within a month is the pattern of one person feeding another rating points; an operator
looks, the flag decides nothing by itself."""
MEETING_DAYS = 30.0

MAX_CLAIMS = 50
"""Seats one request may link to an account (a page keeps the tokens of its recent games)."""
PAGE = 50
"""Finished games and leaderboard rows per page."""
REVIEWED = ("trash", "trex")
"""The games the server reviews (``/api/tables/{id}/review``; Spit is a race)."""


class Players:
    """Accounts, sessions, results and ratings over one database ``path`` (the action log's
    file will do), or any other ``store`` of the :class:`~cardtable.server.players.ports.PlayerData`
    port. ``log``: the server's action log, read to check the seat tokens a new account
    brings and to rename a deleted account's seats. ``hasher``: argon2id parameters (the
    library's defaults unless given; the tests pass cheap ones). ``quick_wait``: seconds quick play
    waits for people before bots fill the empty seats, ``quick_book`` where its tickets are kept
    (:mod:`.quickplay`: this process's memory unless given)."""

    def __init__(self, path: Path | str | None, *, log: ActionLog | None = None, hasher: PasswordHasher | None = None,
                 limits: Limits | None = None, clock: Callable[[], float] = time.time,
                 store: PlayerData | None = None, quick_wait: float = 20.0,
                 quick_book: TicketBook | None = None) -> None:
        if store is None:
            if path is None:
                raise ValueError("Players needs a database path or a store")
            store = AccountStore(path)
        self.store: PlayerData = store
        self.log = log
        self.clock = clock
        self.accounts = Accounts(self.store, hasher)
        self.sessions = Sessions(self.store, clock)
        self.ratings = Ratings(self.store, self.accounts)
        self.limits = limits or Limits()
        self.quick_wait = quick_wait
        self.quick_book = quick_book
        self.quick: QuickPlay | None = None  # the quick play queues, once the routes are mounted on a hub
        self._address_key = hashlib.sha256(b"address:" + self.store.secret()).digest()

    def close(self) -> None:
        self.store.close()

    def sweep(self) -> int:
        """Forget the sessions that have expired (the server's sweeper may call it now and then;
        an expired session is refused whether or not it was swept). How many went."""
        return self.store.drop_expired(self.clock())

    def address_digest(self, address: str) -> str:
        """What is kept of an address: keyed (a copy of the database alone does not give the
        addresses back by trying all four billion), comparable for the meeting flag."""
        return hmac.new(self._address_key, address.encode("utf-8", "surrogatepass"), hashlib.sha256).hexdigest()

    # ------------------------------------------------------------- seats
    def account_for(self, session_id: str | None) -> Account | None:
        """The account a session cookie's value belongs to, if the session is live."""
        account_id = self.sessions.account_id(session_id)
        return None if account_id is None else self.accounts.get(account_id)

    def link_seat(self, account_id: int, table_id: str, seat: int, *, token: str | None = None,
                  address: str | None = None) -> bool:
        """``account_id`` sits at ``seat`` of ``table_id`` (call it when a logged-in person sits:
        ``token`` is the seat token the sit gave, ``address`` theirs, kept as a digest for the
        meeting flag). A seat keeps its first link unless linked again with another token."""
        digest = None if address is None else self.address_digest(address)
        return self.store.link_seat(table_id, seat, account_id, digest, None if token is None else token_hash(token))

    def unlink_seat(self, table_id: str, seat: int) -> None:
        """The seat's holder left it before the start, or the host freed it: nobody's any more."""
        self.store.drop_link(table_id, seat)

    def seat_accounts(self, table_id: str, seats: int) -> list[int | None]:
        """Each seat's account (``None``: nobody's), for :meth:`record_result`."""
        links = self.store.seat_links(table_id)
        return [links[s].account_id if s in links else None for s in range(seats)]

    def seat_players(self, table_id: str, seats: Sequence[SeatRow]) -> list[Player]:
        """Who held each of a finished table's ``seats`` (its :class:`SeatRow` list), for
        :meth:`record_result`: the account linked to the seat (a person who left keeps the link,
        so the stand-in bot that finished for them is not rated in their place; a link made with
        another token than the seat's is not the seat's holder's), else a bot's level, else
        ``None``."""
        links = self.store.seat_links(table_id)
        out: list[Player] = []
        for s in seats:
            link = links.get(s.seat)
            if link is not None and link.token and s.token_hash and link.token != s.token_hash:
                link = None  # linked by someone who left before the start; another person holds it now
            if link is not None and link.account_id is not None:
                out.append(link.account_id)
            else:
                out.append(s.name if s.kind == "bot" and link is None else None)
        return out

    @staticmethod
    def seat_claims(claims: Any) -> list[tuple[str, int, str]]:
        """``[{"table", "seat", "token"}]`` checked: (table id, seat, token) each, or
        :class:`LobbyError` ``bad_seats``."""
        if not isinstance(claims, list) or len(claims) > MAX_CLAIMS:
            raise LobbyError(400, "bad_seats", f"seats: a list of at most {MAX_CLAIMS} {{table, seat, token}}")
        out = []
        for claim in claims:
            if not isinstance(claim, dict) or set(claim) != {"table", "seat", "token"}:
                raise LobbyError(400, "bad_seats", "each seat is {table, seat, token}")
            table_id, seat, token = claim["table"], claim["seat"], claim["token"]
            if not (isinstance(table_id, str) and isinstance(token, str) and isinstance(seat, int)
                    and not isinstance(seat, bool) and len(table_id) <= 64 and len(token) <= 64):
                raise LobbyError(400, "bad_seats", "each seat is {table: text, seat: number, token: text}")
            out.append((table_id, seat, token))
        return out

    def claim_seats(self, account: Account, claims: list[tuple[str, int, str]],
                    address: str | None = None) -> list[dict[str, Any]]:
        """Link the seats whose tokens the page kept (from :meth:`seat_claims`) to ``account``:
        each one whose token's digest is the seat's in the action log. The ones linked."""
        if self.log is None:
            return []
        linked = []
        for table_id, seat, token in claims:
            try:
                row = self.log.table(table_id)
            except (LogError, BadRow):  # an unreadable or unreachable table links nothing
                continue
            if row is None or not 0 <= seat < len(row.seats):
                continue
            held = row.seats[seat].token_hash
            if row.seats[seat].kind != "human" or held is None:
                continue
            if hmac.compare_digest(held, token_hash(token)) and self.link_seat(account.id, table_id, seat,
                                                                                   token=token, address=address):
                linked.append({"table": table_id, "seat": seat})
        return linked

    # ------------------------------------------------------------- results
    def record_result(self, table_id: str, game: str, seat_accounts: Sequence[Player], outcome: Outcome,
                      abandoned_seats: Sequence[int] = (), *, rated: bool = True, view: Any = None) -> Rated:
        """See :meth:`cardtable.server.players.ratings.Ratings.record_result` (idempotent per table)."""
        return self.ratings.record_result(table_id, game, seat_accounts, outcome, abandoned_seats, rated=rated,
                                          view=view, finished=self.clock())

    def record_table(self, table: Table, rated: bool | None = None) -> Rated | None:
        """A finished table's result, rated if the table is (``rated``: as its event says): who held each seat
        (:meth:`seat_players`), and the seats abandoned, ranked last: a person who left the game
        in progress or whose clock ran out too often (the table's :attr:`~..state.TableState.left`,
        and any seat a bot holds now whose moves a person made: the log tells that after a restart
        too), and an account's seat a stand-in finished. The stand-in bot of a person who left is not
        rated in their place. ``None`` if the game is not over."""
        match = table.match
        outcome = None if match is None else match.state.outcome()
        if match is None or outcome is None:
            return None
        seats = table.row.seats
        left = table.left_seats()
        held = [None if s.seat in left and not isinstance(who, int) else who
                for s, who in zip(seats, self.seat_players(table.id, seats), strict=True)]
        abandoned = sorted(left | {s.seat for s in seats if s.kind == "bot" and isinstance(held[s.seat], int)})
        return self.record_result(table.id, table.row.game, held, outcome, abandoned,
                                  rated=table.row.rated if rated is None else rated, view=match.state.view(None))

    # ------------------------------------------------------------- accounts
    async def delete(self, account: Account, password: Any,
                     live: Callable[[str], Awaitable[Table | RemoteTable | None]] | None = None,
                     renamed: Callable[[str], None] | None = None) -> list[SeatLink]:
        """Delete ``account`` (its password asked again). Its games stay: each seat's link and, in
        the action log, the seat's shown name become one anonymous label. ``live``: the table of
        an id that a process holds and writes now (this one's, or on a cluster the owner's, whose
        commands go there), if any: its seat is renamed by a command to its actor (so its pages see
        the new name at once, and nothing writes the table beside its actor); the others' rows are
        renamed in the log, and ``renamed`` is told (a cluster's nodes then forget the copies of
        the finished table they read before)."""
        links = await self.accounts.delete(account, password)
        for link in links:
            table = None if live is None else await live(link.table_id)
            if table is not None:
                try:
                    await table.ask(RenameSeat(link.seat, link.label or ""))
                    continue
                except Exception:  # the table could not store it now: the log's row is renamed below
                    pass
            if self.log is None:
                continue
            try:
                row = self.log.table(link.table_id)
                if row is not None and link.seat < len(row.seats) and row.seats[link.seat].kind == "human":
                    s = row.seats[link.seat]
                    self.log.set_seat(link.table_id, SeatRow(s.seat, s.kind, link.label or "", s.token_hash))
                    if renamed is not None:
                        renamed(link.table_id)
            except (LogError, BadRow):  # the link is anonymous already; the shown name stays as it was
                continue
        return links

    def flags(self, account_id: int) -> list[dict[str, Any]]:
        """The accounts ``account_id`` met too often from one address (:data:`MEETING_GAMES`)."""
        since = self.clock() - MEETING_DAYS * 86400.0
        out = []
        for other, games in self.store.meetings(account_id, since):
            if games >= MEETING_GAMES:
                who = self.accounts.get(other)
                out.append({"username": who.username if who else None, "games": games, "days": MEETING_DAYS})
        return out

    # ------------------------------------------------------------- reading
    def profile(self, username: str, viewer: Account | None = None, page: int = 0) -> dict[str, Any]:
        """An account's games per game, ratings with their history, and its finished games
        (newest first, :data:`PAGE` a page; ``more``: a next page has some) with their replay
        links and, for the reviewed games, the replay page's link that opens its Review panel. The
        meeting flags only for an operator."""
        account = self.accounts.named(username)
        if account is None:
            raise LobbyError(404, "no_player", "no such player")
        played = self.store.played(account.id)
        now = self.clock()
        ratings = {r.game: grown(r, now) for r in self.store.ratings_of(account.id)}
        games = {}
        for game in sorted(set(played) | set(ratings)):
            count, won = played.get(game, (0, 0))
            games[game] = {"played": count, "won": won,
                           "rating": rating_json(ratings[game]) if game in ratings else None,
                           "history": [{"table": h.table_id, "at": h.at, "rating": round(h.mu - 3 * h.sigma, 2),
                                        "mu": round(h.mu, 3), "sigma": round(h.sigma, 3), "games": h.games}
                                       for h in self.store.history(account.id, game)]}
        results = []
        found = self.store.results_of(account.id, PAGE + 1, page * PAGE)  # one more: is there a next page?
        for result, seat in found[:PAGE]:
            results.append({
                "table": result.table_id, "game": result.game, "rated": result.rated, "finished": result.finished,
                "seat": seat, "rank": result.ranks[seat], "players": len(result.ranks),
                "abandoned": seat in result.abandoned,
                "replay": f"/t/{result.table_id}/replay?seat={seat}",
                "review": f"/t/{result.table_id}/replay?seat={seat}&review=1" if result.game in REVIEWED else None,
            })
        out: dict[str, Any] = {"account": account.public(), "games": games, "results": results, "page": page,
                               "more": len(found) > PAGE}
        if viewer is not None and viewer.operator:
            out["flags"] = self.flags(account.id)
        return out

    def rating(self, account_id: int, game: str) -> RatingRow | None:
        """``account_id``'s rating in ``game`` as it stands now (its sigma grown while idle);
        ``None`` before its first rated game of it."""
        return self.ratings.current(account_id, game, self.clock())

    def leaderboard(self, game: str, page: int = 0) -> dict[str, Any]:
        if game not in GAMES:
            raise LobbyError(404, "no_game", "rated games: " + ", ".join(GAMES))
        now = self.clock()
        rows = self.store.leaderboard(game, PAGE + 1, page * PAGE, now)  # one more: is there a next page?
        more, rows = len(rows) > PAGE, rows[:PAGE]
        return {"game": game, "page": page, "more": more, "rows": [
            {"place": page * PAGE + i + 1, "username": a.username, "kind": a.kind, **rating_json(grown(r, now))}
            for i, (a, r) in enumerate(rows)]}
