"""Questions with one answer (Chromium): the page answers them by itself and says so in the log;
the server still asks (the seat's action goes through the socket like a click)."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.netserver import Server

from .browser import shown_version, sync_api, wait_newer


def until_answered_alone(page: Any) -> Any:
    """Click the last of several answers until the page answers a one-answer question itself;
    the page's log lines that say so."""
    auto = page.get_by_test_id("auto-answer")
    for _ in range(200):
        if auto.count():
            break
        legal = page.locator("[data-legal]")
        with contextlib.suppress(sync_api.Error):
            legal.first.wait_for(state="visible", timeout=2000)
            if legal.count() > 1:
                legal.last.click(timeout=2000)
    return auto


def test_trex_one_answer_questions_are_answered_by_the_page(server: Server, watched: Any):
    """A Trex deal asks every seat about a redeal and about doubling, and a trick often leaves one
    card to play: within a deal the page answers such a question itself, and a question with more
    answers waits for a click."""
    table_id, host, token = server.seated({1: "random", 2: "random", 3: "random"}, game="trex")
    server.post(f"/api/tables/{table_id}/start", host=host)
    w = watched()
    auto = until_answered_alone(w.open_as(server, table_id, token))
    sync_api.expect(auto.first).to_contain_text("Only one answer: “")
    assert not w.errors, w.errors


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[Server]:
    """A server of this test's own: in the whole suite, after the module's other tests on the shared
    server, this test twice found its page waiting at the hand's first (forced) draw; alone it
    never did. The page's text is in the failure's message."""
    srv = Server(tmp_path / "server.sqlite3", "--bot-delay", "0.05").start()
    yield srv
    srv.stop()


OFFERS = """() => [...document.querySelectorAll('[data-legal]')].map((el) => el.dataset.legal).join('|')"""


def click_and_wait(page: Any, target: Any) -> None:
    """Click ``target`` and wait for the board's next state (the click's answer), so that the
    offers read next are not the ones just answered."""
    version = shown_version(page)
    with contextlib.suppress(sync_api.Error):
        target.click(timeout=2000)
        wait_newer(page, version)


def test_a_question_with_several_answers_waits(own_server: Server, watched: Any):
    """Whenever the page offers two or more moves, nothing is answered for the player: the same
    moves are still offered a while later (the bot waits for this seat)."""
    table_id, host, token = own_server.seated({1: "random"}, discard_take_requires_playable=False)
    own_server.post(f"/api/tables/{table_id}/start", host=host)
    w = watched()
    page = w.open_as(own_server, table_id, token)
    legal = page.locator("[data-legal]")
    seen = 0
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        with contextlib.suppress(sync_api.Error):
            legal.first.wait_for(state="visible", timeout=2000)
        now = page.evaluate(OFFERS)
        if now == "stock":  # the draw stays the player's (PACE): drawn here, as a person would
            click_and_wait(page, legal.first)
        elif now.count("|") < 1:  # one offer (the page answers it after a moment) or none: a bot's turn
            page.wait_for_timeout(100)
        else:
            page.wait_for_timeout(1200)
            assert page.evaluate(OFFERS) == now
            seen += 1
            if seen == 3:
                break
            click_and_wait(page, legal.last)
    assert seen == 3, page.locator("main").inner_text()
    assert not w.errors, w.errors


# Trash's lone draw from the stock is the player's key press (host/forced.py PACE): see
# test_words_and_keys.py::test_trash_the_draw_from_the_stock_stays_the_players_key_press.


PACE_CHECK = """async () => {
  const { Assist } = await import('/static/table/assist.js');
  let now = 0;
  performance.now = () => now;
  const pauses = [];
  window.setTimeout = (fn, ms) => { pauses.push(ms); return 0; };
  const view = (version, legal) => ({ seat: 0, current_player: 0, legal_actions: legal, outcome: null });
  const page = { mine: { seat: 0 }, seated: true, view: null, version: null, renderer: null };
  const assist = new Assist(page);
  const show = (version, legal) => { page.version = version; page.view = view(version, legal); assist.answerAlone(); };
  const out = { first: [], chosen: [400, 1700, 650], later: [] };
  show(1, ['keep']);  // a one-answer question before the person has chosen anything
  out.first.push(pauses.pop());
  let v = 2;
  for (const took of out.chosen) {  // the person's own choices, each taking `took` ms
    show(v, ['a', 'b']);
    now += took;
    assist.acted(v);
    v += 1;
  }
  for (let i = 0; i < 200; i += 1) { show(v, ['done']); out.later.push(pauses.pop()); v += 1; }
  return out;
}"""


def test_h3_a_one_answer_question_is_answered_at_the_persons_own_pace(server: Server, watched: Any):
    """Every seat and spectator sees when a seat's answer comes: a page that answered a forced
    question after a fixed 0.7 s, where a real choice takes a person seconds, told the table that
    the seat had one legal move (a singleton, nothing to double, no redeal to show). The pause is
    drawn from the person's own last choices, so a forced answer takes as long as a chosen one."""
    w = watched()
    w.page.goto(server.http + "/")
    out = w.page.evaluate(PACE_CHECK)
    assert 1000 <= out["first"][0] <= 3500  # before any choice of the person's own: one to 3.5 s
    assert set(out["later"]) == set(out["chosen"])  # afterwards, the times the person took
    assert not w.errors, w.errors
