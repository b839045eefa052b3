"""A finished game replayed for the page: what one seat saw after each step of its record.

``GET /api/tables/{id}/replay?seat=N&step=K&lang=xx`` answers step ``K`` (0: the deal, before any
action) as seat ``N`` saw it (no ``seat``: as a spectator), with the last lines of its "What
happened" up to that step. Every view is ``state.view(seat)`` of the state the record rebuilds
(:func:`cardtable.records.record.replay_views`), and only a game that is over is replayed: its
record is public then (H6), before it would give every hidden card away. A game's views for one
seat and language are computed once (off the event loop) and kept for the next steps (:class:`ReplayCache`).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..i18n import LANGUAGES, event_text
from ..records.record import Record, replay_views
from .encode import view_json
from .hub import Hub
from .lobby import LobbyError

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


class ReplayCache:
    """The views of the last few (table, seat, language) replays asked for."""

    def __init__(self, size: int = 8) -> None:
        self.size = size
        self._kept: OrderedDict[tuple[str, int | None, str], list[dict[str, Any]]] = OrderedDict()

    def get(self, key: tuple[str, int | None, str]) -> list[dict[str, Any]] | None:
        views = self._kept.get(key)
        if views is not None:
            self._kept.move_to_end(key)
        return views

    def put(self, key: tuple[str, int | None, str], views: list[dict[str, Any]]) -> None:
        self._kept[key] = views
        while len(self._kept) > self.size:
            self._kept.popitem(last=False)


def whole_number(value: str | None, name: str, low: int, high: int) -> int:
    """A query parameter that must be a whole number in [low, high] (a 400 otherwise)."""
    if value is None or not value.lstrip("-").isdigit() or not low <= int(value) <= high:
        raise LobbyError(400, "bad_request", f"{name} is a whole number from {low} to {high}")
    return int(value)


def replay_endpoint(hub: Hub, cache: ReplayCache | None = None) -> Any:
    """The ``GET /api/tables/{table_id}/replay`` handler over ``hub``'s tables."""
    kept = cache if cache is not None else ReplayCache()

    async def api_replay(request: Request) -> Response:
        try:
            table = hub.get(request.path_params["table_id"])
            match = table.match
            if match is None or not match.is_over:
                raise LobbyError(409, "in_progress", "a game is replayed once it is over")
            q = request.query_params
            seat = None
            if q.get("seat") not in (None, "", "none"):
                seat = whole_number(q.get("seat"), "seat", 0, table.num_players - 1)
            lang = q.get("lang", "en")
            if lang not in LANGUAGES:
                raise LobbyError(400, "bad_request", "lang: " + ", ".join(LANGUAGES))
            key = (table.id, seat, lang)
            views = kept.get(key)
            if views is None:  # a whole Trex game takes most of a second: not on the event loop
                views = await run_in_threadpool(seat_views, match.record(), seat, lang)
                kept.put(key, views)
            last = len(views) - 1
            step = last if q.get("step") in (None, "", "end") else whole_number(q.get("step"), "step", 0, last)
        except LobbyError as exc:
            return JSONResponse({"error": exc.code, "message": exc.message}, status_code=exc.status)
        log: list[dict[str, Any]] = []
        for view in reversed(views[: step + 1]):
            log[:0] = view["events"]
            if len(log) >= LOG_LINES:
                break
        return JSONResponse({"step": step, "steps": last, "seat": seat, "game": table.row.game,
                             "view": views[step], "log": log[-LOG_LINES:]})

    return api_replay
