"""A table's provably fair deals: the commit–reveal protocol carried between the pages and
:class:`~cardtable.records.fairness.FairDeal` (docs/fairness.md, "On the server").

Every table the lobby makes gets a :class:`FairDeal` at once, so its server commitment is
public before anyone sits. A person's page commits to a seed it made when it sits (``sit``
with ``commitment``; a client that sends none lets the server make that seat's seed, as for
a bot), and reveals it (``reveal``) once every seat has committed; the game starts only when
every seed is in. A seat that changes once the seeds are public (freed, left) begins the
protocol again with a new server seed, and every person's page commits again (``commit``).
The protocol, its server seed included, is stored with the table (:meth:`Store.set_fair`), so
a restart replays the same deals; the server seed leaves only in the record and in
:func:`public` once the game is over.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from typing import Any

from ..core.errors import ParseError
from ..records.fairness import FairDeal, FairnessError
from . import fanout
from .lobby import LobbyError
from .state import TableState

HEX64 = re.compile(r"[0-9a-fA-F]{64}")


def check_hex(value: Any, name: str) -> str:
    """A 64-hex-digit text (a commitment or a seed), or a 400 naming the field."""
    if not isinstance(value, str) or not HEX64.fullmatch(value):
        raise LobbyError(400, f"bad_{name}", f"{name} is 64 hex digits (32 bytes)")
    return value.lower()


@contextlib.contextmanager
def _refused() -> Iterator[None]:
    """A protocol step out of turn is the client's 409, never the server's 500."""
    try:
        yield
    except FairnessError as exc:
        raise LobbyError(409, "fair", str(exc)) from None


def load(s: TableState) -> None:
    """The protocol as the table's row holds it; a table stored before fair deals that has not
    started is fair from now on. ``ValueError`` if the stored protocol cannot be read."""
    row = s.row
    s.fair.deal = None
    if row.fair is not None:
        try:
            s.fair.deal = FairDeal.from_json(row.fair)
        except ParseError as exc:
            raise ValueError(str(exc)) from None
        if s.fair.deal.seats != s.num_players:
            raise ValueError("the stored fair-deal protocol has another number of seats")
    elif row.status == "open":
        _save(s, FairDeal.new(s.num_players))


def _save(s: TableState, deal: FairDeal | None) -> None:
    """The protocol as it now stands, to be stored with the table."""
    data = None if deal is None else deal.to_json()
    s.fx.persist("set_fair", s.id, data, fenced=True)
    s.row.fair, s.fair.deal = data, deal


def restart_with(s: TableState, deal: FairDeal) -> None:
    """The protocol begins again as ``deal`` (a test's server seed of its own choosing)."""
    _save(s, deal)


def _copy(s: TableState) -> FairDeal:
    assert s.fair.deal is not None
    return FairDeal.from_json(s.fair.deal.to_json())


def ready(s: TableState) -> bool:
    return s.fair.deal is not None and s.fair.deal.ready()


# ------------------------------------------------------------ seats
def sat(s: TableState, seat: int, commitment: str | None) -> FairDeal | None:
    """The protocol once a person sits at ``seat`` with their page's commitment (``None``: the
    server makes the seed), for :func:`save` once the seat is written; a 409 if out of turn."""
    if s.fair.deal is None:
        return None
    deal = _copy(s)
    with _refused():
        if commitment is None:
            deal.add_bot_seat(seat)
        else:
            deal.add_seat_commitment(seat, commitment)
    return deal


def bot(s: TableState, seat: int) -> FairDeal | None:
    """The protocol once a bot sits at ``seat`` (its seed is the server's), for :func:`save`."""
    if s.fair.deal is None:
        return None
    deal = _copy(s)
    with _refused():
        deal.add_bot_seat(seat)
    return deal


def save(s: TableState, deal: FairDeal | None) -> None:
    """A seat's new protocol from :func:`sat` or :func:`bot` (``None``: a seeded table, nothing)."""
    if deal is not None:
        _save(s, deal)


def vacated(s: TableState, seat: int) -> None:
    """Before the start, ``seat`` is open again: its commitment goes; once the seeds were
    public, the whole protocol begins again with a new server seed."""
    if s.fair.deal is None:
        return
    deal = _copy(s)
    if deal.committed():
        deal = deal.renewed(without=(seat,))
    else:
        deal.clear_seat(seat)
    _save(s, deal)


# ------------------------------------------------------------ the pages' messages
def _seat_of(s: TableState, token: Any) -> int:
    from .seating import seat_for_token

    if s.row.status != "open":
        raise LobbyError(409, "started", "the game has started")
    seat = seat_for_token(s.row, token) if isinstance(token, str) and token else None
    if seat is None:
        raise LobbyError(403, "bad_token", "no seat of this table holds that token")
    if s.fair.deal is None:
        raise LobbyError(409, "not_fair", "this table's game is seeded, not fair")
    return seat


def commit(s: TableState, token: Any, commitment: Any) -> int:
    """``POST /api/tables/{id}/commit``: the seat's commitment after the protocol began again."""
    value = check_hex(commitment, "commitment")
    seat = _seat_of(s, token)
    deal = _copy(s)
    try:
        deal.add_seat_commitment(seat, value)
    except FairnessError as exc:
        raise LobbyError(409, "committed", str(exc)) from None
    _save(s, deal)
    fanout.broadcast_table(s)
    return seat


def reveal(s: TableState, token: Any, seed: Any) -> int:
    """``POST /api/tables/{id}/reveal``: the seat's seed, once every seat has committed; the
    game starts when it was the last one and the host has asked for the start."""
    from .lifecycle import start

    value = check_hex(seed, "seed")
    seat = _seat_of(s, token)
    deal = _copy(s)
    try:
        deal.reveal_seat(seat, value)
    except FairnessError as exc:
        code = "not_committed" if not deal.committed() else "bad_seed"
        raise LobbyError(409 if code == "not_committed" else 400, code, str(exc)) from None
    _save(s, deal)
    if s.fair.start_wanted and deal.ready():
        start(s)
    else:
        fanout.broadcast_table(s)
    return seat


def seeded(s: TableState) -> None:
    """A test's explicit seed: this game is seeded, not fair."""
    if s.fair.deal is not None:
        _save(s, None)


# ------------------------------------------------------------ what anyone may see
def public(s: TableState) -> dict[str, Any] | None:
    """The commitments (the seeds once every seat committed), who is awaited, and the server
    seed once the game is over: nothing derived from it before."""
    deal = s.fair.deal
    if deal is None:
        return None
    out = deal.public()
    out["waiting"] = deal.waiting() if s.row.status == "open" else []
    out["starting"] = s.fair.start_wanted and s.row.status == "open"
    match = s.match
    out["server_seed"] = deal.server_reveal(match.state) if match is not None and match.is_over else None
    return out
