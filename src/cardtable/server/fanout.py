"""What a table sends: every frame with game data is built here from ``state.view(seat)``.

The per-reader view filter of the table: a seat's socket gets that seat's view, spectators
the spectator view (computed once per version and language: LD6), and nothing else leaves.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from ..i18n import event_text
from .connection import Connection, Outgoing
from .encode import jsonable, view_json
from .protocol import CLOSE_RESTART

if TYPE_CHECKING:
    from .tables import Table

MAX_RESUME = 500
"""Versions a resume may be behind and still get the events it missed; further behind, the
state alone (a snapshot) is sent."""
CHECKPOINT_EVERY = 64
CHECKPOINTS_KEPT = 8


class FanOut:
    """Frames for one table's sockets."""

    def __init__(self, table: Table) -> None:
        self.t = table
        self.checkpoints: dict[int, Any] = {}  # version -> a copy of the state then (resumes start there)
        self.replayed = 0  # actions played again to serve resumes (each costs the server)

    def view_json(self, seat: int | None, lang: str) -> dict[str, Any]:
        """The only source of game data in any frame: ``state.view(seat)``."""
        t = self.t
        assert t.match is not None
        view = t.match.state.view(seat)
        data = view_json(view)  # == view.to_json(), faster
        if lang != "en":
            for event, out in zip(view.events, data["events"], strict=True):
                out["text"] = event_text(t.row.game, event, view, lang)
        return data

    def state_frame(self, seat: int | None, lang: str) -> dict[str, Any]:
        return {"type": "state", "version": self.t.version, "view": self.view_json(seat, lang)}

    def events_since(self, seat: int | None, since: int, lang: str) -> list[dict[str, Any]]:
        """The events of versions ``since + 1`` to now as ``seat`` saw them (views only leave
        this function), rebuilt by replaying the game from the last checkpoint at or before
        ``since``: a copy of the state every :data:`CHECKPOINT_EVERY` versions, the last
        :data:`CHECKPOINTS_KEPT` of them, taken on the way. So a resume replays fewer than
        ``CHECKPOINT_EVERY + MAX_RESUME`` actions however long the game; one more than
        :data:`MAX_RESUME` behind gets no events (the state that follows is the snapshot)."""
        t = self.t
        assert t.match is not None
        history = t.match.state.history
        if since >= len(history) or len(history) - since > MAX_RESUME:
            return []
        start = max((v for v in self.checkpoints if v <= since), default=0)
        state = self.checkpoints[start].clone() if start else t.match.new_state()  # a fair game's own deals
        out: list[dict[str, Any]] = []
        for number in range(start + 1, len(history) + 1):
            state.play(history[number - 1])
            self.replayed += 1
            if number % CHECKPOINT_EVERY == 0 and number not in self.checkpoints:
                self.checkpoints[number] = state.clone()
                while len(self.checkpoints) > CHECKPOINTS_KEPT:
                    del self.checkpoints[min(self.checkpoints)]
            if number > since:
                view = state.view(seat)
                for event in view.events:
                    data = jsonable(event)
                    if lang != "en":
                        data["text"] = event_text(t.row.game, event, view, lang)
                    data["version"] = number
                    out.append(data)
        return out

    def welcome(self, conn: Connection, seat: int | None, since: int | None) -> None:
        """A connection that said hello: the welcome, chat, missed events, the state."""
        t = self.t
        welcome: dict[str, Any] = {"type": "welcome", "seat": seat, "version": t.version, "table": t.public()}
        if seat is not None:  # the seat's last action seq: a new tab goes on from there (idempotency, R2)
            welcome["seq"] = t.flow.last_seq.get(seat, (0, 0))[0]
        conn.push(welcome)
        if t.talk.log:
            conn.push({"type": "chat", "messages": list(t.talk.log)})
        if t.match is not None:
            if since is not None and since < t.version:
                events = self.events_since(seat, since, conn.lang)
                if events:
                    conn.push({"type": "events", "since": since, "version": t.version, "events": events})
            conn.push(self.state_frame(seat, conn.lang), latest="state")
        self.broadcast_table()

    def broadcast_state(self) -> None:
        t = self.t
        if t.match is None:
            return
        n, v = t.num_players, t.version
        # the seat served first turns with each version, so no seat sees every Spit change first
        for seat, conn in sorted(t.players.items(), key=lambda item: (item[0] - v) % n):
            conn.push(self.state_frame(seat, conn.lang), latest="state")
        by_lang: dict[str, Outgoing] = {}
        for conn in t.spectators:
            if conn.lang not in by_lang:  # one spectator projection and text per version and language (LD6)
                by_lang[conn.lang] = Outgoing(self.state_frame(None, conn.lang))
            conn.push(by_lang[conn.lang], latest="state")

    def broadcast_table(self) -> None:
        t = self.t
        t.touched = time.monotonic()
        frame = Outgoing({"type": "table", "table": t.public()})
        for conn in t.connections():
            conn.push(frame, latest="table")

    def to_everyone(self, frame: Outgoing) -> None:
        for conn in self.t.connections():
            conn.push(frame)

    def close_all(self, code: int = CLOSE_RESTART) -> None:
        for conn in self.t.connections():
            conn.close_soon(code, "server restart")
