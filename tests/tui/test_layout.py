"""The terminal app uses the width it has and survives 80×24."""

from __future__ import annotations

import pytest

import cardtable
from cardtable.tui.app import TableApp
from cardtable.tui.seats import parse_seats
from cardtable.tui.session import Session

from .test_trex_screen import screen_text
from .util import ready, screen, settle, sync, trash_key

FOUR = "human,sensible,sensible,sensible"


def trash4() -> Session:
    return Session.start(cardtable.load("trash", players=4), parse_seats(FOUR, "trash"), seed=5, bot_seed=1)


@pytest.mark.parametrize("size", [(140, 34), (110, 34)])
@sync
async def test_four_player_trash_shows_all_three_opponents(size):
    s = trash4()
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=size) as pilot:
        await settle(pilot, ready(app))
        await pilot.pause(0.1)
        text = screen_text(app, screen(app).table.region.right)
        others = screen(app).query_one("#trash-others")
        panels = list(others.query(".seat.-other"))
        assert len(panels) == 3
        for panel in panels:  # each whole panel is in sight, none scrolled away
            assert others.region.contains_region(panel.region), panel.region
    for name in ("Ben · sensible bot", "Cleo · sensible bot", "Dani · sensible bot"):
        assert name in text
    assert text.count("10 slots") == 4
    assert all(str(k) in text for k in range(1, 11))


@sync
async def test_four_player_trash_is_played_in_80x24():
    s = trash4()
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(6):
            await settle(pilot, ready(app))
            view = screen(app).table.current
            assert view is not None
            await pilot.press(trash_key(view))  # type: ignore[arg-type]
        await settle(pilot, ready(app))
        own = screen(app).query_one("#seat-row-3")
        assert own.region.bottom <= 24 - 2 and screen(app).log_widget.display  # the status and keys below
    assert len(s.match.state.history) >= 6


@sync
async def test_the_trex_header_does_not_wrap_at_140_columns():
    s = Session.start(cardtable.load("trex"), parse_seats("human,hard,hard,hard", "trex"), seed=5, bot_seed=1)
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=(140, 34)) as pilot:
        await settle(pilot, ready(app))  # the first contract is announced by then (seed 5: Diamonds)
        await pilot.pause(0.1)
        head = screen(app).query_one("#trex-head")
        lines = [line for line in screen_text(app, screen(app).table.region.right).splitlines() if line.strip()]
        assert head.size.height == 2  # the deal line and the contract line, neither wrapped
    contract = next(line for line in lines if "Contract:" in line)
    assert "left:" in contract and contract.rstrip().endswith(("Trex", "Collections", "Diamonds", "Queens",
                                                              "King of Hearts", "—"))
