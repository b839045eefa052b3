"""A table page whose game socket the test answers: the page's HTTP calls (the table's public
info, the games, the catalogs) reach the real server, and its WebSocket reaches :class:`FakeSocket`,
which sends the frames the server would send, built from real engine states (``state.view(seat)``
through the server's own ``view_json`` and ``event_text``). So a test shows the page exactly the
position it checks (a redeal, a stale hint, a card in flight) without playing a random game to it.
"""

from __future__ import annotations

import json
import re
from typing import Any

import cardtable
from cardtable.i18n import event_text
from cardtable.server.encode import view_json
from tests.server.netserver import Server

from .browser import sync_api

DEADLINE_MS = 60_000


def state_frame(game: str, state: Any, seat: int | None, version: int, lang: str = "en") -> dict[str, Any]:
    """The ``state`` frame the server sends ``seat`` (as server/fanout.py builds it)."""
    view = state.view(seat)
    data = view_json(view)
    if lang != "en":
        for event, out in zip(view.events, data["events"], strict=True):
            out["text"] = event_text(game, event, view, lang)
    return {"type": "state", "version": version, "view": data}


class FakeSocket:
    """The page's table socket, answered by the test. ``sent`` collects what the page sends."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.route: Any = None
        self.sent: list[dict[str, Any]] = []
        page.route_web_socket(re.compile(r"/ws/"), self._accept)

    def _accept(self, route: Any) -> None:
        self.route = route  # not connected to the server: every frame is ours
        route.on_message(lambda m: self.sent.append(json.loads(m)))

    def connected(self) -> None:
        """Wait (bounded) until the page has said hello."""
        for _ in range(DEADLINE_MS // 50):
            if any(m.get("type") == "hello" for m in self.sent):
                return
            self.page.wait_for_timeout(50)
        raise AssertionError("the page never said hello")

    def send(self, frame: dict[str, Any]) -> None:
        assert self.route is not None
        self.route.send(json.dumps(frame))

    def wait_for(self, kind: str, count: int = 1) -> list[dict[str, Any]]:
        """The page's messages of ``kind`` once there are ``count`` of them (bounded)."""
        for _ in range(DEADLINE_MS // 50):
            got = [m for m in self.sent if m.get("type") == kind]
            if len(got) >= count:
                return got
            self.page.wait_for_timeout(50)
        raise AssertionError(f"the page sent no {kind!r} message")


class FakeTable:
    """A table of ``game`` on the real server (so its page loads), played by the test through a
    :class:`FakeSocket`: :meth:`show` sends the page the state of ``state`` for ``seat``."""

    def __init__(self, server: Server, watched: Any, game: str, seat: int | None = 0, lang: str = "en",
                 bots: dict[int, str] | None = None, **page_args: Any) -> None:
        n = {"trex": 4, "spit": 2}.get(game, 2)
        bots = bots if bots is not None else {s: "random" for s in range(1, n)}
        self.game = game
        self.seat = seat
        self.lang = lang
        self.table_id, self.host, token = server.seated(bots, game=game)
        self.info = server.get(f"/api/tables/{self.table_id}")["table"]
        self.info["status"] = "playing"
        self.version = 0
        self.w = watched(**page_args)
        self.page = self.w.page
        self.socket = FakeSocket(self.page)
        self.w.open_as(server, self.table_id, token if seat == 0 else None, seat=seat or 0, lang=lang)
        self.socket.connected()
        self.socket.send({"type": "welcome", "seat": seat, "version": 0, "table": self.info, "seq": 0})

    def show(self, state: Any, version: int | None = None) -> dict[str, Any]:
        self.version = version if version is not None else self.version + 1
        frame = state_frame(self.game, state, self.seat, self.version, self.lang)
        self.socket.send(frame)
        return frame


def new_state(game: str, seed: int, **options: Any) -> Any:
    return cardtable.load(game, **options).new_state(seed=seed)




def trash_draw() -> Any:
    """A two-player Trash deal where seat 0 is to draw (a bounded search)."""
    for seed in range(500):
        state = new_state("trash", seed)
        if state.current_player() == 0 and "stock" in [str(a) for a in state.legal_actions()]:
            return state
    raise AssertionError("no such deal")


def trex_trick(state: Any) -> Any:
    """``state`` (a Trex deal) played on, the first legal action each time (bounded), until seat 0
    has cards to play."""
    for _ in range(400):
        actions = [str(a) for a in state.legal_actions()]
        if state.current_player() == 0 and any(len(a) == 2 for a in actions):
            return state
        state.play(actions[0])
    raise AssertionError("seat 0 never came to play a card")


__all__ = ["FakeSocket", "FakeTable", "new_state", "state_frame", "sync_api", "trash_draw", "trex_trick"]
