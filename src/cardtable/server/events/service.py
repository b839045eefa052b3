"""Creating events and registering for them (docs/tournaments.md, "Events"; ids T6, T7).

Any account may create an event; people register and unregister until it starts. What an event
may be:

- **Swiss** for a two-player game (Spit, or Trash with two players): 1 to :data:`MAX_SWISS_ROUNDS`
  rounds, 2 to :data:`MAX_ENTRANTS` entrants.
- **Duplicate** Trex (not partnership): every table of four plays the same deals; a round is one
  game at each table of ``deals`` deals (:func:`round_length`): the whole game (20 deals, or 8
  with the ``complex`` preset), a whole kingdom (5, or 2) or a set number (Trex's option ``deals``,
  TX-V10); 1 to :data:`MAX_DUPLICATE_ROUNDS` rounds of at most :data:`MAX_DUPLICATE_DEALS` deals
  in all, 4 to :data:`MAX_ENTRANTS` entrants (bots fill a short table). Redeals and the tie-break
  deal are off, so deal ``n`` is the same shuffle at every table.

It starts at ``starts_at`` (seconds since the epoch, within :data:`MAX_AHEAD` from now) or, with
``when_full``, once ``max_entrants`` have registered, whichever comes first; an event whose start
comes with too few entrants (fewer than two people) is cancelled.

Limits: an account may hold :data:`MAX_OPEN_PER_ACCOUNT` events not yet over, and new events
come from one account and from one address at the rate of the token buckets of :class:`Limits`
(the players layer's :class:`~cardtable.server.players.limits.KeyedLimit`); registering and
unregistering from one address too.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from typing import Any

from ...core.errors import ConfigError
from ...core.registry import load
from ..lobby import LobbyError, clean_name
from ..players.accounts import Account
from ..players.limits import KeyedLimit, SharedLimit
from .store import STATUSES, EventLog, EventRow

KINDS = ("swiss", "duplicate")
MAX_ENTRANTS = 64
MAX_SWISS_ROUNDS = 11
MAX_DUPLICATE_ROUNDS = 12
MAX_DUPLICATE_DEALS = 80
"""The deals of a duplicate event's rounds together: four whole games of Trex."""
ROUND_LENGTHS = ("game", "kingdom")
"""A duplicate round's length in words (``deals``): the whole game or one kingdom; else a number."""
MAX_OPEN_PER_ACCOUNT = 3
MAX_AHEAD = 7 * 86400.0
"""The latest start an event may name, in seconds from now."""
CLOCK_SLACK = 60.0
"""Seconds a start time may lie in the past (a page's clock is not the server's): it starts at once."""
MIN_NAME = 3
MAX_NAME = 60
DUPLICATE_FIXED = {"redeal_requests": False, "tiebreak": False}
"""Options every duplicate Trex table plays under: no redeal (a redeal at one table would shift
its shuffles against the others') and no extra tie-break deal (the totals decide nothing there)."""
FIELDS = ("name", "kind", "game", "preset", "options", "rated", "rounds", "deals", "starts_at", "when_full",
          "max_entrants", "bots")


class Limits:
    """New events: per account 3 at once then one every 10 minutes; per address 5 at once then
    one every 2 minutes. Registering and unregistering: per address 30 at once then one a second.
    In this process's memory; a cluster's nodes share them (:func:`~..players.limits.shared`
    with :data:`LIMITS`)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.create_account: KeyedLimit | SharedLimit = KeyedLimit(1 / 600, 3, clock)
        self.create_address: KeyedLimit | SharedLimit = KeyedLimit(1 / 120, 5, clock)
        self.register_address: KeyedLimit | SharedLimit = KeyedLimit(1.0, 30, clock)


LIMITS = ("create_account", "create_address", "register_address")
"""The limits of :class:`Limits`, by attribute."""


def _bad(code: str, message: str) -> LobbyError:
    return LobbyError(400, code, message)


def _int(data: dict[str, Any], key: str, low: int, high: int, default: int | None = None) -> int:
    value = data.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise _bad(f"bad_{key}", f"{key} is a whole number from {low} to {high}")
    return value


class Events:
    """Events over an :class:`~.store.EventLog`. ``clock``: seconds since the epoch."""

    def __init__(self, store: EventLog, *, clock: Callable[[], float] = time.time,
                 limits: Limits | None = None) -> None:
        self.store = store
        self.clock = clock
        self.limits = limits or Limits()

    # ------------------------------------------------------------- creating
    def settings(self, data: Any) -> dict[str, Any]:
        """The settings of a new event from a request's body, checked; :class:`LobbyError` (400)
        naming the first bad field."""
        if not isinstance(data, dict):
            raise _bad("bad_json", "the body is a JSON object")
        unknown = set(data) - set(FIELDS)
        if unknown:
            raise _bad("bad_request", f"unknown fields; fields: {', '.join(FIELDS)}")
        name = clean_name(data.get("name"), "", MAX_NAME)
        if len(name) < MIN_NAME:
            raise _bad("bad_name", f"a name has {MIN_NAME} to {MAX_NAME} visible characters")
        kind = data.get("kind", "swiss")
        if kind not in KINDS:
            raise _bad("bad_kind", "kind is swiss or duplicate")
        game_name, preset, options = data.get("game"), data.get("preset"), data.get("options", {})
        if not isinstance(game_name, str) or (preset is not None and not isinstance(preset, str)):
            raise _bad("bad_game", "game and preset are texts")
        if not isinstance(options, dict) or len(options) > 32:
            raise _bad("bad_options", "options is an object")
        try:
            if kind == "duplicate" and load(game_name).name == "trex":
                options = {**options, **DUPLICATE_FIXED}
            game = load(game_name, preset, **options)
        except (ConfigError, TypeError, ValueError) as exc:
            raise _bad("bad_options", str(exc)) from None
        if "deals" in data and kind != "duplicate":
            raise _bad("bad_deals", "deals is the length of a duplicate round: a Swiss round is one game")
        if kind == "swiss" and game.num_players != 2:
            raise _bad("bad_game", "a Swiss event is for a two-player game: Spit, or Trash with two players")
        if kind == "duplicate" and (game.name != "trex" or game.options.get("partnership")):
            raise _bad("bad_game", "a duplicate event is Trex, every player for themselves (not partnership)")
        rated = data.get("rated", False)
        if not isinstance(rated, bool):
            raise _bad("bad_rated", "rated is true or false")
        bots = data.get("bots", False)
        if not isinstance(bots, bool):
            raise _bad("bad_bots", "bots (bots fill the field at the start) is true or false")
        deals = None
        if kind == "duplicate":
            if "deals" in data and "deals" in options:
                raise _bad("bad_deals", "give a round's length once: deals, not options.deals")
            trex: Any = game  # a TrexGame: whole_game, deals_per_kingdom, num_deals
            length = round_length(trex, data.get("deals", "game"))
            if length < trex.whole_game:
                game = trex = load(game.name, preset, **{**options, "deals": length})
            deals = int(trex.num_deals)
        high_rounds = MAX_SWISS_ROUNDS if deals is None else min(MAX_DUPLICATE_ROUNDS, MAX_DUPLICATE_DEALS // deals)
        rounds = _int(data, "rounds", 1, high_rounds, 3 if kind == "swiss" else 1)
        low_entrants = 2 if kind == "swiss" else 4
        max_entrants = _int(data, "max_entrants", low_entrants, MAX_ENTRANTS, 8)
        when_full = data.get("when_full", data.get("starts_at") is None)
        if not isinstance(when_full, bool):
            raise _bad("bad_when_full", "when_full is true or false")
        starts_at = data.get("starts_at")
        now = self.clock()
        if starts_at is not None:
            if not isinstance(starts_at, int | float) or isinstance(starts_at, bool) \
                    or not now - CLOCK_SLACK <= starts_at <= now + MAX_AHEAD:
                raise _bad("bad_starts_at", "starts_at is a time (seconds since 1970) from now to 7 days ahead")
            starts_at = float(starts_at)
        elif not when_full:
            raise _bad("bad_starts_at", "an event starts at a time (starts_at), when full (when_full), or both")
        return {"name": name, "kind": kind, "game": game.name, "preset": game.preset,
                "options": game.changed_options(), "rated": rated, "rounds": rounds, "deals": deals,
                "starts_at": starts_at, "when_full": when_full, "max_entrants": max_entrants,
                "bots": bots or kind == "duplicate"}

    async def create(self, account: Account, data: Any, address: str) -> EventRow:
        """A new event of ``account``'s from ``data`` (:meth:`settings`); the limits taken first."""
        settings = self.settings(data)
        if (not await self.limits.create_address.allow(address)
                or not await self.limits.create_account.allow(str(account.id))):
            raise LobbyError(429, "rate_limited", "too many new events; wait a little")
        if self.store.open_events_of(account.id) >= MAX_OPEN_PER_ACCOUNT:
            raise LobbyError(429, "too_many_events",
                             f"{MAX_OPEN_PER_ACCOUNT} events not yet over per account at most",
                             {"limit": MAX_OPEN_PER_ACCOUNT})
        row = EventRow(id=secrets.token_urlsafe(8), creator=account.id, creator_name=account.username,
                       status="open", created=self.clock(), secret=secrets.token_hex(32),
                       progress=None, **settings)
        self.store.create_event(row)
        return row

    # ------------------------------------------------------------- entering
    async def register(self, event_id: Any, account: Account, address: str) -> str:
        """``account`` enters the event (a person's account only): ``"ok"`` or ``"already"``."""
        row = self.get(event_id)
        if account.kind != "person":
            raise LobbyError(403, "not_person", "only a person's account registers")
        if not await self.limits.register_address.allow(address):
            raise LobbyError(429, "rate_limited", "too many requests; wait a little")
        found = self.store.register(row.id, account.id, account.username, self.clock())
        if found == "full":
            raise LobbyError(409, "full", f"the event is full ({row.max_entrants} entrants)")
        if found == "closed":
            raise LobbyError(409, "started", "registration is closed: the event has started")
        if found == "missing":
            raise LobbyError(404, "no_event", "no such event")
        return found

    async def unregister(self, event_id: Any, account: Account, address: str) -> str:
        """``account`` leaves the event before its start: ``"ok"`` or ``"absent"``."""
        row = self.get(event_id)
        if not await self.limits.register_address.allow(address):
            raise LobbyError(429, "rate_limited", "too many requests; wait a little")
        found = self.store.unregister(row.id, account.id)
        if found == "closed":
            raise LobbyError(409, "started", "the event has started: leaving is no longer possible")
        if found == "missing":
            raise LobbyError(404, "no_event", "no such event")
        return found

    # ------------------------------------------------------------- reading
    def get(self, event_id: Any) -> EventRow:
        if not isinstance(event_id, str) or not 0 < len(event_id) <= 64:
            raise LobbyError(404, "no_event", "no such event")
        row = self.store.event(event_id)
        if row is None:
            raise LobbyError(404, "no_event", "no such event")
        return row

    def listing(self, statuses: tuple[str, ...] = STATUSES) -> list[dict[str, Any]]:
        return [summary(r, len(self.store.entrants(r.id))) for r in self.store.events(statuses, 100)]


def round_length(game: Any, value: Any) -> int:
    """The deals of a duplicate round of Trex ``game`` that ``value`` asks for: ``"game"`` the
    whole game (20, or 8 under Complex), ``"kingdom"`` one kingdom (5, or 2 under Complex), or a
    whole number of deals from 1 to the whole game's; :class:`LobbyError` ``bad_deals`` else."""
    whole, kingdom = int(game.whole_game), int(game.deals_per_kingdom)
    if value == "game":
        return whole
    if value == "kingdom":
        return kingdom
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= whole:
        raise _bad("bad_deals", f"deals is game (the whole game, {whole} deals), kingdom ({kingdom} deals)"
                                f" or a whole number of deals from 1 to {whole}")
    return value


def summary(row: EventRow, entrants: int) -> dict[str, Any]:
    """What anyone may see of an event's settings (never its secret)."""
    return {"id": row.id, "name": row.name, "kind": row.kind, "game": row.game, "preset": row.preset,
            "options": row.options, "rated": row.rated, "rounds": row.rounds, "deals": row.deals,
            "starts_at": row.starts_at, "when_full": row.when_full, "max_entrants": row.max_entrants, "bots": row.bots,
            "creator": row.creator_name, "status": row.status, "created": row.created, "entrants": entrants}
