"""A Trash table of more than eight players on the page (TR-1): every layout is drawn, the others
wrap into columns on a wide screen and the page scrolls; the lobby offers the engine's range."""

from __future__ import annotations

from typing import Any

from tests.server.netserver import Server

from .browser import SHOTS, sync_api


def test_tr1_a_ten_player_table_draws_every_layout(server: Server, watched: Any):
    table_id, host, token = server.seated({s: "random" for s in range(1, 10)}, players=10)
    server.post(f"/api/tables/{table_id}/start", host=host)
    w = watched(width=1280)
    page = w.open_as(server, table_id, token)
    for seat in range(10):
        sync_api.expect(page.get_by_test_id(f"layout-{seat}")).to_be_visible()
    page.screenshot(path=str(SHOTS / "trash-ten.png"), full_page=True)
    assert not w.errors, w.errors


def test_tr1_a_ten_player_table_fits_a_phone_and_the_seat_to_play_has_no_twin(server: Server, watched: Any):
    """No layout runs past a phone's screen (the page scrolls down, never sideways), and no two
    bots share a name (seat 8 is Ana 2, seat 9 Ben 2)."""
    table_id, host, token = server.seated({s: "random" for s in range(1, 10)}, players=10)
    server.post(f"/api/tables/{table_id}/start", host=host)
    w = watched(width=390, phone=True)
    page = w.open_as(server, table_id, token)
    sync_api.expect(page.get_by_test_id("layout-9")).to_be_visible()
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    names = page.evaluate("() => [...document.querySelectorAll('.players .who > b')].map((el) => el.textContent)")
    assert len(names) == 10 and len(set(names)) == 10, names
    assert "Ana 2" in names and "Ben 2" in names
    assert not w.errors, w.errors


def test_tr1_the_lobby_offers_2_to_52_players_and_the_server_makes_them(server: Server, watched: Any):
    w = watched(width=1200)
    page = w.page
    page.goto(server.http + "/")
    page.get_by_test_id("game").select_option("trash")
    players = page.get_by_test_id("players")
    sync_api.expect(players).to_have_attribute("max", "52")
    sync_api.expect(players).to_have_attribute("min", "2")
    created = server.post("/api/tables", game="trash", options={"players": 52})
    assert len(created["table"]["seats"]) == 52
    refused = server.client.post(f"{server.http}/api/tables", json={"game": "trash", "options": {"players": 53}})
    assert refused.status_code == 400
    assert refused.json() == {"error": "bad_options", "message": "option players: 53 is above 52"}
    assert not w.errors, w.errors
