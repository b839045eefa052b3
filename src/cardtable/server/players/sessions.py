"""Server-side sessions: a random id in a cookie, its SHA-256 digest in the store.

The cookie is ``HttpOnly`` (no script reads it), ``SameSite=Strict`` (no other site's page, link
or form sends it: the pages are static and ask for their data with ``fetch``, so a person who
follows a link from elsewhere is still logged in on the page that opens) and ``Secure`` when the
request came over https (then named ``__Host-ct_session``: no subdomain can set or read it).

Every state-changing request of a session carries its CSRF token (header ``X-CSRF-Token``), an
HMAC of the session id under the store's secret: it needs no storage, changes with the session,
and a page of another origin can neither read it nor send the header without the server's
consent (no CORS is granted). Logging in always starts a new session (no fixation: an id
planted before the login is worth nothing after it), and logging out deletes the session
server-side, so a copied cookie dies with it.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections.abc import Callable, Mapping

from ..store import token_hash
from .ports import PlayerData

SESSION_DAYS = 30.0
COOKIE = "ct_session"
SECURE_COOKIE = "__Host-ct_session"
CSRF_HEADER = "x-csrf-token"


def session_cookie(cookies: Mapping[str, str], https: bool) -> str | None:
    """The session id a request carries: over https only the ``__Host-`` cookie counts, so a
    plain cookie planted over http (or by a sibling subdomain) never passes for a session."""
    return cookies.get(SECURE_COOKIE if https else COOKIE)


class Sessions:
    def __init__(self, store: PlayerData, clock: Callable[[], float] = time.time,
                 days: float = SESSION_DAYS) -> None:
        self.store = store
        self.clock = clock
        self.lifetime = days * 86400.0
        self._key = hashlib.sha256(b"csrf:" + store.secret()).digest()

    def start(self, account_id: int) -> str:
        """A new session of ``account_id``: its id (for the cookie; only its digest is kept)."""
        raw = secrets.token_urlsafe(32)
        now = self.clock()
        self.store.add_session(token_hash(raw), account_id, now, now + self.lifetime)
        return raw

    def account_id(self, raw: str | None) -> int | None:
        """The account a live session id belongs to; ``None`` for no, an unknown or an expired id."""
        if not raw or len(raw) > 100:
            return None
        found = self.store.session(token_hash(raw))
        if found is None:
            return None
        account_id, expires = found
        if expires <= self.clock():
            self.store.drop_session(token_hash(raw))
            return None
        return account_id

    def end(self, raw: str | None) -> None:
        if raw and len(raw) <= 100:
            self.store.drop_session(token_hash(raw))

    def csrf(self, raw: str) -> str:
        return hmac.new(self._key, raw.encode("utf-8", "surrogatepass"), hashlib.sha256).hexdigest()

    def csrf_ok(self, raw: str, given: str | None) -> bool:
        if not given:
            return False
        return hmac.compare_digest(self.csrf(raw).encode(), given.encode("utf-8", "surrogatepass"))
