"""Lobby and socket helpers shared by the server tests."""

from __future__ import annotations

from typing import Any


def new_table(client: Any, bots: dict[int, str] | None = None, *, game: str = "trash",
              options: dict[str, Any] | None = None, sit: tuple[int, ...] = (0,), start: bool = True
              ) -> tuple[str, str, dict[int, str]]:
    """A table with humans at ``sit`` and ``bots``; returns (id, host token, seat tokens)."""
    r = client.post("/api/tables", json={"game": game, "options": options or {}})
    assert r.status_code == 201, r.text
    table_id, host = r.json()["table"]["id"], r.json()["host"]
    tokens = {}
    for seat in sit:
        r = client.post(f"/api/tables/{table_id}/sit", json={"seat": seat, "name": f"P{seat}"})
        assert r.status_code == 200, r.text
        tokens[seat] = r.json()["token"]
    for seat, bot in (bots if bots is not None else {1: "random"}).items():
        r = client.post(f"/api/tables/{table_id}/bot", json={"host": host, "seat": seat, "bot": bot})
        assert r.status_code == 200, r.text
    if start:
        r = client.post(f"/api/tables/{table_id}/start", json={"host": host})
        assert r.status_code == 200, r.text
    return table_id, host, tokens


def receive_until(ws: Any, kind: str, limit: int = 10_000) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Frames up to and including the first of ``kind``; returns (that frame, all frames)."""
    seen = []
    for _ in range(limit):
        frame = ws.receive_json()
        seen.append(frame)
        if frame["type"] == kind:
            return frame, seen
        if kind == "ack" and frame["type"] == "error":
            raise AssertionError(f"error while waiting for an ack: {frame}")
    raise AssertionError(f"no {kind} frame in {limit}")


def play_first_legal_to_end(ws: Any, seat: int, limit: int = 5000) -> dict[str, Any]:
    """Play ``seat``'s first legal action each turn until the game is over; the final state frame."""
    for seq in range(1, limit):
        frame, _ = my_turn_or_over(ws, seat)
        if frame["view"]["outcome"] is not None:
            return frame
        ws.send_json({"type": "act", "seq": seq, "action": frame["view"]["legal_actions"][0]})
        receive_until(ws, "ack")
    raise AssertionError(f"the game did not end within {limit} actions")


def my_turn_or_over(ws: Any, seat: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Frames until a state where ``seat`` is to move or the game is over."""
    seen = []
    while True:
        frame = ws.receive_json()
        seen.append(frame)
        if frame["type"] == "state":
            view = frame["view"]
            if view["outcome"] is not None or (view["current_player"] == seat and view["legal_actions"]):
                return frame, seen


def wait(what: str, check: Any, deadline: float = 90.0, every: float = 0.1) -> Any:
    """Poll ``check()`` until it returns something true (returned), every ``every`` seconds; fail
    naming ``what`` once ``deadline`` seconds have gone by without it."""
    import time

    end = time.monotonic() + deadline
    while True:
        found = check()
        if found:
            return found
        assert time.monotonic() < end, f"not within {deadline} s: {what}"
        time.sleep(every)
