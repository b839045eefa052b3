"""The lobby's routes: the page, the games on offer, the list of tables and a new table, the
translations of the page, and the health check for a load balancer."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from ..bots import bot_names
from ..core.registry import game_class, game_names
from ..i18n import LANGUAGES, catalog
from .context import AppContext
from .edge import answering, client_address, only, read_body
from .howto import howto_endpoint
from .lobby import LobbyError
from .pages import WEB, endpoint
from .store import token_hash


def games_info() -> list[dict[str, Any]]:
    """Each game's title, presets, options and bots, as ``GET /api/games`` answers them."""
    out = []
    for name in game_names():
        cls = game_class(name)
        out.append({
            "name": name,
            "title": cls.title,
            "presets": {p: cls.PRESET_DOCS.get(p, "") for p in cls.PRESETS},
            "options": [
                {"name": o.name, "type": o.kind.__name__, "default": o.default, "doc": o.doc,
                 "choices": list(o.choices) if o.choices else None, "minimum": o.minimum, "maximum": o.maximum}
                for o in cls.OPTIONS
            ],
            "bots": bot_names(name),
            "undo": not cls.realtime,  # a table of it may allow undo against bots (docs/web.md)
        })
    return out


def lobby_routes(ctx: AppContext) -> list[BaseRoute]:
    """The page (and its static files), ``/api/games``, ``/api/health``, ``/api/tables`` and
    ``/i18n/{lang}.json``."""
    hub, limits, cluster = ctx.hub, ctx.limits, ctx.cluster

    async def api_health(request: Request) -> Response:
        """For a load balancer: 200 once this process serves (its cluster joined), else 503;
        ``?table=ID`` adds which node owns that table (a cluster). ``refused``: what its sockets
        refused since it started, by code (P5)."""
        out: dict[str, Any] = {"status": "ok" if ctx.ready else "starting", "tables": len(hub.tables),
                               "refused": dict(ctx.refused)}
        if cluster is not None:
            out["node"] = cluster.node
            out["owned"] = len(cluster.owned)
            table_id = request.query_params.get("table")
            if table_id:
                out["owner"] = await cluster.owner(table_id[:64])
        return JSONResponse(out, status_code=200 if ctx.ready else 503)

    async def api_games(request: Request) -> Response:
        return JSONResponse({"games": games_info(), "languages": list(LANGUAGES)})

    async def api_tables(request: Request) -> Response:
        if request.method == "GET":
            mine = hub.listing()
            return JSONResponse({"tables": mine if cluster is None else await cluster.listing(mine)})
        ip = client_address(request)
        if not await limits.take("create", ip, ctx.create_rate, ctx.create_burst):
            raise LobbyError(429, "rate_limited", "too many new tables; wait a little")
        data = await read_body(request, ctx.allow)
        only(data, "game", "preset", "options", "host", "undo", "rated", "clock")
        given = data.get("host")
        elsewhere = (await limits.elsewhere(f"open:{ip}"),
                     await limits.elsewhere(f"host:{token_hash(given)}") if isinstance(given, str) else 0)
        table, host = hub.create(data.get("game"), data.get("preset"), data.get("options"), owner=ip,
                                 host=given, undo=data.get("undo", False), elsewhere=elsewhere,
                                 rated=data.get("rated", False), clock=data.get("clock", "default"))
        if cluster is not None:
            await cluster.acquire(table.id)
            await limits.counted(f"open:{ip}", 1)  # the other nodes count it at once
            await limits.counted(f"host:{table.row.host_hash}", 1)
        return JSONResponse({"table": table.public(), "host": host}, status_code=201)

    async def i18n(request: Request) -> Response:
        lang = request.path_params["lang"]
        if lang not in LANGUAGES:
            return JSONResponse({"error": "no_lang"}, status_code=404)
        keys = {k: v for k, v in catalog(lang).items() if k.startswith("web.")}
        fallback = {k: v for k, v in catalog("en").items() if k.startswith("web.")}
        return JSONResponse({**fallback, **keys})

    page = endpoint("table")

    return [
        Route("/", page),
        Route("/t/{table_id}", page),
        Route("/t/{table_id}/replay", page),
        Route("/howto/{game}", page),
        Route("/api/howto/{game}", howto_endpoint()),
        Route("/api/games", api_games),
        Route("/api/health", api_health),
        Route("/api/tables", answering(api_tables), methods=["GET", "POST"]),
        Route("/i18n/{lang}.json", i18n),
        Mount("/static", app=StaticFiles(directory=WEB / "static"), name="static"),
    ]
