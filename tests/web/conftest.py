"""Fixtures for the page tests: a real ``cardtable serve`` and Debian's Chromium under Playwright
(the same set-up as tests/server/test_browser.py, which these copy rather than import)."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.netserver import Server

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
ROOT = Path(__file__).resolve().parents[2]
# CARDTABLE_SCREENSHOTS=1 refreshes docs/screenshots/; otherwise they go to a temporary folder
SHOTS = (ROOT / "docs" / "screenshots" if os.environ.get("CARDTABLE_SCREENSHOTS")
         else Path(tempfile.gettempdir()) / f"cardtable-web-screenshots-{ROOT.name}")

try:
    from playwright import sync_api
except ImportError:  # the browser tests skip (the fixture says why); the others run
    sync_api = None  # type: ignore[assignment]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("web") / "server.sqlite3", "--bot-delay", "0.05").start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if sync_api is None:
        pytest.skip("the playwright package is not installed")
    if not (os.path.exists(CHROMIUM) or shutil.which("chromium")):
        pytest.skip(f"no Chromium at {CHROMIUM}: run scripts/install-browsers.sh (as root)")
    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield b
        b.close()


class Watched:
    """A page with the list its script errors and console errors go to."""

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
        """The table's page holding ``seat`` (its token in the page's storage, as after sitting)."""
        page = self.page
        page.goto(server.http + "/")
        page.evaluate("([k, v]) => localStorage.setItem(k, JSON.stringify(v))",
                      [f"ct.seat.{table_id}", {"seat": seat, "token": token} if token else None])
        page.evaluate("(l) => localStorage.setItem('ct.lang', l)", lang)
        page.goto(f"{server.http}/t/{table_id}{path}")
        return page

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def watched(browser: Any) -> Iterator[Any]:
    made: list[Watched] = []

    def make(**kwargs: Any) -> Watched:
        w = Watched(browser, **kwargs)
        made.append(w)
        return w

    yield make
    for w in made:
        w.close()


@pytest.fixture
def client(tmp_path: Path) -> Iterator[Any]:
    """An in-process app over a fresh store (as tests/server/conftest.py's ``client``)."""
    import warnings

    from cardtable.server.app import create_app
    from cardtable.server.store import Store

    with warnings.catch_warnings():  # starlette's notice about httpx, not ours
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    store = Store(tmp_path / "server.sqlite3")
    with TestClient(create_app(store, bot_delay=0.0, allow_hosts=("testserver",)), base_url="http://testserver") as c:
        yield c
    store.close()
