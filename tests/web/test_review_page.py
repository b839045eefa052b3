"""The Review panel of the browser replay (docs/review.md): a finished Trex game's replay as a
seat saw it, its costliest decisions listed, each one moving the replay to the position before its
move."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from cardtable.server.client import GameClient
from tests.server.netserver import Server

from .browser import SHOTS, sync_api


@pytest.fixture(scope="module")
def fast(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose bots play at once (a whole Trex game in a few seconds)."""
    srv = Server(tmp_path_factory.mktemp("review") / "server.sqlite3").start()
    yield srv
    srv.stop()


def finished_trex(server: Server, **options: Any) -> str:
    """Four bots play a Trex game to the end while a spectator watches (bots alone wait for one)."""
    table_id, _ = server.table({s: "random" for s in range(4)}, humans=(), game="trex", **options)

    async def watch() -> None:
        async with GameClient(server.ws, table_id) as spectator:
            await spectator.until(lambda f: f["type"] == "state" and f["view"]["outcome"] is not None)

    with ThreadPoolExecutor(1) as pool:  # Playwright's sync API holds this thread's event loop
        pool.submit(asyncio.run, asyncio.wait_for(watch(), 120)).result()
    for _ in range(100):
        if server.get(f"/api/tables/{table_id}")["table"]["status"] == "over":
            return table_id
        time.sleep(0.1)
    raise AssertionError("the game did not end")


def test_the_review_lists_the_costliest_decisions_and_opens_the_position_before_each(fast: Server, watched: Any):
    table_id = finished_trex(fast, complex_mode=True)
    w = watched(width=1280)
    page = w.page
    page.goto(f"{fast.http}/t/{table_id}/replay?seat=none&step=0")
    counter = page.get_by_test_id("replay-step")
    sync_api.expect(counter).to_contain_text("step 0 of")
    steps = int(re.search(r"of (\d+)", counter.inner_text()).group(1))
    page.get_by_test_id("review-open").click()  # a spectator is asked for a seat first
    sync_api.expect(page.get_by_test_id("review-spectator")).to_be_visible()
    page.get_by_test_id("replay-seat").select_option("1")
    panel = page.get_by_test_id("review")
    entries = panel.get_by_test_id("review-costliest").locator("button")
    sync_api.expect(entries.first).to_be_visible(timeout=60_000)
    expected = fast.get(f"/api/tables/{table_id}/review?seat=1")  # kept: the same answer at once
    assert expected["costliest"], expected
    sync_api.expect(entries).to_have_count(len(expected["costliest"]))
    sync_api.expect(panel.locator("h2")).to_contain_text("Ben")  # seat 1 by its name
    for d, entry in zip(expected["costliest"], entries.all(), strict=True):
        assert entry.get_attribute("data-step") == str(d["step"])
        text = entry.inner_text()
        assert f"step {d['step']}" in text and "played" in text and "best" in text and "points" in text, text
        assert re.search(r"cost \d+\.\d points", text) and "−" not in text, text  # a cost, not a negative
    sync_api.expect(panel.get_by_test_id("review-summary")).to_contain_text(
        re.compile(r"decisions with a choice; the moves played cost \d+\.\d points in all"))
    for d in (expected["costliest"][-1], expected["costliest"][0]):
        # the position the decision was made in (before its action), as the terminal opens it
        before = d["step"] - 1
        panel.get_by_test_id(f"review-step-{d['step']}").click()
        sync_api.expect(counter).to_have_text(f"step {before} of {steps}")
        assert f"seat=1&step={before}" in page.url
        shown = fast.get(f"/api/tables/{table_id}/replay?seat=1&step={before}")["view"]
        assert shown["current_player"] == 1, (d, shown["current_player"])  # seat 1 is the one to choose
        sync_api.expect(page.get_by_test_id("seat-1")).to_have_class(re.compile(r"\bturn\b"))
    page.screenshot(path=str(SHOTS / "trex-review.png"))
    page.keyboard.press("ArrowRight")  # the replay's keys still step it: to the decision's own step
    sync_api.expect(counter).to_have_text(f"step {expected['costliest'][0]['step']} of {steps}")
    page.get_by_test_id("review-close").click()
    sync_api.expect(panel).to_be_hidden()
    assert not w.errors, w.errors

