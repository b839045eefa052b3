"""The terminal app at a Trash table of more than eight players (TR-1): every other seat has its
panel in the scrolling box (side by side as the width allows), the seat to play is scrolled into
sight, yours stays under the piles, and no two bots share a name."""

from __future__ import annotations

import pytest

import cardtable
from cardtable.tui.app import TableApp
from cardtable.tui.seats import parse_seats
from cardtable.tui.session import Session

from .test_trex_screen import screen_text
from .util import ready, screen, settle, sync, trash_key


def table(players: int) -> Session:
    seats = ",".join(["human"] + ["sensible"] * (players - 1))
    return Session.start(cardtable.load("trash", players=players), parse_seats(seats, "trash"), seed=5, bot_seed=1)


@pytest.mark.parametrize(("players", "size", "cols"), [(10, (110, 34), 2), (16, (80, 24), 1), (52, (140, 34), 3)])
@sync
async def test_tr1_a_large_table_is_played_with_every_seat_in_reach(players, size, cols):
    s = table(players)
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=size) as pilot:
        for _ in range(2):
            await settle(pilot, ready(app), limit=20_000)
            view = screen(app).table.current
            assert view is not None
            await pilot.press(trash_key(view))  # type: ignore[arg-type]
        await settle(pilot, ready(app), limit=20_000)
        await pilot.pause(0.1)
        others = screen(app).query_one("#trash-others")
        panels = list(others.query(".seat.-other"))
        assert len(panels) == players - 1
        assert screen(app).table.cols == cols
        own = screen(app).query_one(f"#seat-row-{players - 1}")
        assert own.region.bottom <= size[1] - 2  # under the piles, above the status and the keys
        assert not others.region.overlaps(own.region)
        text = screen_text(app, screen(app).table.region.right)
        # the seat that played last is in sight: its panel lies in the scrolling box's window
        actor = screen(app).table.model.actor
        if actor is not None and actor != 0:
            row = screen(app).table.order.index(actor)
            assert others.region.contains_region(screen(app).query_one(f"#seat-row-{row}").region)
    assert "you" in text and len(s.match.state.history) >= 2
    labels = [s.seat_label(p, 0) for p in range(players)]
    assert len(set(labels)) == players and "Ana 2 · sensible bot" in labels
