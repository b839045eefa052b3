"""``cardtable replay FILE --seat N --tui``: a record, step by step, as one seat saw it.

Only ``state.view(seat)`` of each step is ever shown (the spectator's view
without ``--seat``), through the same game table as live play. ``r`` opens the
review of the replayed seat (:mod:`cardtable.review`, from that seat's views):
its costliest decisions, computed in a worker thread with a small budget; a
number jumps the replay to the position of that decision.
"""

from __future__ import annotations

from contextlib import suppress
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from ..core.game import Action, Event, PlayerView
from ..records.record import Record, replay_views
from ..review import Review, review
from ..review.text import decision_line, review_lines
from .dialogs import HelpScreen
from .eventlog import EventLog
from .games import GameTable, table_class
from .help import help_text
from .rtl import ui
from .session import Session, event_line, tr
from .table_screen import table_layout


def replay_keys(lang: str) -> list[tuple[str, str]]:
    """The keys of the replay viewer, for its help screen."""
    return [
        ("→, Space, Enter", tr("replay.key.next", lang)),
        ("←", tr("replay.key.back", lang)),
        ("Home / End", tr("replay.key.ends", lang)),
        ("r", tr("replay.key.review", lang)),
        ("? / F1", tr("replay.key.help", lang)),
        ("q, Esc", tr("replay.key.quit", lang)),
    ]


REVIEW_WORLDS = 8
"""Worlds per decision of the replay's review: a small budget, so that it is ready in seconds."""

REVIEW_COSTLIEST = 9
"""Decisions the review pane lists (keys 1–9 jump to them)."""


class ReviewScreen(ModalScreen[int | None]):
    """The review of the replayed seat: the summary and its costliest decisions, numbered; a
    number (or Enter on the first) answers the chosen decision's step, Esc nothing."""

    DEFAULT_CSS = """
    ReviewScreen { align: center middle; }
    ReviewScreen #review-box { width: 90%; height: 80%; border: round $accent; background: $surface; padding: 0 1; }
    """

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang
        self.review: Review | None = None

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="review-box"):
            yield Static(ui(Text(tr("replay.reviewing", self.lang), style="dim"), self.lang), id="review-text")

    @property
    def costliest(self) -> list[int]:
        """The steps of the listed decisions, in the order shown."""
        return [] if self.review is None else [d.step for d in self.review.costliest(REVIEW_COSTLIEST)]

    def show(self, result: Review) -> None:
        self.review = result
        lang = self.lang
        head = review_lines(result, lang, costliest=0)[:1]
        out = Text("\n".join(head) + "\n\n", style="bold")
        worst = result.costliest(REVIEW_COSTLIEST)
        if not worst:
            out.append(tr("replay.review_none", lang))
        for i, d in enumerate(worst, 1):
            out.append(f"{i}. ", style="bold cyan")
            out.append(decision_line(result, d, lang) + "\n")
        contracts = review_lines(result, lang, costliest=0)[2:]  # Trex: each contract choice with its value
        if contracts:
            out.append("\n" + "\n".join(contracts) + "\n")
        out.append("\n" + tr("replay.review_keys", lang), style="dim")
        self.query_one("#review-text", Static).update(ui(out, lang))

    def on_key(self, event: events.Key) -> None:
        key = event.key
        steps = self.costliest
        if key.isascii() and key.isdigit() and 1 <= int(key) <= len(steps):
            event.stop()
            self.dismiss(steps[int(key) - 1])
        elif key == "enter" and steps:
            event.stop()
            self.dismiss(steps[0])
        elif key in ("escape", "r", "q"):
            event.stop()
            self.dismiss(None)


class ReplayScreen(Screen[None]):
    """Steps through ``(action, view)`` pairs."""

    DEFAULT_CSS = """
    ReplayScreen #title { height: 1; background: $primary-darken-2; padding: 0 1; }
    ReplayScreen #main { height: 1fr; }
    ReplayScreen #table { max-width: 70%; }
    ReplayScreen #log { width: 1fr; min-width: 20; max-width: 60; border-left: solid $panel-lighten-2; }
    ReplayScreen #status { height: 2; padding: 0 1; }
    ReplayScreen #keys { height: 1; background: $panel; color: $text-muted; padding: 0 1; }
    """

    def __init__(self, session: Session, steps: list[tuple[Action | None, PlayerView]], seat: int | None,
                 pace: float) -> None:
        super().__init__()
        self.session = session
        self.steps = steps
        self.seat = seat
        self.pace = pace
        self.index = 0
        self.logged = False  # the log holds the game up to ``index``
        self.generation = 0
        self.table: GameTable = table_class(session.game.name)(session, id="table")
        self.record: Record | None = None  # for the review (ReplayApp sets it)
        self.review: Review | None = None  # computed once, on the first ``r``
        self._pane: ReviewScreen | None = None

    def compose(self) -> ComposeResult:
        return table_layout(self.table)

    BINDINGS: ClassVar[list[BindingType]] = [  # before any table or scroll area can take them
        Binding(key, f"step('{key}')", show=False, priority=True)
        for key in ("right", "left", "home", "end", "space", "enter")
    ]

    def on_mount(self) -> None:
        self.table.can_focus = False  # the arrow keys step the replay (a table would move its cursor)
        self.query_one("#log", EventLog).rtl = self.session.lang == "ar"
        self.go(0)

    def action_step(self, key: str) -> None:
        target = self._moves()[key]
        if 0 <= target < len(self.steps) and target != self.index:
            self.go(target, animate=target == self.index + 1)

    def _moves(self) -> dict[str, int]:
        return {"right": self.index + 1, "space": self.index + 1, "n": self.index + 1, "enter": self.index + 1,
                "left": self.index - 1, "p": self.index - 1, "home": 0, "end": len(self.steps) - 1}

    def go(self, index: int, animate: bool = False) -> None:
        """Show step ``index`` (0 is the start); ``animate`` plays its events one by one first."""
        previous = self.index if self.logged else -1
        self.index = max(0, min(index, len(self.steps) - 1))
        view = self.steps[self.index][1]
        log = self.query_one("#log", EventLog)
        lang = self.session.lang
        line = self._step_line(self.index)
        if self.index == previous + 1:  # the next step: its lines follow the log
            for text in self._log_lines(self.index):
                log.add(text)
        else:  # a jump: the log is the game up to this step, not the steps visited
            log.replace([text for k in range(self.index + 1) for text in self._log_lines(k)])
        self.logged = True
        self.generation += 1  # timers of an earlier step's animation then do nothing
        if animate and self.pace > 0 and view.events:
            generation = self.generation
            for i, event in enumerate(view.events):
                self.set_timer(self.pace * i, lambda e=event: self._frame(generation, e, None))
            self.set_timer(self.pace * len(view.events), lambda: self._frame(generation, None, view))
        else:
            self.table.show(view)
        who = tr("spectator", lang) if self.seat is None else tr("seat", lang, n=self.seat)
        total = len(self.steps) - 1
        title = tr("replay.title", lang, game=self.session.game.title, who=who, i=self.index, total=total)
        self.query_one("#title", Static).update(ui(title, lang))
        end = tr("replay.end", lang) if self.index == len(self.steps) - 1 else ""
        self.query_one("#status", Static).update(ui(Text.assemble(line, "\n", (end, "dim")), lang))
        self.query_one("#keys", Static).update(ui(tr("replay.keys", lang), lang))

    def _step_line(self, index: int) -> str:
        """What step ``index`` was: the start, or who did what."""
        action = self.steps[index][0]
        lang = self.session.lang
        if action is None:
            return tr("replay.start", lang)
        actor = self.steps[index - 1][1].current_player
        who = self.session.seat_label(actor, self.seat) if actor >= 0 else "—"
        return tr("replay.step", lang, who=who, action=self.table.describe(action))

    def _log_lines(self, index: int) -> list[Text]:
        """The log's lines of step ``index``: the step, then its events."""
        view = self.steps[index][1]
        lang = self.session.lang
        return [Text(f"{index}. {self._step_line(index)}", style="bold"),
                *(Text("   " + event_line(self.session.game.name, event, view, lang)) for event in view.events)]

    def _frame(self, generation: int, event: Event | None, view: PlayerView | None) -> None:
        if generation != self.generation:
            return
        if event is not None:
            self.table.play_event(event)
        if view is not None:
            self.table.show(view)

    def on_key(self, event: events.Key) -> None:
        key = event.key
        if key in ("n", "p"):
            event.stop()
            self.action_step({"n": "right", "p": "left"}[key])
        elif key in ("question_mark", "f1"):
            event.stop()
            lang = self.session.lang
            self.app.push_screen(HelpScreen(help_text(self.session.game, lang, replay_keys(lang)), lang))
        elif key == "r":
            event.stop()
            self.action_review()
        elif key in ("q", "escape"):
            event.stop()
            self.app.exit(0)

    def action_review(self) -> None:
        """Show the review of the replayed seat; the first time it is computed in a worker thread
        (the replay stays live and the pane says so until it is ready)."""
        lang = self.session.lang
        if self.seat is None or self.record is None:
            self.query_one("#status", Static).update(ui(Text(tr("replay.review_seat", lang), style="bold red"), lang))
            return
        pane = ReviewScreen(lang)
        self._pane = pane
        self.app.push_screen(pane, callback=self._jump)
        if self.review is not None:
            pane.call_after_refresh(pane.show, self.review)
            return
        record, seat = self.record, self.seat

        def work() -> None:
            # with all cards known only once the game is over: a saved game may still be played on
            result = review(record, seat, worlds=REVIEW_WORLDS, hindsight=record.replay().is_terminal())
            with suppress(RuntimeError):  # the app has closed meanwhile
                self.app.call_from_thread(self._reviewed, result)

        self.run_worker(work, thread=True, exclusive=True, group="review", exit_on_error=False)

    def _reviewed(self, result: Review) -> None:
        self.review = result
        if self._pane is not None and self._pane.is_attached:
            self._pane.show(result)

    def _jump(self, step: int | None) -> None:
        """Go to the position of the decision at record step ``step`` (what the seat saw when it chose)."""
        self._pane = None
        if step is not None:
            self.go(step - 1)


class ReplayApp(App[int]):
    """The replay viewer."""

    TITLE = "cardtable replay"
    ENABLE_COMMAND_PALETTE = False  # every key is the game's (see the help screen)

    def __init__(self, record: Record, seat: int | None, *, lang: str = "en", pace: float = 0.3) -> None:
        super().__init__()
        self.record = record
        self.seat = seat
        self.lang = lang
        self.pace = pace

    def get_default_screen(self) -> Screen[None]:
        from ..host.match import Match
        from .seats import SeatSpec

        steps = list(replay_views(self.record, self.seat))
        first = steps[0][1]
        match = Match(self.record.new_state().game, seed=self.record.seed, deck=self.record.deck)
        session = Session(match, tuple(SeatSpec("human") for _ in range(first.num_players)), lang=self.lang)
        screen = ReplayScreen(session, steps, self.seat, self.pace)
        screen.record = self.record
        return screen
