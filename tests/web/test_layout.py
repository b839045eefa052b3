"""Where things are drawn on the page (Chromium): Trex's next seat on your right (TX-2), a Trash
layout in two rows of 5 at desktop width (TR-4's table picture), each Spit seat's spit cards on
its own side with its own count."""

from __future__ import annotations

import re
from typing import Any

from tests.server.netserver import Server

from .browser import SHOTS, sync_api


def centres(page: Any, *testids: str) -> list[tuple[float, float]]:
    """The centres of elements, read at one moment (bots redraw the board between two reads)."""
    return [tuple(c) for c in page.evaluate("""(ids) => ids.map((id) => {
        const r = document.querySelector(`[data-testid="${id}"]`).getBoundingClientRect();
        return [r.x + r.width / 2, r.y + r.height / 2];
    })""", list(testids))]


def test_tx2_the_next_seat_is_drawn_on_your_right(server: Server, watched: Any):
    """Trex goes counter-clockwise: the seat after yours sits on your right, the one before on your left."""
    table_id, host, token = server.seated({1: "random", 2: "random", 3: "random"}, game="trex")
    server.post(f"/api/tables/{table_id}/start", host=host)
    w = watched()
    page = w.open_as(server, table_id, token, seat=0)
    sync_api.expect(page.get_by_test_id("seat-1")).to_be_visible()
    boxes = centres(page, "seat-0", "seat-1", "seat-2", "seat-3", "trick-1", "trick-3")
    (x0, y0), (x1, y1), (_x2, y2), (x3, y3), t1, t3 = boxes
    assert y0 > y2  # me at the bottom, the seat across at the top
    assert x1 > x0 > x3, boxes  # next (seat 1) on the right, seat 3 (who plays before me) on the left
    assert abs(y1 - y3) < 5
    assert t1[0] > t3[0]  # the trick slots follow the seats
    page.screenshot(path=str(SHOTS / "trex-seats.png"))
    assert not w.errors, w.errors


def test_tx2_a_spectator_sees_seat_1_right_of_seat_0(server: Server, watched: Any):
    table_id, _ = server.table({0: "random", 1: "random", 2: "random", 3: "random"}, humans=(), game="trex")
    w = watched()
    page = w.open_as(server, table_id, None)
    sync_api.expect(page.get_by_test_id("seat-1")).to_be_visible()
    x0, x1, x3 = (c[0] for c in centres(page, "seat-0", "seat-1", "seat-3"))
    assert x1 > x0 > x3


def test_tr4_a_trash_layout_is_two_rows_of_five_at_desktop_width(server: Server, watched: Any):
    table_id, host, token = server.seated({1: "random"})
    server.post(f"/api/tables/{table_id}/start", host=host)
    w = watched(width=1280)
    page = w.open_as(server, table_id, token)
    slots = page.get_by_test_id("layout-0").locator(".slot")
    sync_api.expect(slots).to_have_count(10)
    boxes = page.evaluate("""() => [...document.querySelectorAll('[data-testid=layout-0] .slot')]
        .map((el) => { const r = el.getBoundingClientRect(); return {x: r.x, y: r.y, height: r.height}; })""")
    tops = [b["y"] for b in boxes]
    assert len({round(y) for y in tops[:5]}) == 1 and len({round(y) for y in tops[5:]}) == 1
    assert tops[5] > tops[0] + boxes[0]["height"] / 2  # 6–10 below A–5
    assert abs(boxes[5]["x"] - boxes[0]["x"]) < 2  # the 6 under the Ace
    assert not w.errors, w.errors


def spit_count(page: Any, seat: int) -> int:
    text = page.get_by_test_id(f"spit-cards-{seat}").inner_text()
    found = re.findall(r"\d+", text)
    assert found, text
    return int(found[-1])


def test_spit_cards_lie_on_their_owners_side_with_their_count(server: Server, watched: Any):
    table_id, host, token = server.seated({1: "beginner"}, game="spit")
    server.post(f"/api/tables/{table_id}/start", host=host)
    w = watched(width=1280)
    page = w.open_as(server, table_id, token)
    for seat in (0, 1):
        side = page.get_by_test_id(f"side-{seat}")
        sync_api.expect(side.get_by_test_id(f"spit-cards-{seat}")).to_have_count(1)
    # the count beside each seat's stack is that seat's (the same number its line gives)
    for _ in range(3):
        counts = page.evaluate("""() => [0, 1].map((s) => {
            const line = document.querySelector(`[data-testid=side-${s}] .sp-spitcount`).textContent;
            const pile = document.querySelector(`[data-testid=spit-cards-${s}]`).textContent;
            return [line.match(/\\d+/)[0], pile.match(/\\d+/)[0]];
        })""")
        for line, pile in counts:
            assert line == pile, counts
    page.screenshot(path=str(SHOTS / "spit-sides.png"))
    assert not w.errors, w.errors
