"""H10: what a seat is sent since it joined adds up to a fresh view of the seat.

cardtable sends no deltas of the view: every ``state`` frame carries the whole view, and the
changes are its ``events`` (each state frame carries those since the previous state its client
received). So the check is twofold, over random games of each game with every seat a person and
a spectator: the frames pushed to each reader, read one by one, end on the seat's fresh view;
and a reader that lags so far that the server merges every state frame it has not sent yet into
the newest (LD5) gets that fresh view too, with exactly the events of all those frames, in order.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from cardtable.server.connection import MAX_MERGED_EVENTS, Connection, Outgoing
from cardtable.server.hub import Hub
from cardtable.server.protocol import dumps
from cardtable.server.store import Store


async def _never(*_: Any) -> None:
    raise AssertionError("a connection that is never started sends nothing")


class Lagging(Connection):
    """A real connection whose writer never runs, so nothing is sent: every state frame the table
    pushes replaces the queued one and hands its events on, as for a reader that fell behind. It
    also keeps each frame as pushed, which is what a reader keeping up would have been sent."""

    def __init__(self) -> None:
        super().__init__(_never, _never)
        self.frames: list[dict[str, Any]] = []

    def push(self, frame: dict[str, Any] | Outgoing, latest: str | None = None) -> None:
        self.frames.append(json.loads(frame.text if isinstance(frame, Outgoing) else dumps(frame)))
        super().push(frame, latest)


def without_events(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k != "events"}


@pytest.mark.parametrize(("game", "players"), [("trash", 2), ("trash", 3), ("trex", 4), ("spit", 2)])
def test_h10_every_frame_a_seat_was_sent_adds_up_to_its_fresh_view(game: str, players: int):
    checked = 0
    for seed in range(3):
        rng = random.Random(seed)
        hub = Hub(Store(":memory:"))
        options: dict[str, Any] = {"spit_delay": 0.0} if game == "spit" else (
            {"players": players} if game == "trash" else {})
        table, _ = hub.create(game, None, options)
        for seat in range(players):
            table.sit(seat, f"P{seat}")
        readers: dict[int | None, Lagging] = {}
        table.start(seed=seed)
        assert table.match is not None
        state = table.match.state
        for seat in [*range(players), None]:
            readers[seat] = Lagging()
            table.attach(readers[seat], seat, None)
        seq = dict.fromkeys(range(players), 0)
        for step in range(rng.randrange(40, 120)):
            if table.match.is_over:
                break
            if game == "spit":
                movers = [s for s in range(players) if state.legal_actions(s)]
                if not movers:
                    break
                seat = rng.choice(movers)
            else:
                seat = state.current_player()
            seq[seat] += 1
            reply = table.act(seat, seq[seat], str(rng.choice(list(state.legal_actions(seat)))))
            assert reply["type"] == "ack", reply
            table.after_change()
            if step % 7 == 0:  # a refusal changes no view
                other = rng.randrange(players)
                seq[other] += 1
                table.act(other, seq[other], "bogus")
        for seat, behind in readers.items():
            assert not behind.closed
            states = [f for f in behind.frames if f["type"] == "state"]
            assert len(states) >= 2
            fresh = json.loads(dumps(table.state_frame(seat, "en")))
            assert states[-1]["version"] == fresh["version"] == table.version
            assert without_events(states[-1]["view"]) == without_events(fresh["view"])
            (merged,) = [item.data for key, item in behind.queue if key == "state" and isinstance(item, Outgoing)]
            assert merged["version"] == table.version
            assert without_events(merged["view"]) == without_events(fresh["view"])
            events = [e for s in states for e in s["view"]["events"]]
            assert len(events) <= MAX_MERGED_EVENTS, "a longer game would pass the merge's bound"
            assert merged["view"]["events"] == events
            checked += 1
    assert checked == 3 * (players + 1)
