"""What players expect from a table, on the page (Chromium): the creator seated at once, a
rematch with the same seats and bots, Trex's end-of-deal summary that waits for the player."""

from __future__ import annotations

import contextlib
import re
from typing import Any

from tests.server.netserver import Server

from .browser import SHOTS, sync_api

CARD = re.compile(r"^[2-9TJQKA][CDHS]$")


def test_the_creator_is_seated_at_once_and_the_name_is_kept(server: Server, watched: Any):
    w = watched()
    page = w.page
    page.goto(server.http + "/")
    page.get_by_test_id("create-name").fill("Zoe")
    page.get_by_test_id("create").click()
    page.wait_for_url("**/t/*")
    seats = page.get_by_test_id("seats")
    sync_api.expect(seats.locator("li.me")).to_contain_text("Zoe")
    sync_api.expect(page.get_by_test_id("sit-1")).to_have_count(0)  # seated: no "sit" for another seat
    # the page draws the seat from the table it created before its socket's welcome marks it online
    sync_api.expect(seats.locator("li.me .dot.on")).to_have_count(1)
    table_id = page.url.rsplit("/", 1)[1]
    assert server.get(f"/api/tables/{table_id}")["table"]["seats"][0] == {
        "seat": 0, "kind": "human", "name": "Zoe", "online": True, "auto": False}
    page.get_by_test_id("bot-1").click()
    sync_api.expect(page.get_by_test_id("start")).to_be_enabled()
    page.goto(server.http + "/")
    sync_api.expect(page.get_by_test_id("create-name")).to_have_value("Zoe")
    assert not w.errors, w.errors


def play_until(page: Any, done: Any, limit: int = 600, prefer: Any = None, unless: str | None = None) -> None:
    """Click legal moves until ``done()``; with ``unless`` (a selector), no click once it is on the page.

    The page checks ``unless`` and clicks in one task, so no frame comes between: a click of ours
    cannot land on a question that arrived with what we wait for (a Trex deal summary comes with the
    next deal's first question, and a move there is also the player's "go on").
    """
    for _ in range(limit):
        if done():
            return
        legal = page.locator("[data-legal]")
        try:
            legal.first.wait_for(state="visible", timeout=2000)
        except sync_api.Error:
            continue
        actions = [a for a in legal.evaluate_all("els => els.map(e => e.dataset.legal)") if a]
        choice = prefer(actions) if prefer else None
        if unless is not None:
            page.evaluate("""([choice, unless]) => {
                if (document.querySelector(unless)) return;
                const els = [...document.querySelectorAll("[data-legal]")];
                const el = choice ? els.find((e) => e.dataset.legal === choice) : els[els.length - 1];
                if (el) el.click();
            }""", [choice, unless])
            page.wait_for_timeout(50)
            continue
        with contextlib.suppress(sync_api.Error):
            if choice:
                page.locator(f'[data-legal="{choice}"]').first.click(timeout=1500)
            else:
                legal.last.click(timeout=1500)
    raise AssertionError("not done in time")


def test_the_creator_without_a_name_is_seated_too_and_may_choose_only_to_watch(server: Server, watched: Any):
    """Seated at once whether or not a name was typed; unticking "sit" makes a
    table to host without a seat (the choice is kept for the next table)."""
    w = watched()
    page = w.page
    page.goto(server.http + "/")
    page.get_by_test_id("create").click()
    page.wait_for_url("**/t/*")
    sync_api.expect(page.get_by_test_id("seats").locator("li.me")).to_contain_text("Player 1")
    table_id = page.url.rsplit("/", 1)[1]
    assert server.get(f"/api/tables/{table_id}")["table"]["seats"][0]["kind"] == "human"
    page.goto(server.http + "/")
    page.get_by_test_id("create-sit").uncheck()
    page.get_by_test_id("create").click()
    page.wait_for_url(re.compile(r".*/t/(?!" + table_id + r")[A-Za-z0-9_-]+$"))
    other = page.url.rsplit("/", 1)[1]
    assert [s["kind"] for s in server.get(f"/api/tables/{other}")["table"]["seats"]] == ["open", "open"]
    sync_api.expect(page.get_by_test_id("sit-0")).to_be_visible()  # not seated: may sit anywhere
    page.goto(server.http + "/")
    sync_api.expect(page.get_by_test_id("create-sit")).not_to_be_checked()
    assert not w.errors, w.errors


def test_rematch_starts_a_new_game_with_the_same_seats_and_bots(server: Server, watched: Any):
    table_id, host, token = server.seated({1: "sensible"}, target_size=9)
    server.post(f"/api/tables/{table_id}/start", host=host)
    w = watched()
    page = w.page
    page.goto(server.http + "/")
    page.evaluate("([k, v]) => localStorage.setItem(k, JSON.stringify(v))", [f"ct.host.{table_id}", host])
    w.open_as(server, table_id, token)
    rematch = page.get_by_test_id("rematch")
    play_until(page, lambda: rematch.count() > 0)
    page.screenshot(path=str(SHOTS / "trash-rematch.png"))
    rematch.click()
    page.wait_for_url(re.compile(r".*/t/(?!" + table_id + r")[A-Za-z0-9_-]+$"))
    new_id = page.url.rsplit("/", 1)[1]
    old, new = server.get(f"/api/tables/{table_id}")["table"], server.get(f"/api/tables/{new_id}")["table"]
    assert new["status"] == "playing" and new["options"] == old["options"] and new["preset"] == old["preset"]
    assert [(s["kind"], s["name"]) for s in new["seats"]] == [("human", "Ada"), ("bot", "sensible")]
    sync_api.expect(page.get_by_test_id("layout-0")).to_be_visible()  # seat 0 again, playing
    sync_api.expect(page.get_by_test_id("seats").locator("li.me")).to_contain_text("Ada")
    assert not w.errors, w.errors


def trick_contract_first(actions: list[str]) -> str | None:
    contract = next((a for a in actions if a.startswith("contract ") and a != "contract TR"), None)
    return contract or next((a for a in actions if a in ("keep", "done")), None)


def test_trex_the_end_of_deal_summary_waits_for_the_player(server: Server, watched: Any):
    table_id, host, token = server.seated({1: "rules", 2: "rules", 3: "rules"}, game="trex")
    server.post(f"/api/tables/{table_id}/start", host=host)
    w = watched()
    page = w.open_as(server, table_id, token)
    summary = page.get_by_test_id("deal-summary")
    play_until(page, lambda: summary.count() > 0, prefer=trick_contract_first,
               unless="[data-testid=deal-summary]")
    answered = page.get_by_test_id("auto-answer").count()
    sync_api.expect(summary).to_be_visible()
    page.wait_for_timeout(1500)
    sync_api.expect(summary).to_be_visible()  # it stays until the player goes on
    assert page.get_by_test_id("auto-answer").count() == answered  # no question answered for them meanwhile
    totals = summary.locator("tbody tr").evaluate_all("trs => trs.map(tr => Number(tr.cells[2].textContent))")
    deal = summary.locator("tbody tr").evaluate_all("trs => trs.map(tr => Number(tr.cells[1].textContent))")
    sheet = page.get_by_test_id("score-sheet")
    rows = sheet.locator("tbody tr:not(.tx-kingdom):not(.tx-subtotal)").evaluate_all(
        "trs => trs.map(tr => [...tr.cells].slice(2).map(td => Number(td.textContent)))")
    assert deal == rows[-1]  # the deal just scored, seat by seat
    assert totals == [sum(r[s] for r in rows) for s in range(4)]  # and the running totals
    page.screenshot(path=str(SHOTS / "trex-deal-summary.png"))
    page.keyboard.press("Enter")
    sync_api.expect(summary).to_have_count(0)
    sync_api.expect(page.get_by_test_id("hand").locator("[data-card]")).to_have_count(13)  # the next deal
    assert not w.errors, w.errors


def test_a5_a_page_whose_seat_another_window_took_says_so_sends_nothing_and_can_take_it_back(
        server: Server, watched: Any):
    """A5 on the page: when a second window opens the same seat, the first is told so, its board
    takes no move (a key pressed there is answered "not sent", not swallowed) and it offers
    "Play here", which takes the seat back, so the other window is the one told."""
    table_id, tokens = server.table({1: "random"}, game="trash", target_size=9)
    first, second = watched(width=1280), watched(width=1280)
    a = first.open_as(server, table_id, tokens[0])
    sync_api.expect(a.get_by_test_id("board")).not_to_have_class(re.compile(r"\boffline\b"))
    sync_api.expect(a.locator("[data-legal]").first).to_be_visible()
    b = second.open_as(server, table_id, tokens[0])
    sync_api.expect(b.locator("[data-legal]").first).to_be_visible()
    sync_api.expect(a.get_by_test_id("elsewhere")).to_be_visible()
    sync_api.expect(a.get_by_test_id("board")).to_have_class(re.compile(r"\boffline\b"))
    version = server.get(f"/api/tables/{table_id}")["table"]["version"]
    a.keyboard.press("Enter")  # stock, were the page live
    sync_api.expect(a.get_by_test_id("flash")).to_contain_text("not sent")
    assert server.get(f"/api/tables/{table_id}")["table"]["version"] == version  # nothing was played
    a.get_by_test_id("play-here").click()
    sync_api.expect(b.get_by_test_id("elsewhere")).to_be_visible()
    sync_api.expect(a.get_by_test_id("board")).not_to_have_class(re.compile(r"\boffline\b"))
    sync_api.expect(a.get_by_test_id("elsewhere")).to_have_count(0)
    assert not first.errors and not second.errors, (first.errors, second.errors)


def test_the_lobby_and_a_table_have_the_players_menu(server: Server, watched: Any):
    """Every page's header has the players' menu: log in, the leaderboard and the tournaments,
    from the lobby and from a table too (not only from the players' own pages)."""
    w = watched(width=1280)
    page = w.page
    page.goto(server.http + "/")
    for testid, path in (("nav-account", "/account"), ("nav-leaderboard", "/leaderboard"), ("nav-events", "/events")):
        sync_api.expect(page.get_by_test_id(testid)).to_have_attribute("href", path)
    page.get_by_test_id("nav-events").click()
    page.wait_for_url("**/events")
    table_id, tokens = server.table({1: "random"}, game="trash", target_size=9)
    w.open_as(server, table_id, tokens[0])
    sync_api.expect(page.get_by_test_id("nav-leaderboard")).to_be_visible()
    assert not w.errors, w.errors


def test_bad_addresses_say_what_is_wrong(server: Server, watched: Any):
    """An address no table can have says there is no such table (not the lobby), a leaderboard
    of a game that is not rated says so (not another game's board), and a quick play of no game
    leaves no button to press."""
    w = watched(width=1280)
    page = w.page
    page.goto(server.http + "/t/bad!id")
    sync_api.expect(page.get_by_test_id("no-table")).to_be_visible()
    page.goto(server.http + "/leaderboard/nosuch")
    sync_api.expect(page.locator("main")).to_contain_text("No leaderboard for that game")
    page.goto(server.http + "/quick/nosuch")
    sync_api.expect(page.get_by_test_id("quick-status")).not_to_have_text("")
    sync_api.expect(page.get_by_test_id("quick-bots-now")).to_be_hidden()
    sync_api.expect(page.get_by_test_id("quick-cancel")).to_be_hidden()
