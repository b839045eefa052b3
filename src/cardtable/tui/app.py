"""The app shell: one table screen for any game, plus the cover, help and result screens.

The :class:`TableScreen` drives the match. It asks the session who may act;
a bot acts after a short delay; a human seat gets the keyboard (after a cover
screen when several humans share it). Every accepted action comes back as a
:class:`~cardtable.tui.session.Step`, whose events are animated one by one on the
game's table before the view after the action is drawn.
"""

from __future__ import annotations

import time
from collections import deque
from contextlib import suppress
from typing import Literal

from rich.console import RenderableType
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from ..core.errors import CardtableError
from ..core.game import Action, Event, PlayerView
from ..host.forced import answered_line, forced_action
from ..host.pacing import Pacing, bot_pacing
from ..host.realtime import Arrival
from ..i18n.words import preset_label
from .eventlog import EventLog
from .games import GameTable, table_class
from .games.base import LOG_MIN_SCREEN
from .help import help_text
from .rtl import ui
from .session import Session, Step, event_line, languages, shown, tr, without_rule_ids

Frame = tuple[Literal["event"], Event, PlayerView] | tuple[Literal["view"], None, PlayerView]

LONG_PAUSE = {"complete": 4.0, "void": 4.0, "match_over": 4.0, "shrink": 2.0, "deal": 2.0}
"""Events that deserve a longer look (multiples of the pace)."""


def global_keys(lang: str) -> list[tuple[str, str]]:
    """The keys every game shares, for the help screen."""
    return [
        ("? / F1", tr("key.help", lang)),
        ("h", tr("key.hint", lang)),
        ("s / Ctrl+S", tr("key.save", lang)),
        ("l", tr("key.lang", lang)),
        ("f", tr("key.fast", lang)),
        ("q", tr("key.quit", lang)),
    ]


def table_layout(table: GameTable) -> ComposeResult:
    """A table's screen: the title, the table beside the event log, the status line and the keys
    (the same for play and for replay)."""
    yield Static(id="title")
    with Horizontal(id="main"):
        yield table
        yield EventLog(id="log")
    yield Static(id="status")
    yield Static(id="keys")


class CoverScreen(Screen[None]):
    """Hides the table between two human seats' turns (hot-seat)."""

    DEFAULT_CSS = """
    CoverScreen { align: center middle; background: $background; }
    CoverScreen #cover { width: 60; height: auto; border: thick $warning; padding: 1 2; text-align: center; }
    """

    def __init__(self, session: Session, seat: int) -> None:
        super().__init__()
        self.session = session
        self.seat = seat

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
            if isinstance(self.app, TableApp):
                self.app.table_screen.action_quit_game()
            else:
                self.app.exit(0)


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


class TableScreen(Screen[None]):
    """The table of one match: title, the game's table, the event log, the prompt and the keys."""

    NOTE_KEYS = True
    """A key that is no move on the person's turn gets a short note (not in a race, where a
    key can arrive a moment too late and the table says so itself)."""

    DEFAULT_CSS = """
    TableScreen #title { height: 1; background: $primary-darken-2; color: $text; padding: 0 1; }
    TableScreen #main { height: 1fr; }
    TableScreen #log { width: 1fr; min-width: 20; max-width: 60; border-left: solid $panel-lighten-2; }
    TableScreen #table { max-width: 70%; }
    TableScreen #status { height: auto; min-height: 2; max-height: 4; padding: 0 1; }
    TableScreen #keys { height: 1; background: $panel; color: $text-muted; padding: 0 1; }
    """

    def __init__(self, session: Session, *, pace: float = 0.25, bot_delay: float = 0.4) -> None:
        super().__init__()
        self.session = session
        self.pace = pace
        self.bot_delay = bot_delay
        self._speeds = (pace, bot_delay)
        self.viewer: int | None = None if session.hot_seat or not session.humans else session.humans[0]
        self.awaiting: int | None = None
        self.frames: deque[Frame] = deque()
        self.message = ""
        self.error = False
        self._pending = False  # a tick is scheduled
        self._bot_pending = False  # a bot move is scheduled
        self._forced_pending = False  # a one-answer question is being answered
        self.threaded_bots = True  # bots think in a thread (tests may switch it off)
        self._last_actor: int | None = None
        self._result_shown = False
        self.retired = False  # a finished match under a newer one
        self.table: GameTable = table_class(session.game.name)(session, id="table")

    # -------------------------------------------------------------- layout
    def compose(self) -> ComposeResult:
        return table_layout(self.table)

    def on_mount(self) -> None:
        self.log_widget.rtl = self.session.lang == "ar"
        view = self.session.view(self.viewer)
        self.table.show(view)
        for event in view.events:
            self._log(event, view)
        self._texts()
        self._kick()
        if getattr(self.session.game.options, "time_limit", None) is not None:
            self.set_interval(1.0, self._poll_timers)

    def _poll_timers(self) -> None:
        """Feed the host's due timers (Trash's time limit) even while a human is thinking."""
        if not self.retired and self._feed_timers():
            self._kick()

    def _feed_timers(self) -> bool:
        step = self.session.poll_timers(self.viewer)
        if step is not None:
            self._enqueue(step)
        return step is not None

    def on_screen_resume(self) -> None:
        self._kick()

    def on_resize(self, event: events.Resize) -> None:
        """In a narrow terminal the table gets the whole width (the log comes back when there is room)."""
        self.log_widget.display = event.size.width >= LOG_MIN_SCREEN
        self.table.fit(event.size.width, event.size.height)

    @property
    def log_widget(self) -> EventLog:
        return self.query_one("#log", EventLog)

    def _texts(self) -> None:
        s, lang = self.session, self.session.lang
        who = tr("spectator", lang) if self.viewer is None else s.seat_title(self.viewer)
        extra = self.table.subtitle()
        title = tr("title", lang, game=s.game.title, preset=preset_label(s.game.name, s.game.preset, lang), who=who)
        self.query_one("#title", Static).update(ui(title + (f" · {extra}" if extra else ""), lang))
        self.query_one("#keys", Static).update(ui(self._keys_line(), lang))
        line = self._status_line()
        status = self.query_one("#status", Static)
        status.update(ui(Text.assemble(line, "\n", (self.message, "bold red" if self.error else "bold cyan")), lang))

    def _keys_line(self) -> str:
        lang = self.session.lang
        keys = tr("keys", lang)
        if self._undo_on:  # "u undo" before "q quit": the word is the first of the help's line for u
            parts = keys.split(" · ")
            parts.insert(len(parts) - 1, "u " + tr("key.undo", lang).split(":")[0].strip())
            keys = " · ".join(parts)
        return keys

    def _status_line(self) -> str:
        s, lang = self.session, self.session.lang
        view = self.table.current
        if s.is_over and view is not None:
            line = self.result_text(view, summary=False)
        elif self.awaiting is not None:
            turn = tr("status.your_turn", lang, who=s.seat_title(self.awaiting)) if s.hot_seat \
                else tr("status.your_move", lang)
            line = turn + "  " + self.table.prompt()
        elif s.bot_to_move():
            line = tr("status.thinking", lang, who=s.seat_label(s.to_move(), self.viewer)) \
                if s.to_move() >= 0 else tr("status.bots", lang)
        else:
            line = ""
        return line

    def say(self, message: str, error: bool = False) -> None:
        self.message, self.error = message, error
        self._texts()

    def _log(self, event: Event, view: PlayerView) -> None:
        if event.seat is not None and event.seat != self._last_actor and self._last_actor is not None:
            self._write(Text("─" * 24, style="dim"))
        if event.seat is not None:
            self._last_actor = event.seat
        text = event_line(self.session.game.name, event, view, self.session.lang, names=self.session.short_name)
        mine = event.seat is not None and event.seat == view.seat
        style = "green" if mine else "bold yellow" if event.kind in LONG_PAUSE and event.kind != "deal" else ""
        self._write(Text("· " + text, style=style))

    def _write(self, line: Text) -> None:
        self.log_widget.add(line)

    # -------------------------------------------------------------- driving
    def _kick(self, delay: float = 0.0) -> None:
        if self._pending:
            return
        self._pending = True
        if delay > 0:
            self.set_timer(delay, self._tick)
        else:
            self.call_later(self._tick)

    def _tick(self) -> None:
        self._pending = False
        if self.app.screen is not self or self.retired:
            return  # a cover, help or result screen is up; on_screen_resume carries on
        if self.frames:
            _, event, view = self.frames.popleft()
            if event is not None:
                self.table.play_event(event)
                self._log(event, view)
                self._kick(self.pace * LONG_PAUSE.get(event.kind, 1.0))
            else:
                self.table.show(view)
                self._texts()
                if self._summary(view):
                    return  # on_screen_resume goes on once the player has read it
                self._kick()
            return
        self._decide()

    def _summary(self, view: PlayerView) -> bool:
        """Show the table's summary (the end of a Trex deal) and wait for the player; True if shown."""
        summary = self.table.take_summary(view)
        if summary is None or not self.session.humans:  # bots alone: nobody to wait for
            return False
        self.app.push_screen(SummaryScreen(summary))
        return True

    def _decide(self) -> None:
        s = self.session
        if s.is_over:
            self._finish()
            return
        humans = s.human_seats_to_act()
        if humans:
            seat = self.viewer if self.viewer in humans else humans[0]
            if s.hot_seat and self.viewer != seat:
                self.awaiting = None
                if not s.covers:  # nothing private to hide (Trash): the table turns to that seat
                    self._show_seat(seat)
                    return
                self.app.push_screen(CoverScreen(s, seat), callback=lambda _: self._show_seat(seat))
                return
            forced = forced_action(s.game.name, s.view(seat))
            if forced is not None:
                self._answer_later(seat, forced)
                return
            if self.awaiting != seat:
                self.awaiting = seat
                self.viewer = seat
                self.table.show(s.view(seat))
            self._texts()
            if s.bot_to_move() and not self._bot_pending:  # simultaneous: the bots keep playing meanwhile
                self._bot_pending = True
                self.set_timer(max(self.bot_delay, 0.05) * 3, self._bot)
            return
        self.awaiting = None
        if s.bot_to_move():
            if s.covers and self.viewer is not None:  # nobody's cards while the bots play
                self._switch_viewer(None)
            self._texts()
            if not self._bot_pending:
                self._bot_pending = True
                if self.bot_delay > 0 and not self.threaded_bots:
                    self.set_timer(self.bot_delay, self._bot)
                else:  # a thinking bot is asked at once; its pacing holds the move back (see _think)
                    self.call_later(self._bot)
            return
        self.say(tr("status.stuck", s.lang), error=True)

    def _answer_later(self, seat: int, action: Action) -> None:
        """A question with one answer (host/forced.py): answered for the seat after the pause a
        move would take, and said so in the log."""
        self.awaiting = None
        if self.viewer != seat:
            self.viewer = seat
            self.table.show(self.session.view(seat))
        self._texts()
        if self._forced_pending:
            return
        self._forced_pending = True
        count = len(self.session.match.state.history)

        def answer() -> None:
            self._forced_pending = False
            if self.retired or len(self.session.match.state.history) != count:
                self._kick()
                return
            if self.app.screen is not self:  # a help screen is up: answer once it closes
                self._kick()
                return
            self._write(Text("· " + answered_line(self.table.describe(action), self.session.lang),
                             style="italic cyan"))
            try:
                step = self.session.submit(seat, action, display=seat)
            except CardtableError as exc:
                self.say(f"✗ {without_rule_ids(str(exc))}", error=True)
                return
            self._enqueue(step)
            self._kick()

        delay = max(self.bot_delay, self.pace)
        if delay > 0:
            self.set_timer(delay, answer)
        else:
            self.call_later(answer)

    def _switch_viewer(self, seat: int | None) -> None:
        """Show the table as ``seat`` sees it; in hot-seat play the log of the previous seat goes too,
        since its events were worded (and may have been shown) for that seat alone."""
        self.viewer = seat
        view = self.session.view(seat)
        self.table.show(view)
        if self.session.hot_seat:
            log = self.log_widget
            log.reset()
            self._last_actor = None
            who = tr("spectator", self.session.lang) if seat is None else self.session.seat_title(seat)
            log.add(Text(f"— {who} —", style="bold"))
            for event in view.events:
                self._log(event, view)

    def _show_seat(self, seat: int) -> None:
        self._switch_viewer(seat)
        self.awaiting = seat
        self.message = ""
        self._texts()
        self._kick()

    def _bot(self) -> None:
        self._bot_pending = False
        if self.app.screen is not self or self.frames:
            self._kick()
            return
        self._feed_timers()
        seat = self.session.bot_seat()
        if seat is not None and self.threaded_bots:
            self._think(seat)
            return
        step = self.session.run_bot(self.viewer)
        if step is not None:
            self._enqueue(step)
        self._kick()

    def pacing(self, seat: int) -> Pacing | None:
        """When the bot at ``seat`` shows its move (host/pacing.py, as the server does): a drawn
        wait after it was asked, so how long it took says nothing about its cards or how many
        moves it had. None with no bot delay (``--pace 0``, fast mode): no waiting at all."""
        bot = self.session.match.bots.get(seat)
        return None if bot is None else bot_pacing(bot, self.bot_delay)

    def _think(self, seat: int) -> None:
        """The bot at ``seat`` thinks in a thread (the screen, its keys and its log stay alive);
        its move is released by a Textual timer when its pacing says (never a sleep on this
        thread), unless the match moved on meanwhile."""
        s = self.session
        count = len(s.match.state.history)
        self._bot_pending = True
        pacing = self.pacing(seat)
        asked = time.monotonic()

        def release(action: Action) -> None:
            self._bot_pending = False
            if self.retired or len(s.match.state.history) != count:
                self._kick()
                return
            self._enqueue(s.play_bot(seat, action, self.viewer))
            self._kick()

        def done(action: Action) -> None:
            wait = 0.0 if pacing is None else pacing.wait(asked, time.monotonic(), s.match.pace_rngs[seat])
            if wait > 0 and not self.retired:
                self.set_timer(wait, lambda: release(action))
            else:
                release(action)

        def work() -> None:
            action = s.think(seat)
            with suppress(RuntimeError):  # the app has closed meanwhile
                self.app.call_from_thread(done, action)

        self.run_worker(work, thread=True, exit_on_error=True, group="bot")

    def _enqueue(self, step: Step) -> None:
        for event in step.events:
            self.frames.append(("event", event, step.view))
        self.frames.append(("view", None, step.view))

    def _flush(self) -> None:
        """Skip the rest of an animation."""
        last: PlayerView | None = None
        while self.frames:
            _, event, view = self.frames.popleft()
            if event is not None:
                self.table.track(event)
                self._log(event, view)
            last = view
        if last is not None:
            self.table.show(last)
        self._texts()
        if last is not None:
            self._summary(last)

    def act(self, action: Action) -> None:
        """The seat on screen chose ``action``."""
        seat = self.awaiting
        if seat is None or self.frames:
            return
        self._feed_timers()  # so that a timer the host would feed first is shown too
        try:
            step = self.session.submit(seat, action, display=seat)
        except CardtableError as exc:
            self.say(f"✗ {without_rule_ids(str(exc))}", error=True)
            return
        self.awaiting = None
        self.message = ""
        self._enqueue(step)
        self._kick()

    def _finish(self) -> None:
        if self._result_shown:
            return
        self._result_shown = True
        self.awaiting = None
        view = self.session.view(self.viewer)
        self.table.show(view)
        if self.session.save_path is not None:
            self.session.save()
        self._texts()
        self.app.push_screen(ResultScreen(self.result_text(view), self.session.lang), callback=self._after_result)

    def result_text(self, view: PlayerView, summary: bool = True) -> str:
        lang = self.session.lang
        outcome = view.outcome
        if outcome is None:
            return ""
        unit = "" if self.table.MATCH else "_game"  # Trash is a match of hands; Trex and Spit are games
        if len(outcome.winners) == 1:
            winner = outcome.winners[0]
            if winner == self.viewer:
                head = tr("result.you_win" + unit, lang)
            else:
                head = tr("result.wins" + unit, lang, who=self.table.seat_name(winner))
        else:
            head = tr("result.shared", lang, who=", ".join(self.table.seat_name(w) for w in outcome.winners))
        standings = self.table.summary() if summary else ""
        return head[:1].upper() + head[1:] + ("\n\n" + standings if standings else "")

    def _after_result(self, answer: str | None) -> None:
        if answer == "save":
            self.action_save()
        elif answer == "quit":
            self.app.exit(0)
        elif answer == "new" and isinstance(self.app, TableApp):
            self.app.call_later(self.app.new_match)

    # ---------------------------------------------------------------- keys
    def on_key(self, event: events.Key) -> None:
        key = event.key
        handlers = {
            "question_mark": self.action_help, "f1": self.action_help, "h": self.action_hint,
            "s": self.action_save, "ctrl+s": self.action_save, "q": self.action_quit_game,
            "l": self.action_language, "f": self.action_fast, "u": self.action_undo,
        }
        if key in handlers:
            event.stop()
            handlers[key]()
            return
        if self.frames:
            if key in ("enter", "space", "escape"):
                event.stop()
                self._flush()
                self._kick()
            return
        if self.session.is_over and key in ("enter", "escape"):
            event.stop()
            view = self.table.current
            if view is not None:
                self.app.push_screen(ResultScreen(self.result_text(view), self.session.lang),
                                     callback=self._after_result)
            return
        if self.awaiting is not None:
            action = self.table.key_action(key)
            if action is not None:
                event.stop()
                self.act(action)
            elif self.NOTE_KEYS and (len(key) == 1 or key in ("enter", "space")):
                event.stop()  # a key that is no move here: a short note and what the position allows
                name = event.character if event.character and event.character.isprintable() else key
                self.say(f"✗ {name} · {self.table.prompt()}", error=True)

    def on_game_table_chosen(self, message: GameTable.Chosen) -> None:
        message.stop()
        if not self.frames:
            self.act(message.action)

    def action_help(self) -> None:
        lang = self.session.lang
        undo = [("u", tr("key.undo", lang))] if self._undo_on else []
        self.app.push_screen(HelpScreen(help_text(self.session.game, lang,
                                                  self.table.key_help() + global_keys(lang) + undo), lang))

    @property
    def _undo_on(self) -> bool:
        return isinstance(self.app, TableApp) and self.app.undo and self.session.undo_allowed

    def action_undo(self) -> None:
        """Take back the person's last move and the bots' replies (an option against bots only):
        the match is replayed without them (Session.take_back) on a fresh table screen."""
        s, lang = self.session, self.session.lang
        if not (isinstance(self.app, TableApp) and self.app.undo) or s.realtime:  # never in a race
            self.say(tr("status.undo_off", lang), error=True)
        elif not s.undo_allowed:
            self.say(tr("status.undo_people", lang), error=True)
        elif self.awaiting is None or self.frames or self.retired:
            return  # only on the person's turn, with nothing moving
        elif not s.take_back():
            self.say(tr("status.undo_nothing", lang), error=True)
        else:
            self.app.restart_table(tr("status.undone", lang))

    def action_hint(self) -> None:
        lang = self.session.lang
        if self.awaiting is None:
            self.say(tr("status.no_hint", lang))
            return
        action = self.session.hint(self.awaiting)
        if action is None:
            return
        self.table.highlight(action)
        self.say(tr("status.hint", lang, bot=self.session.hint_bot_name, action=self.table.describe(action)))

    def action_save(self) -> None:
        try:
            path = self.session.save()
        except OSError as exc:
            self.say(tr("status.save_failed", self.session.lang, error=exc.strerror or str(exc)), error=True)
            return
        self.say(tr("status.saved", self.session.lang, path=str(path)))

    def action_quit_game(self) -> None:
        """Quit; with a save file the game is saved first, without one an unfinished game asks."""
        if self.session.save_path is not None:
            self.session.save()
        elif not self.session.is_over:
            self.app.push_screen(QuitScreen(self.session.lang), callback=self._after_quit_question)
            return
        self.app.exit(0)

    def _after_quit_question(self, answer: str | None) -> None:
        if answer == "save":
            self.action_save()
            self.app.exit(0)
        elif answer == "quit":
            self.app.exit(0)

    def action_language(self) -> None:
        langs = list(languages())
        self.session.lang = langs[(langs.index(self.session.lang) + 1) % len(langs)] \
            if self.session.lang in langs else langs[0]
        self.table.refresh_texts()
        lang = self.session.lang
        self.log_widget.rtl = lang == "ar"
        self.log_widget.rewrap()
        self.say(tr("status.language", lang, name=tr(f"lang.{lang}", lang)))

    def action_fast(self) -> None:
        if self.pace or self.bot_delay:
            self.pace, self.bot_delay = 0.0, 0.0
            self.say(tr("status.fast", self.session.lang))
        else:
            self.pace, self.bot_delay = self._speeds
            self.say(tr("status.slow", self.session.lang))


class RealtimeScreen(TableScreen):
    """The table of a real-time match (Spit): no turns and no animation queue.

    The session's :class:`~cardtable.host.realtime.RealtimeHost` runs on the match's clock
    (the system clock, or a test's virtual one). An interval timer (``hz`` times a second)
    calls :meth:`pump`, which lets the host feed the timers and the bots' moves that are due
    and redraws the table when something changed. A key or click of the seat on screen is
    submitted at once; if it lost a race (the view it was chosen from had just changed), the
    host rejects it without penalty and the table shows a short "too late" note.
    """

    NOTE_KEYS = False

    def __init__(self, session: Session, *, pace: float = 0.25, bot_delay: float = 0.4, hz: float = 40.0,
                 ready: bool = False) -> None:
        super().__init__(session, pace=pace, bot_delay=bot_delay)
        self.hz = hz
        self.ready_step = ready
        humans = session.humans
        self.viewer = humans[0] if humans else None
        self.awaiting = self.viewer
        self._changed = False
        self._late: str | None = None
        self.host = session.live(self._arrived)

    def on_mount(self) -> None:
        """After :meth:`TableScreen.on_mount` (Textual runs both): start the pump; with a person at
        the table and ``ready`` set, the race waits behind a ready screen first (its clock paused)."""
        self.log_widget.can_focus = False  # the arrow keys are the game's
        if self.ready_step and self.viewer is not None and self.session.clock is not None:
            self.session.clock.pause()
            self.app.push_screen(ReadyScreen(self.session.game.title, self.session.lang))
        self.set_interval(1.0 / self.hz, self.pump)
        self.pump()

    def _kick(self, delay: float = 0.0) -> None:
        """No turns to drive: :meth:`pump` does it all."""

    def on_screen_resume(self) -> None:
        """Back from a help, quit or result screen: the clock goes on where it stopped."""
        if self.session.clock is not None:
            self.session.clock.resume()
        self.pump()

    def on_screen_suspend(self) -> None:
        """A help or quit screen is up: the race waits (the bots and the timers too)."""
        if self.session.clock is not None:
            self.session.clock.pause()

    def _arrived(self, arrival: Arrival) -> None:
        """The host processed an action (the host calls this; nothing is drawn here)."""
        if arrival.accepted:
            view = self.session.view(self.viewer)
            for event in view.events:  # a Spit view carries the events of the last change
                self._log(event, view)
            self._changed = True
        elif arrival.seat is not None and arrival.seat == self.viewer:
            self._late = arrival.reason or ""

    def _log(self, event: Event, view: PlayerView) -> None:
        """A line of the log, without the rules between seats (in a race they would come every line)."""
        self._last_actor = None
        super()._log(event, view)

    def pump(self) -> None:
        """Let the host process what is due by now and redraw what changed."""
        if self.retired:
            return
        if not self.session.is_over:
            self.host.advance()
        if self._late is not None:
            self._late = None
            self._note(tr("spit.too_late", self.session.lang))
        if self._changed:
            self._changed = False
            self.table.show(self.session.view(self.viewer))
            self.message = ""
            self._texts()
        if self.session.is_over and self.app.screen is self:
            self._finish()

    def _note(self, text: str) -> None:
        note = getattr(self.table, "note", None)
        if callable(note):
            note(text)
        else:
            self.say(text, error=True)

    def act(self, action: Action) -> None:
        """The seat on screen chose ``action``: it goes to the host now."""
        if self.viewer is None or self.session.is_over or self.retired:
            return
        self.host.submit(action)
        self.pump()

    def _keys_line(self) -> str:
        line = getattr(self.table, "keys_line", None)
        return str(line()) if callable(line) else super()._keys_line()

    def _status_line(self) -> str:
        if self.session.is_over and self.table.current is not None:
            return super()._status_line()
        return self.table.prompt()


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

    def _tick(self) -> None:
        if self.counting is None:
            return
        if self.counting <= 0 or self.step <= 0:
            self.dismiss(None)
            return
        self.query_one("#ready", Static).update(self._text())
        self.counting -= 1
        self.set_timer(self.step, self._tick)


class TableApp(App[int]):
    """Terminal play of one match."""

    TITLE = "cardtable"
    ENABLE_COMMAND_PALETTE = False  # every key is the game's (see the help screen)

    def __init__(self, session: Session, *, pace: float = 0.25, bot_delay: float = 0.4, hz: float = 40.0,
                 ready: bool = False, undo: bool = False) -> None:
        super().__init__()
        self.session = session
        self.undo = undo  # the person may take moves back (against bots only, Session.undo_allowed)
        self.pace = pace
        self.bot_delay = bot_delay
        self.hz = hz
        self.ready = ready  # a real-time game waits for the player's Enter and a countdown

    def table_for(self, session: Session, pace: float, bot_delay: float) -> TableScreen:
        """The table screen for ``session``: a real-time one for a real-time game (Spit)."""
        if session.realtime:
            return RealtimeScreen(session, pace=pace, bot_delay=bot_delay, hz=self.hz, ready=self.ready)
        return TableScreen(session, pace=pace, bot_delay=bot_delay)

    def get_default_screen(self) -> Screen[None]:
        return self.table_for(self.session, self.pace, self.bot_delay)

    @property
    def table_screen(self) -> TableScreen:
        """The table screen (under any cover, help or result screen)."""
        for screen in reversed(self.screen_stack):
            if isinstance(screen, TableScreen):
                return screen
        raise LookupError("no table screen")

    def restart_table(self, message: str = "") -> None:
        """A fresh table screen for the session (after a take-back): the one below retires."""
        old_screen = self.table_screen
        old_screen.retired = True
        fresh = self.table_for(self.session, old_screen._speeds[0], old_screen._speeds[1])
        fresh.pace, fresh.bot_delay = old_screen.pace, old_screen.bot_delay
        fresh.message = message
        self.push_screen(fresh)

    def new_match(self) -> None:
        """Another match of the same game with the same seats (a fresh deal; saved under a new name)."""
        old = self.session
        self.session = Session.start(old.game, old.seats, lang=old.lang)
        old_screen = self.table_screen
        old_screen.retired = True
        # The first table is the app's default screen and cannot be switched away; the finished one
        # stays below, inert, and the new table goes on top.
        self.push_screen(self.table_for(self.session, old_screen._speeds[0], old_screen._speeds[1]))
