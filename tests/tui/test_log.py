"""The terminal log is never behind the board (docs/tui.md): every event the table draws is
the last line of the log, scrolled into sight at the same moment, and bots think off the screen's
loop so nothing waits for a refresh."""

from __future__ import annotations

import cardtable
from cardtable.tui.app import TableApp
from cardtable.tui.seats import parse_seats
from cardtable.tui.session import Session, event_line

from .util import screen, settle, sync


@sync
async def test_item_5_each_event_drawn_is_the_logs_last_line_and_in_sight():
    game = cardtable.load("trex")
    s = Session.start(game, parse_seats("hard,hard,hard,hard", "trex"), seed=3, bot_seed=1)
    app = TableApp(s, pace=0, bot_delay=0)
    checked = 0
    async with app.run_test(size=(110, 30)) as pilot:
        scr = screen(app)
        log = scr.log_widget
        original = scr._log

        def spy(event, view):
            nonlocal checked
            original(event, view)  # the table has just drawn this event (TurnScreen._tick)
            line = event_line("trex", event, view, "en")
            assert log.lines[-1].text.rstrip().endswith(line.split()[-1])
            assert log.scroll_y == log.max_scroll_y  # the newest line is in sight now, not after a refresh
            checked += 1

        scr._log = spy
        await settle(pilot, lambda: checked >= 60 and log.max_scroll_y > 0, limit=20000)


@sync
async def test_item_10_in_80x24_the_log_column_keeps_every_word():
    """The log wraps at the width it is given: no line is wider than the column (nothing is cut)."""
    game = cardtable.load("trex")
    s = Session.start(game, parse_seats("human,hard,hard,hard", "trex"), seed=3, bot_seed=1)
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        log = screen(app).log_widget
        await settle(pilot, lambda: len(log.lines) > 8)
        await pilot.pause(0.1)
        assert log.display and log.region.right <= 80
        width = log.scrollable_content_region.width
        assert max(line.text.rstrip().__len__() for line in log.lines) <= width


@sync
async def test_the_log_rewraps_when_its_column_narrows():
    """Lines written in a wide log are wrapped again when the terminal narrows: no word is cut off
    at the right edge (4-player Trash widens its table as the app mounts, so this happens at once)."""
    game = cardtable.load("trex")
    s = Session.start(game, parse_seats("human,hard,hard,hard", "trex"), seed=3, bot_seed=1)
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=(140, 34)) as pilot:
        log = screen(app).log_widget
        await settle(pilot, lambda: len(log.lines) > 8)
        await pilot.pause(0.1)
        wide = max(len(line.text.rstrip()) for line in log.lines)
        await pilot.resize_terminal(80, 24)
        await pilot.pause(0.2)
        width = log.scrollable_content_region.width
        assert wide > width, "a line was wider than the narrow column"
        assert max(len(line.text.rstrip()) for line in log.lines) <= width
        words = " ".join(line.text for line in log.lines).split()
        assert "seat" in words or "you" in words


@sync
async def test_the_log_names_the_seats_as_the_table_does():
    """The table says "Ben · sensible bot"; the log said "seat 1 draws …"."""
    import cardtable
    from cardtable.tui.app import TableApp
    from cardtable.tui.seats import parse_seats
    from cardtable.tui.session import Session

    from .util import ready, screen, settle, trash_key

    s = Session.start(cardtable.load("trash"), parse_seats("human,sensible", "trash"), seed=5, bot_seed=1)
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=(110, 34)) as pilot:
        await settle(pilot, ready(app))
        await pilot.press(trash_key(s.view(0)))
        await settle(pilot, lambda: any(e.seat == 1 for e in s.view(0).events) and ready(app)())
        lines = [t.plain for t in screen(app).log_widget.source]
        assert any(line.startswith("· Ben ") for line in lines), lines
        assert not any("seat 1" in line for line in lines)
        assert any(line.startswith("· you ") for line in lines)
