"""Card faces and lists on the Arabic page, and the phone layout's small cards and seat labels:
a card face reads rank first ("J♣", "10♣") in a right-to-left line too, lists
use the Arabic comma; at 390×844 no Trex seat label breaks inside a word and "10♣" fits the
layout's small cards."""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.netserver import Server

from .browser import SHOTS
from .fakesocket import FakeTable, new_state, sync_api

# Each card face in the text under `root`: is its rank drawn left of its suit? (ranges of the
# rank's first character and of the suit, by their boxes on the screen)
FACES_IN_ORDER = """(root) => {
  const out = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    for (const m of n.data.matchAll(/(10|[2-9AJQK])([♣♦♥♠])/g)) {
      const box = (at) => {
        const r = document.createRange(); r.setStart(n, at); r.setEnd(n, at + 1); return r.getBoundingClientRect();
      };
      const rank = box(m.index), suit = box(m.index + m[1].length);
      if (!rank.width || !suit.width) continue;  // not drawn (a closed panel)
      out.push([m[0], rank.left < suit.left, n.data]);
    }
  }
  return out;
}"""

# Words of the text under each element split over two lines (a word whose range has two boxes).
BROKEN_WORDS = """(els) => els.flatMap((el) => {
  const out = [];
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    for (const m of n.data.matchAll(/\\S+/g)) {
      const r = document.createRange(); r.setStart(n, m.index); r.setEnd(n, m.index + m[0].length);
      const lines = new Set([...r.getClientRects()].filter((b) => b.width > 0).map((b) => Math.round(b.top)));
      if (lines.size > 1) out.push(m[0]);
    }
  }
  return out;
})"""

# Cards whose corner text sticks out of the card.
OVERFLOWING = """(cards) => cards.flatMap((c) => {
  const corner = c.querySelector('.corner');
  if (!corner) return [];
  const a = c.getBoundingClientRect(), b = corner.getBoundingClientRect();
  const out = b.right > a.right + 0.5 || b.left < a.left - 0.5;
  return out ? [c.dataset.card + ' ' + b.width.toFixed(1) + '/' + a.width.toFixed(1)] : [];
})"""


def advance(state: Any, choose: Any, until: Any, limit: int = 600) -> Any:
    for _ in range(limit):
        if until(state):
            return state
        actions = [str(a) for a in state.legal_actions()]
        state.play(choose(actions))
    raise AssertionError("the position was not reached")


def trick_then_trex(actions: list[str]) -> str:
    """Queens (a trick contract) first, then Trex; keep every hand, double nothing, the first card."""
    for wanted in ("contract QN", "contract TR", "keep", "done"):
        if wanted in actions:
            return wanted
    return actions[0]


def test_ar_card_faces_read_rank_first_and_lists_use_the_arabic_comma(server: Server, watched: Any):
    table = FakeTable(server, watched, "trex", lang="ar", locale="ar")
    page = table.page
    state = new_state("trex", 3)
    for _ in range(40):  # each step a frame: the log collects the plays
        table.show(state)
        actions = [str(a) for a in state.legal_actions()]
        state.play(trick_then_trex(actions))
    table.show(state)
    log = page.get_by_test_id("log")
    sync_api.expect(log.locator("li").last).to_be_visible()
    sync_api.expect(page.locator("html")).to_have_attribute("dir", "rtl")
    faces = page.evaluate(FACES_IN_ORDER, page.locator("main").element_handle())
    assert len(faces) >= 5, faces
    assert all(ok for _, ok, _ in faces), [f for f in faces if not f[1]]
    info = page.get_by_test_id("trex-info").inner_text()  # the contracts still to play, a list
    assert "، " in info and ", " not in info, info
    assert not table.w.errors, table.w.errors


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_phone_trex_seat_labels_keep_their_words_and_10_fits_the_small_cards(server: Server, watched: Any, lang: str):
    table = FakeTable(server, watched, "trex", lang=lang, locale=lang, bots={1: "medium", 2: "expert", 3: "rules"},
                      width=390, height=844, phone=True)
    page = table.page
    # Queens first (captured cards: small faces in the seats), then Trex until a row holds a 10
    state = advance(new_state("trex", 3), trick_then_trex, lambda s: any(
        "T" in str(c) for cards in s.view(0).captured for c in cards))
    table.show(state)
    sync_api.expect(page.get_by_test_id("seat-1")).to_be_visible()
    small = page.locator(".tx-mini .card[data-card^='T']")
    assert small.count() >= 1
    assert small.evaluate_all(OVERFLOWING) == []
    labels = page.locator(".tx-left .who, .tx-right .who, .tx-top .who")
    sync_api.expect(labels).to_have_count(3)
    assert labels.evaluate_all(BROKEN_WORDS) == []
    state = advance(state, trick_then_trex, lambda s: s.view(0).contract == "TR" and any(
        r and r[0] <= 10 <= r[1] for r in s.view(0).layout))
    table.show(state)
    rows = page.locator("[data-testid=trex-layout] .card[data-card^='T']")
    sync_api.expect(rows).to_have_count(1)
    assert rows.evaluate_all(OVERFLOWING) == []
    assert labels.evaluate_all(BROKEN_WORDS) == []
    page.screenshot(path=str(SHOTS / f"trex-phone-small-cards-{lang}.png"), full_page=True)
    assert not table.w.errors, table.w.errors
