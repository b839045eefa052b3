"""A finished game's review for the browser replay: where one seat lost its points.

``GET /api/tables/{id}/review?seat=N`` answers :func:`cardtable.review.review` of the table's
record for seat ``N``: the costliest decisions (the step of the record, the move played, the best
move from what the seat knew, the points lost, the best move with all cards known) and, in Trex,
every contract choice. The all-cards-known half reads the true positions, so a review is only ever
made of a game that is over (409 ``in_progress`` before, as the record and the replay). It is
worked out once per (table, seat), in a worker process (:class:`~cardtable.server.offload.Offload`:
never on the event loop, bounded per address and in total, so one visitor's flood of reviews
neither slows the games nor makes another visitor's review wait behind it), with a small budget of
worlds so that a whole Trex game answers in a few seconds.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..records.record import Record
from ..review import COSTLY, Review, review
from .edge import answering, client_address
from .hub import Hub
from .lobby import LobbyError
from .offload import Busy, Offload
from .replay import busy_answer, whole_number
from .store import ActionRow

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


def seat_review(record: dict[str, Any], seat: int, worlds: int = WORLDS,
                own: frozenset[int] | None = None) -> dict[str, Any]:
    """The review of ``seat`` in a finished game's record (given as JSON: this runs in a worker
    process), as the page lists it. ``own``: the steps the seat's person chose themselves; the
    moves a stand-in bot made while they were away are not theirs to be judged on (``None``: every
    decision of the seat, as for a bot's seat)."""
    result = review(Record.from_json(record), seat, worlds=worlds, hindsight=True)
    if own is not None:
        result = dataclasses.replace(result, decisions=tuple(d for d in result.decisions if d.step in own))
    return review_json(result)


def own_steps(rows: list[ActionRow], seat: int) -> frozenset[int] | None:
    """The steps of the record (its actions' versions) that ``seat``'s person sent themselves
    (a client's ``seq`` is logged with them); ``None`` if the seat never had a person's move."""
    steps = frozenset(r.version for r in rows if r.seat == seat and r.client_seq is not None)
    return steps or None


def review_size(data: dict[str, Any]) -> int:
    return len(json.dumps(data))


def review_endpoint(hub: Hub, offload: Offload, worlds: int = WORLDS) -> Any:
    """The ``GET /api/tables/{table_id}/review?seat=N`` handler over ``hub``'s tables."""

    async def api_review(request: Request) -> Response:
        table = await hub.located(request.path_params["table_id"])
        if table.row.game not in COSTLY:  # the reviewed games (Spit is a race, not decisions)
            raise LobbyError(400, "no_review", f"no review for {table.row.game}: reviews exist for "
                             + ", ".join(sorted(COSTLY)))
        table = await hub.over(table.id, "a game is reviewed once it is over")  # all cards known: never while played
        match = table.match
        assert match is not None
        seat = whole_number(request.query_params.get("seat"), "seat", 0, table.num_players - 1)
        key = ("review", table.id, seat)
        data = offload.kept(key)
        if data is None:
            own = own_steps(table.store.actions(table.id), seat)
            try:
                data = await offload.run(key, client_address(request), review_size, seat_review,
                                         match.record().to_json(), seat, worlds, own)
            except Busy as exc:
                return busy_answer(exc)
        return JSONResponse(data)

    return answering(api_review)
