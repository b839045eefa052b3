"""The small screens over a table: the hot-seat cover, help, the end of a deal, the
result, the quit question and the countdown before a race."""

from __future__ import annotations

from collections.abc import Callable

from rich.console import RenderableType
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from .rtl import ui
from .session import Session, shown, tr


class CoverScreen(Screen[None]):
    """Hides the table between two human seats' turns (hot-seat)."""

    DEFAULT_CSS = """
    CoverScreen { align: center middle; background: $background; }
    CoverScreen #cover { width: 60; height: auto; border: thick $warning; padding: 1 2; text-align: center; }
    """

    def __init__(self, session: Session, seat: int, on_quit: Callable[[], None]) -> None:
        super().__init__()
        self.session = session
        self.seat = seat
        self.on_quit = on_quit  # the table's quit, asked over the cover (the cards stay hidden)

    def compose(self) -> ComposeResult:
        lang = self.session.lang
        who = self.session.seat_title(self.seat)
        yield Static(
            Text.assemble((shown(tr("cover.title", lang, who=who), lang), "bold"), "\n\n",
                          shown(tr("cover.body", lang, who=who), lang)),
            id="cover",
        )

    def on_key(self, event: events.Key) -> None:
        if event.key in ("enter", "space"):
            event.stop()
            self.dismiss(None)
        elif event.key == "q":
            event.stop()
            self.on_quit()

    def on_click(self, event: events.Click) -> None:  # played by mouse alone: a click takes the seat
        event.stop()
        self.dismiss(None)


class HelpScreen(ModalScreen[None]):
    """Rules, options of the preset and keys."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen #help-box { width: 90%; height: 90%; border: round $accent; background: $surface; padding: 0 1; }
    """

    def __init__(self, text: str, lang: str = "en") -> None:
        super().__init__()
        self.text = text  # Rich markup (help.help_text)
        self.lang = lang

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-box"):
            yield Static(ui(Text.from_markup(self.text), self.lang), id="help-text")

    def on_key(self, event: events.Key) -> None:
        if event.key in ("escape", "q", "question_mark", "f1", "enter"):
            event.stop()
            self.dismiss(None)


class ResultScreen(ModalScreen[str]):
    """The end of the match: who won; save, quit or look at the table."""

    DEFAULT_CSS = """
    ResultScreen { align: center middle; }
    ResultScreen #result { width: 66; height: auto; border: thick $success; background: $surface; padding: 1 2;
                           text-align: center; }
    """

    def __init__(self, text: str, lang: str) -> None:
        super().__init__()
        self.text = text
        self.lang = lang

    def compose(self) -> ComposeResult:
        lang = self.lang
        yield Static(Text.assemble((shown(self.text, lang), "bold"), "\n\n",
                                   (shown(tr("result.keys", lang), lang), "dim")), id="result")

    def on_key(self, event: events.Key) -> None:
        answers = {"escape": "table", "enter": "table", "space": "table", "s": "save", "ctrl+s": "save", "q": "quit",
                   "n": "new"}
        if event.key in answers:
            event.stop()
            self.dismiss(answers[event.key])

    def on_click(self, event: events.Click) -> None:  # as Enter: look at the table
        event.stop()
        self.dismiss("table")


class SummaryScreen(ModalScreen[None]):
    """A summary the player reads before play goes on (the end of a Trex deal)."""

    DEFAULT_CSS = """
    SummaryScreen { align: center middle; }
    SummaryScreen #summary { width: auto; max-width: 96%; height: auto; border: thick $accent;
                             background: $surface; padding: 1 2; }
    """

    def __init__(self, body: RenderableType) -> None:
        super().__init__()
        self.body = body

    def compose(self) -> ComposeResult:
        yield Static(self.body, id="summary")

    def on_key(self, event: events.Key) -> None:
        if event.key in ("enter", "space", "escape"):
            event.stop()
            self.dismiss(None)

    def on_click(self, event: events.Click) -> None:  # as Enter: play goes on
        event.stop()
        self.dismiss(None)


class QuitScreen(ModalScreen[str]):
    """Quitting an unfinished game that has no save file: save, quit or stay."""

    DEFAULT_CSS = """
    QuitScreen { align: center middle; }
    QuitScreen #quit { width: 56; height: auto; border: thick $warning; background: $surface; padding: 1 2;
                       text-align: center; }
    """

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang

    def compose(self) -> ComposeResult:
        lang = self.lang
        yield Static(Text.assemble((shown(tr("quit.title", lang), lang), "bold"), "\n\n",
                                   (shown(tr("quit.keys", lang), lang), "dim")), id="quit")

    def on_key(self, event: events.Key) -> None:
        answers = {"escape": "stay", "n": "stay", "s": "save", "ctrl+s": "save", "q": "quit", "y": "quit"}
        if event.key in answers:
            event.stop()
            self.dismiss(answers[event.key])


class ReadyScreen(ModalScreen[None]):
    """Before a race (Spit): the clock waits until the player presses Enter, then counts 3, 2, 1."""

    DEFAULT_CSS = """
    ReadyScreen { align: center middle; }
    ReadyScreen #ready { width: 50; height: auto; border: thick $success; background: $surface; padding: 1 2;
                         text-align: center; }
    """

    COUNT = 3

    def __init__(self, title: str, lang: str, step: float = 0.6) -> None:
        super().__init__()
        self.title_text = title
        self.lang = lang
        self.step = step
        self.counting: int | None = None

    def compose(self) -> ComposeResult:
        yield Static(self._text(), id="ready")

    def _text(self) -> Text:
        if self.counting is None:
            return Text.assemble((shown(tr("ready.title", self.lang, game=self.title_text), self.lang), "bold"),
                                 "\n\n", (shown(tr("ready.keys", self.lang), self.lang), "dim"))
        return Text(str(self.counting), style="bold")

    def on_key(self, event: events.Key) -> None:
        if event.key in ("enter", "space") and self.counting is None:
            event.stop()
            self.counting = self.COUNT
            self._tick()
        elif event.key == "q":
            event.stop()
            self.app.exit(0)

    def on_click(self, event: events.Click) -> None:  # as Enter: ready
        event.stop()
        if self.counting is None:
            self.counting = self.COUNT
            self._tick()

    def _tick(self) -> None:
        if self.counting is None:
            return
        if self.counting <= 0 or self.step <= 0:
            self.dismiss(None)
            return
        self.query_one("#ready", Static).update(self._text())
        self.counting -= 1
        self.set_timer(self.step, self._tick)
