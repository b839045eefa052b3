"""The browser's pages: one shell (``web/page.html``) and what each page adds to it.

Every page has the same header (the brand, the connection status, the language menu) and an empty
``<main>`` that its script fills. The table page (``/``, ``/t/{id}``, ``/howto/{game}``) loads
``app.js``; the players' and tournaments' pages add their stylesheets, their scripts and the
``data-page`` their scripts read. Every page has the players' menu (``#players-nav``, filled by
``account.js``'s ``fillNav``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from string import Template

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

WEB = Path(str(resources.files("cardtable").joinpath("web")))
NAV = '  <nav class="players-nav" id="players-nav" data-testid="players-nav"></nav>\n'


@dataclass(frozen=True)
class Page:
    """What a page adds to the shell: ``styles`` and ``scripts`` under ``/static``, the body's
    ``data-page`` (``None``: none) and the HTML after ``<main>``."""

    scripts: tuple[str, ...]
    styles: tuple[str, ...] = ()
    name: str | None = None
    after: str = ""


PLAYERS = ("players.css",)
TOURNAMENTS = (*PLAYERS, "tournaments.css")
PAGES = {
    "table": Page(("app.js",)),
    "account": Page(("account.js",), PLAYERS, "account"),
    "profile": Page(("profile.js", "tournament-profile.js"), PLAYERS, "profile",
                    '<section id="player-events" class="card-panel" data-testid="player-events" hidden></section>\n'),
    "leaderboard": Page(("leaderboard.js",), PLAYERS, "leaderboard"),
    "quick": Page(("quick.js",), PLAYERS, "quick"),
    "events": Page(("tournament-events.js",), TOURNAMENTS, "events"),
    "event": Page(("tournament-event.js",), TOURNAMENTS, "event"),
}


@cache
def html(name: str) -> str:
    """The page ``name`` of :data:`PAGES` as the browser gets it."""
    page = PAGES[name]
    head = "".join(f'<link rel="stylesheet" href="/static/{s}">\n' for s in page.styles)
    head += "".join(f'<script type="module" src="/static/{s}"></script>\n' for s in page.scripts)
    shell = Template((WEB / "page.html").read_text(encoding="utf-8"))
    return shell.substitute(head=head, page="" if page.name is None else f' data-page="{page.name}"',
                            nav=NAV, after=page.after)


def endpoint(name: str) -> Callable[[Request], Awaitable[Response]]:
    """A route's endpoint serving the page ``name``, which the browser asks for again on every load
    (``no-cache``), so a new version of the server is seen at once."""
    html(name)  # a page that cannot be made fails when the routes are built, not on a request

    async def serve(request: Request) -> Response:
        return HTMLResponse(html(name), headers={"Cache-Control": "no-cache"})
    serve.__name__ = serve.__qualname__ = f"{name}_page"  # the route's name
    return serve


__all__ = ["PAGES", "WEB", "Page", "endpoint", "html"]
