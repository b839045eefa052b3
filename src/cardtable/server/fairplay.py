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
:meth:`FairPlay.public` once the game is over.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ..core.errors import ParseError
from ..records.fairness import FairDeal, FairnessError
from .lobby import LobbyError

if TYPE_CHECKING:
    from .tables import Table

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


class FairPlay:
    """The fair-deal protocol of one table: ``deal`` is ``None`` only for a seeded game
    (a test's explicit seed, or a game started before the server had fair deals)."""

    def __init__(self, table: Table) -> None:
        self.t = table
        self.start_wanted = False  # the host asked to start before every seed was in
        row = table.row
        self.deal: FairDeal | None = None
        if row.fair is not None:
            try:
                self.deal = FairDeal.from_json(row.fair)
            except ParseError as exc:
                raise ValueError(str(exc)) from None
            if self.deal.seats != table.num_players:
                raise ValueError("the stored fair-deal protocol has another number of seats")
        elif row.status == "open":  # a table stored before fair deals: fair from now on
            self._save(FairDeal.new(table.num_players))

    def _save(self, deal: FairDeal | None) -> None:
        """Store the protocol as it now stands, then hold it (a failed write changes nothing)."""
        data = None if deal is None else deal.to_json()
        self.t.store.set_fair(self.t.id, data)
        self.t.row.fair, self.deal = data, deal

    def _copy(self) -> FairDeal:
        assert self.deal is not None
        return FairDeal.from_json(self.deal.to_json())

    def ready(self) -> bool:
        return self.deal is not None and self.deal.ready()

    # ------------------------------------------------------------ seats
    def sat(self, seat: int, commitment: str | None) -> None:
        """A person sat at ``seat`` with their page's commitment (``None``: the server makes the seed)."""
        if self.deal is None:
            return
        deal = self._copy()
        with _refused():
            if commitment is None:
                deal.add_bot_seat(seat)
            else:
                deal.add_seat_commitment(seat, commitment)
        self._save(deal)

    def bot(self, seat: int) -> None:
        """A bot sat at ``seat``: its seed is the server's."""
        if self.deal is not None:
            deal = self._copy()
            with _refused():
                deal.add_bot_seat(seat)
            self._save(deal)

    def vacated(self, seat: int) -> None:
        """Before the start, ``seat`` is open again: its commitment goes; once the seeds were
        public, the whole protocol begins again with a new server seed."""
        if self.deal is None:
            return
        deal = self._copy()
        if deal.committed():
            deal = deal.renewed(without=(seat,))
        else:
            deal.clear_seat(seat)
        self._save(deal)

    # ------------------------------------------------------------ the pages' messages
    def _seat_of(self, token: Any) -> int:
        t = self.t
        if t.row.status != "open":
            raise LobbyError(409, "started", "the game has started")
        seat = t.seat_for_token(token) if isinstance(token, str) and token else None
        if seat is None:
            raise LobbyError(403, "bad_token", "no seat of this table holds that token")
        if self.deal is None:
            raise LobbyError(409, "not_fair", "this table's game is seeded, not fair")
        return seat

    def commit(self, token: Any, commitment: Any) -> int:
        """``POST /api/tables/{id}/commit``: the seat's commitment after the protocol began again."""
        value = check_hex(commitment, "commitment")
        seat = self._seat_of(token)
        deal = self._copy()
        try:
            deal.add_seat_commitment(seat, value)
        except FairnessError as exc:
            raise LobbyError(409, "committed", str(exc)) from None
        self._save(deal)
        self.t.fanout.broadcast_table()
        return seat

    def reveal(self, token: Any, seed: Any) -> int:
        """``POST /api/tables/{id}/reveal``: the seat's seed, once every seat has committed; the
        game starts when it was the last one and the host has asked for the start."""
        value = check_hex(seed, "seed")
        seat = self._seat_of(token)
        deal = self._copy()
        try:
            deal.reveal_seat(seat, value)
        except FairnessError as exc:
            code = "not_committed" if not deal.committed() else "bad_seed"
            raise LobbyError(409 if code == "not_committed" else 400, code, str(exc)) from None
        self._save(deal)
        if self.start_wanted and deal.ready():
            self.t.flow.start()
        else:
            self.t.fanout.broadcast_table()
        return seat

    def seeded(self) -> None:
        """A test's explicit seed: this game is seeded, not fair."""
        if self.deal is not None:
            self._save(None)

    # ------------------------------------------------------------ what anyone may see
    def public(self) -> dict[str, Any] | None:
        """The commitments (the seeds once every seat committed), who is awaited, and the server
        seed once the game is over: nothing derived from it before."""
        deal = self.deal
        if deal is None:
            return None
        out = deal.public()
        out["waiting"] = deal.waiting() if self.t.row.status == "open" else []
        out["starting"] = self.start_wanted and self.t.row.status == "open"
        match = self.t.match
        out["server_seed"] = deal.server_reveal(match.state) if match is not None and match.is_over else None
        return out
