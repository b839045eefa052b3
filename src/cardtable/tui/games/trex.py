"""Trex at the table: the four seats around the current trick (the viewer at the
bottom), the hand in suit rows with its legal cards lit, a menu for the contract,
doubling and redeal decisions, the Trex layout as four suit rows, and the score
sheet on ``c``. Cards are played with the arrow keys and Enter, or a click;
menu choices with ``1`` … ``9``, the arrows and Enter, or a click. ``t`` shows the
last trick. Only the view is drawn: another seat's card appears once it is public."""

from __future__ import annotations

from dataclasses import dataclass, field

from rich.console import Group, RenderableType
from rich.table import Table as RichTable
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import HorizontalGroup, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Static

from ...core.cards import Card, Suit
from ...core.game import Action, Event, PlayerView
from ...core.seats import seats_from
from ...games.trex.actions import CONTRACT, DONE, DOUBLE, KEEP, PLAY, REDEAL, TrexAction, contract_code
from ...games.trex.state import kh_trigger, tr_trigger
from ...games.trex.view import TrexView
from ..rtl import Justify, mirrored, ui, ui_line
from ..seats import around
from ..session import Session, shown, tr
from .base import GameTable, table_room

SUIT_ROWS = (3, 2, 0, 1)
"""Suits top to bottom: ♠ ♥ ♣ ♦ (colours alternate)."""
RANKS = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "10", 11: "J", 12: "Q", 13: "K", 14: "A"}
MENU_SIZE = 9
HAND_CELLS = 13

RED, BLACK = "#c0182a", "#111111"


def strength(card: Card) -> int:
    """Ace high: 2 … 14 (the layout's ranks, TX-32)."""
    r = int(card.rank)
    return 14 if r == 1 else r


def sort_hand(hand: tuple[Card, ...] | list[Card]) -> list[Card]:
    """The hand in display order: suit rows ♠ ♥ ♣ ♦, high cards first."""
    return sorted(hand, key=lambda c: (SUIT_ROWS.index(int(c.suit)), -strength(c)))


def face(card: Card | None, style: str = "") -> Text:
    """A card as a three-column face: ``style`` is "", "dim", "cursor", "hint", "win" or "ghost"."""
    if card is None:
        return Text("   ")
    label = f"{card.rank.label}{card.suit.symbol}".ljust(3)
    colour = RED if card.suit.is_red else BLACK
    background = {"cursor": "#ffe08a", "hint": "#8fe3ff", "win": "#b8f0b0", "dim": "#9a9a9a", "ghost": "#c8c8c8"}
    bg = background.get(style, "#f4f1e8")
    if style == "dim":
        return Text(label, style=f"{'#7a1f28' if card.suit.is_red else '#333333'} on {bg}")
    return Text(label, style=f"{'bold ' if style != 'ghost' else ''}{colour} on {bg}"
                + (" underline" if style == "cursor" else ""))


def contract_title(code: str, lang: str) -> str:
    """``QN+DI`` -> "Queens + Diamonds" in ``lang``."""
    if code in ("CX", "TR"):
        return tr(f"trex.contract.{code}", lang)
    return " + ".join(tr(f"trex.contract.{part}", lang) for part in code.split("+"))


@dataclass
class _Model:
    """What is drawn: the view's table, changed event by event during an animation."""

    hand: list[Card]
    sizes: list[int]
    trick: list[tuple[int, Card]]
    trick_winner: int | None
    last: list[tuple[int, Card]]
    last_winner: int | None
    layout: list[tuple[int, int] | None]
    finishing: list[int]
    doubled: list[tuple[Card, int]]
    contract: str | None
    note: dict[int, str] = field(default_factory=dict)

    @classmethod
    def of(cls, view: TrexView) -> _Model:
        return cls(sort_hand(view.hand), list(view.hand_sizes), list(view.trick), None, list(view.last_trick),
                   view.last_trick_winner, list(view.layout), list(view.finishing), list(view.doubled), view.contract)


class CardCell(Static):
    """One card of the hand; a click plays it."""

    class Clicked(Message):
        def __init__(self, card: Card) -> None:
            super().__init__()
            self.card = card

    def __init__(self, row: int, col: int) -> None:
        super().__init__(classes="card", id=f"card-{row}-{col}")
        self.card: Card | None = None

    def on_click(self, event: events.Click) -> None:
        event.stop()
        if self.card is not None:
            self.post_message(self.Clicked(self.card))


class MenuItem(Static):
    """One choice of the contract, doubling or redeal menu; a click chooses it."""

    class Clicked(Message):
        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, index: int) -> None:
        super().__init__(classes="menu-item", id=f"menu-{index}")
        self.index = index

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(self.Clicked(self.index))


class ScoreSheet(ModalScreen[None]):
    """The score sheet: every deal by kingdom, kingdom totals and the game totals."""

    DEFAULT_CSS = """
    ScoreSheet { align: center middle; }
    ScoreSheet #sheet-box { width: 76; max-width: 96%; height: auto; max-height: 90%;
                            border: round $accent; background: $surface; padding: 0 1; }
    ScoreSheet #sheet { width: 1fr; height: auto; }
    """

    def __init__(self, body: RenderableType) -> None:
        super().__init__()
        self.body = body

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="sheet-box"):
            yield Static(self.body, id="sheet")

    def on_key(self, event: events.Key) -> None:
        if event.key in ("escape", "c", "enter", "space", "q"):
            event.stop()
            self.dismiss(None)


class TrexTable(GameTable):
    """The Trex table."""

    can_focus = True

    DEFAULT_CSS = """
    TrexTable { height: 1fr; width: 58; }
    TrexTable:focus { background-tint: $foreground 0%; }
    TrexTable #trex-scroll { height: 1fr; }
    TrexTable #trex-head { height: auto; padding: 0 1; }
    TrexTable #trex-centre { height: auto; padding: 0 1; }
    TrexTable #trex-menu { height: auto; padding: 0 1; layout: grid; grid-size: 2; grid-gutter: 0 2; grid-rows: auto; }
    TrexTable .menu-item { height: auto; width: 1fr; }
    TrexTable .menu-item.-cursor { background: $warning 50%; text-style: bold; }
    TrexTable .menu-item.-hint { background: $accent 70%; }
    TrexTable #trex-info { height: auto; padding: 0 1; }
    TrexTable #trex-hand { height: auto; border: round $success; padding: 0 0; }
    TrexTable #trex-hand.-to-play { border: round $warning; }
    TrexTable .hand-row { height: 1; }
    TrexTable .suit { width: 3; height: 1; }
    TrexTable .card { width: 4; height: 1; }
    """

    def __init__(self, session: Session, *, id: str | None = None) -> None:
        super().__init__(session, id=id)
        self.n = session.game.num_players
        self.model: _Model | None = None
        self.cursor: Card | None = None
        self.menu_cursor = 0
        self.hint: Action | None = None
        self.show_last = False
        self._taken: dict[int, list[Card]] = {}  # this deal's captured scoring cards, from the events
        self._tricks: dict[int, int] = {}  # this deal's tricks won, by seat (Collections charges them)
        self._places: dict[int, int] = {}  # this deal's finishing places 0-3, by seat (Trex pays them)
        self._deal_done: dict[int, list[Card]] | None = None  # set by a deal_over event
        self._done_tricks: dict[int, int] = {}
        self._done_places: dict[int, int] = {}

    NARROW, WIDE = 58, 84
    """The table's width: at least NARROW; in a wide terminal up to WIDE, where the header's
    lines (the deal, kingdom and dealer; the contract and those left) fit unwrapped."""

    def fit(self, width: int, height: int) -> None:
        self.styles.width = max(self.NARROW, min(table_room(width), self.WIDE))

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="trex-scroll"):
            yield Static(id="trex-head")
            yield Static(id="trex-centre")
            with Vertical(id="trex-menu"):
                for i in range(MENU_SIZE):
                    yield MenuItem(i)
            yield Static(id="trex-info")
        with Vertical(id="trex-hand"):  # outside the scroll: the hand always shows
            for row in range(4):
                with HorizontalGroup(classes="hand-row"):
                    yield Static(classes="suit", id=f"suit-{row}")
                    for col in range(HAND_CELLS):
                        yield CardCell(row, col)

    # -------------------------------------------------------------- drawing
    @property
    def tview(self) -> TrexView | None:
        return self.current if isinstance(self.current, TrexView) else None

    def show(self, view: PlayerView) -> None:
        assert isinstance(view, TrexView)
        changed = self.current is None or self.current.legal_actions != view.legal_actions
        super().show(view)
        self.model = _Model.of(view)
        self.hint = None
        if changed:
            self.menu_cursor = self._default_menu(view)
            playable = self.playable()
            if self.cursor not in playable:
                self.cursor = playable[0] if playable else None
        self._draw()

    def play_event(self, event: Event) -> None:
        m, view = self.model, self.tview
        if m is None or view is None:
            return
        seat, card, kind = event.seat, event.card, event.kind
        self.track(event)
        if kind == "play" and seat is not None and card is not None:
            if seat == view.seat and card in m.hand:
                m.hand.remove(card)
            m.sizes[seat] = max(0, m.sizes[seat] - 1)
            m.note.pop(seat, None)
            if m.contract == "TR":
                s, r = int(card.suit), strength(card)
                span = m.layout[s]
                m.layout[s] = (r, r) if span is None else (min(span[0], r), max(span[1], r))
            else:
                if m.trick_winner is not None or len(m.trick) >= self.n:
                    m.trick, m.trick_winner = [], None
                m.trick.append((seat, card))
                self.show_last = False
        elif kind == "trick" and seat is not None:
            m.trick_winner = seat
            m.last, m.last_winner = list(m.trick), seat
        elif kind == "pass" and seat is not None:
            m.note[seat] = tr("trex.passes", self.lang)
        elif kind == "out" and seat is not None and seat not in m.finishing:
            m.finishing.append(seat)
        elif kind == "double" and seat is not None and card is not None:
            m.doubled.append((card, seat))
        elif kind == "contract" and event.value is not None:
            m.contract = contract_code(event.value)
        elif kind == "revoke" and seat is not None:
            m.note[seat] = tr("trex.revoke", self.lang)
        self._draw()

    def track(self, event: Event) -> None:
        """Keep what the deal's events say for the end-of-deal summary (also for skipped frames)."""
        kind = event.kind
        if kind in ("deal", "redeal_deal", "tiebreak_deal"):
            self._taken, self._tricks, self._places = {}, {}, {}
        elif kind == "capture" and event.seat is not None and event.card is not None:
            self._taken.setdefault(event.seat, []).append(event.card)
        elif kind == "trick" and event.seat is not None:
            self._tricks[event.seat] = self._tricks.get(event.seat, 0) + 1
        elif kind == "out" and event.seat is not None and event.value is not None:
            self._places[event.seat] = int(event.value)
        elif kind == "deal_over":
            self._deal_done = {q: list(cards) for q, cards in self._taken.items()}
            self._done_tricks, self._done_places = dict(self._tricks), dict(self._places)

    def take_summary(self, view: PlayerView) -> RenderableType | None:
        """The end-of-deal summary once a deal is over (who took what, the deal's scores, the
        running totals), then None until the next deal ends."""
        done, self._deal_done = self._deal_done, None
        if done is None or not isinstance(view, TrexView) or not view.deal_scores:
            return None
        lang = self.lang
        number, _, holder, contract, deltas = view.deal_scores[-1]
        me = view.seat
        title = tr("trex.summary.title", lang, n=number, contract=contract_title(contract, lang),
                   who=self._who(holder))
        columns: list[tuple[str, Justify]] = [(tr("trex.summary.seat", lang), "left"),
                                              (tr("trex.summary.taken", lang), "left"),
                                              (tr("trex.summary.deal", lang), "right"),
                                              (tr("trex.summary.total", lang), "right")]
        rows: list[list[RenderableType]] = []
        parts = contract.split("+")
        by_trick = "TK" in parts or contract == "CX"  # Collections charges every trick won (TX-29)
        for q in seats_from(me if me is not None else 0, self.n):
            took = [face(c) for c in sort_hand(done.get(q, []))]
            if by_trick:
                took.append(Text(_count("trex.tricks", lang, self._done_tricks.get(q, 0))))
            if "TR" in parts and q in self._done_places:  # Trex pays by finishing place (TX-35)
                took.append(Text(tr("trex.out", lang, place=tr(f"trex.place.{self._done_places[q]}", lang))))
            cards = Text(" ").join(took) if took else Text("—", "dim")
            rows.append([Text(self._who(q), style="bold green" if q == me else ""), cards,
                         _signed(deltas[q]), Text(_signed(view.totals[q]), style="bold")])
        return self._sheet(title, tr("trex.summary.close", lang), columns, rows)

    def _sheet(self, title: str, caption: str, columns: list[tuple[str, Justify]], rows: list[list[RenderableType]],
               sections: frozenset[int] = frozenset(), min_width: dict[int, int] | None = None) -> RichTable:
        """A table of the screen: in Arabic its columns go from right to left (the first at the
        right), each text in visual order; ``sections`` are the rows a rule follows."""
        lang = self.lang
        rtl = mirrored(lang)
        order = list(range(len(columns)))[::-1] if rtl else list(range(len(columns)))
        sheet = RichTable(title=ui_line(title, lang), caption=ui_line(caption, lang), box=None,
                          header_style="bold", show_edge=False, pad_edge=False)
        for k in order:
            header, justify = columns[k]
            if rtl and justify == "left":
                justify = "right"
            sheet.add_column(ui_line(header, lang), justify=justify, min_width=(min_width or {}).get(k))
        for i, row in enumerate(rows):
            cells = [ui(cell, lang) if isinstance(cell, (str, Text)) else cell for cell in (row[k] for k in order)]
            sheet.add_row(*cells, end_section=i in sections)
        return sheet

    def _draw(self) -> None:
        m, view = self.model, self.tview
        if m is None or view is None:
            return
        self.query_one("#trex-head", Static).update(ui(self._head(view, m), self.lang))
        menu = self.menu_actions()
        self.query_one("#trex-menu").display = bool(menu)
        centre = self.query_one("#trex-centre", Static)
        centre.display = not menu or bool(m.trick)
        if menu:
            self._draw_menu(view, menu)
        if m.contract == "TR":
            centre.update(self._layout(view, m))
        elif view.phase in ("choose", "redeal", "double") and not m.trick and not self.show_last:
            centre.update(ui(self._seats_line(view, m), self.lang))
            centre.display = True
        else:
            centre.update(self._trick(view, m))
        self.query_one("#trex-info", Static).update(ui(self._info(view, m), self.lang))
        self._draw_hand(view, m)

    def _who(self, seat: int) -> str:
        view = self.tview
        return self.session.seat_label(seat, view.seat if view is not None else None)

    def _head(self, view: TrexView, m: _Model) -> Text:
        lang = self.lang
        if view.tiebreak:
            deal = tr("trex.tiebreak", lang)
        else:
            deal = tr("trex.deal", lang, n=view.deal_number, total=view.num_deals)
        out = Text.assemble(
            (deal, "bold"), "  ",
            (tr("trex.kingdom", lang, k=view.kingdom + 1, who=self._who(view.kingdom_holder)), ""), "  ",
            (tr("trex.dealer", lang, who=self._who(view.dealer)), "dim"), "\n",
        )
        if m.contract is not None:
            out.append(tr("trex.contract", lang) + ": ", style="bold")
            out.append(contract_title(m.contract, lang), style="bold cyan")
            left = [c for c in view.contracts_left if c != m.contract]
        else:
            out.append(tr("trex.contract", lang) + ": ", style="bold")
            out.append(tr("trex.not_announced", lang), style="dim")
            left = list(view.contracts_left)
        comma = "، " if lang == "ar" else ", "  # the Arabic comma between Arabic names
        names = comma.join(contract_title(c, lang) for c in left) if left else "—"
        out.append("  " + tr("trex.left", lang, codes=names), style="dim")
        return out

    def _seat_block(self, view: TrexView, m: _Model, seat: int) -> Text:
        """A seat's name and its numbers for this deal."""
        lang = self.lang
        to_play = seat == view.current_player
        out = Text(("● " if to_play else "") + self._who(seat), style="bold yellow" if to_play else "bold")
        stats = [_count("trex.cards", lang, m.sizes[seat])]
        if m.contract is not None and m.contract != "TR":
            stats.append(_count("trex.tricks", lang, view.tricks_taken[seat]))
            if view.deal_scores_now[seat]:
                stats.append(f"{view.deal_scores_now[seat]:+d}")
        if seat in m.finishing:
            stats.append(tr("trex.out", lang, place=tr(f"trex.place.{m.finishing.index(seat)}", lang)))
        out.append("\n" + stats[0] + ("\n" + " · ".join(stats[1:]) if stats[1:] else ""), style="dim")
        if seat in m.note:
            out.append("\n" + m.note[seat], style="italic yellow")
        return out

    def positions(self) -> tuple[int, int, int, int]:
        """The seats at the bottom, left, top and right of the table (the viewer at the bottom; play
        goes counter-clockwise, TX-2, so the next seat is on the right)."""
        return around(self._me(), "trex")

    def _me(self) -> int:
        view = self.tview
        return view.seat if view is not None and view.seat is not None else 0

    def play_order(self) -> tuple[int, ...]:
        """The four seats in the order of play from the viewer's (for the lists of seats)."""
        return seats_from(self._me(), self.n)

    def _trick(self, view: TrexView, m: _Model) -> RenderableType:
        lang = self.lang
        cards: dict[int, tuple[Card, str]] = {}
        if self.show_last:
            caption = (tr("trex.last_trick", lang, who=self._who(m.last_winner))
                       if m.last and m.last_winner is not None else tr("trex.no_last", lang))
            for seat, card in m.last:
                cards[seat] = (card, "win" if seat == m.last_winner else "")
            caption_style = "bold magenta"
        elif m.trick:
            caption = tr("trex.trick", lang, n=sum(view.tricks_taken) + 1) if m.trick_winner is None else \
                tr("trex.takes", lang, who=self._who(m.trick_winner))
            for seat, card in m.trick:
                cards[seat] = (card, "win" if seat == m.trick_winner else "")
            caption_style = "bold"
        elif m.last and m.last_winner is not None:
            caption = tr("trex.last_trick", lang, who=self._who(m.last_winner))
            for seat, card in m.last:
                cards[seat] = (card, "ghost")
            caption_style = "dim"
        else:
            caption = tr("trex.trick", lang, n=sum(view.tricks_taken) + 1)
            caption_style = "bold"
        bottom, left, top, right = self.positions()

        def at(seat: int) -> Text:
            if seat in cards:
                return face(cards[seat][0], cards[seat][1])
            return Text(" · ", style="dim")

        middle = Text.assemble(
            "     ", at(top), "\n", at(left), "       ", at(right), "\n", "     ", at(bottom))
        grid = RichTable.grid(expand=True)
        grid.add_column(ratio=1, justify="left")
        grid.add_column(width=18, justify="center")
        grid.add_column(ratio=1, justify="right")
        lang = self.lang
        grid.add_row(ui(Text(caption, style=caption_style), lang), ui(self._seat_block(view, m, top), lang), "")
        grid.add_row(ui(self._seat_block(view, m, left), lang), middle, ui(self._seat_block(view, m, right), lang))
        if view.seat is None:
            grid.add_row("", ui(self._seat_block(view, m, bottom), lang), "")
        return grid

    def _seats_line(self, view: TrexView, m: _Model) -> Text:
        """The four seats on two lines (before the contract is announced)."""
        out = Text()
        for i, seat in enumerate(self.play_order()):
            out.append(self._seat_block(view, m, seat).plain.replace("\n", " · "),
                       style="bold yellow" if seat == view.current_player else "" if seat == view.seat else "dim")
            out.append("\n" if i % 2 else "   ")
        return out

    def _layout(self, view: TrexView, m: _Model) -> RenderableType:
        """The Trex layout: its four suit rows, low ranks on the left in any language (the rows
        are the cards on the table, not a sentence), and the seats in the order of play."""
        lang = self.lang
        head = Text(tr("trex.layout", lang), style="bold")
        rows = Text()
        for s in SUIT_ROWS:
            red = s in (1, 2)
            rows.append(f" {'♣♦♥♠'[s]}  ", style=f"bold {'red' if red else ''}")
            span = m.layout[s]
            if span is None:
                rows.append(tr("trex.not_open", lang), style="dim")
            else:
                lo, hi = span
                row = " ".join(RANKS[r] for r in range(lo, hi + 1))
                rows.append(row.ljust(27), style="bold red" if red else "bold")
                rows.append(f"  ↓{RANKS[lo - 1]}" if lo > 2 else "  ↓—", style="dim")
                rows.append(f" ↑{RANKS[hi + 1]}" if hi < 14 else " ↑—", style="dim")
            rows.append("\n")
        seats = Text()
        for i, seat in enumerate(self.play_order()):
            block = self._seat_block(view, m, seat)
            seats.append(block.plain.replace("\n", " · "),
                         style="bold yellow" if seat == view.current_player else "" if seat == view.seat else "dim")
            seats.append("\n" if i % 2 else "   ")
        if lang == "ar":
            seats.rstrip()
            return Group(ui(head, lang), ui(rows[:-1], lang, rtl=False, justify="left"), ui(seats, lang))
        return Text.assemble(head, "\n", rows, seats)

    def _info(self, view: TrexView, m: _Model) -> Text:
        lang = self.lang
        out = Text()
        if m.doubled:
            out.append(tr("trex.doubled", lang) + ": ", style="bold")
            for i, (card, seat) in enumerate(m.doubled):
                out.append_text(Text.assemble(", " if i else "", face(card), " ", self._who(seat)))
            out.append("\n")
        taken = [(q, view.captured[q]) for q in range(self.n) if view.captured[q]]
        if taken and m.contract != "TR":
            out.append(tr("trex.taken", lang) + ": ", style="bold")
            for i, (q, cards) in enumerate(taken):
                out.append(" · " if i else "")
                out.append(self._who(q) + " ", style="dim")
                out.append_text(Text(" ").join(face(c) for c in cards))
            out.append("\n")
        # hands shown to force a redeal are news of the requests and the announcement: once the
        # redealt deal is doubled or played they would read as those seats' current hands
        for seat, cards in view.redeal_shown if view.phase in ("redeal", "choose") else ():
            out.append(tr("trex.showed", lang, who=self._who(seat)) + " ", style="yellow")
            out.append_text(Text(" ").join(face(c) for c in sort_hand(cards)))
            out.append("\n")
        twos = [(q, view.exposed_twos[q]) for q in range(self.n) if view.exposed_twos[q]]
        if twos:  # partnership Trex (TX-V2)
            out.append(tr("trex.twos", lang) + ": ", style="bold")
            for i, (q, cards) in enumerate(twos):
                out.append(" · " if i else "")
                out.append(self._who(q) + " ", style="dim")
                out.append_text(Text(" ").join(face(c) for c in cards))
            out.append("\n")
        for q in range(self.n):
            hand = view.hands[q]
            if q != view.seat and hand is not None:  # open hands (TX-V6)
                out.append(self._who(q) + ": ", style="dim")
                out.append_text(Text(" ").join(face(c) for c in sort_hand(hand)))
                out.append("\n")
        if m.contract is not None and ("KH" in m.contract.split("+") or m.contract == "CX") \
                and view.phase == "trick":
            out.append(tr("trex.hearts_broken" if view.hearts_broken else "trex.hearts_not_broken", lang),
                       style="dim")
        out.rstrip()
        return out

    def _draw_hand(self, view: TrexView, m: _Model) -> None:
        playable = set(self.playable())
        hint = self.hint.card if isinstance(self.hint, TrexAction) and self.hint.kind == PLAY else None
        box = self.query_one("#trex-hand")
        box.display = view.seat is not None
        box.set_class(view.seat is not None and view.current_player == view.seat, "-to-play")
        title = tr("trex.hand", self.lang)
        if view.seat is not None and m.contract is not None and m.contract != "TR":
            title += " · " + _count("trex.tricks", self.lang, view.tricks_taken[view.seat])
            if view.deal_scores_now[view.seat]:
                title += f" · {view.deal_scores_now[view.seat]:+d}"
        if view.seat is not None and view.seat in m.finishing:
            place = tr(f"trex.place.{m.finishing.index(view.seat)}", self.lang)
            title += " · " + tr("trex.out", self.lang, place=place)
        box.border_title = shown(title, self.lang)
        box.styles.border_title_align = "right" if mirrored(self.lang) else "left"
        for row, s in enumerate(SUIT_ROWS):
            cards = [c for c in m.hand if int(c.suit) == s]
            red = s in (1, 2)
            self.query_one(f"#suit-{row}", Static).update(Text(f" {'♣♦♥♠'[s]}", style=f"bold {'red' if red else ''}"))
            for col in range(HAND_CELLS):
                cell = self.query_one(f"#card-{row}-{col}", CardCell)
                card = cards[col] if col < len(cards) else None
                cell.card = card
                if card is None:
                    cell.update(Text(" —", style="dim") if col == 0 else "")
                    continue
                style = "" if card in playable else "dim"
                if not playable:
                    style = ""
                if card == hint:
                    style = "hint"
                if card == self.cursor and card in playable:
                    style = "cursor"
                cell.update(face(card, style))

    def _draw_menu(self, view: TrexView, menu: list[TrexAction]) -> None:
        rows = -(-len(menu) // 2)
        for p in range(MENU_SIZE):
            item = self.query_one(f"#menu-{p}", MenuItem)
            i = self._menu_at(p, len(menu))
            item.display = p < 2 * rows
            item.visible = i is not None
            if i is not None:
                item.update(ui(Text.assemble((f"{i + 1} ", "bold"), self.describe(menu[i])), self.lang))
                item.set_class(i == self.menu_cursor, "-cursor")
                item.set_class(menu[i] is self.hint, "-hint")

    def _menu_at(self, position: int, size: int) -> int | None:
        """The choice the menu shows at ``position`` of its two-column grid (None: a blank cell).
        In Arabic drawn by the app the first choice is at the right of its row (the reading order)."""
        i = position
        if mirrored(self.lang):
            row, col = divmod(position, 2)
            i = row * 2 + 1 - col
        return i if i < size else None

    # ---------------------------------------------------------------- input
    def playable(self) -> list[Card]:
        """The cards the seat on screen may play now, in display order."""
        view = self.tview
        if view is None or view.seat is None:
            return []
        ids = {a.arg for a in view.legal_actions if isinstance(a, TrexAction) and a.kind == PLAY}
        return [c for c in sort_hand(view.hand) if c.id in ids]

    def menu_actions(self) -> list[TrexAction]:
        """The legal actions that are not plays (contracts, doubles, done, redeal, keep)."""
        view = self.tview
        if view is None or view.seat is None:
            return []
        return [a for a in view.legal_actions if isinstance(a, TrexAction) and a.kind != PLAY]

    def _default_menu(self, view: TrexView) -> int:
        menu = self.menu_actions()
        for i, a in enumerate(menu):  # the safe answer first: keep, done
            if a.kind in (KEEP, DONE):
                return i
        return 0

    def move_cursor(self, key: str) -> bool:
        """Arrow keys move the cursor over the playable cards (or the menu); True if one did."""
        menu = self.menu_actions()
        if menu:
            step = {"left": -1, "up": -2, "right": 1, "down": 2}.get(key)
            if step is not None and abs(step) == 1 and mirrored(self.lang):
                step = -step  # the choice on the left comes next in Arabic
            if step is None:
                return False
            self.menu_cursor = (self.menu_cursor + step) % len(menu)
            self._draw()
            return True
        playable = self.playable()
        if not playable or key not in ("left", "right", "up", "down", "home", "end"):
            return False
        index = playable.index(self.cursor) if self.cursor in playable else 0
        if key in ("left", "right"):
            index = (index + (1 if key == "right" else -1)) % len(playable)
        elif key == "home":
            index = 0
        elif key == "end":
            index = len(playable) - 1
        else:
            here = SUIT_ROWS.index(int(playable[index].suit))
            rows = sorted({SUIT_ROWS.index(int(c.suit)) for c in playable})
            target = rows[(rows.index(here) + (1 if key == "down" else -1)) % len(rows)]
            index = next(i for i, c in enumerate(playable) if SUIT_ROWS.index(int(c.suit)) == target)
        self.cursor = playable[index]
        self._draw()
        return True

    def toggle_last(self) -> None:
        self.show_last = not self.show_last
        self._draw()

    def open_sheet(self) -> None:
        view = self.tview
        if view is not None:
            self.app.push_screen(ScoreSheet(self.score_sheet(view)))

    def on_key(self, event: events.Key) -> None:
        """Keys that mean something at any time (also while the bots play)."""
        if event.key == "t":
            event.stop()
            self.toggle_last()
        elif event.key == "c":
            event.stop()
            self.open_sheet()
        elif event.key in ("left", "right", "up", "down", "home", "end"):
            event.stop()
            self.move_cursor(event.key)

    def key_action(self, key: str) -> Action | None:
        view = self.tview
        if key in ("t", "c"):  # when the focus is elsewhere (the log)
            self.toggle_last() if key == "t" else self.open_sheet()
            return None
        if view is None or view.seat is None or not view.legal_actions:
            return None
        if self.move_cursor(key):
            return None
        menu = self.menu_actions()
        if menu:
            if key.isascii() and key.isdigit() and key != "0" and int(key) <= len(menu):
                return menu[int(key) - 1]
            if key in ("enter", "space"):
                return menu[min(self.menu_cursor, len(menu) - 1)]
            return None
        if key in ("enter", "space") and self.cursor is not None and self.cursor in self.playable():
            return _play(self.cursor)
        return None

    def on_card_cell_clicked(self, message: CardCell.Clicked) -> None:
        if message.card in self.playable():
            self.cursor = message.card
            self.post_message(self.Chosen(_play(message.card)))

    def on_menu_item_clicked(self, message: MenuItem.Clicked) -> None:
        menu = self.menu_actions()
        i = self._menu_at(message.index, len(menu))
        if i is not None:
            self.menu_cursor = i
            self.post_message(self.Chosen(menu[i]))

    def highlight(self, action: Action | None) -> None:
        self.hint = action
        if isinstance(action, TrexAction) and action.kind == PLAY:
            self.cursor = action.card
        elif isinstance(action, TrexAction) and action in self.menu_actions():
            self.menu_cursor = self.menu_actions().index(action)
        self._draw()

    # ---------------------------------------------------------------- texts
    def score_sheet(self, view: TrexView) -> RenderableType:
        """Deals by kingdom, each kingdom's total and the game totals."""
        lang = self.lang
        me = view.seat
        columns: list[tuple[str, Justify]] = [(tr("trex.sheet.deal", lang), "left"),
                                              (tr("trex.sheet.holder", lang), "left"),
                                              (tr("trex.sheet.contract", lang), "left")]
        columns += [(tr("you", lang) if q == me else tr("seat", lang, n=q), "right") for q in range(self.n)]
        blank: list[RenderableType] = [""] * self.n
        lines: list[list[RenderableType]] = []
        sections = set()
        rows = view.deal_scores
        for i, (number, k, holder, contract, deltas) in enumerate(rows):
            if i == 0 or rows[i - 1][1] != k:
                lines.append([Text(tr("trex.sheet.kingdom", lang, k=k + 1), style="bold cyan"), "", "", *blank])
            lines.append([str(number), tr("you", lang) if holder == me else tr("seat", lang, n=holder),
                          contract_title(contract, lang), *(_signed(d) for d in deltas)])
            if i == len(rows) - 1 or rows[i + 1][1] != k:
                sections.add(len(lines))
                lines.append([Text(tr("trex.sheet.kingdom_total", lang), style="dim"), "", "",
                              *(Text(_signed(x), style="dim") for x in view.kingdom_scores[k])])
        if not view.deal_scores:
            lines.append([Text(tr("trex.sheet.empty", lang), style="dim"), "", "", *blank])
        lines.append([Text(tr("trex.sheet.total", lang), style="bold"), "", "",
                      *(Text(_signed(t), style="bold") for t in view.totals)])
        if view.team_totals is not None:
            lines.append([Text(tr("trex.sheet.teams", lang, a=_signed(view.team_totals[0]),
                                  b=_signed(view.team_totals[1])), style="bold"), "", "", *blank])
        return self._sheet(tr("trex.sheet.title", lang), tr("trex.sheet.close", lang), columns, lines,
                           frozenset(sections), {3 + q: 6 for q in range(self.n)})

    def subtitle(self) -> str:
        view = self.tview
        if view is None:
            return ""
        lang = self.lang
        deal = tr("trex.tiebreak", lang) if view.tiebreak else tr("trex.deal", lang, n=view.deal_number,
                                                                      total=view.num_deals)
        if view.contract is not None:
            return f"{deal} · {contract_title(view.contract, lang)}"
        return deal

    def summary(self) -> str:
        view = self.tview
        if view is None:
            return ""
        lines = [f"{self.seat_name(p)}: {_signed(view.totals[p])}" for p in range(self.n)]
        if view.team_totals is not None:
            lines.append(tr("trex.sheet.teams", self.lang, a=_signed(view.team_totals[0]),
                            b=_signed(view.team_totals[1])))
        return "\n".join(lines)

    def prompt(self) -> str:
        view = self.tview
        lang = self.lang
        if view is None or view.seat is None or not view.legal_actions:
            return ""
        if view.phase in ("choose", "double", "redeal"):
            prompt = tr(f"trex.prompt.{view.phase}", lang, n=len(self.menu_actions()))
            why = redeal_cards(view, self.session.game.options.redeal_requests)
            return f"{prompt} ({' '.join(c.unicode() for c in why)})" if why else prompt
        if view.phase == "trex":
            return tr("trex.prompt.trex", lang)
        return tr("trex.prompt.play", lang)

    def describe(self, action: Action) -> str:
        if not isinstance(action, TrexAction):
            return str(action)
        lang = self.lang
        card = action.card
        if action.kind == PLAY and card is not None:
            return tr("trex.action.play", lang, c=card.unicode())
        if action.kind == CONTRACT:
            code = contract_code(action.arg)
            return tr("trex.action.contract", lang, name=contract_title(code, lang), code=code)
        if action.kind == DOUBLE and card is not None:
            return tr("trex.action.double", lang, c=card.unicode())
        return tr({DONE: "trex.action.done", REDEAL: "trex.action.redeal", KEEP: "trex.action.keep"}[action.kind],
                  lang)

    def key_help(self) -> list[tuple[str, str]]:
        lang = self.lang
        return [
            ("← → ↑ ↓", tr("trex.key.cursor", lang)),
            (tr("key.enter_space", lang), tr("trex.key.play", lang)),
            ("1 … 9", tr("trex.key.menu", lang)),
            ("t", tr("trex.key.last", lang)),
            ("c", tr("trex.key.sheet", lang)),
            (tr("trex.key.mouse", lang), tr("trex.key.mouse_what", lang)),
        ]


def redeal_cards(view: TrexView, requests: object = True) -> list[Card]:
    """The cards that let the seat force a redeal (TX-13), when it may: its hearts (only K♥,
    only A♥, A♥ K♥, or five or more with K♥) and/or its 2s (and the 3 of the missing suit),
    for the clauses that count now (``requests``: the option ``redeal_requests``; a clause
    counts while its contract is left, or is the one announced)."""
    if view.phase != "redeal" or not any(isinstance(a, TrexAction) and a.kind == REDEAL for a in view.legal_actions):
        return []
    left = (view.contract,) if view.contract else view.contracts_left
    kh_on = requests in (True, "kh_only") and any("KH" in c.split("+") or c == "CX" for c in left)
    tr_on = requests in (True, "trex_only") and "TR" in left
    low = [c for c in view.hand if c.rank in (2, 3)]
    why = []
    if kh_on and kh_trigger([c.id for c in view.hand]):
        why += sort_hand([c for c in view.hand if c.suit == Suit.HEARTS])
    if tr_on and tr_trigger([c.id for c in low]):
        twos = {c.suit for c in low if c.rank == 2}
        why += sort_hand([c for c in low if c.rank == 2 or c.suit not in twos])
    return why


def _play(card: Card) -> TrexAction:
    return TrexAction(PLAY, card.id)


def _count(key: str, lang: str, n: int) -> str:
    """``3 tricks`` / ``1 trick`` (``key`` + ``1`` for one)."""
    return tr(key + "1" if n == 1 else key, lang, n=n)


def _signed(n: int) -> str:
    return f"{n:+d}" if n else "0"
