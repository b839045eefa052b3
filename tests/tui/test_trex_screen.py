"""The Trex table driven by the pilot: whole deals by key presses, the score sheet, the last
trick, the Trex layout, hidden hands and the smallest terminal."""

from __future__ import annotations

import html
import io
import re

from rich.console import Console

import cardtable
from cardtable.core.cards import Card
from cardtable.games.trex.actions import CONTRACT, DONE, DOUBLE, KEEP, PLAY
from cardtable.games.trex.view import TrexView
from cardtable.tui.app import TableApp
from cardtable.tui.dialogs import SummaryScreen
from cardtable.tui.games.trex import ScoreSheet, TrexTable, sort_hand
from cardtable.tui.seats import parse_seats
from cardtable.tui.session import Session

from .util import ready, screen, settle, sync

SIZE = (110, 34)
FACE = re.compile(r"(?:10|[2-9JQKA])[♣♦♥♠]")
SEED = 4
"""Seat 0 holds the 7♥ (the first kingdom), may ask for a redeal, holds K♥ and two queens."""


def session(seed: int = SEED, preset: str = "standard") -> Session:
    game = cardtable.load("trex", preset=preset)
    return Session.start(game, parse_seats("human,hard,hard,hard", "trex"), seed=seed, bot_seed=1)


def screen_text(app: TableApp, width: int = 999) -> str:
    """The characters on screen, row by row (from the SVG screenshot), the first ``width`` columns."""
    rows: dict[int, dict[int, str]] = {}
    pattern = (r'<text class="[^"]*" x="([\d.]+)" y="[\d.]+" textLength="[\d.]+" '
               r'clip-path="url\(#[^)]*-line-(\d+)\)">([^<]*)</text>')
    for x, line, text in re.findall(pattern, app.export_screenshot()):
        col = round(float(x) / 12.2)
        for i, ch in enumerate(html.unescape(text).replace("\xa0", " ")):
            rows.setdefault(int(line), {})[col + i] = ch
    return "\n".join("".join(cells.get(c, " ") for c in range(min(width, max(cells) + 1)))
                     for _, cells in sorted(rows.items()))


def table_text(app: TableApp) -> str:
    """What the table shows (not the log, which keeps the cards played before the view's events)."""
    return screen_text(app, screen(app).table.region.right)


def rich_text(renderable) -> str:
    console = Console(width=100, file=io.StringIO(), record=True)
    console.print(renderable)
    return console.export_text()


def public_cards(view: TrexView) -> set[str]:
    """Every card the seat may see: its hand, the cards of the events (plays, doubles …), shown hands."""
    seen = {c.unicode() for c in view.hand}
    seen |= {e.card.unicode() for e in view.events if e.card is not None}
    seen |= {c.unicode() for _, cards in view.redeal_shown for c in cards}
    seen |= {c.unicode() for c, _ in view.doubled}
    seen |= {c.unicode() for _, c in view.trick + view.last_trick}
    seen |= {c.unicode() for cards in view.captured for c in cards}
    return seen


def table(app: TableApp) -> TrexTable:
    t = screen(app).table
    assert isinstance(t, TrexTable)
    return t


def menu_key(view: TrexView, want) -> str:
    """The digit of the first menu choice ``want(action)`` accepts (else the first choice)."""
    menu = [a for a in view.legal_actions if a.kind != PLAY]
    for i, action in enumerate(menu):
        if want(action):
            return str(i + 1)
    return "1"


async def play_deal(pilot, app: TableApp, s: Session, contract: str, check_hidden: bool = True,
                    keep_summary: bool = False) -> list[str]:
    """Press keys for seat 0 until the first deal is scored; the phases seat 0 answered."""
    answered = []
    presses = 0
    while not s.view(0).deal_scores:
        await settle(pilot, lambda: ready(app)() or bool(s.view(0).deal_scores))
        if s.view(0).deal_scores:
            break
        view = s.view(0)
        assert screen(app).awaiting == 0
        if check_hidden:
            shown = set(FACE.findall(table_text(app)))
            assert shown <= public_cards(view), shown - public_cards(view)
        answered.append(view.phase)
        before = len(s.match.state.history)
        if view.phase == "redeal":
            await pilot.press(menu_key(view, lambda a: a.kind == KEEP))
        elif view.phase == "choose":
            await pilot.press(menu_key(view, lambda a: a.kind == CONTRACT and str(a) == f"contract {contract}"))
        elif view.phase == "double":
            await pilot.press(menu_key(view, lambda a: a.kind == DOUBLE))
        else:
            if presses % 3 == 1:
                await pilot.press("right")
            if presses % 5 == 2:
                await pilot.press("down")
            cursor = table(app).cursor
            assert cursor is not None and cursor.id in {a.arg for a in view.legal_actions}
            await pilot.press("enter")
            await settle(pilot, lambda: len(s.match.state.history) > before)  # noqa: B023
            assert str(s.match.state.history[before]) == str(cursor)
        presses += 1
        await settle(pilot, lambda: len(s.match.state.history) > before or s.view(0).deal_scores != ())  # noqa: B023
    await settle(pilot, lambda: isinstance(app.screen, SummaryScreen))  # the end-of-deal summary waits
    if not keep_summary:
        await pilot.press("enter")
    return answered


@sync
async def test_a_whole_deal_of_king_of_hearts_by_key_presses_then_the_sheet_and_the_last_trick():
    s = session()
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        answered = await play_deal(pilot, app, s, "KH")
        assert answered[:3] == ["redeal", "choose", "double"] and answered.count("trick") >= 3
        history = [str(a) for a in s.match.state.history]
        assert "keep" in history and "contract KH" in history and "double KH" in history
        view = s.view(0)
        number, kingdom, holder, contract, deltas = view.deal_scores[0]
        assert (number, kingdom, holder, contract) == (1, 0, 0, "KH") and deltas == view.kingdom_scores[0]
        await settle(pilot, ready(app))
        await pilot.press("c")
        await settle(pilot, lambda: isinstance(app.screen, ScoreSheet))
        sheet = screen_text(app)
        assert "Score sheet" in sheet and "Kingdom 1" in sheet and "King of Hearts" in sheet and "Total" in sheet
        for d in deltas:
            assert (f"{d:+d}" if d else "0") in sheet
        await pilot.press("escape")
        await settle(pilot, lambda: app.screen is screen(app))
        last = s.view(0).last_trick
        if last:  # the new deal's first tricks may not be played yet: the last trick of the deal scored
            await pilot.press("t")
            await pilot.pause()
            assert table(app).show_last and "Last trick" in screen_text(app)
            await pilot.press("t")
            await pilot.pause()
            assert not table(app).show_last


@sync
async def test_a_whole_trex_deal_shows_the_layout_rows_and_the_finishing_order():
    s = session()
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        seen_layout = False
        original = table(app).show

        def spy(view):
            nonlocal seen_layout
            original(view)
            if view.contract == "TR" and any(view.layout):
                text = str(table(app).query_one("#trex-centre").render())
                seen_layout = seen_layout or ("Layout" in text and "J" in text)

        table(app).show = spy
        answered = await play_deal(pilot, app, s, "TR", check_hidden=False)
        assert "choose" in answered and "trex" in answered and "double" not in answered
        assert seen_layout
        _, _, _, contract, deltas = s.view(0).deal_scores[0]
        assert contract == "TR" and sorted(deltas) == [50, 100, 150, 200]


@sync
async def test_hidden_hands_never_show_but_the_open_preset_shows_them_all():
    s = session(seed=2)  # seat 1 holds the kingdom: seat 0 watches bots until asked
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, ready(app))
        text = table_text(app)
        assert set(FACE.findall(text)) <= public_cards(s.view(0))
        assert s.view(0).hands[1] is None
    s = session(seed=2, preset="open")
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, ready(app))
        await pilot.pause(0.1)
        assert screen(app).query_one("#trex-hand").region.bottom <= 24 - 3  # the hand still fits
        text = str(screen(app).query_one("#trex-info").render())  # in the scrolling part of the table
        view = s.view(0)
        for q in (1, 2, 3):
            hand = view.hands[q]
            assert hand is not None
            assert all(c.unicode() in text for c in sort_hand(hand))


@sync
async def test_in_80x24_the_hand_and_the_menu_fit():
    s = session()
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, ready(app))
        await pilot.pause(0.1)
        hand = screen(app).query_one("#trex-hand")
        assert hand.region.height == 6 and hand.region.bottom <= 24 - 3
        assert screen(app).query_one("#menu-0").region.height == 1
        await pilot.press(menu_key(s.view(0), lambda a: a.kind == KEEP))
        await settle(pilot, lambda: s.view(0).phase == "choose" and ready(app)())
        await pilot.press("1")  # King of Hearts
        await settle(pilot, lambda: s.view(0).phase != "choose" and ready(app)())
        if s.view(0).phase == "double":
            await pilot.press(menu_key(s.view(0), lambda a: a.kind == DONE))
        await settle(pilot, lambda: s.view(0).phase == "trick" and ready(app)())
        await pilot.pause(0.1)
        assert hand.region.bottom <= 24 - 3 and screen(app).query_one("#trex-centre").region.height >= 5
        cards = [c for c in screen(app).query(".card") if c.card is not None]
        assert len(cards) == len(s.view(0).hand) and all(c.region.right <= 80 for c in cards)


@sync
async def test_a_card_played_with_the_mouse():
    s = session()
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, ready(app))
        await pilot.press(menu_key(s.view(0), lambda a: a.kind == KEEP))
        await settle(pilot, lambda: s.view(0).phase == "choose" and ready(app)())
        assert await pilot.click("#menu-1")  # Queens
        await settle(pilot, lambda: "contract QN" in [str(a) for a in s.match.state.history])
        await settle(pilot, ready(app))
        while s.view(0).phase == "double":
            await pilot.press(menu_key(s.view(0), lambda a: a.kind == DONE))
            await settle(pilot, lambda: s.view(0).phase != "double" or s.to_move() != 0)
            await settle(pilot, ready(app))
        await settle(pilot, lambda: s.view(0).phase == "trick" and ready(app)())
        target = table(app).playable()[-1]
        cell = next(c for c in screen(app).query(".card") if c.card == target)
        before = len(s.match.state.history)
        assert await pilot.click(f"#{cell.id}")
        await settle(pilot, lambda: len(s.match.state.history) > before)
        assert s.match.state.history[before].card == Card.parse(str(target))


@sync
async def test_a_trick_is_drawn_one_card_at_a_time_and_the_hint_is_marked():
    s = session()
    app = TableApp(s, pace=0.001, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        drawn: list[tuple[str, int]] = []
        original = table(app).play_event

        def spy(event):
            original(event)
            drawn.append((event.kind, len(table(app).model.trick)))

        table(app).play_event = spy
        while s.view(0).phase != "trick" or s.to_move() != 0:
            await settle(pilot, ready(app))
            view = s.view(0)
            if view.phase == "trick":
                break
            before = len(s.match.state.history)
            await pilot.press(menu_key(view, lambda a: a.kind in (KEEP, DONE) or str(a) == "contract QN"))
            await settle(pilot, lambda: len(s.match.state.history) > before)  # noqa: B023
        await settle(pilot, ready(app))
        assert s.view(0).leader == 0 and not s.view(0).trick
        await pilot.press("enter")  # lead; the three bots follow, one event at a time
        await settle(pilot, lambda: any(k == "trick" for k, _ in drawn))
        plays = [n for k, n in drawn if k == "play"]
        assert plays[:4] == [1, 2, 3, 4]
        await settle(pilot, ready(app))
        await pilot.press("h")
        await settle(pilot, lambda: table(app).hint is not None)
        hint = table(app).hint
        assert hint.kind == PLAY and table(app).cursor == hint.card
        assert "Hint (hard): play" in str(screen(app).query_one("#status").render())


@sync
async def test_bots_play_complex_and_partnership_deals_on_the_table():
    """A spectator watches two deals of other presets: Complex contracts, team totals."""
    for preset in ("complex", "partnership"):
        game = cardtable.load("trex", preset=preset)
        s = Session.start(game, parse_seats("random,random,random,random", "trex"), seed=3, bot_seed=2)
        app = TableApp(s, pace=0, bot_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, lambda s=s: len(s.view(None).deal_scores) >= 2 or s.is_over, limit=20000)
            t = table(app)
            t.show(s.view(None))
            assert not t.query_one("#trex-hand").display  # a spectator has no hand
            sheet = rich_text(t.score_sheet(s.view(None)))
            assert "Kingdom 1" in sheet and "Total" in sheet
            if preset == "partnership":
                assert "Teams: seats 0+2" in sheet and "Teams" in t.summary()
            if preset == "complex":
                assert "Complex" in sheet


@sync
async def test_tx_2_the_next_seat_in_play_is_drawn_on_your_right():
    """Trex goes counter-clockwise (TX-2): seat 1, next after seat 0, sits on seat 0's right and
    seat 3 (who plays before seat 0) on its left; the kingdom passes to the right on screen too."""
    s = session()
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, ready(app))
        t = table(app)
        assert t.positions() == (0, 3, 2, 1)
        drawn = rich_text(t._trick(t.tview, t.model))
        one, three = s.seat_label(1, 0), s.seat_label(3, 0)
        row = next(line for line in drawn.splitlines() if one in line and three in line)
        assert row.index(three) < row.index(one)


@sync
async def test_tx_the_end_of_deal_summary_shows_who_took_what_and_waits_for_the_player():
    s = session()
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await play_deal(pilot, app, s, "KH", keep_summary=True)
        text = rich_text(app.screen.body)
        deltas = s.view(0).deal_scores[0][4]
        assert "Deal 1 is over: King of Hearts (you)" in text and "took" in text and "this deal" in text
        taker = next(q for q in range(4) if deltas[q] < 0)  # K♥ costs its taker (TX-V: -75, doubled more)
        row = next(line for line in text.splitlines() if "K♥" in line)
        assert (s.seat_label(taker, 0) in row) and (f"{deltas[taker]:+d}" in row)
        for q in range(4):
            assert f"{s.view(0).totals[q]:+d}" in text or s.view(0).totals[q] == 0
        count = len(s.match.state.history)
        await pilot.pause(0.3)
        assert len(s.match.state.history) == count and isinstance(app.screen, SummaryScreen)  # it waits
        await pilot.press("enter")
        await settle(pilot, lambda: app.screen is screen(app))
        await settle(pilot, lambda: len(s.match.state.history) > count)  # and play goes on


@sync
async def test_the_contracts_left_are_named_in_the_language():
    s = session()
    s.lang = "es"
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, ready(app))
        head = str(screen(app).query_one("#trex-head").render())
    assert "quedan: Rey de corazones" in head and "KH" not in head and "QN" not in head


@sync
async def test_the_deal_summarys_took_column_for_collections_and_trex():
    """Collections charges tricks (TX-29), Trex pays places (TX-35): the summary says which each seat took."""
    for contract in ("TK", "TR"):
        s = session()
        app = TableApp(s, pace=0, bot_delay=0)
        async with app.run_test(size=SIZE) as pilot:
            await play_deal(pilot, app, s, contract, check_hidden=False, keep_summary=True)
            text = rich_text(app.screen.body)
            state = s.match.state
            rows = {q: next(line for line in text.splitlines() if line.strip().startswith(s.seat_label(q, 0)))
                    for q in range(4)}
            for q in range(4):
                if contract == "TK":
                    n = state.records[0][4][q] // -15  # 15 points a trick
                    assert re.search(rf"\b{n} tricks?\b", rows[q]), rows[q]
                else:
                    place = sorted(range(4), key=lambda p: -state.records[0][4][p]).index(q)
                    assert f"out {('1st', '2nd', '3rd', '4th')[place]}" in rows[q], rows[q]
            assert "—" not in "".join(rows.values())


def status_text(app: TableApp) -> str:
    return str(screen(app).query_one("#status").render())


@sync
async def test_the_redeal_prompt_shows_the_cards_that_qualify_tx13():
    s = session()  # seat 0 holds K♥ with four other hearts: five or more hearts with K♥ (TX-13)
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, ready(app))
        view = s.view(0)
        assert view.phase == "redeal"
        hearts = " ".join(c.unicode() for c in sort_hand([c for c in view.hand if c.suit.letter == "H"]))
        assert len(hearts.split()) >= 5 and "K♥" in hearts
        assert f"redeal: 1–2, or ←/→ and Enter. ({hearts})" in status_text(app)


@sync
async def test_a_hand_shown_for_a_redeal_leaves_the_table_once_the_redealt_deal_is_played():
    s = session()
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, ready(app))
        await pilot.press(menu_key(s.view(0), lambda a: str(a) == "redeal"))
        await settle(pilot, lambda: bool(s.view(0).redeal_shown) and ready(app)())
        saw_shown = "showed" in table_text(app)
        for _ in range(40):  # keep, announce the first contract, no doubles: until the first card
            view = s.view(0)
            if view.phase in ("trick", "trex") or s.view(0).trick:
                break
            if screen(app).awaiting == 0:
                before = len(s.match.state.history)
                await pilot.press(menu_key(view, lambda a: a.kind in (KEEP, DONE)))
                await settle(pilot, lambda: len(s.match.state.history) > before)  # noqa: B023
            await settle(pilot, lambda: ready(app)() or s.view(0).phase in ("trick", "trex"))
        await settle(pilot, ready(app))
        assert s.view(0).phase in ("trick", "trex") and s.view(0).redeal_shown  # the engine still knows
        assert saw_shown and "showed" not in table_text(app)


@sync
async def test_a_menu_choice_longer_than_its_cell_wraps_and_is_read_whole():
    """In Spanish at 80×24 the redeal choice ("repartir de nuevo (mostrar mi mano)") is longer
    than its half of the menu: it takes a second line rather than losing the warning that the hand
    is shown to everyone."""
    game = cardtable.load("trex")
    s = Session.start(game, parse_seats("human,hard,hard,hard", "trex"), seed=SEED, bot_seed=1, lang="es")
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, ready(app))
        await pilot.pause(0.1)
        assert s.view(0).phase == "redeal"
        assert screen(app).query_one("#menu-0").region.height == 2
        text = " ".join(screen_text(app).split())  # row by row: the choice's second line is below it
        assert "1 repartir de nuevo" in text and "(mostrar mi mano)" in text, text
