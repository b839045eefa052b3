"""One table's HTTP routes: its public state, its record, its replay and review, and the lobby's
operations on it (sit, commit, reveal, leave; the host's bot, free and start)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from .cluster import RemoteTable
from .commands import AddBot, Command, Commit, Free, Leave, Reveal, Sit, Start
from .context import AppContext
from .edge import answering, client_address, read_body
from .lobby import LobbyError
from .players import Players
from .players.sessions import session_cookie
from .replay import replay_endpoint
from .review import review_endpoint
from .tables import Table


def table_routes(ctx: AppContext) -> list[BaseRoute]:
    """``/api/tables/{table_id}`` and what is under it."""
    hub, players = ctx.hub, ctx.players

    async def api_table(request: Request) -> Response:
        table = await ctx.locate(request.path_params["table_id"])
        public = await table.public_async() if isinstance(table, RemoteTable) else table.public()
        return JSONResponse({"table": public})

    async def api_record(request: Request) -> Response:
        """A finished game's record (seed and actions: ``cardtable replay`` shows it; a fair game's
        commitments, seeds and deals: ``cardtable verify`` checks it); never before the end, when
        the seed would give every hidden card away (H6)."""
        table = await hub.over(request.path_params["table_id"], "the record is published when the game is over")
        assert table.match is not None
        name = f"cardtable-{table.row.game}-{table.id}.json"
        return JSONResponse(table.match.record().to_json(),
                            headers={"Content-Disposition": f'attachment; filename="{name}"'})

    async def api_table_op(request: Request) -> Response:
        op = request.path_params["op"]
        data = await read_body(request, ctx.allow)
        table = await ctx.locate(request.path_params["table_id"])
        cmd = table_command(table, op, data)
        if players is not None and isinstance(cmd, Sit):
            cmd = one_seat_at_rated(players, request, table, cmd)
        table.visitors += 1  # not swept from memory while its command waits
        try:
            reply = await table.ask(cmd)
        finally:
            table.visitors -= 1
        if players is not None:
            seat_owner(players, request, table.id, cmd, reply)
        return JSONResponse(reply)

    return [
        Route("/api/tables/{table_id}", answering(api_table)),
        Route("/api/tables/{table_id}/record", answering(api_record)),
        Route("/api/tables/{table_id}/replay", replay_endpoint(hub, ctx.offload)),
        Route("/api/tables/{table_id}/review", review_endpoint(hub, ctx.offload)),
        Route("/api/tables/{table_id}/{op}", answering(api_table_op), methods=["POST"]),
    ]


def table_command(table: Table | RemoteTable, op: str, data: dict[str, Any]) -> Command:
    """The command of ``POST /api/tables/{id}/{op}``, its fields checked; the host's operations
    need the table's host token."""
    fields = {"sit": ("seat", "name", "commitment"), "commit": ("token", "commitment"), "reveal": ("token", "seed"),
              "leave": ("token",), "bot": ("host", "seat", "bot"), "free": ("host", "seat"), "start": ("host",)}
    if op not in fields:
        raise LobbyError(404, "no_op", "no such operation")
    extra = set(data) - set(fields[op])
    if extra:
        raise LobbyError(400, "bad_request", f"unknown fields; fields: {', '.join(fields[op])}")
    if op == "sit":
        return Sit(data.get("seat"), data.get("name"), data.get("commitment"))
    if op == "commit":
        return Commit(data.get("token"), data.get("commitment"))
    if op == "reveal":
        return Reveal(data.get("token"), data.get("seed"))
    if op == "leave":
        return Leave(data.get("token"))
    if not table.is_host(data.get("host")):
        raise LobbyError(403, "not_host", "only the table's host may do that")
    if op == "bot":
        return AddBot(data.get("seat"), data.get("bot"))
    if op == "free":
        return Free(data.get("seat"))
    return Start()


def one_seat_at_rated(players: Players, request: Request, table: Table | RemoteTable, cmd: Sit) -> Sit:
    """A logged-in person holds one seat of a rated table at most (a 409 for a second): a game
    against oneself would rate nothing, and the ratings do not count it. The seats linked to the
    account say so (after a restart too), and the table itself refuses a second sit of the
    account that comes while the first is on its way: the sit, with the account in it."""
    account = players.account_for(session_cookie(request.cookies, request.url.scheme == "https"))
    if account is None:
        return cmd
    if table.row.rated and account.id in players.seat_accounts(table.id, len(table.row.seats)):
        raise LobbyError(409, "one_seat", "you hold a seat at this rated table already")
    return replace(cmd, account=account.id)


def seat_owner(players: Players, request: Request, table_id: str, cmd: Command, reply: Any) -> None:
    """A seat taken by a person who is logged in is their account's; a seat opened again before
    the start is nobody's."""
    if isinstance(cmd, Sit):
        account = players.account_for(session_cookie(request.cookies, request.url.scheme == "https"))
        if account is not None:
            players.link_seat(account.id, table_id, int(reply["seat"]), token=reply["token"],
                              address=client_address(request))
    elif isinstance(cmd, Leave | Free) and reply["table"]["status"] == "open":
        players.unlink_seat(table_id, int(cmd.seat if isinstance(cmd, Free) else reply["seat"]))
