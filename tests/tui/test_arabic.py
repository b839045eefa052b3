"""Arabic in the terminal (docs/arabic.md): with ``--lang ar`` the app draws every Arabic text in visual
order and joined (``CARDTABLE_BIDI=app``), the styled pieces of the game tables, menus, score
sheet, end-of-deal summary, replay, review and help included; ``off`` leaves it as it is.

The screen is read from Textual's screenshot. An Arabic run there in ``app`` mode must be in
presentation forms (joined letters: a base letter on screen went round :func:`visual`) and, read
from its right end and turned back into base letters, a piece of an Arabic catalog text (a run in
reading order is not, but for a rare palindrome). In ``off`` mode every run is a catalog piece as
written."""

from __future__ import annotations

import json
import re
import unicodedata
from functools import cache
from importlib import resources

import pytest
from rich.console import Console
from rich.text import Text

import cardtable
from cardtable.bots import make_bot
from cardtable.games.trex.actions import CONTRACT, DOUBLE, KEEP, PLAY
from cardtable.host.clock import VirtualClock
from cardtable.host.match import play_out
from cardtable.i18n.bidi import _RTL, visual, visual_wrapped
from cardtable.records.record import record_of
from cardtable.tui.app import TableApp
from cardtable.tui.dialogs import HelpScreen, ResultScreen, SummaryScreen
from cardtable.tui.games.trex import ScoreSheet
from cardtable.tui.replay import ReplayApp, ReplayScreen, ReviewScreen
from cardtable.tui.rtl import VisualText, visual_text
from cardtable.tui.seats import parse_seats
from cardtable.tui.session import Session

from .test_trex_screen import screen_text
from .util import ready, screen, settle, sync

pytest.importorskip("arabic_reshaper")  # the joined forms the checks look for
pytest.importorskip("bidi")

SIZE = (110, 34)
RUN = re.compile("[\u0621-\u064a\u0671-\u06d3\ufb50-\ufdff\ufe70-\ufefc]+")
BASE = re.compile("[\u0621-\u064a]")
SHAPED = re.compile("[\ufb50-\ufdff\ufe70-\ufefc]")
MARKS = re.compile("[\u064b-\u065f\u0670\u0640]")  # harakat and tatweel: the reshaper drops them
BACKWARD_CARD = re.compile(r"[♣♦♥♠](?:10|[2-9JQKA])(?![♣♦♥♠])")


@cache
def catalog_text() -> str:
    """Every Arabic catalog text (all namespaces), without harakat."""
    folder = resources.files("cardtable.i18n").joinpath("ar")
    texts = [v for item in folder.iterdir() if item.name.endswith(".json")
             for v in json.loads(item.read_text(encoding="utf-8")).values()]
    return MARKS.sub("", "\n".join(texts))


def logical(run: str) -> str:
    """A run drawn in visual order, read from its right end, in base letters."""
    return unicodedata.normalize("NFKC", run[::-1])


def check(text: str, mode: str, where: str) -> int:
    """Assert the visual-order rule on a screen's text; the number of Arabic runs checked."""
    runs = RUN.findall(text)
    assert len(runs) >= 3, f"{where}: no Arabic on screen"
    blob = catalog_text()
    for run in runs:
        if mode == "app":
            assert not BASE.search(run), f"{where}: {run!r} reached the screen in reading order, unjoined"
            assert logical(run) in blob, f"{where}: {run!r} is no catalog text drawn right to left"
        else:
            assert not SHAPED.search(run) and run in blob, f"{where}: {run!r} was changed with CARDTABLE_BIDI=off"
    assert not BACKWARD_CARD.search(text), f"{where}: a card face drawn backwards: {BACKWARD_CARD.search(text)}"
    return len(runs)


def trex_session() -> Session:
    game = cardtable.load("trex")
    return Session.start(game, parse_seats("human,hard,hard,hard", "trex"), seed=4, bot_seed=1, lang="ar")


def menu_index(view, want) -> int:  # type: ignore[no-untyped-def]
    menu = [a for a in view.legal_actions if a.kind != PLAY]
    return next((i for i, a in enumerate(menu) if want(a)), 0)


async def trex_screens(mode: str, monkeypatch, whole_deal: bool) -> dict[str, str]:  # type: ignore[no-untyped-def]
    """The Trex screens of seat 0 in Arabic: the redeal menu, the help, the contract and double
    menus, a trick, and with ``whole_deal`` the end-of-deal summary, the score sheet and the
    Trex layout of the next deal."""
    monkeypatch.setenv("CARDTABLE_BIDI", mode)
    s = trex_session()
    app = TableApp(s, pace=0, bot_delay=0)
    got: dict[str, str] = {}
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(400):
            await settle(pilot, lambda: ready(app)() or isinstance(app.screen, SummaryScreen))
            if isinstance(app.screen, SummaryScreen):
                await pilot.pause()
                got["summary"] = screen_text(app)
                await pilot.press("enter")
                await settle(pilot, lambda: app.screen is screen(app))
                await pilot.press("c")
                await settle(pilot, lambda: isinstance(app.screen, ScoreSheet))
                await pilot.pause()
                got["sheet"] = screen_text(app)
                await pilot.press("escape")
                continue
            view = s.view(0)
            before = len(s.match.state.history)
            if view.phase == "redeal":
                await pilot.pause()
                got["redeal"] = screen_text(app)
                await pilot.press("question_mark")
                await settle(pilot, lambda: isinstance(app.screen, HelpScreen))
                await pilot.pause()
                got["help"] = screen_text(app)
                await pilot.press("escape")
                await settle(pilot, lambda: app.screen is screen(app))
                await pilot.press(str(menu_index(view, lambda a: a.kind == KEEP) + 1))
            elif view.phase == "choose":
                await pilot.pause()
                got.setdefault("choose", screen_text(app))
                wanted = "contract TR" if "summary" in got else "contract KH"
                await pilot.press(str(menu_index(view, lambda a, w=wanted: a.kind == CONTRACT and str(a) == w) + 1))
            elif view.phase == "double":
                await pilot.pause()
                got["double"] = screen_text(app)
                await pilot.press(str(menu_index(view, lambda a: a.kind == DOUBLE) + 1))
            elif view.phase == "trex":
                await pilot.pause()
                got["layout"] = screen_text(app)
                break
            else:
                if "trick" not in got:  # the seats around the trick (or the last one, dimmed)
                    await pilot.pause()
                    got["trick"] = screen_text(app)
                    if not whole_deal:
                        break
                await pilot.press("enter")
            await settle(pilot, lambda: len(s.match.state.history) > before  # noqa: B023
                         or isinstance(app.screen, SummaryScreen))
    return got


@sync
async def test_every_trex_screen_is_drawn_in_visual_order(monkeypatch):
    got = await trex_screens("app", monkeypatch, whole_deal=True)
    assert set(got) == {"redeal", "help", "choose", "double", "trick", "summary", "sheet", "layout"}, set(got)
    for where, text in got.items():
        check(text, "app", where)
    head = visual("التوزيعة 1/20", "app", rtl=True)  # the table's header (tui.trex.deal)
    assert head in got["redeal"]
    assert visual("الصفوف", "app") in got["layout"] and " ♠  " in got["layout"]  # the rows: ranks left to right


@sync
async def test_bidi_off_leaves_the_trex_table_and_help_as_written(monkeypatch):
    got = await trex_screens("off", monkeypatch, whole_deal=False)
    assert {"redeal", "help", "choose", "double", "trick"} <= set(got)
    for where, text in got.items():
        check(text, "off", where)
    assert "التوزيعة 1/20" in got["redeal"]


@sync
async def test_the_menu_reads_from_the_right_in_arabic(monkeypatch):
    monkeypatch.setenv("CARDTABLE_BIDI", "app")
    s = trex_session()
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, ready(app))
        t = screen(app).table
        first, second = (next(p for p in range(9) if t._menu_at(p, 2) == i) for i in (0, 1))
        assert t.query_one(f"#menu-{first}").region.x > t.query_one(f"#menu-{second}").region.x
        cursor = t.menu_cursor
        await pilot.press("left")  # the choice on the left is the next one
        assert t.menu_cursor == (cursor + 1) % 2
        monkeypatch.setenv("CARDTABLE_BIDI", "off")  # left to right as written: the first choice on the left
        assert [t._menu_at(p, 3) for p in range(4)] == [0, 1, 2, None]


def trash_app(lang: str) -> TableApp:
    """A 2-player Trash table against ``sensible`` (seed 5) in ``lang``."""
    s = Session.start(cardtable.load("trash"), parse_seats("human,sensible", "trash"), seed=5, bot_seed=1, lang=lang)
    return TableApp(s, pace=0, bot_delay=0)


async def draw_once(pilot, app: TableApp) -> None:  # type: ignore[no-untyped-def]
    """Wait for the table, draw from the stock and wait for the bot's reply."""
    await settle(pilot, ready(app))
    await pilot.press("enter")
    await settle(pilot, lambda: ready(app)() and len(app.session.match.state.history) > 2)


async def trash_and_spit(mode: str, monkeypatch) -> dict[str, str]:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("CARDTABLE_BIDI", mode)
    got = {}
    app = trash_app("ar")
    async with app.run_test(size=SIZE) as pilot:
        await draw_once(pilot, app)
        await pilot.pause()
        got["trash"] = screen_text(app)
    game = cardtable.load("spit")
    s = Session.start(game, parse_seats("human,beginner", "spit"), seed=3, bot_seed=1, clock=VirtualClock(), lang="ar")
    app = TableApp(s, hz=1e-6)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("space")  # no spit to ask for yet: a note under the table
        await pilot.pause()
        got["spit"] = screen_text(app)
    return got


@sync
async def test_trash_and_spit_tables_in_visual_order_and_off_as_written(monkeypatch):
    drawn = await trash_and_spit("app", monkeypatch)
    written = await trash_and_spit("off", monkeypatch)
    for where in ("trash", "spit"):
        check(drawn[where], "app", where)
        check(written[where], "off", where)
        assert drawn[where] != written[where]
    assert visual("الكومة", "app") in drawn["trash"]  # a pile's label (tui.trash.stock)


@sync
async def test_replay_and_review_in_visual_order(monkeypatch):
    monkeypatch.setenv("CARDTABLE_BIDI", "app")
    game = cardtable.load("trash", max_hands=1)
    record = record_of(play_out(game, [make_bot("trash", "random"), make_bot("trash", "hard")], seed=2))
    app = ReplayApp(record, 0, lang="ar", pace=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        main = app.screen
        assert isinstance(main, ReplayScreen)
        for _ in range(4):
            await pilot.press("right")
        await pilot.pause()
        check(screen_text(app), "app", "replay")
        await pilot.press("r")
        await settle(pilot, lambda: isinstance(app.screen, ReviewScreen) and app.screen.review is not None,
                     limit=20_000)
        await pilot.pause()
        check(screen_text(app), "app", "review")


@sync
async def test_title_status_and_log_in_visual_order(monkeypatch):
    """The title and status lines, and the log (each line wrapped in reading order, then reordered)."""

    async def drawn(mode: str) -> tuple[str, str, list[str], list[str], int]:
        monkeypatch.setenv("CARDTABLE_BIDI", mode)
        app = trash_app("ar")
        async with app.run_test(size=SIZE) as pilot:
            await draw_once(pilot, app)  # a few more log lines
            await pilot.pause(0.1)
            scr = screen(app)
            log = scr.log_widget
            rows = [row.strip() for row in screen_text(app).split("\n")]
            status = scr._status_line()
            assert _RTL.search(status) and not isinstance(app.screen, ResultScreen)
            assert (visual(status, "app", rtl=True) if mode == "app" else status) in rows
            return rows[0], status, [line.text.rstrip() for line in log.lines], \
                [x.plain for x in log.source], log.scrollable_content_region.width

    title, status, lines, source, _ = await drawn("off")
    v_title, v_status, v_lines, v_source, v_width = await drawn("app")
    assert _RTL.search(title) and v_title == visual(title, "app", rtl=True) and v_title != title
    assert v_status == status  # the same line, drawn as written with off and in visual order with app (above)
    assert v_source == source and lines == [x.rstrip() for x in lines]
    expected = [part.rstrip() for line in v_source for part in visual_wrapped(line, v_width, "app", rtl=True)]
    assert v_lines == expected and v_lines != lines  # each line wrapped in reading order, then reordered


@sync
async def test_other_languages_are_untouched(monkeypatch):
    monkeypatch.setenv("CARDTABLE_BIDI", "app")
    app = trash_app("es")
    async with app.run_test(size=SIZE) as pilot:
        await draw_once(pilot, app)
        await pilot.pause()
        text = screen_text(app)
        title = text.split("\n")[0]
    assert not _RTL.search(text) and title.startswith(" Trash") and "roba" in text


# --- the styled pieces: cardtable.tui.rtl -------------------------------------------------


def _spans(text: Text) -> dict[str, str]:
    return {str(span.style): text.plain[span.start:span.end] for span in text.spans}


def test_each_styled_piece_keeps_its_style_in_visual_order():
    logical_text = Text.assemble(("الطلب", "bold"), ": ", ("البنات", "cyan"), " · ", ("10♥", "red"), " ",
                                 ("-25", "dim"))
    shown = visual_text(logical_text, "app")
    assert shown.plain == visual(logical_text.plain, "app", rtl=True)
    spans = _spans(shown)
    assert spans["bold"] == visual("الطلب", "app") and spans["cyan"] == visual("البنات", "app")
    assert spans["red"] == "10♥" and spans["dim"] == "-25"  # a card face and a signed number left to right
    assert shown.plain.index(spans["bold"]) > shown.plain.index(spans["cyan"]) > shown.plain.index("10♥")
    assert visual_text(logical_text, "off").plain == logical_text.plain


def test_a_word_split_between_two_styles_still_joins():
    split = visual_text(Text.assemble(("الط", "bold"), ("لب", "red")), "app")
    assert split.plain == visual("الطلب", "app")
    assert _spans(split) == {"bold": split.plain[2:], "red": split.plain[:2]}


def test_every_catalog_text_in_styled_pieces_is_drawn_as_visual_draws_it():
    checked = 0
    for text in catalog_text().split("\n"):
        if not _RTL.search(text):
            continue
        words = text.split(" ")
        pieces = Text.assemble(*((w + (" " if i < len(words) - 1 else ""), "bold" if i % 2 else "")
                                 for i, w in enumerate(words)))
        assert visual_text(pieces, "app").plain == visual(text, "app", rtl=True), text
        checked += 1
    assert checked > 400


def test_a_long_text_is_wrapped_in_reading_order_then_reordered():
    text = "الشباب تفتح صفوف الأنواع الأربعة"
    console = Console(width=16, file=None, record=True, color_system=None, legacy_windows=False)
    console.begin_capture()
    console.print(VisualText(Text(text), how="app"))
    rows = console.end_capture().rstrip("\n").split("\n")
    assert rows == visual_wrapped(text, 16, "app", rtl=True)  # the first words on the first row, at the right
    console.begin_capture()
    console.print(VisualText(Text(text), justify="left", how="app"))
    assert [r.rstrip() for r in console.end_capture().rstrip("\n").split("\n")] == [r.strip() for r in rows]
