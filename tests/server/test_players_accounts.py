"""Accounts: argon2id passwords, the server's name rules for usernames, login that says nothing
about which names exist, deletion that keeps the games under an anonymous name, and the store's
one error type."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest
from argon2 import PasswordHasher

from cardtable.server.lobby import LobbyError
from cardtable.server.players.accounts import BAD_LOGIN, Accounts
from cardtable.server.players.store import AccountStore, AccountStoreError

CHEAP = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
"""argon2id at its smallest: the tests hash many times (the real parameters are checked once)."""


@pytest.fixture
def store(tmp_path: Path) -> Any:
    s = AccountStore(tmp_path / "players.sqlite3")
    yield s
    s.close()


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def test_password_stored_as_argon2id_with_the_library_defaults(store: AccountStore):
    """Password storage: argon2id through argon2-cffi at its default (RFC 9106) parameters; the
    password itself is nowhere in the database."""
    accounts = Accounts(store)
    account = run(accounts.create("Ana", "a long passphrase"))
    row = store.account(account.id)
    assert row is not None and row.password is not None
    defaults = PasswordHasher()
    assert row.password.startswith(f"$argon2id$v=19$m={defaults.memory_cost},t={defaults.time_cost},"
                                   f"p={defaults.parallelism}$")
    assert b"a long passphrase" not in Path(store.path).read_bytes()
    assert run(accounts.authenticate("Ana", "a long passphrase")).id == account.id


def test_usernames_follow_the_servers_name_rules_and_are_unique_case_folded(store: AccountStore):
    """Name rules (P10): the lobby's clean_name (NFKC, invisible characters and runs of spaces
    removed), 2 to 25 characters (a longer name is refused, not cut), and one name per case-folded
    spelling, as two seat names are compared."""
    accounts = Accounts(store, CHEAP)
    account = run(accounts.create("  Ana\u200b   María ", "password1"))
    assert account.username == "Ana María"
    for twin in ("ana maría", "ANA  MARÍA", "Ana\u2060 María"):
        with pytest.raises(LobbyError) as err:
            run(accounts.create(twin, "password1"))
        assert err.value.code == "name_taken"
    for bad in ("", "\u200b\u200b", "x", None, 7, "n" * 26):
        with pytest.raises(LobbyError) as err:
            run(accounts.create(bad, "password1"))
        assert err.value.code == "bad_username"
    assert len(run(accounts.create("n" * 25, "password1")).username) == 25


def test_p10_a_username_cannot_pass_for_a_bot_a_label_or_another_name(store: AccountStore):
    """P10: names that would pass for someone else are refused: a bot's level (its profile and
    leaderboard row), a deleted account's label, a seat's default name, letters of two scripts
    (a Cyrillic or Greek A in "Ana") and a name of only Latin look-alikes in another script. A
    name wholly in another script, Arabic or Cyrillic, is a name of its own."""
    accounts = Accounts(store, CHEAP)
    run(accounts.create("Ana", "password1"))
    for bad, code in (("expert", "reserved"), ("Hard", "reserved"), ("SPAR-PRO", "reserved"),
                      ("anonymous-3f9a2c", "reserved"), ("Player 1", "reserved"), ("player2", "reserved"),
                      ("\u0410na", "lookalike"), ("\u0391na", "lookalike"), ("\u0391\u039d\u0391", "lookalike"),
                      ("\u0410\u041e\u0421", "lookalike")):
        with pytest.raises(LobbyError) as err:
            run(accounts.create(bad, "password1"))
        assert err.value.code == f"{code}_username", bad
    for good in ("\u0410\u043d\u0430", "\u0645\u062d\u0645\u062f", "Zoë", "Ana_99", "Expert Ana"):
        assert run(accounts.create(good, "password1")).username == good


def test_password_length_is_bounded_before_hashing(store: AccountStore):
    """Hashing cost: a password under 8 or over 1024 characters is refused before any hash."""
    accounts = Accounts(store, CHEAP)
    for bad in ("short", "x" * 1025, None, 12345678):
        with pytest.raises(LobbyError) as err:
            run(accounts.create("Bea", bad))
        assert err.value.code == "bad_password"
    assert store.account_named("person", "bea") is None


class CountingHasher(PasswordHasher):
    def __init__(self) -> None:
        super().__init__(time_cost=1, memory_cost=8, parallelism=1)
        self.verified: list[str] = []
        self.hashed = 0

    def hash(self, password: str | bytes, *, salt: bytes | None = None) -> str:
        self.hashed += 1
        return super().hash(password, salt=salt)

    def verify(self, hash: str | bytes, password: str | bytes) -> bool:
        self.verified.append(str(hash))
        return super().verify(hash, password)


def test_login_enumeration_unknown_name_and_wrong_password_look_alike(store: AccountStore):
    """Login enumeration: an unknown username and a wrong password get the same error, after the
    same work (one argon2 check each, the unknown name's against a dummy hash of the same
    parameters), so neither the answer nor its time says which names exist."""
    hasher = CountingHasher()
    accounts = Accounts(store, hasher)
    run(accounts.create("Carla", "right password"))
    answers = []
    for name, password in (("Carla", "wrong password"), ("Nobody", "wrong password"), ("", "x"), (None, None)):
        hasher.verified.clear()
        with pytest.raises(LobbyError) as err:
            run(accounts.authenticate(name, password))
        answers.append((err.value.status, err.value.code, err.value.message))
        assert len(hasher.verified) == 1
        params = hasher.verified[0].split("$")[3]
        assert params == "m=8,t=1,p=1"  # the dummy has the real hashes' parameters
    assert set(answers) == {(401, "bad_login", BAD_LOGIN)}


def test_login_enumeration_the_dummy_hash_is_made_by_the_first_login_whatever_it_names(store: AccountStore):
    """Login enumeration: the dummy hash is not made at start-up (a server's start spends no 0.25 s
    of CPU on it) but by the first login, before the name is looked up, so that login costs one
    hash more whether the name exists or not, and the later ones none."""
    run(Accounts(store, CHEAP).create("Carla", "right password"))
    for first in ("Carla", "Nobody"):
        hasher = CountingHasher()
        accounts = Accounts(store, hasher)
        assert hasher.hashed == 0
        for name in (first, "Carla", "Nobody"):
            with pytest.raises(LobbyError):
                run(accounts.authenticate(name, "wrong password"))
            assert hasher.hashed == 1


def test_a_hash_of_older_parameters_is_upgraded_at_login(store: AccountStore):
    """Password storage: raising the argon2 parameters upgrades each hash at its next login."""
    run(Accounts(store, CHEAP).create("Dora", "password1"))
    stronger = PasswordHasher(time_cost=2, memory_cost=16, parallelism=1)
    run(Accounts(store, stronger).authenticate("Dora", "password1"))
    row = store.account_named("person", "dora")
    assert row is not None and row.password is not None and "m=16,t=2,p=1" in row.password


def test_account_deletion_keeps_the_games_under_an_anonymous_label(store: AccountStore):
    """Account deletion: the account, its sessions and ratings go; its seats stay, linked to one
    anonymous label; the password is asked again, and a wrong one deletes nothing."""
    accounts = Accounts(store, CHEAP)
    ana = run(accounts.create("Ana", "password1"))
    bob = run(accounts.create("Bob", "password1"))
    store.link_seat("t1", 0, ana.id, None, None)
    store.link_seat("t2", 1, ana.id, None, None)
    store.link_seat("t1", 1, bob.id, None, None)
    store.add_session("digest", ana.id, 0.0, 1e12)
    with pytest.raises(LobbyError):
        run(accounts.delete(ana, "wrong password"))
    assert store.account(ana.id) is not None
    links = run(accounts.delete(ana, "password1"))
    assert store.account(ana.id) is None and store.session("digest") is None
    assert {(link.table_id, link.seat) for link in links} == {("t1", 0), ("t2", 1)}
    kept = store.seat_links("t1")
    assert kept[0].account_id is None and kept[0].label is not None and kept[0].label.startswith("anonymous-")
    assert store.seat_links("t2")[1].label == kept[0].label
    assert kept[1].account_id == bob.id and kept[1].label is None
    assert "Ana" not in (kept[0].label or "")
    run(accounts.create("Ana", "password2"))  # the name is free again


def test_bots_have_public_accounts_without_passwords(store: AccountStore):
    """Bot accounts: one per level, no password, so nobody logs in as a bot."""
    accounts = Accounts(store, CHEAP)
    expert = accounts.bot("expert")
    assert accounts.bot("expert") == expert and expert.kind == "bot"
    with pytest.raises(LobbyError) as err:
        run(accounts.authenticate("expert", ""))
    assert err.value.code == "bad_login"
    with pytest.raises(LobbyError) as taken:  # a person may not take a bot's name (P10)
        run(accounts.create("expert", "password1"))
    assert taken.value.code == "reserved_username" and accounts.named("expert") == expert


def test_a_store_that_cannot_be_used_raises_its_one_error_type(tmp_path: Path):
    """Bad input loses nothing: a file that is no database, or a locked one, is an
    AccountStoreError (never a bare sqlite3 error), and a failed write leaves nothing behind."""
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"this is not a database" * 100)
    with pytest.raises(AccountStoreError):
        AccountStore(junk)
    store = AccountStore(tmp_path / "players.sqlite3", busy=0.01)
    other = sqlite3.connect(str(tmp_path / "players.sqlite3"), isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
    try:
        with pytest.raises(AccountStoreError):
            store.add_account("person", "Eve", "eve", None)
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert store.account_named("person", "eve") is None
    store.close()


class GatedHasher(PasswordHasher):
    """Hashes that wait for a gate, so the test holds the hashing threads busy."""

    def __init__(self) -> None:
        super().__init__(time_cost=1, memory_cost=8, parallelism=1)
        self.gate = threading.Event()
        self.started = threading.Semaphore(0)

    def verify(self, hash: str | bytes, password: str | bytes) -> bool:
        self.started.release()
        assert self.gate.wait(90)
        return super().verify(hash, password)


def test_hashing_work_is_bounded_and_off_the_event_loop(store: AccountStore):
    """Hashing flood: two hashes run at once in worker threads (the event loop keeps turning while
    they run); past the queue's bound a login is answered 503 busy at once, without a hash."""
    hasher = GatedHasher()
    accounts = Accounts(store, hasher)
    accounts.queue = 4

    async def main() -> list[Any]:
        logins = [asyncio.ensure_future(accounts.authenticate("Nobody", "password1")) for _ in range(4)]
        ticks = 0
        for _ in range(2):  # both hashing threads start; the loop is not blocked meanwhile
            while not hasher.started.acquire(blocking=False):
                await asyncio.sleep(0.01)
                ticks += 1
                assert ticks < 9000
        with pytest.raises(LobbyError) as err:
            await accounts.authenticate("Nobody", "password1")
        assert (err.value.status, err.value.code) == (503, "busy")
        hasher.gate.set()
        return await asyncio.gather(*logins, return_exceptions=True)

    answers = run(main())
    assert [a.code for a in answers] == ["bad_login"] * 4
