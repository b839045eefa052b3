"""A name typed at an open seat survives the table's redraws (Chromium): another seat filling
while a person types redraws the seat list, and the box keeps what was typed (and the focus), so
the person sits by the name they typed."""

from __future__ import annotations

from typing import Any

from tests.server.netserver import Server

from .browser import sync_api


def test_a_typed_name_and_its_focus_survive_a_redraw_of_the_seats(server: Server, watched: Any):
    created = server.post("/api/tables", game="trash", options={"players": 3})
    table_id, host = created["table"]["id"], created["host"]
    page = watched().page
    page.goto(f"{server.http}/t/{table_id}")
    box = page.get_by_test_id("name-0")
    box.click()
    box.type("Ad")
    server.post(f"/api/tables/{table_id}/bot", host=host, seat=1, bot="random")  # the seats redraw
    sync_api.expect(page.get_by_test_id("seats")).to_contain_text("bot", ignore_case=True)
    sync_api.expect(page.get_by_test_id("name-0")).to_be_focused()  # given back on the next frame
    page.keyboard.type("a")  # the focus is still in the box
    sync_api.expect(page.get_by_test_id("name-0")).to_have_value("Ada")
    page.get_by_test_id("sit-0").click()
    sync_api.expect(page.get_by_test_id("seats").locator("li.me")).to_contain_text("Ada")


def test_w_names_a_bot_never_takes_the_name_of_a_person_at_the_table(server: Server, watched: Any):
    """W-names: a bot is named by its seat unless a person at the table has that name; then it
    takes the first name past the table's seats that nobody has (i18n/bots.py's rule), so the
    seats and the log never name two seats alike (Cleo at seat 0: the bot at seat 2 is Eva)."""
    created = server.post("/api/tables", game="trex")
    table_id, host = created["table"]["id"], created["host"]
    server.post(f"/api/tables/{table_id}/sit", seat=0, name="Cleo")
    for seat in (1, 2, 3):
        server.post(f"/api/tables/{table_id}/bot", host=host, seat=seat, bot="rules")
    page = watched().page
    page.goto(f"{server.http}/t/{table_id}")
    seats = page.get_by_test_id("seats")
    sync_api.expect(seats.locator("li")).to_have_count(4)
    sync_api.expect(seats.locator("li").nth(2)).to_contain_text("Eva")
    sync_api.expect(seats.locator("li").nth(1)).to_contain_text("Ben")
    sync_api.expect(seats.locator("li").nth(3)).to_contain_text("Dani")
    sync_api.expect(seats.locator("li", has_text="Cleo")).to_have_count(1)
