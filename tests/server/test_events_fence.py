"""A node that runs the events and is paused past its role writes nothing when it wakes (T9 on a
cluster): each write of an event's progress goes through only if the event's row is still as
the node read it at the start of its step, so the progress the node running the events since
wrote stands (before, the woken node wrote its stale progress over it)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from cardtable.server.events.store import EventRow

from .test_events_run import Server, accounts, until


def test_t9_a_runner_woken_mid_step_after_another_ran_the_event_writes_nothing(tmp_path: Path):
    async def main() -> None:
        paused = Server(tmp_path / "server.sqlite3", no_show=0.2)
        later = Server(tmp_path / "server.sqlite3", no_show=0.2)  # the node that runs the events meanwhile

        async def leads() -> bool:
            return True

        paused.runner.lead = leads  # a cluster's runner: it steps down when superseded
        people = accounts(4)
        row = await paused.events.create(people[0], {"name": "Nobody came", "kind": "swiss", "game": "trash",
                                                     "options": {"max_hands": 1}, "rounds": 1, "max_entrants": 4,
                                                     "when_full": True}, "ip")
        for who in people:
            assert await paused.events.register(row.id, who, "ip") == "ok"
        await paused.runner.step()  # started: round 1, nobody comes to its tables

        def event() -> EventRow:
            found = later.events.store.event(row.id)
            assert found is not None
            return found

        assert event().status == "running" and len(event().progress["rounds"]) == 1  # type: ignore[index]
        tend = paused.runner._tend
        ended: list[EventRow] = []

        async def woken(stale: EventRow) -> None:  # read round 1, then paused while the other ran it all
            await until("the other node ends the event", lambda: event().status == "over", later.runner.step)
            ended.append(event())
            await tend(stale)  # the same forfeits, and the event's end, written again at another time

        paused.runner._tend = woken  # type: ignore[method-assign]
        try:
            await paused.runner.step()
            assert event() == ended[0] and ended[0].progress is not None
            assert all(g["forfeit"] for g in ended[0].progress["rounds"][0]["games"])
            assert not paused.runner.leading  # it reads the events again once it holds the role again
            await paused.runner.keep_lead()
            assert paused.runner.leading
            paused.runner._tend = tend  # type: ignore[method-assign]
            await paused.runner.step()  # an event over is not tended again
            assert event() == ended[0]
        finally:
            paused.close()
            later.close()

    asyncio.run(main())
