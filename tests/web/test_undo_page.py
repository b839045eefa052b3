"""Undo against bots on the page (docs/web.md), in Chromium: the lobby's option, the Undo
button and key shown only where undo is allowed, the position that comes back, the log line."""

from __future__ import annotations

from typing import Any

from tests.server.netserver import Server

from .browser import SHOTS, sync_api


def last_seq(page: Any) -> int:
    """The newest event number in the log (-1: none). The log keeps only its last lines, so lines
    are told apart by their event numbers, not by how many there are."""
    seqs = page.get_by_test_id("log").locator("li[data-seq]").evaluate_all(
        "els => els.map(e => Number(e.dataset.seq))")
    return max(seqs, default=-1)  # type: ignore[no-any-return]


def lines_after(page: Any, seq: int) -> list[str]:
    """The log's lines of events after ``seq``."""
    return page.get_by_test_id("log").locator("li[data-seq]").evaluate_all(  # type: ignore[no-any-return]
        f"els => els.filter(e => Number(e.dataset.seq) > {seq}).map(e => e.innerText)")


def comes_back(page: Any, board: Any, position: str) -> None:
    """The board shows ``position`` again (within five seconds)."""
    for _ in range(50):
        if board.inner_text() == position:
            return
        page.wait_for_timeout(100)
    import difflib

    diff = "\n".join(difflib.unified_diff(position.splitlines(), board.inner_text().splitlines(), lineterm=""))
    raise AssertionError(f"the position did not come back:\n{diff}")


def test_undo_in_the_browser_brings_the_position_back(server: Server, watched: Any):
    """Created in the lobby with undo ticked; the person plays until the bot has answered, clicks
    Undo, and sees the board of their last choice again, the bot's lines gone from the log and a
    line saying what was taken back; then the key u does it again."""
    w = watched()
    page = w.page
    page.goto(server.http + "/")
    page.get_by_test_id("game").select_option("trash")
    page.locator("details.more summary").click()
    undo_box = page.get_by_test_id("create-undo")
    sync_api.expect(undo_box).not_to_be_checked()  # off by default
    undo_box.check()
    page.get_by_test_id("create-name").fill("Ada")
    page.get_by_test_id("create").click()
    page.wait_for_url("**/t/*")
    table_id = page.url.rsplit("/", 1)[1]
    page.get_by_test_id("bot-1").click()
    sync_api.expect(page.get_by_test_id("start")).to_be_enabled()
    page.get_by_test_id("start").click()
    assert server.get(f"/api/tables/{table_id}")["table"]["undo"] is True
    board = page.get_by_test_id("board")
    button = page.get_by_test_id("undo")
    sync_api.expect(button).to_be_visible()

    def play_until_the_bot_answered() -> tuple[str, int]:
        """Click moves until the bot has moved after one of the person's choices; the board
        before that choice and the log's newest event number then."""
        before: tuple[str, int] | None = None
        for _ in range(200):
            legal = page.locator("[data-legal]")
            try:
                legal.first.wait_for(state="visible", timeout=3000)
            except sync_api.Error:
                continue
            page.wait_for_timeout(100)  # the page's own answer to a one-answer question goes first
            actions = {a for a in legal.evaluate_all("els => els.map(e => e.dataset.legal)") if a}
            if before is not None and any(line.startswith("Ben ") for line in lines_after(page, before[1])):
                return before
            if actions == {"stock"}:  # the draw stays the person's own key press (PACE): not a choice
                legal.first.click(timeout=1500)
                continue
            if len(actions) < 2:
                continue
            before = (board.inner_text(), last_seq(page))
            legal.last.click(timeout=1500)
        raise AssertionError("the bot never answered")

    position, logged = play_until_the_bot_answered()
    button.click()
    line = page.get_by_test_id("undo-line").last
    sync_api.expect(line).to_contain_text("Taken back")
    comes_back(page, board, position)
    assert not any(text.startswith("Ben ") for text in lines_after(page, logged))
    page.screenshot(path=str(SHOTS / "trash-undo.png"))
    position, logged = play_until_the_bot_answered()
    page.keyboard.press("u")
    sync_api.expect(page.get_by_test_id("undo-line")).to_have_count(2)
    comes_back(page, board, position)
    assert not w.errors, w.errors


def test_no_undo_button_without_the_option_or_with_another_person(server: Server, watched: Any):
    """A table without undo, and an undo table with two people: no Undo button."""
    table_id, host, token = server.seated({1: "random"})
    server.post(f"/api/tables/{table_id}/start", host=host)
    w = watched()
    page = w.open_as(server, table_id, token)
    sync_api.expect(page.get_by_test_id("hint")).to_be_visible()
    sync_api.expect(page.get_by_test_id("undo")).to_have_count(0)
    created = server.post("/api/tables", game="trash", options={"players": 3}, undo=True)
    two, host = created["table"]["id"], created["host"]
    ada = server.post(f"/api/tables/{two}/sit", seat=0, name="Ada")["token"]
    server.post(f"/api/tables/{two}/sit", seat=1, name="Ben")
    server.post(f"/api/tables/{two}/bot", host=host, seat=2, bot="random")
    server.post(f"/api/tables/{two}/start", host=host)
    page = w.open_as(server, two, ada, lang="es")
    sync_api.expect(page.get_by_test_id("hint")).to_be_visible()
    sync_api.expect(page.get_by_test_id("undo")).to_have_count(0)
    assert not w.errors, w.errors
