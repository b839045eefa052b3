"""R10: what the server sends while a client resumes comes after the client's "resumed".

In cardtable's protocol the resumed signal is the ``welcome`` that answers a ``hello`` with
``since``: then the chat, the events missed since ``since`` (up to the welcome's version) and the
state. Bots keep moving while the seat reconnects, so their changes race the handshake.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import pytest

from cardtable.server.fanout import RECENT

from .helpers import new_table, receive_until
from .test_protocol import hello

if TYPE_CHECKING:
    from starlette.testclient import TestClient


def check_resume_order(frames: list[dict[str, Any]], since: int) -> None:
    """The welcome first; then only what belongs after it, every version at or past its own."""
    welcome, rest = frames[0], frames[1:]
    assert welcome["type"] == "welcome", frames[:3]
    at = welcome["version"]
    assert at >= since
    kinds = [f["type"] for f in rest]
    assert "welcome" not in kinds
    first_state = kinds.index("state")
    events = [f for f in rest[:first_state] if f["type"] == "events"]
    assert len(events) <= 1 and (at > since or not events)  # none: the state is the snapshot (R4)
    for missed in events:  # a page that saw nothing (-1) gets the recent events
        assert missed["since"] == (max(0, at - RECENT) if since == -1 else since) and missed["version"] == at
        assert [e["version"] for e in missed["events"]][-1] == at
    assert all(f["type"] != "events" for f in rest[first_state:]), "missed events after the state"
    versions = [f["version"] for f in rest if f["type"] == "state"]
    assert versions[0] >= at and versions == sorted(versions), versions


@pytest.mark.timeout(300)
@pytest.mark.parametrize(("game", "bots"), [("trash", {1: "random"}),
                                            ("trex", {1: "random", 2: "random", 3: "random"})])
def test_r10_frames_pushed_during_a_resume_come_after_the_welcome(fast_client: TestClient, game: str,
                                                                  bots: dict[int, str]):
    """The seat plays a move and drops at once, before it reads anything, so the bots' replies are
    being sent while it reconnects with the last version it saw; twenty times over."""
    client = fast_client
    table_id, _, tokens = new_table(client, bots, game=game)
    since, seq, replayed = -1, 0, 0
    for _ in range(20):
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            ws.send_json({"type": "hello", "token": tokens[0], "since": since})
            frames: list[dict[str, Any]] = []
            deadline = time.monotonic() + 60
            while not frames or frames[-1]["type"] != "state":
                assert time.monotonic() < deadline, frames[-3:]
                frames.append(ws.receive_json())
            check_resume_order(frames, since)
            replayed += any(f["type"] == "events" for f in frames)
            state = frames[-1]
            while state["view"]["current_player"] != 0 and state["view"]["outcome"] is None:
                state, _ = receive_until(ws, "state")
            if state["view"]["outcome"] is not None:
                break
            since = state["version"]
            seq += 1
            ws.send_json({"type": "act", "seq": seq, "action": state["view"]["legal_actions"][0]})
    assert replayed, "no resume had missed events to replay"
    with client.websocket_connect(f"/ws/{table_id}") as ws:  # and a spectator's resume
        frames = [hello(ws, since=0)]
        frames += receive_until(ws, "state")[1]
        check_resume_order(frames, 0)
