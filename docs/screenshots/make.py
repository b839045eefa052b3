"""Regenerate the screenshots of docs/tui.md (SVG from Textual, plus a text copy).

    .venv/bin/python docs/screenshots/make.py          # all of them
    .venv/bin/python docs/screenshots/make.py --trex   # the Trex ones only

Every wait is for a state of the app (a human's turn, a screen), polled while the app runs, with a
deadline in seconds (``--wait``, default 900), and an error inside the app stops the script at once.

Why it used to "time out": the first Trex wait was for seat 0 to play after the three others in
the Queens deal. With today's bots that never happens in that deal; the deal ends, and the
end-of-deal summary (added after the script) waits for the player, so the wait for seat 0's
turn, a count of 20000 pilot pauses, could only run out (sooner on a busy machine). Now seat 0
announces one contract after another until it plays a trick last, closing the summaries on the
way. The "hard" bots search a fixed number of worlds per move: a loaded machine makes them
slower, never different.
"""

from __future__ import annotations

import asyncio
import html
import os
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

import cardtable
from cardtable.records import record_of
from cardtable.tui.app import TableApp
from cardtable.tui.dialogs import CoverScreen, ResultScreen, SummaryScreen
from cardtable.tui.replay import ReplayApp
from cardtable.tui.seats import parse_seats
from cardtable.tui.session import Session

HERE = Path(__file__).parent
SIZE = (100, 30)


def svg_to_text(svg: str) -> str:
    """The characters of a Textual SVG screenshot, one line per terminal row."""
    rows: dict[int, dict[int, str]] = {}
    pattern = (r'<text class="[^"]*" x="([\d.]+)" y="[\d.]+" textLength="[\d.]+" '
               r'clip-path="url\(#[^)]*-line-(\d+)\)">([^<]*)</text>')
    for x, line, text in re.findall(pattern, svg):
        col = round(float(x) / 12.2)
        for i, ch in enumerate(html.unescape(text).replace("\xa0", " ")):
            rows.setdefault(int(line), {})[col + i] = ch
    out = []
    for line in range(max(rows) + 1 if rows else 0):
        cells = rows.get(line, {})
        out.append("".join(cells.get(c, " ") for c in range(max(cells) + 1 if cells else 0)).rstrip())
    return "\n".join(out).rstrip() + "\n"


DOC = HERE.parent / "tui.md"
STARTED = time.monotonic()


def save(app, name: str) -> None:
    """Write ``name.svg`` and put its text between the page's ``<!-- screenshot:name -->`` markers."""
    svg = app.export_screenshot()
    (HERE / f"{name}.svg").write_text(svg, encoding="utf-8")
    text = svg_to_text(svg).strip("\n")
    doc = DOC.read_text(encoding="utf-8")
    marker = re.compile(rf"(<!-- screenshot:{re.escape(name)} -->\n).*?(\n<!-- /screenshot -->)", re.S)
    doc = marker.sub(lambda m: m.group(1) + "```text\n" + text + "\n```" + m.group(2), doc)
    DOC.write_text(doc, encoding="utf-8")
    print(f"wrote {name} ({time.monotonic() - STARTED:.0f} s)", flush=True)


WAIT = float(sys.argv[sys.argv.index("--wait") + 1]) if "--wait" in sys.argv else 900.0
"""Seconds any one wait may take before the script gives up."""


async def until(pilot, check: Callable[[], bool], what: str = "the next state") -> None:
    """Let the app run until ``check()`` holds (an error inside the app stops the script at once)."""
    deadline = time.monotonic() + WAIT
    while not check():
        crash = getattr(pilot.app, "_exception", None)
        if crash is not None:
            raise RuntimeError(f"the app failed while waiting for {what}") from crash
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what} not reached in {WAIT:.0f} s (--wait SECONDS allows more)")
        await pilot.pause(0.01)


def key_for(view) -> str:
    legal = [str(a) for a in view.legal_actions]
    if view.phase == "draw":
        top = view.top_discard
        return "d" if "discard" in legal and top is not None and view.placeable(top, view.seat) else "enter"
    if view.phase == "place_wild":
        return str(int(legal[0].split()[1]) % 10)
    return "y"


def ready(app: TableApp) -> Callable[[], bool]:
    scr = app.table_screen
    return lambda: (scr.awaiting is not None and not scr.busy) or scr.session.is_over


async def play_until(app, pilot, check: Callable[[], bool], limit: int = 400) -> None:
    s = app.session
    for _ in range(limit):
        await until(pilot, ready(app))
        if check() or s.is_over:
            return
        await pilot.press(key_for(s.view(app.table_screen.awaiting)))


CONTRACTS = ("QN", "DI", "TK", "KH")
"""What seat 0 announces, deal after deal, until a trick comes to it with the three others' cards."""


async def full_trick(app: TableApp, pilot, summary: str = "") -> str:
    """Seat 0 keeps its deals and announces the contracts of :data:`CONTRACTS` in turn until it is
    to play after the three others (seed 4); the contract it was. An end-of-deal summary on the
    way is closed (it waits for the player: a wait for seat 0's turn alone would never end), the
    first one saved as ``summary`` if given."""
    from cardtable.games.trex.actions import DONE, KEEP, PLAY

    s = app.session
    for _ in range(400):
        await until(pilot, lambda: isinstance(app.screen, SummaryScreen) or ready(app)(), "seat 0's turn")
        if isinstance(app.screen, SummaryScreen):
            if summary:
                await pilot.pause(0.2)
                save(app, summary)
                summary = ""
            await pilot.press("enter")
            await until(pilot, lambda: app.screen is app.table_screen, "the table after the summary")
            continue
        view = s.view(0)
        if view.phase == "trick" and len(view.trick) == 3:
            await pilot.pause(0.2)
            return str(view.contract)
        menu = [a for a in view.legal_actions if a.kind != PLAY]
        done = {code for *_, code, _ in view.deal_scores}
        wanted = next((f"contract {c}" for c in CONTRACTS if c not in done), "")
        pick = next((a for a in menu if a.kind in (KEEP, DONE) or str(a) == wanted), None)
        app.table_screen.act(pick if pick is not None else view.legal_actions[0])
    raise RuntimeError(f"seat 0 never played after the three others ({', '.join(CONTRACTS)})")


async def trex() -> None:
    """The Trex table seated as played (TX-2: the next seat on your right), the end-of-deal
    summary, the same table in Arabic and a hot-seat cover."""
    s = Session.start(cardtable.load("trex"), parse_seats("human,hard,hard,hard", "trex"), seed=4, bot_seed=1)
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=(100, 26)) as pilot:
        contract = await full_trick(app, pilot, summary="tui-trex-summary")
        print("the table during", contract, flush=True)
        save(app, "tui-trex-table")
    before = os.environ.get("CARDTABLE_BIDI")
    os.environ["CARDTABLE_BIDI"] = "app"  # as an xterm (no bidi of its own) gets it
    try:
        s = Session.start(cardtable.load("trex"), parse_seats("human,hard,hard,hard", "trex"), seed=4, bot_seed=1,
                          lang="ar")
        app = TableApp(s, pace=0, bot_delay=0)
        async with app.run_test(size=(100, 26)) as pilot:
            await full_trick(app, pilot)
            save(app, "tui-trex-ar")
    finally:
        if before is None:
            os.environ.pop("CARDTABLE_BIDI", None)
        else:
            os.environ["CARDTABLE_BIDI"] = before
    s = Session.start(cardtable.load("trex"), parse_seats("human:Ana,human:Ben,hard,hard", "trex"), seed=7)
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, CoverScreen), "the cover screen")
        await pilot.pause()
        save(app, "tui-trex-cover")


async def main() -> None:
    await trex()
    if "--trex" in sys.argv:
        return
    # 1. Two players, a wild to place, the hint shown.
    s = Session.start(cardtable.load("trash"), parse_seats("human,sensible", "trash"), seed=9, bot_seed=1)
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await play_until(app, pilot, lambda: s.view(0).phase == "place_wild")
        await pilot.press("h")
        await pilot.pause()
        save(app, "trash-wild-hint")
    # 2. Four players in Spanish.
    s = Session.start(cardtable.load("trash", players=4), parse_seats("human,sensible,stock,random", "trash"),
                      seed=5, bot_seed=1, lang="es")
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=(100, 42)) as pilot:
        await play_until(app, pilot, lambda: len(s.match.state.history) > 30)
        save(app, "trash-4p-es")
    # 3. Hot-seat help and result (Trash has no private cards: no cover between the two people).
    s = Session.start(cardtable.load("trash", target_size=9), parse_seats("human:Ana,human:Ben", "trash"), seed=3)
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, ready(app))
        await pilot.press("question_mark")
        await pilot.pause()
        save(app, "trash-help")
        await pilot.press("escape")
        for _ in range(2000):
            await until(pilot, lambda: isinstance(app.screen, (CoverScreen, ResultScreen)) or ready(app)())
            if isinstance(app.screen, ResultScreen):
                break
            if isinstance(app.screen, CoverScreen):
                await pilot.press("enter")
                continue
            await pilot.press(key_for(s.view(app.table_screen.awaiting)))
        save(app, "trash-result")
    # 4. The replay viewer.
    record = record_of(s.match.state)
    rapp = ReplayApp(record, 0, pace=0)
    async with rapp.run_test(size=SIZE) as pilot:
        for _ in range(7):
            await pilot.press("right")
        await pilot.pause()
        save(rapp, "replay")

    # 5. The generic table (Trash on it).
    from cardtable.tui import table_screen
    from cardtable.tui.games import generic

    table_screen.table_class = lambda name: generic.GenericTable
    s = Session.start(cardtable.load("trash"), parse_seats("human,sensible", "trash"), seed=9, bot_seed=1)
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(20):
            await until(pilot, ready(app))
            if s.view(0).phase == "place_wild":
                break
            await pilot.press("1")
        await pilot.pause()
        save(app, "generic")


if __name__ == "__main__":
    asyncio.run(main())
