"""Accounts: a username and a password hashed with argon2id (argon2-cffi).

A username follows the server's name rules (:func:`cardtable.server.lobby.clean_name`: NFKC, no
invisible or control characters, runs of spaces made one, at most 25 characters) and is unique
case-folded among people, as two seat names are (:func:`cardtable.server.lobby.distinct_name`).
Bots have accounts of their own kind (``bot``, named by their level), without a password, so
their ratings are public like anyone's.

Logging in says the same thing, after the same work, whether the name is unknown or the password
wrong: an unknown name is checked against a dummy hash made with the same parameters.
"""

from __future__ import annotations

import asyncio
import functools
import re
import secrets
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from ...bots.base import bot_names
from ...core.registry import game_names
from ..lobby import MAX_NAME, LobbyError, clean_name
from .ports import PlayerData
from .store import AccountRow, NameTaken, SeatLink

T = TypeVar("T")

MIN_USERNAME = 2
MIN_PASSWORD = 8
MAX_PASSWORD = 1024
"""Characters; a longer one is refused before it is hashed (argon2 would take it, but a
megabyte of password is only a way to make the server work)."""

HASHING_AT_ONCE = 2
"""argon2 hashes worked out at once (each takes 64 MiB by default): more requests wait their turn."""
HASHING_QUEUE = 32
"""Requests that may wait for a hash; past it a login or sign-up is answered ``503 busy`` at once,
so logins from many addresses cannot pile up unbounded work (each address is limited too)."""

BAD_LOGIN = "wrong username or password"
"""The one answer to a login that fails, whichever half was wrong."""


@dataclass(frozen=True)
class Account:
    """An account as the rest of the server sees it (never its password hash)."""

    id: int
    kind: str
    username: str
    operator: bool = False
    created: float = 0.0

    def public(self) -> dict[str, Any]:
        return {"username": self.username, "kind": self.kind, "created": self.created}


def _public(row: AccountRow) -> Account:
    return Account(row.id, row.kind, row.username, row.operator, row.created)


RESERVED = re.compile(r"(anonymous-[0-9a-f]+|player ?[0-9]+)", re.IGNORECASE)
"""Names kept for what the server shows itself: a deleted account's label and a seat's default."""
LOOKALIKE = frozenset("АВЕЅІЈКМНОРСТХУаеіјорсхуѕԁԛԝΑΒΕΖΗΙΚΜΝΟΡΤΥΧαικνορτυχϲ")
"""Cyrillic and Greek letters that look like Latin ones: a name of these alone reads as a Latin
name (``АОС`` as ``AOC``), so it is not a name of its own."""


def username_of(raw: Any) -> str:
    """``raw`` as a username under the server's name rules (the display rules of
    :func:`~..lobby.clean_name`, and no more than ``MAX_NAME`` characters once cleaned); a name
    that could pass for another is refused: a bot's level or a label the server shows
    (``reserved_username``), letters of two scripts (``Аna`` with a Cyrillic А) or only letters
    that look Latin in another script (``lookalike_username``); ``bad_username`` for a length
    out of bounds. Each a :class:`LobbyError` (400)."""
    name = clean_name(raw, "", limit=10 * MAX_NAME)
    if not MIN_USERNAME <= len(name) <= MAX_NAME:
        raise LobbyError(400, "bad_username", f"a username has {MIN_USERNAME} to {MAX_NAME} visible characters")
    if name.casefold() in _bot_levels() or RESERVED.fullmatch(name):
        raise LobbyError(400, "reserved_username", "that name is kept for the server's bots and labels")
    letters = [c for c in name if c.isalpha()]
    scripts = {unicodedata.name(c, "?").split(" ")[0] for c in letters}
    if len(scripts) > 1 or (letters and "LATIN" not in scripts and all(c in LOOKALIKE for c in letters)):
        raise LobbyError(400, "lookalike_username",
                         "a username's letters are of one script, and not look-alikes of another")
    return name


@functools.cache
def _bot_levels() -> frozenset[str]:
    return frozenset(level.casefold() for game in game_names() for level in bot_names(game))


def check_password(raw: Any) -> str:
    if not isinstance(raw, str) or not MIN_PASSWORD <= len(raw) <= MAX_PASSWORD:
        raise LobbyError(400, "bad_password", f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters")
    return raw


class Accounts:
    """Creating, checking and deleting accounts over an :class:`AccountStore`. ``hasher``: the
    argon2id parameters (argon2-cffi's defaults, RFC 9106's second recommendation, unless given).

    Hashing is slow on purpose (tens of milliseconds and 64 MiB), so the calls that hash are
    coroutines: the hash is worked out in a worker thread (:data:`HASHING_AT_ONCE` at a time),
    never on the event loop, and the store is used from the loop only."""

    def __init__(self, store: PlayerData, hasher: PasswordHasher | None = None) -> None:
        self.store = store
        self.hasher = hasher or PasswordHasher()
        # made by the first login, not here: a hash takes about 0.25 s of CPU, which every start of
        # `cardtable serve` would spend whether anyone logs in or not
        self._dummy: str | None = None
        self._hashing = asyncio.Semaphore(HASHING_AT_ONCE)
        self.queue = HASHING_QUEUE
        self._waiting = 0

    async def _work(self, fn: Callable[..., T], *args: Any) -> T:
        if self._waiting >= self.queue:
            raise LobbyError(503, "busy", "the server is busy; try again in a moment")
        self._waiting += 1
        try:
            async with self._hashing:
                return await asyncio.to_thread(fn, *args)
        finally:
            self._waiting -= 1

    async def create(self, username: Any, password: Any) -> Account:
        name = username_of(username)
        check_password(password)
        if self.store.account_named("person", name.casefold()) is not None:
            raise LobbyError(409, "name_taken", "that username is taken")
        hashed = await self._work(self.hasher.hash, password)
        try:
            return _public(self.store.add_account("person", name, name.casefold(), hashed))
        except NameTaken:
            raise LobbyError(409, "name_taken", "that username is taken") from None

    async def authenticate(self, username: Any, password: Any) -> Account:
        """The account ``username`` names if ``password`` is its own; otherwise
        :class:`LobbyError` ``bad_login`` (401) with :data:`BAD_LOGIN`, after one argon2 check
        either way."""
        if self._dummy is None:  # before the name is looked up: the first login is slower whatever it names
            self._dummy = await self._work(self.hasher.hash, secrets.token_urlsafe(16))
        name = clean_name(username, "") if isinstance(username, str) else ""
        given = password if isinstance(password, str) and len(password) <= MAX_PASSWORD else ""
        row = self.store.account_named("person", name.casefold()) if name else None
        stored = row.password if row is not None and row.password else self._dummy
        try:
            await self._work(self.hasher.verify, stored, given)
        except (VerificationError, InvalidHashError):
            raise LobbyError(401, "bad_login", BAD_LOGIN) from None
        if row is None:  # the dummy's password is random: never reached, but never trusted either
            raise LobbyError(401, "bad_login", BAD_LOGIN)
        if self.hasher.check_needs_rehash(stored):  # the parameters were raised since: hash again
            self.store.set_password(row.id, await self._work(self.hasher.hash, given))
        return _public(row)

    def get(self, account_id: int) -> Account | None:
        row = self.store.account(account_id)
        return None if row is None else _public(row)

    def named(self, username: str) -> Account | None:
        """A person's account by name (case aside), else a bot's."""
        name = clean_name(username, "")
        row = (self.store.account_named("person", name.casefold()) or self.store.account_named("bot", name.casefold())
               if name else None)
        return None if row is None else _public(row)

    def bot(self, level: str) -> Account:
        """The public account of the bot ``level`` (made the first time it is needed)."""
        row = self.store.account_named("bot", level.casefold())
        if row is None:
            try:
                row = self.store.add_account("bot", level, level.casefold(), None)
            except NameTaken:  # made meanwhile by another process
                row = self.store.account_named("bot", level.casefold())
                assert row is not None
        return _public(row)

    async def delete(self, account: Account, password: Any) -> list[SeatLink]:
        """The account gone (its password asked again: a stolen session alone cannot delete it);
        every seat it played stays, under an anonymous label. The seats relabelled."""
        if account.kind != "person":
            raise LobbyError(403, "not_person", "only a person's account can be deleted")
        await self.authenticate(account.username, password)
        return self.store.delete_account(account.id, anonymous_label())


def anonymous_label() -> str:
    """The name a deleted account's games keep: the same for all its seats, tied to nothing."""
    return f"anonymous-{secrets.token_hex(3)}"
