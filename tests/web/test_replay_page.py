"""The replay view in Chromium: a finished game's record stepped through as a chosen seat saw it,
opened from the end banner and from a link, with the terminal replay's keys (→ ← Home End Space)."""

from __future__ import annotations

import asyncio
import re
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from cardtable.server.client import GameClient
from tests.server.netserver import Server

from .browser import SHOTS, sync_api
from .test_catalogs import web_catalog


def finished(server: Server, game: str = "trash", **options: Any) -> str:
    """A game of bots played to the end while a spectator watches (bots alone wait for one)."""
    table_id, _ = server.table({0: "random", 1: "random"}, humans=(), game=game, **options)

    async def watch() -> None:
        async with GameClient(server.ws, table_id) as spectator:
            await spectator.until(lambda f: f["type"] == "state" and f["view"]["outcome"] is not None)

    with ThreadPoolExecutor(1) as pool:  # Playwright's sync API holds this thread's event loop
        pool.submit(asyncio.run, asyncio.wait_for(watch(), 60)).result()
    for _ in range(100):
        if server.get(f"/api/tables/{table_id}")["table"]["status"] == "over":
            return table_id
        time.sleep(0.1)
    raise AssertionError("the game did not end")


def test_the_end_banner_opens_the_replay_and_the_keys_step_it(server: Server, watched: Any):
    table_id = finished(server, target_size=9)
    steps = server.get(f"/api/tables/{table_id}/replay?seat=0&step=0")["steps"]
    w = watched(width=1280)
    page = w.open_as(server, table_id, None)
    page.get_by_test_id("replay").click()  # the end banner's link
    page.wait_for_url("**/replay?seat=none*")
    counter = page.get_by_test_id("replay-step")
    sync_api.expect(counter).to_have_text(f"step 0 of {steps}")
    page.get_by_test_id("replay-seat").select_option("0")  # as seat 0 saw it
    sync_api.expect(page.get_by_test_id("layout-0")).to_be_visible()
    page.keyboard.press("ArrowRight")
    sync_api.expect(counter).to_have_text(f"step 1 of {steps}")
    page.keyboard.press(" ")
    sync_api.expect(counter).to_have_text(f"step 2 of {steps}")
    page.keyboard.press("ArrowLeft")
    sync_api.expect(counter).to_have_text(f"step 1 of {steps}")
    page.keyboard.press("End")
    sync_api.expect(counter).to_have_text(f"step {steps} of {steps}")
    sync_api.expect(page.get_by_test_id("result")).to_be_visible()
    page.keyboard.press("ArrowRight")  # past the end: stays
    sync_api.expect(counter).to_have_text(f"step {steps} of {steps}")
    page.keyboard.press("Home")
    sync_api.expect(counter).to_have_text(f"step 0 of {steps}")
    sync_api.expect(page.get_by_test_id("result")).to_have_count(0)
    assert "seat=0&step=0" in page.url
    # nothing is playable in a replay
    assert page.locator("[data-legal]").count() == 0
    page.keyboard.press("End")
    sync_api.expect(counter).to_have_text(f"step {steps} of {steps}")
    page.screenshot(path=str(SHOTS / "replay-desktop.png"))
    assert not w.errors, w.errors


def test_a_replay_link_opens_at_its_step_as_its_seat(server: Server, watched: Any):
    """The link's step and seat: the page draws that seat's view of that step (its face-up cards, the
    log up to that step), nothing more."""
    table_id = finished(server, target_size=9)
    w = watched()
    page = w.page
    page.goto(f"{server.http}/t/{table_id}/replay?seat=1&step=3")
    sync_api.expect(page.get_by_test_id("replay-step")).to_contain_text("step 3 of")
    sync_api.expect(page.get_by_test_id("replay-seat")).to_have_value("1")
    data = server.get(f"/api/tables/{table_id}/replay?seat=1&step=3")
    last_seq = data["view"]["events"][-1]["seq"]
    sync_api.expect(page.get_by_test_id("log").locator("li").last).to_have_attribute("value", str(last_seq + 1))
    for seat in (0, 1):
        faces = sum(c is not None for c in data["view"]["layouts"][seat])
        sync_api.expect(page.get_by_test_id(f"layout-{seat}").locator(".card.face")).to_have_count(faces)
    page.get_by_test_id("replay-table").click()
    page.wait_for_url(f"**/t/{table_id}")
    sync_api.expect(page.get_by_test_id("replay-link")).to_be_visible()  # the seats panel's link too
    assert not w.errors, w.errors


def test_h6_an_unfinished_game_has_no_replay(server: Server, watched: Any):
    table_id, _ = server.table({1: "random"})
    w = watched()
    page = w.page
    page.goto(f"{server.http}/t/{table_id}/replay?seat=0")
    sync_api.expect(page.get_by_test_id("replay-error")).to_have_text(web_catalog("en")["web.error.in_progress"])
    assert page.locator(".card.face").count() == 0


def test_in_arabic_the_replay_steps_run_left_to_right_as_their_keys(server: Server, watched: Any):
    """The page is right to left in Arabic, but the replay's steps keep the order of their keys
    (← back, → next) and of their arrows: first and back on the left, next and last on the right."""
    table_id = finished(server, target_size=9)
    w = watched(width=1280)
    page = w.open_as(server, table_id, None, lang="ar", path="/replay?seat=0&step=0")
    sync_api.expect(page.get_by_test_id("replay-step")).to_be_visible()
    assert page.evaluate("document.documentElement.dir") == "rtl"
    buttons = ("replay-first", "replay-back", "replay-next", "replay-last")
    xs = [page.get_by_test_id(b).bounding_box()["x"] for b in buttons]
    assert xs == sorted(xs), xs
    assert not w.errors, w.errors


def test_an_edited_replay_address_shows_the_nearest_replay_not_an_error(server: Server, watched: Any):
    """A step past the game's end shows the last step, and a seat the table does not have the
    spectator's view, in the page's language, rather than the server's English refusal."""
    table_id = finished(server, target_size=9)
    steps = server.get(f"/api/tables/{table_id}/replay?seat=0&step=0")["steps"]
    w = watched(width=1280)
    page = w.open_as(server, table_id, None, lang="es", path="/replay?seat=7&step=99999")
    page.wait_for_url(re.compile(rf"/replay\?seat=none&step={steps}$"))  # step 0 shows first, then the last
    counter = page.get_by_test_id("replay-step")
    sync_api.expect(counter).to_have_text(re.compile(rf"\b{steps}\b.*\b{steps}\b"))  # step N of N
    sync_api.expect(page.get_by_test_id("replay-error")).to_have_count(0)
