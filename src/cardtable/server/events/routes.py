"""The events' HTTP API and pages, and what an app needs to run them (:func:`with_events`).

=========================================  ======  ===============================================
path                                       method  what
=========================================  ======  ===============================================
``/api/events``                            GET     ``{"events": [summary], "now"}``: open, running, ended
``/api/events``                            POST    a new event (session, CSRF): ``201 {"event"}``
``/api/events/{id}``                       GET     :func:`event_json`: settings, entrants, rounds,
                                                   standings, the compared duplicate deals
``/api/events/{id}/register``              POST    ``{}`` (session, CSRF): ``{"registered": true}``
``/api/events/{id}/unregister``            POST    ``{}`` (session, CSRF): ``{"registered": false}``
``/api/events/{id}/seat``                  GET     (session) the entrant's table of the round:
                                                   ``{"table", "seat", "token"}``, or 404 ``no_seat``
``/api/events/of/{username}``              GET     the events an account entered, with its place
``/events``, ``/events/{id}``              GET     the pages (``server/pages.py``)
=========================================  ======  ===============================================

Errors are the lobby's ``{"error": code, "message": text}``. While a duplicate round is played,
its tables are sealed (:meth:`~.runner.Runner.is_sealed`): :class:`EventGate` refuses their record,
replay and review (``409 sealed``) and closes a socket whose ``hello`` holds no seat token of the
table (a spectator) with 1008.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..edge import answering, client_address, read_body
from ..hub import FORFEITED
from ..lobby import LobbyError
from ..pages import endpoint
from ..players.sessions import CSRF_HEADER, session_cookie
from ..players.store import AccountStoreError
from ..ports import LogError
from ..protocol import CLOSE_FORFEITED, CLOSE_POLICY
from .runner import NO_SHOW, Runner, commitments, duplicate_score, final_standings, seat_token
from .service import Events, Limits, summary
from .store import EventLog, EventRow

if TYPE_CHECKING:
    from starlette.applications import Starlette

    from ..hub import Hub
    from ..players import Account, Players


def event_json(row: EventRow, events: Events, runner: Runner | None = None) -> dict[str, Any]:
    """What anyone may see of an event: never its secret or a seat token; a duplicate deal's
    comparison only once every table has finished it (the runner publishes no other)."""
    entrants = events.store.entrants(row.id)
    progress = row.progress or {}
    names = {p["id"]: p["name"] for p in progress.get("field", [])}
    out: dict[str, Any] = {
        "event": summary(row, len(entrants)),
        "entrants": [{"username": e.username, "registered": e.registered} for e in entrants],
        "commitments": commitments(row),
        "now": events.clock(),
        "rounds": [],
        "standings": final_standings(row, progress) if progress.get("field") else [],
        "deals": [],
        # the started field by id: a bot's name is words ("medium 1") that the pages put in their language
        "field": [{"id": p["id"], "name": p["name"], **({"bot": p["bot"]} if "bot" in p else {})}
                  for p in progress.get("field", [])],
    }
    for rnd in progress.get("rounds", []):
        sealed = runner is not None and any(runner.is_sealed(g["table"]) for g in rnd["games"])
        out["rounds"].append({
            "number": rnd["number"], "done": rnd.get("done", False), "bye": names.get(rnd.get("bye") or ""),
            "bye_id": rnd.get("bye"), "sealed": sealed,
            "games": [{"table": g["table"], "players": [names.get(p, p) for p in g["players"]], "ids": g["players"],
                       "points": g.get("points"), "forfeit": g.get("forfeit", False), "void": g.get("void", False),
                       "done": g.get("done")}
                      for g in rnd["games"]]})
    if row.kind == "duplicate" and progress.get("boards"):
        score = duplicate_score(row, progress)
        deals: dict[tuple[int, int], dict[int, list[dict[str, Any]]]] = {}
        for b in progress["boards"]:
            who = b["player"]
            shown = names.get(who.split(":", 1)[-1], who)
            deals.setdefault((b["round"], b["deal"]), {}).setdefault(b["hand"], []).append({
                "table": b["table"], "player": shown, "id": who.split(":", 1)[-1], "stand_in": ":" in who,
                "contract": b["contract"],
                "score": b["score"],
                "matchpoints": score.boards.get(((b["round"], b["deal"]), b["hand"], b["table"]))})
        out["deals"] = [{"round": r, "deal": d,
                         "hands": [{"hand": h, "tables": rows} for h, rows in sorted(hands.items())]}
                        for (r, d), hands in sorted(deals.items())]
    return out


def event_routes(events: Events, players: Players, runner: Runner | None = None, *,
                 allow_origins: tuple[str, ...] = ()) -> list[Route]:
    allow = frozenset(allow_origins)

    def account_of(request: Request, change: bool) -> Account:
        raw = session_cookie(request.cookies, request.url.scheme == "https")
        account = players.account_for(raw)
        if raw is None or account is None:
            raise LobbyError(401, "no_session", "log in first")
        if change and not players.sessions.csrf_ok(raw, request.headers.get(CSRF_HEADER)):
            raise LobbyError(403, "csrf", "the request lacks this session's CSRF token")
        return account

    async def body(request: Request) -> dict[str, Any]:
        return await read_body(request, allow, json_only=True)

    def handler(fn: Any) -> Any:
        return answering(fn, (AccountStoreError, LogError))

    @handler
    async def listing(request: Request) -> Response:
        if request.method == "POST":
            data = await body(request)
            account = account_of(request, True)
            row = await events.create(account, data, client_address(request))
            return JSONResponse({"event": summary(row, 0)}, status_code=201)
        return JSONResponse({"events": events.listing(), "now": events.clock()})

    @handler
    async def show(request: Request) -> Response:
        return JSONResponse(event_json(events.get(request.path_params["event_id"]), events, runner))

    @handler
    async def register(request: Request) -> Response:
        await body(request)
        account = account_of(request, True)
        await events.register(request.path_params["event_id"], account, client_address(request))
        return JSONResponse({"registered": True})

    @handler
    async def unregister(request: Request) -> Response:
        await body(request)
        account = account_of(request, True)
        await events.unregister(request.path_params["event_id"], account, client_address(request))
        return JSONResponse({"registered": False})

    @handler
    async def seat(request: Request) -> Response:
        account = account_of(request, False)
        row = events.get(request.path_params["event_id"])
        rounds = (row.progress or {}).get("rounds", [])
        me = f"a{account.id}"
        if row.status == "running" and rounds:
            for g in rounds[-1]["games"]:
                if me in g["players"] and g.get("points") is None:
                    s = g["players"].index(me)
                    return JSONResponse({"table": g["table"], "seat": s, "token": seat_token(row.secret, g["table"], s),
                                         "round": rounds[-1]["number"]})
        raise LobbyError(404, "no_seat", "no game of yours to play in this event now")

    @handler
    async def of(request: Request) -> Response:
        account = players.accounts.named(request.path_params["username"])
        if account is None:
            raise LobbyError(404, "no_player", "no such player")
        out = []
        for row in events.store.events_of(account.id):
            place = None
            if row.progress and row.progress.get("field"):
                for line in final_standings(row, row.progress):
                    if line["player"] == f"a{account.id}":
                        place = line["place"]
            out.append({**summary(row, len(events.store.entrants(row.id))), "place": place})
        return JSONResponse({"username": account.username, "events": out})

    return [
        Route("/api/events", listing, methods=["GET", "POST"]),
        Route("/api/events/of/{username:path}", of),
        Route("/api/events/{event_id}", show),
        Route("/api/events/{event_id}/register", register, methods=["POST"]),
        Route("/api/events/{event_id}/unregister", unregister, methods=["POST"]),
        Route("/api/events/{event_id}/seat", seat),
        Route("/events", endpoint("events")),
        Route("/events/{event_id}", endpoint("event")),
    ]


_SEALED_HTTP = re.compile(r"/api/tables/([^/]{1,64})/(?:record|replay|review)")
_TABLE_HTTP = re.compile(r"/api/tables/([^/]{1,64})")
_LEAVE_HTTP = re.compile(r"/api/tables/([^/]{1,64})/leave")
_SOCKET = re.compile(r"/ws/([^/]{1,64})")
_ANY_TABLE_HTTP = re.compile(r"/api/tables/([^/]{1,64})(?:/.*)?")


def _sealed_summaries(send: Any, sealed: Callable[[str], bool]) -> Callable[[Any], Awaitable[None]]:
    """``send`` for a table's summary (``GET /api/tables/{id}``) or the lobby's (``GET
    /api/tables``) with what a sealed table's summary would tell of its deals taken out: the fair
    deal's server seed (a table that has finished its game would give it, and with it the deals
    the other tables of the round have still to play), and its version (how many moves each deal
    took: how many passes, doubles and redeals the same cards made)."""
    start: dict[str, Any] = {}
    body = b""

    async def sending(message: Any) -> None:
        nonlocal body
        if message["type"] == "http.response.start":
            start.update(message)
            return
        body += message.get("body", b"")
        if message.get("more_body"):
            return
        with contextlib.suppress(ValueError, TypeError, AttributeError, KeyError):
            data = json.loads(body)
            tables = [data["table"]] if "table" in data else data["tables"]
            for table in tables:
                if not isinstance(table.get("id"), str) or not sealed(table["id"]):
                    continue
                fair = table.get("fair")
                if isinstance(fair, dict) and fair.get("server_seed"):
                    fair["server_seed"] = None
                table["version"] = None
            body = json.dumps(data).encode()
        headers = [(k, v) for k, v in start.get("headers", []) if k.lower() != b"content-length"]
        headers.append((b"content-length", str(len(body)).encode()))
        await send({**start, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    return sending


class EventGate:
    """ASGI middleware: an event's table closed by a no-show (:attr:`~.runner.Runner.forfeited`)
    answers ``410 forfeited`` and closes its sockets with 4010 once accepted (so nothing loads it
    into the lobby again, and its pages stop reconnecting);
    an event's table that has not started keeps its seats (leaving it would
    open a seat that nobody may take: it is refused, the no-show rule covers an absent person);
    a sealed table's record, replay and review wait for the round's end, its
    summary leaves out the server seed, and its sockets are its seats' only (a socket whose
    ``hello`` holds no seat token of the table is closed with 1008 before the table sees the
    hello). The seats of a table that finished know its deals already: they played them."""

    def __init__(self, app: Any, runner: Runner, hub: Hub) -> None:
        self.app = app
        self.runner = runner
        self.hub = hub

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        path = scope.get("path", "")
        m = (_ANY_TABLE_HTTP if scope["type"] == "http" else _SOCKET).fullmatch(path)
        if m and m.group(1) in self.runner.forfeited and scope["type"] in ("http", "websocket"):
            if scope["type"] == "websocket":
                # accepted, then closed 4010 with its reason: a page sees why and stops reconnecting
                # (a close before the accept is an HTTP 403 that no page can tell from a drop)
                if (await receive()).get("type") == "websocket.connect":
                    await send({"type": "websocket.accept"})
                    await send({"type": "websocket.close", "code": CLOSE_FORFEITED, "reason": FORFEITED})
                return
            response = JSONResponse({"error": "forfeited", "message": FORFEITED}, status_code=410)
            await response(scope, receive, send)
            return
        if scope["type"] == "http":
            m = _SEALED_HTTP.fullmatch(path)
            if m and self.runner.is_sealed(m.group(1)):
                response = JSONResponse({"error": "sealed", "message": "a duplicate round is being played: its games"
                                         " are shown once every table has finished"}, status_code=409)
                await response(scope, receive, send)
                return
            m = _LEAVE_HTTP.fullmatch(path)
            if m and self.runner.waiting(m.group(1)):
                response = JSONResponse({"error": "event_table", "message": "this table belongs to an event: it"
                                         " starts once its players are there; leave it once it has"}, status_code=409)
                await response(scope, receive, send)
                return
            m = _TABLE_HTTP.fullmatch(path)
            if (m and self.runner.is_sealed(m.group(1))) or (path == "/api/tables" and scope.get("method") == "GET"):
                await self.app(scope, receive, _sealed_summaries(send, self.runner.is_sealed))
                return
        elif scope["type"] == "websocket":
            m = _SOCKET.fullmatch(path)
            if m and self.runner.is_sealed(m.group(1)):
                await self.app(scope, self._seats_only(m.group(1), receive, send), send)
                return
        await self.app(scope, receive, send)

    def _seats_only(self, table_id: str, receive: Any, send: Any) -> Callable[[], Awaitable[Any]]:
        checked = False

        async def gated() -> Any:
            nonlocal checked
            message = await receive()
            if checked or message.get("type") != "websocket.receive":
                return message
            checked = True
            token = None
            with contextlib.suppress(ValueError, TypeError, AttributeError):
                token = json.loads(message.get("text") or "").get("token")
            if self.runner.is_sealed(table_id) and not await self.runner.holds_seat(table_id, token):
                await send({"type": "websocket.close", "code": CLOSE_POLICY,
                            "reason": "a duplicate round is being played: no spectators"})
                return {"type": "websocket.disconnect", "code": CLOSE_POLICY}
            return message

        return gated


def record_results(hub: Hub, runner: Runner) -> None:
    """A finished table's result recorded by the runner (a rated event's) and then by the server
    (``hub.finished`` as it was: every game's record): at once, but for a sealed table of a
    duplicate round, whose result waits for the round's end (:meth:`Runner._record_sealed`)."""
    recorded = hub.finished

    def record(table: Any) -> None:
        runner.table_finished(table)
        if recorded is not None:
            recorded(table)

    def finished(table: Any) -> None:
        if not runner.is_sealed(table.id):
            record(table)

    runner.record = record
    hub.finished = finished


def with_events(app: Starlette, players: Players, store: EventLog, *, allow_origins: tuple[str, ...] = (),
                no_show: float = NO_SHOW, tick: float = 0.5, limits: Limits | None = None) -> Runner:
    """Events on ``app`` (made by :func:`cardtable.server.app.create_app`, not started yet): their
    routes, the gate of sealed tables, and the runner's task for the app's lifetime (``store``
    closed with the app). The runner. On a cluster (the hub's), one node at a time runs the
    events (:meth:`~..cluster.Cluster.lead`); every node serves their routes and gates their tables.
    ``limits``: the events' rate limits (a cluster's are shared by its nodes)."""
    hub: Hub = app.state.hub
    events = Events(store, limits=limits)
    cluster = hub.cluster
    lead = None if cluster is None else (lambda: cluster.lead("events"))
    runner = Runner(events, hub, players, no_show=no_show, tick=tick, lead=lead)
    app.router.routes[0:0] = event_routes(events, players, runner, allow_origins=allow_origins)
    record_results(hub, runner)
    app.add_middleware(EventGate, runner=runner, hub=hub)
    inner = app.router.lifespan_context

    @contextlib.asynccontextmanager
    async def lifespan(a: Any) -> AsyncIterator[Any]:
        async with inner(a) as state:
            def every_tick(turn: Callable[[], Awaitable[None]]) -> Callable[[], Coroutine[Any, Any, None]]:
                async def loop() -> None:
                    while True:
                        await asyncio.sleep(runner.tick)
                        try:
                            await turn()
                        except Exception as exc:  # one bad turn never stops the events
                            print(f"cardtable serve: events: {type(exc).__name__}: {exc}", file=sys.stderr)

                return loop

            loop = asyncio.get_running_loop()
            tasks = [loop.create_task(every_tick(runner.step)())]
            if lead is not None:
                tasks.append(loop.create_task(every_tick(runner.keep_lead)()))
            try:
                yield state
            finally:
                for task in tasks:
                    task.cancel()
                for task in tasks:
                    with contextlib.suppress(asyncio.CancelledError):
                        await task
                store.close()

    app.router.lifespan_context = lifespan
    app.state.events = runner
    return runner
