"""The browser's pages: each address serves the shell with its page's scripts, stylesheets and
``data-page``; nothing a page names is missing from ``web/static``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardtable.server.app import create_app
from cardtable.server.events.routes import with_events
from cardtable.server.events.store import SqliteEvents
from cardtable.server.pages import PAGES, WEB, html
from cardtable.server.players import Players
from cardtable.server.store import Store

from .players_fixtures import CHEAP, client, open_limits

ADDRESSES = [
    ("/", "table"), ("/t/abc", "table"), ("/t/abc/replay", "table"), ("/howto/trex", "table"),
    ("/account", "account"), ("/players/Ana", "profile"), ("/leaderboard", "leaderboard"),
    ("/leaderboard/trash", "leaderboard"), ("/quick/spit", "quick"), ("/events", "events"),
    ("/events/e1", "event"),
]


@pytest.mark.parametrize("name", PAGES)
def test_every_file_a_page_names_is_shipped(name: str):
    page = html(name)
    named = re.findall(r'(?:href|src)="/static/([^"]+)"', page)
    assert set(PAGES[name].scripts) | set(PAGES[name].styles) <= set(named)
    for file in named:
        assert (WEB / "static" / file).is_file(), file


def test_every_page_has_the_players_menu_and_the_players_pages_their_data_page():
    """The players' menu (log in, leaderboard, tournaments) is in every page's header, the lobby
    and the table's too; the players' pages say which they are for their scripts."""
    assert 'id="players-nav"' in html("table") and "data-page" not in html("table")
    for name in PAGES.keys() - {"table"}:
        assert 'id="players-nav"' in html(name) and f'<body data-page="{name}">' in html(name)


def test_every_address_serves_its_page_revalidated(tmp_path: Path):
    store = Store(tmp_path / "server.sqlite3")  # as `cardtable serve` with accounts: quick play and events too
    players = Players(tmp_path / "server.sqlite3", log=store, hasher=CHEAP, limits=open_limits())
    app = create_app(store, bot_delay=0.0, allow_hosts=("testserver",), players=players)
    with_events(app, players, SqliteEvents(tmp_path / "server.sqlite3"))
    with client(app) as c:
        for address, name in ADDRESSES:
            r = c.get(address)
            assert r.status_code == 200, address
            assert r.headers["content-type"].startswith("text/html"), address
            assert r.headers["cache-control"] == "no-cache", address
            assert r.text == html(name), address
        routes = {getattr(route, "path", ""): getattr(route, "name", "") for route in app.router.routes}
        assert routes["/events/{event_id}"] == "event_page" and routes["/t/{table_id}/replay"] == "table_page"
    players.close()
    store.close()
