"""A finished game's review for the browser replay: where one seat lost its points.

``GET /api/tables/{id}/review?seat=N`` answers :func:`cardtable.review.review` of the table's
record for seat ``N``: the costliest decisions (the step of the record, the move played, the best
move from what the seat knew, the points lost, the best move with all cards known) and, in Trex,
every contract choice. The all-cards-known half reads the true positions, so a review is only ever
made of a game that is over (409 ``in_progress`` before, as the record and the replay). It is
worked out off the event loop, one review at a time, with a small budget of worlds so that a whole
Trex game answers in a few seconds, and kept per (table, seat).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..records.record import Record
from ..review import COSTLY, Review, review
from .hub import Hub
from .lobby import LobbyError
from .replay import whole_number

WORLDS = 8
"""Worlds dealt per decision: a whole Trex game of 20 deals reviews in 3 to 5 s on this machine
(the terminal's ``cardtable review`` deals 32)."""

SHOWN = 8
"""The costliest decisions listed."""


def review_json(result: Review, shown: int = SHOWN) -> dict[str, Any]:
    """What the page lists: the summary, the costliest decisions and the contract choices."""

    def entry(d: Any) -> dict[str, Any]:
        return {"step": d.step, "deal": d.deal, "kind": d.kind, "played": d.played, "best": d.best,
                "loss": round(d.loss, 4), "hindsight_best": d.hindsight_best,
                "hindsight_loss": round(d.hindsight_loss, 4)}

    return {
        "game": result.game, "seat": result.seat, "unit": result.unit, "worlds": result.worlds,
        "decisions": len(result.decisions), "total_loss": round(result.total_loss, 4),
        "costliest": [entry(d) for d in result.costliest(shown)],
        "contracts": [{**entry(d), "values": {a: round(v, 2) for a, v in d.values.items()}}
                      for d in result.contract_choices()],
    }


def seat_review(record: Record, seat: int, worlds: int = WORLDS) -> dict[str, Any]:
    """The review of ``seat`` in a finished game's ``record``, as the page lists it."""
    return review_json(review(record, seat, worlds=worlds, hindsight=True))


class ReviewCache:
    """The reviews worked out, per (table, seat): the last ``size`` kept, one worked out at a time.
    A second request for a review being worked out waits for the same work, and a request that
    goes away does not stop it (the next one finds it kept)."""

    def __init__(self, size: int = 32) -> None:
        self.size = size
        self._kept: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()
        self._working: dict[tuple[str, int], asyncio.Task[dict[str, Any]]] = {}
        self._one = asyncio.Lock()

    async def get(self, key: tuple[str, int], record: Record, worlds: int) -> dict[str, Any]:
        kept = self._kept.get(key)
        if kept is not None:
            self._kept.move_to_end(key)
            return kept
        task = self._working.get(key)
        if task is None:
            task = self._working[key] = asyncio.ensure_future(self._work(key, record, worlds))
            task.add_done_callback(lambda done: self._done(key, done))
        return await asyncio.shield(task)

    async def _work(self, key: tuple[str, int], record: Record, worlds: int) -> dict[str, Any]:
        async with self._one:  # one review at a time: the games being played come first
            result = await asyncio.to_thread(seat_review, record, key[1], worlds)
        self._kept[key] = result
        while len(self._kept) > self.size:
            self._kept.popitem(last=False)
        return result

    def _done(self, key: tuple[str, int], task: asyncio.Task[dict[str, Any]]) -> None:
        self._working.pop(key, None)
        if not task.cancelled():
            task.exception()  # retrieved: a failed review is asked for again next time


def review_endpoint(hub: Hub, cache: ReviewCache | None = None, worlds: int = WORLDS) -> Any:
    """The ``GET /api/tables/{table_id}/review?seat=N`` handler over ``hub``'s tables."""
    kept = cache if cache is not None else ReviewCache()

    async def api_review(request: Request) -> Response:
        try:
            table = hub.get(request.path_params["table_id"])
            if table.row.game not in COSTLY:  # the reviewed games (Spit is a race, not decisions)
                raise LobbyError(400, "no_review", f"no review for {table.row.game}: reviews exist for "
                                 + ", ".join(sorted(COSTLY)))
            match = table.match
            if match is None or not match.is_over:  # all cards known: never while it is played
                raise LobbyError(409, "in_progress", "a game is reviewed once it is over")
            seat = whole_number(request.query_params.get("seat"), "seat", 0, table.num_players - 1)
            data = await kept.get((table.id, seat), match.record(), worlds)
        except LobbyError as exc:
            return JSONResponse({"error": exc.code, "message": exc.message}, status_code=exc.status)
        return JSONResponse(data)

    return api_review
