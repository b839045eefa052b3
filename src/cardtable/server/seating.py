"""A table's seats: who sits where, the host's and the seats' tokens, leaving and freeing."""

from __future__ import annotations

import hmac
from typing import TYPE_CHECKING, Any

from ..bots import bot_names, make_bot
from .botplay import realtime_bot, stand_in
from .fairplay import check_hex
from .lobby import LobbyError, clean_name, distinct_name, new_token
from .protocol import CLOSE_FREED, CLOSE_LEFT
from .store import SeatRow, token_hash

if TYPE_CHECKING:
    from .tables import Table


class Seating:
    """The seat rows of one table (:attr:`Table.row.seats`) and the tokens that hold them.
    Tokens are kept as digests and compared in constant time (A8)."""

    def __init__(self, table: Table) -> None:
        self.t = table

    def seat_for_token(self, token: str) -> int | None:
        """The seat a token holds, compared in constant time; ``None`` if it holds none."""
        digest = token_hash(token)
        found = None
        for s in self.t.row.seats:
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, digest):
                found = s.seat
        return found

    def is_host(self, token: Any) -> bool:
        return isinstance(token, str) and hmac.compare_digest(self.t.row.host_hash, token_hash(token))

    def seat(self, seat: Any) -> SeatRow:
        t = self.t
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < t.num_players:
            raise LobbyError(400, "bad_seat", f"seats are 0 to {t.num_players - 1}")
        return t.row.seats[seat]

    def _open_seat(self, seat: Any) -> SeatRow:
        if self.t.row.status != "open":
            raise LobbyError(409, "started", "the game has started")
        s = self.seat(seat)
        if s.kind != "open":
            raise LobbyError(409, "taken", f"seat {s.seat} is taken")
        return s

    def sit(self, seat: Any, name: Any, commitment: Any = None) -> str:
        """A person takes an open seat; ``commitment``: SHA-256 (hex) of the seed their page made
        for the fair deal (``None``: the server makes the seat's seed). Their token."""
        s = self._open_seat(seat)
        promised = None if commitment is None else check_hex(commitment, "commitment")
        token = new_token()
        others = [o.name for o in self.t.row.seats if o.seat != s.seat and o.kind != "open"]
        shown = distinct_name(clean_name(name, f"Player {s.seat + 1}"), others, s.seat)
        self._write(s, "human", shown, token_hash(token))
        self.t.fairplay.sat(s.seat, promised)
        self.t.joined = True
        self.t.fanout.broadcast_table()
        return token

    def add_bot(self, seat: Any, bot: Any) -> None:
        t = self.t
        s = self._open_seat(seat)
        if not isinstance(bot, str) or bot not in bot_names(t.row.game):
            raise LobbyError(400, "bad_bot", "bots: " + ", ".join(bot_names(t.row.game)))
        self._write(s, "bot", bot, None)
        t.fairplay.bot(s.seat)
        t.fanout.broadcast_table()

    def free(self, seat: Any) -> None:
        """Before the start, the host opens a seat again (a bot's or a person's, whose token dies)."""
        if self.t.row.status != "open":
            raise LobbyError(409, "started", "the game has started")
        s = self.seat(seat)
        self._vacate(s, "open", "", CLOSE_FREED, "the host opened this seat")

    def leave(self, token: Any) -> int:
        """The person holding ``token`` leaves their seat, whose token dies (A4): before the
        start the seat is open again; during the game a stand-in bot plays it to the end."""
        t = self.t
        seat = self.seat_for_token(token) if isinstance(token, str) and token else None
        if seat is None:
            raise LobbyError(403, "bad_token", "no seat of this table holds that token")
        if t.row.status == "over":
            raise LobbyError(409, "over", "the game is over")
        s = t.row.seats[seat]
        if t.row.status == "open":
            self._vacate(s, "open", "", CLOSE_LEFT, "you left this seat")
            return seat
        name = stand_in(t.row.game)
        self._vacate(s, "bot", name, CLOSE_LEFT, "you left this seat; a bot plays it now")
        t.presence.away.pop(seat, None)
        t.bots.standins.pop(seat, None)
        t.bots.stand_down_realtime(seat)
        assert t.match is not None
        if t.rt is not None:
            t.rt.add_bot(seat, realtime_bot(t.row.game, name))  # queued actions and timers stand
            t.presence.update_pause()  # nobody waits for a seat a bot now plays
        else:
            t.match.add_bot(seat, make_bot(t.row.game, name), t.row.bot_seed)
        t.bots.kick()
        return seat

    def _write(self, s: SeatRow, kind: str, name: str, digest: str | None) -> None:
        """The seat's new holder, stored first: a write that fails changes nothing."""
        self.t.store.set_seat(self.t.id, SeatRow(s.seat, kind, name, digest))
        s.kind, s.name, s.token_hash = kind, name, digest

    def _vacate(self, s: SeatRow, kind: str, name: str, code: int, reason: str) -> None:
        t = self.t
        self._write(s, kind, name, None)
        if t.row.status == "open":
            t.fairplay.vacated(s.seat)
        t.buckets.pop(s.seat, None)
        conn = t.players.pop(s.seat, None)
        if conn is not None:
            conn.seat = None
            conn.close_soon(code, reason)
        t.fanout.broadcast_table()
