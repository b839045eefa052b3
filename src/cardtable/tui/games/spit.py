"""Spit at the table, in real time: the bot's five stock piles at the top, the two
spit piles in the middle, the human seat's five stock piles below, every face-up
card, face-down and spit-card counts only (docs/rules/spit.md, SP-4).

The table turns keys and clicks into actions of the seat on screen, from the view
on screen; the app's real-time screen (``RealtimeScreen``) sends them to the host
at once, so a play computed from a view that has just changed loses the race and
is rejected without penalty (:meth:`SpitTable.note` shows "too late").

Keys: 1–5 choose a stock pile (again: unselect; with a pile chosen, the number of an
empty space moves the card there), ←/→ (or a/d) play the chosen card, or any card
that fits, on S0/S1, and slap S0/S1 in the slap race; Space asks for a spit (again:
withdraw); c then ←/→ picks the pile of a lone spitter (SP-16). The mouse: click a
stock pile, then a spit pile; click a spit pile to slap it. What each of these asks for is
worked out by :class:`~cardtable.tui.spit_controls.SpitControls`, shared with the plain text
screen.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.timer import Timer
from textual.widgets import Static

from ...core.cards import Card
from ...core.game import Action, PlayerView
from ...games.spit.actions import SpitAction
from ...games.spit.view import SpitView
from ...i18n.bots import bot_level
from ..cards import card_text
from ..rtl import ui, ui_line
from ..session import Session, shown, tr
from ..spit_controls import SpitControls
from .base import GameTable

PILE_KEYS = {str(n): n for n in range(1, 6)}
LEFT_KEYS = ("left", "a")
RIGHT_KEYS = ("right", "d")
STOCK_WIDTH = 8
SPIT_WIDTH = 15
"""The inner widths of a stock pile's and a spit pile's box."""
NOTE_SECONDS = 1.5
"""How long a note ("too late", "that card does not fit") stays."""
FLASH_SECONDS = 0.4
"""How long the piles that just changed are marked."""


class StockCell(Static):
    """One stock pile: its face-up top, a face-down back or an empty space, and the count beneath."""

    class Clicked(Message):
        def __init__(self, row: int, pile: int) -> None:
            super().__init__()
            self.row = row
            self.pile = pile

    def __init__(self, row: int, pile: int) -> None:
        super().__init__(classes="stock", id=f"stock-{row}-{pile}")
        self.row = row  # 0: the seat on screen (bottom), 1: the other seat (top)
        self.pile = pile
        self.border_title = str(pile)

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(self.Clicked(self.row, self.pile))


class SpitCell(Static):
    """Spit pile ``S{k}``: its top card and size."""

    class Clicked(Message):
        def __init__(self, k: int) -> None:
            super().__init__()
            self.k = k

    def __init__(self, k: int) -> None:
        super().__init__(classes="spitpile", id=f"spitpile-{k}")
        self.k = k

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(self.Clicked(self.k))


class SpitTable(GameTable):
    """The Spit table, seen from one seat."""

    DEFAULT_CSS = """
    SpitTable { height: 1fr; width: 56; padding: 0 0 0 1; }
    SpitTable .seat-line { height: 1; }
    SpitTable .stocks { height: 4; }
    SpitTable .stock { width: 10; height: 4; border: round $panel-lighten-2; content-align: center middle;
                   border-title-align: center;
                   margin: 0 1 0 0; }
    SpitTable .stock.-selected { border: heavy $warning; background: $warning 25%; }
    SpitTable .stock.-flash { border: round $success; }
    SpitTable .stock.-hint { border: double $accent; }
    SpitTable #spit-middle { height: 4; align: center middle; }
    SpitTable .spitpile { width: 17; height: 4; border: round $accent; content-align: center middle;
                      border-title-align: center; }
    SpitTable .spitpile.-flash { border: heavy $success; }
    SpitTable .spitpile.-slap { border: heavy $error; background: $error 20%; }
    SpitTable #spit-phase { width: 21; height: 4; content-align: center middle; text-align: center; }
    SpitTable #spit-note { height: 2; text-align: center; }
    """

    def __init__(self, session: Session, *, id: str | None = None) -> None:
        super().__init__(session, id=id)
        self.controls = SpitControls()  # the chosen stock pile, a pending pile choice
        self.note_text = ""
        self.note_error = False
        self._note_timer: Timer | None = None
        self._flash_timer: Timer | None = None
        self._before: SpitView | None = None  # the view drawn before this one (for the flashes)
        self.hint: Action | None = None

    def compose(self) -> ComposeResult:
        yield Static(classes="seat-line", id="spit-title-1")
        with Horizontal(classes="stocks", id="spit-row-1"):
            for j in range(1, 6):
                yield StockCell(1, j)
        with Horizontal(id="spit-middle"):
            yield SpitCell(0)
            yield Static(id="spit-phase")
            yield SpitCell(1)
        with Horizontal(classes="stocks", id="spit-row-0"):
            for j in range(1, 6):
                yield StockCell(0, j)
        yield Static(classes="seat-line", id="spit-title-0")
        yield Static(id="spit-note")

    # ------------------------------------------------------------ drawing
    @property
    def sview(self) -> SpitView | None:
        return self.current if isinstance(self.current, SpitView) else None

    @property
    def me(self) -> int:
        view = self.sview
        return view.seat if view is not None and view.seat is not None else 0

    def show(self, view: PlayerView) -> None:
        assert isinstance(view, SpitView)
        self._before = self.sview
        super().show(view)
        if self._before is not None and self._before.round != view.round:
            self._before = None
        self.controls.seen(view)
        self.hint = None
        self._draw()
        if self._flash_timer is not None:
            self._flash_timer.stop()
        self._flash_timer = self.set_timer(FLASH_SECONDS, self._unflash) if self._before is not None else None

    def _unflash(self) -> None:
        """The flashes of the last change go after a moment."""
        self._flash_timer = None
        self._before = None
        self._draw()

    def _draw(self) -> None:
        view = self.sview
        if view is None or not self.is_mounted:
            return
        me = self.me
        other = 1 - me
        before = self._before
        for row, seat in ((0, me), (1, other)):
            self.query_one(f"#spit-title-{row}", Static).update(ui(self._seat_line(view, seat), self.lang))
            for j in range(1, 6):
                cell = self.query_one(f"#stock-{row}-{j}", StockCell)
                cell.update(self._stock_face(view, seat, j, numbered=row == 0))
                cell.set_class(row == 0 and self.controls.selected == j, "-selected")
                cell.set_class(row == 0 and isinstance(self.hint, SpitAction) and self.hint.pile == j, "-hint")
                changed = before is not None and (
                    before.stock[seat][j - 1] != view.stock[seat][j - 1]
                    or before.face_down[seat][j - 1] != view.face_down[seat][j - 1]
                )
                cell.set_class(changed, "-flash")
        for k in (0, 1):
            spit_cell = self.query_one(f"#spitpile-{k}", SpitCell)
            spit_cell.update(self._spit_face(view, k))
            spit_cell.set_class(before is not None and before.spit_tops[k] != view.spit_tops[k], "-flash")
            spit_cell.set_class(view.phase == "slap" and view.spit_tops[k] is not None, "-slap")
        self.query_one("#spit-phase", Static).update(ui(self._phase_text(view), self.lang, justify="center"))
        self.query_one("#spit-note", Static).update(
            ui(Text(self.note_text, style="bold red" if self.note_error else "bold cyan"), self.lang, justify="center")
        )

    def _seat_line(self, view: SpitView, seat: int) -> Text:
        lang = self.lang
        line = Text.assemble(
            (self.session.seat_label(seat, view.seat), "bold green" if seat == view.seat else "bold"),
            "  ",
            (tr("spit.spit_cards", lang, n=view.spit_cards[seat]), ""),
            " · ",
            (tr("spit.cards_left", lang, n=view.cards_held[seat]), "bold"),
        )
        if view.scoring == "points":
            line.append(" · " + tr("spit.points", lang, n=view.scores[seat]), style="dim")
        return line

    def _stock_face(self, view: SpitView, seat: int, j: int, numbered: bool) -> Text:
        cards = view.stock[seat][j - 1]
        down = view.face_down[seat][j - 1]
        top: Card | None = cards[-1] if cards else None
        if top is not None:
            face = card_text(top)
        elif down:
            face = card_text(None)  # a face-down top (auto_flip off): its back only
        else:
            face = Text("·".center(5), style="dim")
        under = f"+{down}" if down and top is not None else (f"{down}" if down else "")
        if len(cards) > 1:  # same-rank stacking: more face-up cards beneath
            under = f"×{len(cards)}" + (f" +{down}" if down else "")
        return _lines(STOCK_WIDTH, face, Text(under, style="dim"))

    def _spit_face(self, view: SpitView, k: int) -> Text:
        lang = self.lang
        whose = tr("spit.yours", lang) if k == view.seat else tr("spit.theirs", lang)
        top = view.spit_tops[k]
        self.query_one(f"#spitpile-{k}", SpitCell).border_title = shown(f"S{k} · {whose}", lang)
        if top is None:
            return _lines(SPIT_WIDTH, ui_line(Text(tr("spit.unused", lang), style="dim"), lang))
        n = view.spit_sizes[k]
        size = tr("spit.size1" if n == 1 else "spit.size", lang, n=n)
        return _lines(SPIT_WIDTH, card_text(top, width=7), ui_line(Text(size, style="dim"), lang))

    def _phase_text(self, view: SpitView) -> Text:
        lang = self.lang
        phase = view.phase
        style = {"play": "bold green", "spit_pending": "bold yellow", "slap": "bold white on red",
                 "over": "bold"}.get(phase, "bold")
        text = Text(tr(f"spit.phase.{phase}", lang), style=style)
        for p in (view.seat or 0, 1 - (view.seat or 0)):
            if view.spit_requests[p] and phase == "play":
                asks = tr("spit.you_ask", lang) if p == view.seat else \
                    tr("spit.asks", lang, who=self.session.seat_label(p, view.seat))
                text.append("\n" + asks, style="yellow")
        if view.lone_pile is not None and phase != "slap":
            text.append("\n" + tr("spit.lone", lang, k=view.lone_pile), style="dim")
        if self.controls.choosing:
            text.append("\n" + tr("spit.note.choose", lang), style="bold cyan")
        return text

    def note(self, text: str, error: bool = True) -> bool:
        """Show a short note under the table (it goes by itself after a moment)."""
        self.note_text, self.note_error = text, error
        if self._note_timer is not None:
            self._note_timer.stop()
        self._note_timer = self.set_timer(NOTE_SECONDS, self._clear_note) if text else None
        self._draw()
        return True

    def _clear_note(self) -> None:
        self._note_timer = None
        self.note_text = ""
        self._draw()

    # -------------------------------------------------------------- input
    def _answered(self, action: SpitAction | None) -> SpitAction | None:
        """Redraw after an input, with its note if it could not be done."""
        note = self.controls.note
        if note is not None:
            self.note(tr(note.key, self.lang, **note.values))
        else:
            self._draw()
        return action

    def key_action(self, key: str) -> Action | None:
        view = self.sview
        if view is None or view.seat is None or view.phase == "over":
            return None
        controls = self.controls
        if key in PILE_KEYS:
            return self._answered(controls.pile(view, PILE_KEYS[key]))
        if key in LEFT_KEYS or key in RIGHT_KEYS:
            return self._answered(controls.spit_pile(view, 0 if key in LEFT_KEYS else 1))
        if key == "space":
            return self._answered(controls.spit(view))
        if key == "c":
            controls.choose(view)
            self._answered(None)
        if key == "escape" and controls.cancel():
            self._draw()
        return None

    def on_stock_cell_clicked(self, message: StockCell.Clicked) -> None:
        view = self.sview
        if view is None or view.seat is None or message.row != 0 or view.phase == "over":
            return
        action = self._answered(self.controls.pile(view, message.pile))
        if action is not None:
            self.post_message(self.Chosen(action))

    def on_spit_cell_clicked(self, message: SpitCell.Clicked) -> None:
        view = self.sview
        if view is None or view.seat is None or view.phase == "over":
            return
        action = self._answered(self.controls.spit_pile(view, message.k))
        if action is not None:
            self.post_message(self.Chosen(action))

    def highlight(self, action: Action | None) -> None:
        self.hint = action
        self._draw()

    # -------------------------------------------------------------- texts
    def bot_level(self) -> str:
        """The other seat's bot by its level in the player's language (a person: their name)."""
        other = 1 - self.me
        spec = self.session.seats[other]
        return spec.name or bot_level(spec.kind, self.lang)

    def subtitle(self) -> str:
        view = self.sview
        if view is None:
            return ""
        return tr("spit.subtitle", self.lang, n=view.round, bot=self.bot_level())

    def summary(self) -> str:
        view = self.sview
        if view is None:
            return ""
        lang = self.lang
        held = list(view.cards_held)
        for event in view.events:  # the last round's collection counts (SP-26 compares those)
            if event.kind == "collect" and event.seat is not None and event.value is not None:
                held[event.seat] = event.value
        lines = []
        for p in (0, 1):
            line = f"{self.seat_name(p)}: " + tr("spit.cards_left", lang, n=held[p])
            if view.scoring == "points":
                line += ", " + tr("spit.points", lang, n=view.scores[p])
            lines.append(line)
        return "\n".join(lines)

    def prompt(self) -> str:
        view = self.sview
        if view is None or view.seat is None:
            return ""
        if view.phase == "play" and view.spit_requests[view.seat]:
            return tr("spit.prompt.asked", self.lang)
        return tr(f"spit.prompt.{view.phase}", self.lang)

    def describe(self, action: Action) -> str:
        if not isinstance(action, SpitAction):
            return str(action)
        card = action.card_value
        return tr(f"spit.action.{action.kind}", self.lang, c=card.unicode() if card else "", n=action.pile,
                  k=action.target)

    def key_help(self) -> list[tuple[str, str]]:
        lang = self.lang
        return [
            ("1 … 5", tr("spit.key.pile", lang)),
            ("← / →, a / d", tr("spit.key.play", lang)),
            (tr("key.space", lang), tr("spit.key.spit", lang)),
            ("c", tr("spit.key.choose", lang)),
            ("Esc", tr("spit.key.cancel", lang)),
            (tr("spit.key.mouse", lang), tr("spit.key.mouse_what", lang)),
        ]

    def keys_line(self) -> str | None:
        """The key line of the real-time screen."""
        return tr("spit.keys", self.lang)


def _lines(width: int, *lines: Text) -> Text:
    """Lines centred in a box ``width`` cells wide."""
    out = Text()
    for i, line in enumerate(lines):
        pad = max(0, width - line.cell_len)
        out.append_text(Text.assemble("\n" if i else "", " " * (pad // 2), line, " " * (pad - pad // 2)))
    return out


__all__ = ["SpitCell", "SpitTable", "StockCell"]
