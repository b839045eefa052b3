"""Helpers for driving the Textual app with its pilot."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Coroutine
from typing import Any

from cardtable.games.trash.view import TrashView
from cardtable.tui.app import TableApp
from cardtable.tui.table_screen import TableScreen


async def settle(pilot, check: Callable[[], bool], limit: int = 5000) -> None:
    """Let the app run until ``check()`` holds (an error inside the app fails at once)."""
    for _ in range(limit):
        crash = getattr(pilot.app, "_exception", None)
        if crash is not None:
            raise AssertionError(f"the app failed: {crash!r}") from crash
        if check():
            return
        await pilot.pause()
    raise AssertionError("the app did not get there")


def result_shown(app: Any) -> Callable[[], bool]:
    """True once the result box is on screen and laid out: the screen pushed is not enough, its
    ``#result`` may not be composed yet (a click or a query on it would miss on a slow machine)."""

    def shown() -> bool:
        from cardtable.tui.dialogs import ResultScreen

        if not isinstance(app.screen, ResultScreen):
            return False
        found = app.screen.query("#result")
        return bool(found) and found.first().region.area > 0

    return shown


def screen(app: TableApp) -> TableScreen:
    return app.table_screen


def ready(app: TableApp) -> Callable[[], bool]:
    """True when a human is asked to move, or the match is over."""
    return lambda: (screen(app).awaiting is not None and not screen(app).busy) or screen(app).session.is_over


def trash_key(view: TrashView) -> str:
    """The key a sensible human presses for a Trash view."""
    legal = [str(a) for a in view.legal_actions]
    if view.phase == "draw":
        top = view.top_discard
        return "d" if "discard" in legal and top is not None and view.placeable(top, view.seat) else "enter"
    if view.phase == "place_wild":
        return str(int(legal[0].split()[1]) % 10)
    return "y"


BOUND = 240.0
"""Seconds any pilot test may run before it fails (none may hang the suite)."""


def sync(test: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
    """Run an async test with asyncio (no pytest plugin needed), failing it after :data:`BOUND`
    seconds instead of letting it hang."""

    @functools.wraps(test)
    def run(*args: Any, **kwargs: Any) -> None:
        asyncio.run(asyncio.wait_for(test(*args, **kwargs), BOUND))

    return run
