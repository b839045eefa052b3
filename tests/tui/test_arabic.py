"""Issue 16 item 1 in the terminal: with ``--lang ar`` the app draws its translated text in visual
order (``cardtable.i18n.bidi.visual``), unless ``CARDTABLE_BIDI`` leaves it to the terminal."""

from __future__ import annotations

import cardtable
from cardtable.i18n.bidi import _RTL, visual, visual_wrapped
from cardtable.tui.app import ResultScreen, TableApp
from cardtable.tui.seats import parse_seats
from cardtable.tui.session import Session

from .util import ready, screen, settle, sync


async def _drawn(lang: str = "ar") -> tuple[str, str, list[str], list[str], int]:
    """The title, the status line, the log's drawn lines, its lines in reading order and its width."""
    s = Session.start(cardtable.load("trash"), parse_seats("human,sensible", "trash"), seed=5, bot_seed=1, lang=lang)
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=(110, 34)) as pilot:
        await settle(pilot, ready(app))
        await pilot.press("enter")  # draw from the stock: a few more log lines
        await settle(pilot, lambda: ready(app)() and len(s.match.state.history) > 2)
        await pilot.pause(0.1)
        scr = screen(app)
        log = scr.log_widget
        title = str(scr.query_one("#title").render())
        status = str(scr.query_one("#status").render()).split("\n")[0]
        assert not isinstance(app.screen, ResultScreen)
        return title, status, [line.text.rstrip() for line in log.lines], [x.plain for x in log.source], \
            log.scrollable_content_region.width


@sync
async def test_issue_16_item_1_arabic_is_drawn_in_visual_order(monkeypatch):
    monkeypatch.setenv("CARDTABLE_BIDI", "off")  # the text as stored (reading order)
    title, status, lines, source, _ = await _drawn()
    monkeypatch.setenv("CARDTABLE_BIDI", "app")  # a terminal without bidi: the app reorders and joins
    v_title, v_status, v_lines, v_source, v_width = await _drawn()
    assert _RTL.search(title) and v_title == visual(title, "app", rtl=True) and v_title != title
    assert _RTL.search(status) and v_status == visual(status, "app", rtl=True) and v_status != status
    assert v_source == source and lines == [x.rstrip() for x in lines]
    expected = [part.rstrip() for line in v_source for part in visual_wrapped(line, v_width, "app", rtl=True)]
    assert v_lines == expected and v_lines != lines  # each line wrapped in reading order, then reordered


@sync
async def test_issue_16_item_1_other_languages_are_untouched(monkeypatch):
    monkeypatch.setenv("CARDTABLE_BIDI", "app")
    title, _, _, source, _ = await _drawn("es")
    assert not _RTL.search(title) and "Trash" in title and any("robas" in x or "roba" in x for x in source)
