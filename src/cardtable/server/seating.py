"""A table's seats: who sits where, the host's and the seats' tokens, leaving and freeing."""

from __future__ import annotations

import hmac
from typing import Any

from ..bots import bot_names, make_bot
from . import botplay, fairplay, fanout, presence
from .fairplay import check_hex
from .lobby import LobbyError, clean_name, distinct_name, new_token
from .protocol import CLOSE_FREED, CLOSE_LEFT
from .state import TableState
from .store import SeatRow, TableRow, token_hash


def seat_for_token(row: TableRow, token: str) -> int | None:
    """The seat of ``row`` a token holds, compared in constant time (A8); ``None`` if it holds none."""
    digest = token_hash(token)
    found = None
    for seat in row.seats:
        if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, digest):
            found = seat.seat
    return found


def is_host(row: TableRow, token: Any) -> bool:
    return isinstance(token, str) and hmac.compare_digest(row.host_hash, token_hash(token))


def seat_row(s: TableState, seat: Any) -> SeatRow:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < s.num_players:
        raise LobbyError(400, "bad_seat", f"seats are 0 to {s.num_players - 1}")
    return s.row.seats[seat]


def _open_seat(s: TableState, seat: Any) -> SeatRow:
    if s.row.status != "open":
        raise LobbyError(409, "started", "the game has started")
    row = seat_row(s, seat)
    if row.kind != "open":
        raise LobbyError(409, "taken", f"seat {row.seat} is taken")
    return row


def sit(s: TableState, seat: Any, name: Any, commitment: Any = None, account: int | None = None) -> str:
    """A person takes an open seat; ``commitment``: SHA-256 (hex) of the seed their page made
    for the fair deal (``None``: the server makes the seat's seed); ``account``: theirs, if they
    are logged in, which holds one seat of a rated table at most (409 ``one_seat``: decided here,
    in the table's order of commands, so two sits sent at once cannot both pass). Their token."""
    row = _open_seat(s, seat)
    if account is not None and s.row.rated and account in s.accounts.values():
        raise LobbyError(409, "one_seat", "you hold a seat at this rated table already")
    promised = None if commitment is None else check_hex(commitment, "commitment")
    token = new_token()
    others = [o.name for o in s.row.seats if o.seat != row.seat and o.kind != "open"]
    shown = distinct_name(clean_name(name, f"Player {row.seat + 1}"), others, row.seat)
    deal = fairplay.sat(s, row.seat, promised)  # refused before anything changes when out of turn
    _write(s, row, "human", shown, token_hash(token))
    fairplay.save(s, deal)
    if account is not None:
        s.accounts[row.seat] = account
    s.joined = True
    fanout.broadcast_table(s)
    return token


def add_bot(s: TableState, seat: Any, bot: Any) -> None:
    row = _open_seat(s, seat)
    if not isinstance(bot, str) or bot not in bot_names(s.row.game):
        raise LobbyError(400, "bad_bot", "bots: " + ", ".join(bot_names(s.row.game)))
    deal = fairplay.bot(s, row.seat)
    _write(s, row, "bot", bot, None)
    fairplay.save(s, deal)
    fanout.broadcast_table(s)


def free(s: TableState, seat: Any) -> None:
    """Before the start, the host opens a seat again (a bot's or a person's, whose token dies)."""
    if s.row.status != "open":
        raise LobbyError(409, "started", "the game has started")
    _vacate(s, seat_row(s, seat), "open", "", CLOSE_FREED, "the host opened this seat")


def leave(s: TableState, token: Any) -> int:
    """The person holding ``token`` leaves their seat, whose token dies (A4): before the start
    the seat is open again; during the game a stand-in bot plays it to the end."""
    seat = seat_for_token(s.row, token) if isinstance(token, str) and token else None
    if seat is None:
        raise LobbyError(403, "bad_token", "no seat of this table holds that token")
    if s.row.status == "over":
        raise LobbyError(409, "over", "the game is over")
    row = s.row.seats[seat]
    if s.row.status == "open":
        _vacate(s, row, "open", "", CLOSE_LEFT, "you left this seat")
        return seat
    abandon(s, seat, "you left this seat; a bot plays it now")
    return seat


def abandon(s: TableState, seat: int, reason: str) -> None:
    """``seat``'s person leaves the game in progress (they left, or their clock ran out too
    often): their token dies and a stand-in bot plays the seat to the end; the seat is counted
    as abandoned (:attr:`TableState.left`)."""
    row = s.row.seats[seat]
    name = botplay.stand_in(s.row.game)
    s.left.add(seat)
    _vacate(s, row, "bot", name, CLOSE_LEFT, reason)
    s.presence.away.pop(seat, None)
    s.bots.standins.pop(seat, None)
    botplay.stand_down_realtime(s, seat)
    assert s.match is not None
    if s.rt is not None:
        s.rt.add_bot(seat, botplay.realtime_bot(s.row.game, name))  # queued actions and timers stand
        presence.update_pause(s)  # nobody waits for a seat a bot now plays
    else:
        s.match.add_bot(seat, make_bot(s.row.game, name), s.row.bot_seed)
    botplay.kick(s)


def rename(s: TableState, seat: Any, name: str) -> None:
    """A person's seat shows ``name`` from now on (a deleted account's seats: an anonymous
    label), stored with the change."""
    row = seat_row(s, seat)
    if row.kind != "human":
        return
    _write(s, row, row.kind, clean_name(name, row.name), row.token_hash)
    fanout.broadcast_table(s)


def _write(s: TableState, row: SeatRow, kind: str, name: str, digest: str | None) -> None:
    """The seat's new holder, stored with the change."""
    s.fx.persist("set_seat", s.id, SeatRow(row.seat, kind, name, digest), fenced=True)
    row.kind, row.name, row.token_hash = kind, name, digest


def _vacate(s: TableState, row: SeatRow, kind: str, name: str, code: int, reason: str) -> None:
    _write(s, row, kind, name, None)
    if s.row.status == "open":  # open again: whoever sits next holds it (a stand-in's seat stays its person's)
        s.accounts.pop(row.seat, None)
    if s.row.status == "open":
        fairplay.vacated(s, row.seat)
    conn = s.players.pop(row.seat, None)
    if conn is not None:
        s.langs.pop(conn, None)
        s.fx.close(conn, code, reason)
    fanout.broadcast_table(s)
