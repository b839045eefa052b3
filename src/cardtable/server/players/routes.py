"""The players' HTTP routes (JSON API and pages), for the server's app to mount.

=========================================  ======  ===============================================
path                                       method  what
=========================================  ======  ===============================================
``/api/players/me``                        GET     ``{"account": {...} | null, "csrf": str | null}``
``/api/players/signup``                    POST    ``{username, password, seats?}`` → 201, logged in
``/api/players/login``                     POST    ``{username, password}`` → logged in (new session)
``/api/players/logout``                    POST    the session ends server-side (CSRF)
``/api/players/delete``                    POST    ``{password}``: the account goes (CSRF)
``/api/players/seats``                     POST    ``{seats}``: link kept seat tokens (CSRF)
``/api/players/profile/{username}``        GET     :meth:`Players.profile`
``/api/players/leaderboard/{game}``        GET     :meth:`Players.leaderboard`
``/api/quick``                             POST    ``{game, preset?, name?}`` → 201, a quick play
                                                   ticket and how its wait goes (:mod:`.quickplay`)
``/api/quick/{ticket}``                    GET     how the wait goes: ``waiting`` (how many, the
                                                   seconds before bots) or ``seated`` (the seat)
``/api/quick/{ticket}/now``                POST    bots fill the empty seats now
``/api/quick/{ticket}/cancel``             POST    the ticket leaves the queue
``/account``, ``/players/{username}``,     GET     the pages (``server/pages.py``)
``/leaderboard``, ``/leaderboard/{game}``,
``/quick/{game}``
=========================================  ======  ===============================================

The quick play routes are there when the server's hub is given (the tables it makes). A join
by a logged-in person (the session's cookie) carries the CSRF token too; without an account
anyone may join, and the ticket (a secret) is what the page holds.

``seats`` is ``[{"table", "seat", "token"}]``: the seat tokens the page kept, linked to the
account when the action log holds their digests. Every POST passes the server's Origin rule
(:func:`cardtable.server.edge.read_body`) and must be JSON (a form of another site cannot
send it); the ones of a session also carry its CSRF token in ``X-CSRF-Token``. Errors are
``{"error": code, "message": text}`` as in the lobby.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..edge import Endpoint, answering, client_address, only, read_body
from ..lobby import LobbyError, clean_name
from ..pages import endpoint
from ..ports import LogError
from .accounts import Account, check_password, username_of
from .quickplay import QuickPlay
from .service import Players
from .sessions import COOKIE, CSRF_HEADER, SECURE_COOKIE, session_cookie
from .store import AccountStoreError

if TYPE_CHECKING:
    from ..hub import Hub


def player_routes(players: Players, *, allow_origins: tuple[str, ...] = (), secure: bool | None = None,
                  hub: Hub | None = None) -> list[Route]:
    """The routes over ``players``. ``allow_origins``: as the app's (``--allow-origin``).
    ``secure``: cookies marked ``Secure`` (``None``: when the request came over https, which
    uvicorn sees behind a trusted proxy). ``hub``: the server's tables (quick play makes its
    tables there, and a deleted account's seats are renamed through the live tables' actors)."""
    allow = frozenset(allow_origins)

    def is_secure(request: Request) -> bool:
        return secure if secure is not None else request.url.scheme == "https"

    def cookie_of(request: Request) -> str | None:
        return session_cookie(request.cookies, is_secure(request))

    async def body(request: Request) -> dict[str, Any]:
        return await read_body(request, allow, json_only=True)

    def session(request: Request) -> tuple[str, Account]:
        """The request's live session and account, its CSRF token checked (for a change)."""
        raw = cookie_of(request)
        account = players.account_for(raw)
        if raw is None or account is None:
            raise LobbyError(401, "no_session", "log in first")
        if not players.sessions.csrf_ok(raw, request.headers.get(CSRF_HEADER)):
            raise LobbyError(403, "csrf", "the request lacks this session's CSRF token")
        return raw, account

    def logged_in(account: Account, request: Request, status: int = 200, **extra: Any) -> Response:
        """A new session for ``account`` (whatever session the request carried ends: no fixation)."""
        players.sessions.end(cookie_of(request))
        raw = players.sessions.start(account.id)
        response = JSONResponse({"account": account.public(), "csrf": players.sessions.csrf(raw), **extra},
                                status_code=status)
        secure_now = is_secure(request)
        response.set_cookie(SECURE_COOKIE if secure_now else COOKIE, raw, max_age=int(players.sessions.lifetime),
                            path="/", secure=secure_now, httponly=True, samesite="strict")
        return response

    def logged_out(request: Request, payload: dict[str, Any]) -> Response:
        response = JSONResponse(payload)
        for name in (COOKIE, SECURE_COOKIE):
            if name in request.cookies:
                response.delete_cookie(name, path="/", secure=name == SECURE_COOKIE, httponly=True, samesite="strict")
        return response

    def handler(fn: Endpoint) -> Endpoint:
        return answering(fn, (AccountStoreError, LogError))

    @handler
    async def me(request: Request) -> Response:
        raw = cookie_of(request)
        account = players.account_for(raw)
        if raw is None or account is None:
            return JSONResponse({"account": None, "csrf": None})
        return JSONResponse({"account": account.public(), "csrf": players.sessions.csrf(raw)})

    @handler
    async def signup(request: Request) -> Response:
        data = await body(request)
        only(data, "username", "password", "seats")
        # what can be mended is said before the limit is taken: a mistyped name costs no new account
        username_of(data.get("username"))
        check_password(data.get("password"))
        claims = players.seat_claims(data.get("seats", []))  # checked before the account is made
        if not await players.limits.signup_address.allow(client_address(request)):
            raise LobbyError(429, "rate_limited", "too many new accounts from this address; wait a little")
        account = await players.accounts.create(data.get("username"), data.get("password"))
        linked = players.claim_seats(account, claims, client_address(request))
        return logged_in(account, request, 201, linked=linked)

    @handler
    async def login(request: Request) -> Response:
        data = await body(request)
        only(data, "username", "password")
        name = data.get("username")
        # the name as the account is looked up (spelt with invisible characters, spaces or in
        # another case it is still one name), and both limits are taken whatever the name is: a
        # refusal says nothing about which names exist
        key = clean_name(name, "").casefold()
        if (not await players.limits.login_address.allow(client_address(request))
                or not await players.limits.login_account.allow(key)):
            raise LobbyError(429, "rate_limited", "too many logins; wait a little")
        account = await players.accounts.authenticate(name, data.get("password"))
        return logged_in(account, request)

    @handler
    async def logout(request: Request) -> Response:
        await body(request)
        raw, _ = session(request)
        players.sessions.end(raw)
        return logged_out(request, {"account": None})

    @handler
    async def delete(request: Request) -> Response:
        data = await body(request)
        only(data, "password")
        _, account = session(request)
        if not await players.limits.account_address.allow(client_address(request)):
            raise LobbyError(429, "rate_limited", "too many requests; wait a little")
        links = await players.delete(account, data.get("password"), live=None if hub is None else hub.held,
                                     renamed=None if hub is None or hub.cluster is None else hub.cluster.forget)
        return logged_out(request, {"account": None, "anonymized": len(links)})

    @handler
    async def seats(request: Request) -> Response:
        data = await body(request)
        only(data, "seats")
        _, account = session(request)
        if not await players.limits.account_address.allow(client_address(request)):
            raise LobbyError(429, "rate_limited", "too many requests; wait a little")
        claims = players.seat_claims(data.get("seats"))
        return JSONResponse({"linked": players.claim_seats(account, claims, client_address(request))})

    def page_number(request: Request) -> int:
        raw = request.query_params.get("page", "0")
        if not (raw.isascii() and raw.isdigit()) or len(raw) > 6:
            raise LobbyError(400, "bad_page", "page is a whole number")
        return int(raw)

    @handler
    async def profile(request: Request) -> Response:
        viewer = players.account_for(cookie_of(request))
        return JSONResponse(players.profile(request.path_params["username"], viewer, page_number(request)))

    @handler
    async def leaderboard(request: Request) -> Response:
        return JSONResponse(players.leaderboard(request.path_params["game"], page_number(request)))

    quick_routes: list[Route] = []
    if hub is not None:
        quick = players.quick = QuickPlay(hub, players, wait=players.quick_wait, book=players.quick_book)

        def joiner(request: Request) -> Account | None:
            """The account joining (its CSRF token checked), or ``None``: no session."""
            raw = cookie_of(request)
            if raw is None or players.account_for(raw) is None:
                return None
            return session(request)[1]

        @handler
        async def quick_join(request: Request) -> Response:
            data = await body(request)
            only(data, "game", "preset", "name")
            joined = await quick.join(data.get("game"), data.get("preset"), data.get("name"), joiner(request),
                                      client_address(request))
            return JSONResponse(joined, status_code=201)

        @handler
        async def quick_status(request: Request) -> Response:
            return JSONResponse(await quick.status(request.path_params["ticket"]))

        @handler
        async def quick_now(request: Request) -> Response:
            await body(request)
            return JSONResponse(await quick.now(request.path_params["ticket"]))

        @handler
        async def quick_cancel(request: Request) -> Response:
            await body(request)
            return JSONResponse(await quick.cancel(request.path_params["ticket"]))

        quick_routes = [
            Route("/api/quick", quick_join, methods=["POST"]),
            Route("/api/quick/{ticket}", quick_status),
            Route("/api/quick/{ticket}/now", quick_now, methods=["POST"]),
            Route("/api/quick/{ticket}/cancel", quick_cancel, methods=["POST"]),
            Route("/quick/{game}", endpoint("quick")),
        ]

    return [
        *quick_routes,
        Route("/api/players/me", me),
        Route("/api/players/signup", signup, methods=["POST"]),
        Route("/api/players/login", login, methods=["POST"]),
        Route("/api/players/logout", logout, methods=["POST"]),
        Route("/api/players/delete", delete, methods=["POST"]),
        Route("/api/players/seats", seats, methods=["POST"]),
        Route("/api/players/profile/{username:path}", profile),  # a name may hold a slash
        Route("/api/players/leaderboard/{game}", leaderboard),
        Route("/account", endpoint("account")),
        Route("/players/{username:path}", endpoint("profile")),
        Route("/leaderboard", endpoint("leaderboard")),
        Route("/leaderboard/{game}", endpoint("leaderboard")),
    ]
