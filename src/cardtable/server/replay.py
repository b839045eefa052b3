"""A finished game replayed for the page: what one seat saw after each step of its record.

``GET /api/tables/{id}/replay?seat=N&step=K&lang=xx`` answers step ``K`` (0: the deal, before any
action) as seat ``N`` saw it (no ``seat``: as a spectator), with the last lines of its "What
happened" up to that step. Every view is ``state.view(seat)`` of the state the record rebuilds
(:func:`cardtable.records.record.replay_views`), and only a game that is over is replayed: its
record is public then (H6), before it would give every hidden card away.

A game's views for one seat and language are built once, in a worker process
(:class:`~cardtable.server.offload.Offload`: never on the event loop, bounded per address and in
total), as ready JSON bytes per step; a request then only joins the bytes of its step.
"""

from __future__ import annotations

import json
import re
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..i18n import LANGUAGES, event_text
from ..records.record import Record, replay_views
from .edge import answering, client_address
from .encode import view_json
from .hub import Hub
from .lobby import LobbyError
from .offload import Busy, Offload

LOG_LINES = 60
"""Lines of "What happened" sent with a step (the page keeps as many)."""


def seat_views(record: Record, seat: int | None, lang: str) -> list[dict[str, Any]]:
    """Each step's view of ``seat`` as the page's frames carry it: events in ``lang``, each with
    the step (``version``) it happened at."""
    out = []
    for number, (_, view) in enumerate(replay_views(record, seat)):
        data = view_json(view)
        for event, text in zip(view.events, data["events"], strict=True):
            if lang != "en":
                text["text"] = event_text(record.game, event, view, lang)
            text["version"] = number
        out.append(data)
    return out


def _json(value: Any) -> bytes:
    """``value`` as the server's JSON answers encode it."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode("utf-8")


Parts = tuple[list[bytes], list[list[bytes]]]
"""A replay ready to answer: each step's view, and each step's events, as JSON bytes."""


def replay_parts(record: dict[str, Any], seat: int | None, lang: str) -> Parts:
    """:func:`seat_views` of a record given as JSON (run in a worker process), encoded."""
    views = seat_views(Record.from_json(record), seat, lang)
    return [_json(view) for view in views], [[_json(event) for event in view["events"]] for view in views]


def parts_size(parts: Parts) -> int:
    views, events = parts
    return sum(map(len, views)) + sum(len(e) for step in events for e in step)


def step_answer(parts: Parts, step: int, seat: int | None, game: str) -> bytes:
    """The answer for ``step``: its view and the last :data:`LOG_LINES` events up to it."""
    views, events = parts
    log: list[bytes] = []
    for number in range(step, -1, -1):
        log[:0] = events[number]
        if len(log) >= LOG_LINES:
            break
    return b"".join((b'{"step":', str(step).encode(), b',"steps":', str(len(views) - 1).encode(),
                     b',"seat":', _json(seat), b',"game":', _json(game), b',"view":', views[step],
                     b',"log":[', b",".join(log[-LOG_LINES:]), b"]}"))


def busy_answer(exc: Busy) -> JSONResponse:
    """``429`` for an address with work under way, ``503`` for a server with too much."""
    mine = exc.scope == "address"
    message = ("your earlier replays or reviews are still being worked out; try again in a moment" if mine
               else "the server is working out many replays and reviews; try again in a moment")
    return JSONResponse({"error": "busy", "message": message}, status_code=429 if mine else 503,
                        headers={"Retry-After": "1"})


_WHOLE = re.compile(r"-?[0-9]{1,9}")


def whole_number(value: str | None, name: str, low: int, high: int) -> int:
    """A query parameter that must be a whole number in [low, high] (a 400 otherwise)."""
    if value is None or not _WHOLE.fullmatch(value) or not low <= int(value) <= high:
        raise LobbyError(400, "bad_request", f"{name} is a whole number from {low} to {high}")
    return int(value)


def replay_endpoint(hub: Hub, offload: Offload) -> Any:
    """The ``GET /api/tables/{table_id}/replay`` handler over ``hub``'s tables."""

    async def api_replay(request: Request) -> Response:
        table = await hub.over(request.path_params["table_id"], "a game is replayed once it is over")
        match = table.match
        assert match is not None
        q = request.query_params
        seat = None
        if q.get("seat") not in (None, "", "none"):
            seat = whole_number(q.get("seat"), "seat", 0, table.num_players - 1)
        lang = q.get("lang", "en")
        if lang not in LANGUAGES:
            raise LobbyError(400, "bad_request", "lang: " + ", ".join(LANGUAGES))
        key = ("replay", table.id, seat, lang)
        parts = offload.kept(key)
        if parts is None:
            try:
                parts = await offload.run(key, client_address(request), parts_size, replay_parts,
                                          match.record().to_json(), seat, lang)
            except Busy as exc:
                return busy_answer(exc)
        last = len(parts[0]) - 1
        step = last if q.get("step") in (None, "", "end") else whole_number(q.get("step"), "step", 0, last)
        return Response(step_answer(parts, step, seat, table.row.game), media_type="application/json")

    return answering(api_replay)
