"""Trash at the table: every seat's two-row layout (A–5 above, 6–10 below), the
stock, the discard pile and the card in hand; the displacement chain is drawn one
event at a time. Wild slots are chosen with the keys 1–9 and 0 (slot 10) or by
clicking a slot; stock and discard by key or click."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal, HorizontalGroup, Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import Static

from ...core.cards import Card
from ...core.game import Action, Event, PlayerView
from ...games.trash.actions import A_DECLINE, A_DISCARD, A_DISPLACE, A_STOCK, A_WILD, TrashAction
from ...games.trash.roles import WILDCARD
from ...games.trash.view import TrashView
from ..cards import card_text
from ..rtl import ui, ui_line
from ..session import Session, tr
from .base import GameTable, table_room

SLOT_KEYS = {str(k % 10): k for k in range(1, 11)}
"""Keys 1 … 9 and 0 choose slots 1 … 10."""


@dataclass
class _Model:
    """What is drawn: a view's public fields, changed event by event during an animation."""

    sizes: list[int]
    layouts: list[list[Card | None]]
    stock: int
    discard: list[Card]
    hand: Card | None
    hands_won: list[int]
    current: int
    flash: tuple[int, int] | None = None
    actor: int | None = None

    @classmethod
    def of(cls, view: TrashView) -> _Model:
        return cls(list(view.sizes), [list(x) for x in view.layouts], view.stock_count, list(view.discard),
                   view.card_in_hand, list(view.hands_won), view.current_player)


class SlotCell(Static):
    """One layout slot; a click on it asks to put the wild there."""

    class Clicked(Message):
        def __init__(self, seat: int, slot: int) -> None:
            super().__init__()
            self.seat = seat
            self.slot = slot

    def __init__(self, row: int, slot: int) -> None:
        super().__init__(classes="slot")
        self.row = row
        self.slot = slot
        self.seat = -1

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(self.Clicked(self.seat, self.slot))


class PileCell(Static):
    """The stock, the discard pile or the card in hand; a click takes from it."""

    class Clicked(Message):
        def __init__(self, pile: str) -> None:
            super().__init__()
            self.pile = pile

    def __init__(self, pile: str) -> None:
        super().__init__(classes="pile", id=f"pile-{pile}")
        self.pile = pile

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(self.Clicked(self.pile))


class SeatPanel(Vertical):
    """One seat's name, layout size, hands won and layout in two rows."""

    def __init__(self, row: int, other: bool) -> None:
        super().__init__(classes="seat -other" if other else "seat", id=f"seat-row-{row}")
        self.row = row
        self.seat = -1

    def compose(self) -> ComposeResult:
        yield Static(classes="seat-title", id=f"seat-title-{self.row}")
        for lo in (1, 6):
            with HorizontalGroup(classes="slots"):
                for k in range(lo, lo + 5):
                    cell = SlotCell(self.row, k)
                    cell.id = f"slot-{self.row}-{k}"
                    yield cell


class TrashTable(GameTable):
    """The Trash table."""

    MATCH = True

    DEFAULT_CSS = """
    TrashTable { height: 1fr; width: 50; }
    TrashTable #trash-others { height: auto; }
    TrashTable .seat { height: auto; border: round $panel-lighten-2; padding: 0 1; width: 1fr; }
    TrashTable .seat.-to-play { border: round $warning; }
    TrashTable .seat.-viewer { border: round $success; }
    TrashTable .seat-title { height: 1; }
    TrashTable .slots { height: 2; }
    TrashTable .slot { width: 7; height: 2; content-align: center middle; }
    TrashTable #trash-others { layout: grid; grid-size: 1; grid-rows: auto; grid-gutter: 0; }
    TrashTable.-wide .seat.-other .slot { width: 5; }
    TrashTable.-wide .seat.-other .seat-title { height: 2; }
    TrashTable .slot.-target { background: $warning 40%; }
    TrashTable .slot.-flash { background: $success 60%; }
    TrashTable .slot.-hint { background: $accent 70%; }
    TrashTable #trash-piles { height: 5; align: center middle; }
    TrashTable .pile { width: 14; height: 5; border: round $panel-lighten-1; content-align: center middle; }
    TrashTable .pile.-flash { border: round $success; }
    TrashTable .pile.-hint { border: double $accent; }
    TrashTable .pile.-target { border: round $warning; }
    """

    def __init__(self, session: Session, *, id: str | None = None) -> None:
        super().__init__(session, id=id)
        self.n = session.game.num_players
        self.model: _Model | None = None
        self.order: list[int] = list(range(self.n))
        self.hint: Action | None = None
        self.wide = False  # the other seats side by side (see fit)
        self.cols = 1
        # a table of up to 52 seats redraws for every event: the widgets are looked up once, a
        # text is only drawn when it changed and the box only scrolls when its seat changed
        self._rows: list[tuple[SeatPanel, Static, list[SlotCell]]] = []
        self._shown: dict[str, tuple[object, ...]] = {}
        self._scrolled_to: SeatPanel | None = None

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="trash-others"):
            for row in range(self.n - 1):
                yield SeatPanel(row, other=True)
        with Horizontal(id="trash-piles"):
            yield PileCell("stock")
            yield PileCell("discard")
            yield PileCell("hand")
        yield SeatPanel(self.n - 1, other=False)

    PANEL_HEIGHT = 7
    PILES_HEIGHT = 5
    WIDE_PANEL = 30
    """A seat's panel side by side with others (slots 5 wide, the title on two lines)."""

    def fit(self, width: int, height: int) -> None:
        """In a wide terminal the other seats sit side by side (three of four players' on 140
        columns, two a row on 110), the log keeping its room; else one a row, scrolling."""
        cols = max(1, min(self.n - 1, table_room(width) // self.WIDE_PANEL))
        self.wide = cols > 1
        self.set_class(self.wide, "-wide")
        self.styles.width = max(50, cols * self.WIDE_PANEL) if self.wide else 50
        self.query_one("#trash-others").styles.grid_size_columns = cols
        self.cols = cols
        self._scrolled_to = None  # the panels moved: scroll to the seat again
        self._others_height(height)
        if self.model is not None:
            self._draw()

    def on_resize(self, event: events.Resize) -> None:
        self._others_height(event.size.height)

    def _others_height(self, height: int) -> None:
        """The other seats scroll; the piles and the seat on screen always fit."""
        room = height - self.PILES_HEIGHT - self.PANEL_HEIGHT
        rows = -(-(self.n - 1) // self.cols)
        need = rows * (self.PANEL_HEIGHT + (1 if self.wide else 0))
        self.query_one("#trash-others").styles.height = max(min(need, room), min(need, 3))

    # -------------------------------------------------------------- drawing
    @property
    def tview(self) -> TrashView | None:
        return self.current if isinstance(self.current, TrashView) else None

    def show(self, view: PlayerView) -> None:
        assert isinstance(view, TrashView)
        super().show(view)
        self.model = _Model.of(view)
        viewer = view.seat
        self.order = [s for s in range(self.n) if s != viewer] + ([viewer] if viewer is not None else [])
        self.hint = None
        self.model.actor = None
        self._draw()

    def play_event(self, event: Event) -> None:
        m = self.model
        if m is None:
            return
        seat, card, slot = event.seat, event.card, event.slot
        m.flash = None
        m.actor = seat
        kind = event.kind
        if kind == "draw":
            m.stock = max(0, m.stock - 1)
            m.hand = card
            m.flash = (-1, 0)
        elif kind == "take":
            if m.discard:
                m.discard.pop()
            m.hand = card
            m.flash = (-1, 1)
        elif kind in ("place", "reveal") and seat is not None and slot:
            m.layouts[seat][slot - 1] = card
            m.hand = None if kind == "place" else m.hand
            m.flash = (seat, slot)
        elif kind == "turn_up" and seat is not None and slot:
            m.hand = card
            m.flash = (seat, slot)
        elif kind == "displace" and seat is not None and slot:
            wild = m.layouts[seat][slot - 1]
            m.layouts[seat][slot - 1] = card
            m.hand = wild
            m.flash = (seat, slot)
        elif kind == "discard":
            if card is not None:
                m.discard.append(card)
            m.hand = None
            m.flash = (-1, 1)
        elif kind == "rebuild" and event.value is not None:
            m.stock += event.value
            m.discard = m.discard[-1:]
            m.flash = (-1, 0)
        elif kind == "shrink" and seat is not None and event.value is not None:
            m.sizes[seat] = event.value
        elif kind == "complete" and seat is not None:
            m.hands_won[seat] += 1
        self._draw()

    def _draw(self) -> None:
        m, view = self.model, self.tview
        if m is None or view is None:
            return
        lang = self.lang
        targets: set[int] = set()
        if view.seat is not None and view.phase == "place_wild":
            targets = {a.slot for a in view.legal_actions if isinstance(a, TrashAction) and a.kind == "wild"}
        hint_slot = self.hint.slot if isinstance(self.hint, TrashAction) and self.hint.kind == "wild" else 0
        if not self._rows:
            self._rows = [(self.query_one(f"#seat-row-{row}", SeatPanel), self.query_one(f"#seat-title-{row}", Static),
                           [self.query_one(f"#slot-{row}-{k}", SlotCell) for k in range(1, 11)])
                          for row in range(self.n)]
        for row, seat in enumerate(self.order):
            panel, title_cell, cells = self._rows[row]
            panel.seat = seat
            panel.set_class(seat == m.current and m.current >= 0, "-to-play")
            if (seat == (m.actor if m.actor is not None else m.current) and row < self.n - 1
                    and panel is not self._scrolled_to):
                self.query_one("#trash-others", VerticalScroll).scroll_to_widget(panel, animate=False)
                self._scrolled_to = panel
            panel.set_class(seat == view.seat, "-viewer")
            narrow = self.wide and row < self.n - 1  # the name above the sizes in a narrow panel
            label = self.session.seat_label(seat, view.seat)
            to_play = seat == m.current and m.current >= 0
            if self._changed(title_cell, (lang, label, narrow, m.sizes[seat], m.hands_won[seat], to_play)):
                title = Text.assemble(
                    (label, "bold"), ("\n" if narrow else "  ", ""), (tr("trash.size", lang, n=m.sizes[seat]), ""),
                    ("  " + tr("trash.won1" if m.hands_won[seat] == 1 else "trash.won", lang, n=m.hands_won[seat]),
                     "dim"),
                )
                if to_play:
                    title.append("  " + tr("trash.to_play", lang), style="bold yellow")
                title_cell.update(ui(title, lang))
            mine = seat == view.seat
            cell_width = 5 if narrow else 7
            for k in range(1, 11):
                cell = cells[k - 1]
                cell.seat = seat
                target = mine and k in targets
                card = m.layouts[seat][k - 1] if k <= m.sizes[seat] else None
                wild = card is not None and view.role(card) == WILDCARD
                flash = m.flash == (seat, k)
                hint = mine and k == hint_slot
                if not self._changed(cell, (cell_width, target, k <= m.sizes[seat], card, wild, flash, hint)):
                    continue
                number = Text(str(k), style="bold" if target else "dim")
                face = Text("·".center(5), style="dim") if k > m.sizes[seat] else card_text(card, wild=wild)
                cell.update(Text.assemble(_centre(number, cell_width), "\n", _centre(face, cell_width)))
                cell.set_class(target, "-target")
                cell.set_class(flash, "-flash")
                cell.set_class(hint, "-hint")
        self._draw_piles(m, view)

    def _changed(self, widget: Static, drawn: tuple[object, ...]) -> bool:
        """True (and remembered) when ``drawn``, what ``widget`` is to show, is not what it shows."""
        key = widget.id or ""
        if self._shown.get(key) == drawn:
            return False
        self._shown[key] = drawn
        return True

    def _draw_piles(self, m: _Model, view: TrashView) -> None:
        lang = self.lang
        stock = self.query_one("#pile-stock", PileCell)
        stock.update(ui_line(Text.assemble(tr("trash.stock", lang), "\n", card_text(None) if m.stock else Text("—"),
                                           "\n", (_cards(lang, m.stock), "dim")), lang))
        discard = self.query_one("#pile-discard", PileCell)
        top = m.discard[-1] if m.discard else None
        discard.update(ui_line(Text.assemble(tr("trash.discard", lang), "\n",
                                             card_text(top) if top else Text(tr("trash.empty", lang), style="dim"),
                                             "\n", (_cards(lang, len(m.discard)), "dim")), lang))
        hand = self.query_one("#pile-hand", PileCell)
        hand.update(ui_line(Text.assemble(tr("trash.in_hand", lang), "\n",
                                          card_text(m.hand, wild=m.hand is not None and view.role(m.hand) == WILDCARD)
                                          if m.hand else Text("—", style="dim")), lang))
        legal = set(view.legal_actions) if view.seat is not None else set()
        stock.set_class(m.flash == (-1, 0), "-flash")
        discard.set_class(m.flash == (-1, 1), "-flash")
        stock.set_class(self.hint == A_STOCK, "-hint")
        discard.set_class(self.hint == A_DISCARD, "-hint")
        hand.set_class(self.hint in (A_DISPLACE, A_DECLINE), "-hint")
        discard.set_class(A_DISCARD in legal, "-target")

    # ---------------------------------------------------------------- input
    def key_action(self, key: str) -> Action | None:
        view = self.tview
        if view is None or view.seat is None or not view.legal_actions:
            return None
        legal = view.legal_actions
        choice: Action | None = None
        if view.phase == "draw":
            choice = {"enter": A_STOCK, "space": A_STOCK, "d": A_DISCARD}.get(key)
        elif view.phase == "place_wild" and key in SLOT_KEYS:
            choice = A_WILD[SLOT_KEYS[key]]
        elif view.phase == "displace":
            choice = {"enter": A_DISPLACE, "space": A_DISPLACE, "y": A_DISPLACE, "n": A_DECLINE}.get(key)
        return choice if choice in legal else None

    def on_slot_cell_clicked(self, message: SlotCell.Clicked) -> None:
        view = self.tview
        if view is None or message.seat != view.seat:
            return
        if view.phase == "place_wild" and A_WILD[message.slot] in view.legal_actions:
            self.post_message(self.Chosen(A_WILD[message.slot]))
        elif view.phase == "displace" and view.card_in_hand and view.role(view.card_in_hand) == message.slot:
            self.post_message(self.Chosen(A_DISPLACE))

    def on_pile_cell_clicked(self, message: PileCell.Clicked) -> None:
        view = self.tview
        if view is None or view.seat is None:
            return
        action = {"stock": A_STOCK, "discard": A_DISCARD}.get(message.pile)
        if view.phase == "displace" and message.pile == "discard":
            action = A_DECLINE
        if action is not None and action in view.legal_actions:
            self.post_message(self.Chosen(action))

    def highlight(self, action: Action | None) -> None:
        self.hint = action
        self._draw()

    # ---------------------------------------------------------------- texts
    def subtitle(self) -> str:
        view = self.tview
        if view is None:
            return ""
        wild = tr(f"trash.wild.{view.wild_mode}", self.lang)
        # once the match is over the view's hand number is the hand that was never dealt
        hand = view.hand_number - 1 if view.outcome is not None else view.hand_number
        parts = [tr("trash.subtitle", self.lang, n=hand, wild=wild)]
        if view.free_draws_left:
            parts.append(tr("trash.free_draws", self.lang, n=view.free_draws_left))
        if view.time_up:
            parts.append(tr("trash.time_up", self.lang))
        return " · ".join(parts)

    def summary(self) -> str:
        view = self.tview
        if view is None:
            return ""
        lang = self.lang
        return "\n".join(
            f"{self.seat_name(p)}: " + tr("trash.size", lang, n=view.sizes[p]) + ", "
            + tr("trash.won1" if view.hands_won[p] == 1 else "trash.won", lang, n=view.hands_won[p])
            for p in range(self.n)
        )

    def prompt(self) -> str:
        view = self.tview
        lang = self.lang
        if view is None or view.seat is None or not view.legal_actions:
            return ""
        card = view.card_in_hand
        if view.phase == "draw":
            top = view.top_discard
            if A_DISCARD in view.legal_actions and top is not None:
                return tr("trash.prompt.draw_or_take", lang, c=top.unicode())
            return tr("trash.prompt.draw", lang)
        if view.phase == "place_wild" and card is not None:
            slots = " ".join(str(a).split()[1] for a in view.legal_actions)
            return tr("trash.prompt.place_wild", lang, c=card.unicode(), slots=slots)
        if view.phase == "displace" and card is not None:
            return tr("trash.prompt.displace", lang, c=card.unicode(), n=view.role(card))
        return ""

    def describe(self, action: Action) -> str:
        if not isinstance(action, TrashAction):
            return str(action)
        return tr(f"trash.action.{action.kind}", self.lang, n=action.slot)

    def key_help(self) -> list[tuple[str, str]]:
        lang = self.lang
        return [
            (tr("key.enter_space", lang), tr("trash.key.stock", lang)),
            ("d", tr("trash.key.discard", lang)),
            ("1 … 9, 0", tr("trash.key.wild", lang)),
            ("y / n", tr("trash.key.displace", lang)),
            (tr("trash.key.mouse", lang), tr("trash.key.mouse_what", lang)),
        ]


def _cards(lang: str, n: int) -> str:
    return tr("trash.card" if n == 1 else "trash.cards", lang, n=n)


def _centre(text: Text, width: int) -> Text:
    pad = max(0, width - text.cell_len)
    left = pad // 2
    return Text.assemble(" " * left, text, " " * (pad - left))
