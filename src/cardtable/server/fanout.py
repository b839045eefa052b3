"""What a table sends: every frame with game data is built here from ``state.view(seat)``.

The per-reader view filter of the table: a seat's connection gets that seat's view, spectators
the spectator view (computed once per version and language: LD6), and nothing else leaves. The
frames go out as :class:`~.effects.Send` effects, after what changed is stored.
"""

from __future__ import annotations

import time
from typing import Any

from ..i18n import event_text
from . import fairplay, presence
from .connection import Outgoing
from .effects import Send
from .encode import jsonable
from .encode import view_json as encode_view
from .protocol import CLOSE_CODES
from .state import TableState

MAX_RESUME = 500
"""Versions a resume may be behind and still get the events it missed; further behind, the
state alone (a snapshot) is sent."""
CHECKPOINT_EVERY = 64
CHECKPOINTS_KEPT = 8
RECENT = 200
"""Versions of events a new page is sent (``since`` -1: it has seen nothing), to fill its log
with what just happened: a Trex deal, a Trash hand."""


def public(s: TableState) -> dict[str, Any]:
    """What anyone may know of the table: no tokens, no seed (the fair deal's server seed once
    the game is over)."""
    return {
        "id": s.id,
        "game": s.row.game,
        "title": s.game.title,
        "preset": s.row.preset,
        "options": s.row.options,
        "rated": s.row.rated,
        "status": s.row.status,
        "version": s.version,
        "pause": presence.pause_info(s),
        "watchers": len(s.spectators),
        "seats": [
            {"seat": seat.seat, "kind": seat.kind, "name": seat.name, "online": seat.seat in s.players,
             "auto": seat.seat in s.bots.standins or seat.seat in s.bots.realtime_standins}
            for seat in s.row.seats
        ],
        "fair": fairplay.public(s),
        "undo": s.row.undo,
    }


def view_json(s: TableState, seat: int | None, lang: str) -> dict[str, Any]:
    """The only source of game data in any frame: ``state.view(seat)``."""
    assert s.match is not None
    view = s.match.state.view(seat)
    data = encode_view(view)  # == view.to_json(), faster
    if lang != "en":
        for event, out in zip(view.events, data["events"], strict=True):
            out["text"] = event_text(s.row.game, event, view, lang)
    return data


def state_frame(s: TableState, seat: int | None, lang: str) -> dict[str, Any]:
    return {"type": "state", "version": s.version, "view": view_json(s, seat, lang)}


def keep_checkpoint(s: TableState, number: int, state: Any) -> None:
    """A copy of ``state``, the game after ``number`` actions, when that is a checkpoint's
    number (every :data:`CHECKPOINT_EVERY`); the oldest beyond :data:`CHECKPOINTS_KEPT` go."""
    checkpoints = s.fan.checkpoints
    if number % CHECKPOINT_EVERY == 0 and number not in checkpoints:
        checkpoints[number] = state.clone()
        while len(checkpoints) > CHECKPOINTS_KEPT:
            del checkpoints[min(checkpoints)]


def events_since(s: TableState, seat: int | None, since: int, lang: str) -> list[dict[str, Any]]:
    """The events of versions ``since + 1`` to now as ``seat`` saw them (views only leave this
    function), rebuilt by replaying the game from the last checkpoint at or before ``since``: a
    copy of the state every :data:`CHECKPOINT_EVERY` versions, the last :data:`CHECKPOINTS_KEPT`
    of them, taken on the way. So a resume replays fewer than ``CHECKPOINT_EVERY + MAX_RESUME``
    actions however long the game; one more than :data:`MAX_RESUME` behind gets no events (the
    state that follows is the snapshot)."""
    assert s.match is not None
    history = s.match.state.history
    if since >= len(history) or len(history) - since > MAX_RESUME:
        return []
    checkpoints = s.fan.checkpoints
    start = max((v for v in checkpoints if v <= since), default=0)
    state = checkpoints[start].clone() if start else s.match.new_state()  # a fair game's own deals
    out: list[dict[str, Any]] = []
    for number in range(start + 1, len(history) + 1):
        state.play(history[number - 1])
        s.fan.replayed += 1
        keep_checkpoint(s, number, state)
        if number > since:
            view = state.view(seat)
            for event in view.events:
                data = jsonable(event)
                if lang != "en":
                    data["text"] = event_text(s.row.game, event, view, lang)
                data["version"] = number
                out.append(data)
    return out


def welcome(s: TableState, conn: str, seat: int | None, since: int | None) -> None:
    """A connection that said hello: the welcome, chat, missed events, the state."""
    lang = s.lang_of(conn)
    frame: dict[str, Any] = {"type": "welcome", "seat": seat, "version": s.version, "table": public(s)}
    if seat is not None:  # the seat's last action seq: a new tab goes on from there (idempotency, R2)
        frame["seq"] = s.flow.last_seq.get(seat, (0, 0))[0]
    s.fx.send(conn, frame)
    if s.talk.log:
        s.fx.send(conn, {"type": "chat", "messages": list(s.talk.log)})
    if s.match is not None:
        if since == -1:  # a new page: the recent events, for its log
            since = max(0, s.version - RECENT)
        if since is not None and since < s.version:
            events = events_since(s, seat, since, lang)
            if events:
                s.fx.send(conn, {"type": "events", "since": since, "version": s.version, "events": events})
        s.fx.send(conn, state_frame(s, seat, lang), latest="state")
    broadcast_table(s)


def broadcast_state(s: TableState) -> None:
    """The new state to every seat (its own view) and spectator. The hot path of a table: a
    frame per connection per change, so the sends are appended here directly."""
    if s.match is None:
        return
    n, v = s.num_players, s.version
    langs, out = s.langs, s.fx.items
    # the seat served first turns with each version, so no seat sees every Spit change first
    for seat, conn in sorted(s.players.items(), key=lambda item: (item[0] - v) % n):
        frame = {"type": "state", "version": v, "view": view_json(s, seat, langs.get(conn, "en"))}
        out.append(Send(conn, Outgoing(frame), "state"))
    by_lang: dict[str, Outgoing] = {}
    for conn, lang in s.spectators.items():
        if lang not in by_lang:  # one spectator projection and text per version and language (LD6)
            by_lang[lang] = Outgoing({"type": "state", "version": v, "view": view_json(s, None, lang)})
        out.append(Send(conn, by_lang[lang], "state"))


def broadcast_table(s: TableState) -> None:
    s.touched = time.monotonic()
    frame = Outgoing({"type": "table", "table": public(s)})
    for conn in s.connections():
        s.fx.send(conn, frame, latest="table")


def to_everyone(s: TableState, frame: Outgoing) -> None:
    for conn in s.connections():
        s.fx.send(conn, frame)


def close_all(s: TableState, code: int) -> None:
    for conn in s.connections():
        s.fx.close(conn, code, CLOSE_CODES.get(code, "server restart"))
