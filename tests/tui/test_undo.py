"""Undo against bots only, as an option (never with another person at the table)."""

from __future__ import annotations

import cardtable
from cardtable.records import Record
from cardtable.tui.app import TableApp
from cardtable.tui.seats import parse_seats
from cardtable.tui.session import Session

from .util import ready, screen, settle, sync, trash_key

SIZE = (110, 34)


def trash(seats: str = "human,sensible") -> Session:
    return Session.start(cardtable.load("trash", players=len(seats.split(","))), parse_seats(seats, "trash"),
                         seed=5, bot_seed=1)


def status(app: TableApp) -> str:
    return str(screen(app).query_one("#status").render())


async def _play_turns(pilot, app: TableApp, turns: int) -> None:
    s = app.session
    for _ in range(turns):
        await settle(pilot, ready(app))
        view = screen(app).table.current
        assert view is not None
        await pilot.press(trash_key(view))  # type: ignore[arg-type]
    await settle(pilot, ready(app))
    assert not s.is_over


@sync
async def test_undo_takes_back_the_persons_last_move_and_the_bots_replies(tmp_path):
    s = trash()
    app = TableApp(s, pace=0, bot_delay=0, undo=True)
    async with app.run_test(size=SIZE) as pilot:
        await _play_turns(pilot, app, 4)
        actions = [str(a) for a in s.match.state.history]
        point = s.undo_point()
        assert point is not None and 0 < point < len(actions) - 1  # the bots replied after it
        first = screen(app)
        await pilot.press("u")
        await settle(pilot, lambda: screen(app) is not first and ready(app)())
        kept = [str(a) for a in s.match.state.history]
        assert kept == actions[:point]  # the person's move and every bot reply after it are gone
        assert "taken back" in status(app)
        again = Session.resume(Record(game="trash", preset=s.game.preset, seed=5, actions=tuple(kept)), s.seats)
        assert str(again.match.state) == str(s.match.state)  # the same deal, replayed
        assert screen(app).table.current == s.view(0)  # the table shows the person's view, nothing more
        hint = s.hint(0)
        assert hint is not None and hint in s.view(0).legal_actions  # the hint is for the position now
        saved = Record.load(s.save(tmp_path / "undone.json"))
        assert list(saved.actions) == kept  # the save is the match as it stands now
        view = screen(app).table.current
        await pilot.press(trash_key(view))  # type: ignore[arg-type]  # and play goes on
        await settle(pilot, lambda: len(s.match.state.history) > len(kept) and ready(app)())


@sync
async def test_no_undo_with_another_person_at_the_table():
    s = trash("human,human,sensible")
    app = TableApp(s, pace=0, bot_delay=0, undo=True)
    async with app.run_test(size=SIZE) as pilot:
        await _play_turns(pilot, app, 2)
        count = len(s.match.state.history)
        assert s.undo_point() is None and not s.undo_allowed
        await pilot.press("u")
        await pilot.pause()
        assert "No undo with another person" in status(app) and len(s.match.state.history) == count


@sync
async def test_undo_is_an_option_off_by_default():
    s = trash()
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await _play_turns(pilot, app, 2)
        count = len(s.match.state.history)
        await pilot.press("u")
        await pilot.pause()
        assert "Undo is off" in status(app) and len(s.match.state.history) == count


@sync
async def test_the_footer_lists_u_when_undo_is_on():
    for undo, lang, word in ((True, "en", "u undo"), (True, "es", "u deshacer"), (False, "en", None)):
        s = trash()
        s.lang = lang
        app = TableApp(s, pace=0, bot_delay=0, undo=undo)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, ready(app))
            keys = str(screen(app).query_one("#keys").render())
            if word is None:
                assert " u " not in f" {keys} "
            else:
                assert word in keys and keys.index(word) < keys.index("q ")
