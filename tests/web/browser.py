"""The browser fixtures of every page test (tests/web and tests/server/test_browser*.py): a real
``cardtable serve`` and Debian's Chromium under Playwright, and pages that collect their errors.

A module uses them by importing them (``from tests.web.browser import browser_fixture``: the
fixture is called ``browser``); tests/web/conftest.py does so for its folder. Without the
playwright package or Chromium the browser tests skip (the fixture says why) and the others run.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.netserver import Server

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
# Screenshots land in a temporary folder; CARDTABLE_SCREENSHOTS=1 refreshes the ones kept in
# docs/screenshots/ (the deals are random, so a plain run must not rewrite tracked files).
# The temporary folder is named after the checkout, so two worktrees testing at once keep apart.
ROOT = Path(__file__).resolve().parents[2]
SHOTS = (ROOT / "docs" / "screenshots" if os.environ.get("CARDTABLE_SCREENSHOTS")
         else Path(tempfile.gettempdir()) / f"cardtable-screenshots-{ROOT.name}")

try:
    from playwright import sync_api
except ImportError:
    sync_api = None  # type: ignore[assignment]


@pytest.fixture(scope="module", name="server")
def server_fixture(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A ``cardtable serve`` of the module's own, on a free port, over a fresh store; a module's
    ``SERVER_ARGS`` are added to its command line."""
    extra = tuple(getattr(request.module, "SERVER_ARGS", ()))
    srv = Server(tmp_path_factory.mktemp("web") / "server.sqlite3", "--bot-delay", "0.05", *extra).start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module", name="browser")
def browser_fixture() -> Iterator[Any]:
    """Debian's Chromium, headless, for the module's pages. While it is up, every ``expect`` waits
    up to :data:`ANSWER_MS` for its condition: Playwright's 5 s is short for a round trip through
    the server (and another browser) on a loaded machine. A condition that holds is met as soon as
    it holds, so only a failing test waits longer."""
    if sync_api is None:
        pytest.skip("the playwright package is not installed")
    if not (os.path.exists(CHROMIUM) or shutil.which("chromium")):
        pytest.skip(f"no Chromium at {CHROMIUM}: run scripts/install-browsers.sh (as root)")
    SHOTS.mkdir(parents=True, exist_ok=True)
    sync_api.expect.set_options(timeout=ANSWER_MS)
    try:
        with sync_api.sync_playwright() as p:
            b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
            yield b
            b.close()
    finally:
        sync_api.expect.set_options(timeout=None)  # Playwright's default again, for tests without a browser


def open_as(page: Any, server: Server, table_id: str, token: str | None, seat: int = 0, lang: str | None = None,
            path: str = "") -> Any:
    """Open the table's page holding ``seat`` (its token in the page's storage, as after sitting;
    none with no token), in ``lang`` if given."""
    page.goto(server.http + "/")
    page.evaluate("([k, v]) => localStorage.setItem(k, JSON.stringify(v))",
                  [f"ct.seat.{table_id}", {"seat": seat, "token": token} if token else None])
    if lang is not None:
        page.evaluate("(l) => localStorage.setItem('ct.lang', l)", lang)
    page.goto(f"{server.http}/t/{table_id}{path}")
    return page


ANSWER_MS = 15_000
"""How long a click or a key waits for the board's next state, and anything else that follows by
itself waits to show (a loaded machine answers well within it)."""

NEWER = "(v) => (document.querySelector('[data-testid=board]')?.dataset.version ?? null) !== v"


def shown_version(page: Any) -> str | None:
    """The version of the state the board shows (its ``data-version``; None before the first)."""
    version = page.evaluate("() => document.querySelector('[data-testid=board]')?.dataset.version ?? null")
    return None if version is None else str(version)


def wait_newer(page: Any, version: str | None, timeout: float = ANSWER_MS) -> bool:
    """Wait until the board shows another state than ``version``: the answer to a click or a key
    (or a bot's move), so that the offers read next are not the ones just answered. False if none
    came within ``timeout`` ms."""
    try:
        page.wait_for_function(NEWER, arg=version, timeout=timeout)
    except sync_api.TimeoutError:
        return False
    return True


class Watched:
    """A page in a context of its own, with the list its script errors and console errors go to
    (a Content-Security-Policy violation, a missing file or a failed request is a console error)."""

    def __init__(self, browser: Any, width: int = 1280, height: int = 900, locale: str = "en-US",
                 phone: bool = False) -> None:
        extra: dict[str, Any] = {"is_mobile": True, "has_touch": True, "device_scale_factor": 2} if phone else {}
        self.context = browser.new_context(viewport={"width": width, "height": height}, locale=locale, **extra)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)

    def open_as(self, server: Server, table_id: str, token: str | None, seat: int = 0, lang: str = "en",
                path: str = "") -> Any:
        """The table's page holding ``seat``, in ``lang``."""
        return open_as(self.page, server, table_id, token, seat, lang, path)

    def close(self) -> None:
        self.context.close()


@pytest.fixture(name="watched")
def watched_fixture(browser: Any) -> Iterator[Any]:
    """Makes :class:`Watched` pages (``watched(width=390, phone=True)``), closed after the test."""
    made: list[Watched] = []

    def make(**kwargs: Any) -> Watched:
        w = Watched(browser, **kwargs)
        made.append(w)
        return w

    yield make
    for w in made:
        w.close()


def page_wait(page: Any, what: str, check: Any, deadline: float) -> None:
    """Wait until ``check()`` is true, letting the page's events in meanwhile (a plain sleep would
    hold Playwright's listeners back); fail naming ``what`` after ``deadline`` seconds."""
    end = time.monotonic() + deadline
    while not check():
        assert time.monotonic() < end, f"not within {deadline} s: {what}"
        page.wait_for_timeout(100)
