"""Regenerate the screenshots of docs/tui.md (SVG from Textual, plus a text copy).

    .venv/bin/python docs/screenshots/make.py
"""

from __future__ import annotations

import asyncio
import html
import re
import sys
from collections.abc import Callable
from pathlib import Path

import cardtable
from cardtable.records import record_of
from cardtable.tui.app import CoverScreen, ResultScreen, SummaryScreen, TableApp
from cardtable.tui.replay import ReplayApp
from cardtable.tui.seats import parse_seats
from cardtable.tui.session import Session

HERE = Path(__file__).parent
SIZE = (100, 30)


def svg_to_text(svg: str) -> str:
    """The characters of a Textual SVG screenshot, one line per terminal row."""
    rows: dict[int, dict[int, str]] = {}
    pattern = r'<text class="[^"]*" x="([\d.]+)" y="[\d.]+" textLength="[\d.]+" clip-path="url\(#[^)]*-line-(\d+)\)">([^<]*)</text>'
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


def save(app, name: str) -> None:
    """Write ``name.svg`` and put its text between the page's ``<!-- screenshot:name -->`` markers."""
    svg = app.export_screenshot()
    (HERE / f"{name}.svg").write_text(svg, encoding="utf-8")
    text = svg_to_text(svg).strip("\n")
    doc = DOC.read_text(encoding="utf-8")
    marker = re.compile(rf"(<!-- screenshot:{re.escape(name)} -->\n).*?(\n<!-- /screenshot -->)", re.S)
    doc = marker.sub(lambda m: m.group(1) + "```text\n" + text + "\n```" + m.group(2), doc)
    DOC.write_text(doc, encoding="utf-8")
    print("wrote", name)


async def until(pilot, check: Callable[[], bool]) -> None:
    for _ in range(20000):
        if check():
            return
        await pilot.pause()
    raise RuntimeError("not reached")


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
    return lambda: (scr.awaiting is not None and not scr.frames) or scr.session.is_over


async def play_until(app, pilot, check: Callable[[], bool], limit: int = 400) -> None:
    s = app.session
    for _ in range(limit):
        await until(pilot, ready(app))
        if check() or s.is_over:
            return
        await pilot.press(key_for(s.view(app.table_screen.awaiting)))


async def trex() -> None:
    """The Trex table seated as played (TX-2: the next seat on your right) and a hot-seat cover."""
    from cardtable.games.trex.actions import CONTRACT, DONE, KEEP

    s = Session.start(cardtable.load("trex"), parse_seats("human,hard,hard,hard", "trex"), seed=4, bot_seed=1)
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=(100, 26)) as pilot:
        for _ in range(200):
            await until(pilot, ready(app))
            view = s.view(0)
            if view.phase == "trick" and len(view.trick) == 3:
                break
            menu = [a for a in view.legal_actions if a.kind != 0]
            pick = next((a for a in menu if a.kind in (KEEP, DONE)
                         or (a.kind == CONTRACT and str(a) == "contract QN")), None)
            app.table_screen.act(pick if pick is not None else view.legal_actions[0])
        await pilot.pause(0.2)
        save(app, "tui-trex-table")
        for _ in range(200):  # on to the end of the deal: the summary waits for the player
            await until(pilot, lambda: isinstance(app.screen, SummaryScreen) or ready(app)())
            if isinstance(app.screen, SummaryScreen):
                break
            app.table_screen.act(s.view(0).legal_actions[0])
        await pilot.pause(0.2)
        save(app, "tui-trex-summary")
    s = Session.start(cardtable.load("trex"), parse_seats("human:Ana,human:Ben,hard,hard", "trex"), seed=7)
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, CoverScreen))
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
    from cardtable.tui import app as app_module
    from cardtable.tui.games import generic

    app_module.table_class = lambda name: generic.Table
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
