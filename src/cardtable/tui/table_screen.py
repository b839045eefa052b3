"""What every table screen shares: the layout, the title, status and key lines, the event log,
the keys every game has (help, hint, save, quit, language, speed, undo) and the end of the match.

Two screens build on it: :class:`~cardtable.tui.turn_screen.TurnScreen` (the turn scheduler of
Trash and Trex) and :class:`~cardtable.tui.realtime_screen.RealtimeScreen` (Spit's race). The app
(:mod:`cardtable.tui.app`) chooses one per match.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Static

from ..core.game import Action, Event, PlayerView
from ..i18n.words import preset_label
from .dialogs import HelpScreen, QuitScreen, ResultScreen
from .eventlog import EventLog
from .games import GameTable, table_class
from .games.base import LOG_MIN_SCREEN
from .help import help_text
from .rtl import ui
from .session import Session, event_line, languages, tr

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



def fold_keys(line: str, width: int) -> str:
    """The keys' line (items joined by " · ") on two lines when it is longer than ``width``,
    broken between two items, never inside one ("q quit" stays whole)."""
    if width <= 0 or len(line) <= width:
        return line
    items = line.split(" · ")
    first = items[0]
    for k in range(1, len(items)):
        longer = first + " · " + items[k]
        if len(longer) > width:
            return first + "\n" + " · ".join(items[k:])
        first = longer
    return line

class TableScreen(Screen[None]):
    """The table of one match: title, the game's table, the event log, the prompt and the keys.

    A subclass moves the match on: it implements :meth:`act` (the seat on screen chose an
    action) and, if it animates, :attr:`busy` and :meth:`skip_animation`."""

    NOTE_KEYS = True
    """A key that is no move on the person's turn gets a short note (not in a race, where a
    key can arrive a moment too late and the table says so itself)."""

    DEFAULT_CSS = """
    TableScreen #title { height: 1; background: $primary-darken-2; color: $text; padding: 0 1; }
    TableScreen #main { height: 1fr; }
    TableScreen #log { width: 1fr; min-width: 20; max-width: 60; border-left: solid $panel-lighten-2; }
    TableScreen #table { max-width: 70%; }
    TableScreen #status { height: auto; min-height: 2; max-height: 4; padding: 0 1; }
    TableScreen #keys { height: auto; max-height: 2; background: $panel; color: $text-muted; padding: 0 1; }
    """

    class NewMatch(Message):
        """The person asked for another match with the same seats (the app starts it)."""

    class TakenBack(Message):
        """The person's last move was taken back: the app puts a fresh table screen on top."""

        def __init__(self, note: str) -> None:
            super().__init__()
            self.note = note

    def __init__(self, session: Session, *, pace: float = 0.25, bot_delay: float = 0.4,
                 undo: bool = False) -> None:
        super().__init__()
        self.session = session
        self.pace = pace
        self.bot_delay = bot_delay
        self.speeds = (pace, bot_delay)
        """The speeds the screen was made with (``f`` switches between them and no waiting)."""
        self.undo = undo  # the person may take moves back (against bots only, Session.undo_allowed)
        self.viewer: int | None = None if session.hot_seat or not session.humans else session.humans[0]
        self.awaiting: int | None = None
        self.message = ""
        self.error = False
        self._last_actor: int | None = None
        self._result_shown = False
        self.retired = False  # a finished match under a newer one
        self.table: GameTable = table_class(session.game.name)(session, id="table")

    # -------------------------------------------------------------- moving the match on
    def act(self, action: Action) -> None:
        """The seat on screen chose ``action``."""
        raise NotImplementedError

    @property
    def busy(self) -> bool:
        """The events of the last action are still being drawn (keys wait for them)."""
        return False

    def skip_animation(self) -> None:
        """Draw the rest of the last action at once."""

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
        self.query_one("#keys", Static).update(ui(fold_keys(self._keys_line(), self.size.width - 2), lang))
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

    # -------------------------------------------------------------- the end of the match
    def _finish(self) -> None:
        if self._result_shown:
            return
        self._result_shown = True
        self.awaiting = None
        view = self.session.view(self.viewer)
        self.table.show(view)
        if self.session.save_path is not None:
            self._save_quietly()
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
        elif answer == "new":
            self.post_message(self.NewMatch())

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
        if self.busy:
            if key in ("enter", "space", "escape"):
                event.stop()
                self.skip_animation()
            return
        if self.session.is_over and key == "n":  # play again, from the table as from the result box
            event.stop()
            self._after_result("new")
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
        if not self.busy:
            self.act(message.action)

    def action_help(self) -> None:
        lang = self.session.lang
        undo = [("u", tr("key.undo", lang))] if self._undo_on else []
        self.app.push_screen(HelpScreen(help_text(self.session.game, lang,
                                                  self.table.key_help() + global_keys(lang) + undo), lang))

    @property
    def _undo_on(self) -> bool:
        return self.undo and self.session.undo_allowed

    def action_undo(self) -> None:
        """Take back the person's last move and the bots' replies (an option against bots only):
        the match is replayed without them (Session.take_back) on a fresh table screen."""
        s, lang = self.session, self.session.lang
        if not self.undo or s.realtime:  # never in a race
            self.say(tr("status.undo_off", lang), error=True)
        elif not s.undo_allowed:
            self.say(tr("status.undo_people", lang), error=True)
        elif self.awaiting is None or self.busy or self.retired:
            return  # only on the person's turn, with nothing moving
        elif not s.take_back():
            self.say(tr("status.undo_nothing", lang), error=True)
        else:
            self.retired = True  # this screen's match is rewound: a fresh screen takes over
            self.post_message(self.TakenBack(tr("status.undone", lang)))

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

    def action_save(self) -> bool:
        """Save the record and say where; if it cannot be written, say why (the game goes on)."""
        if not self._save_quietly():
            return False
        self.say(tr("status.saved", self.session.lang, path=str(self.session.save_path)))
        return True

    def _save_quietly(self) -> bool:
        """Save the record; said only if it cannot be written (a missing folder, a full disk)."""
        try:
            self.session.save()
        except OSError as exc:
            self.say(tr("status.save_failed", self.session.lang, error=exc.strerror or str(exc)), error=True)
            return False
        return True

    def action_quit_game(self) -> None:
        """Quit; with a save file the game is saved first, without one an unfinished game asks. A
        save that fails keeps the game open, says why and asks (quitting without saving is a choice)."""
        if self.session.save_path is not None:
            if not self._save_quietly():
                self.app.push_screen(QuitScreen(self.session.lang), callback=self._after_quit_question)
                return
        elif not self.session.is_over:
            self.app.push_screen(QuitScreen(self.session.lang), callback=self._after_quit_question)
            return
        self.app.exit(0)

    def _after_quit_question(self, answer: str | None) -> None:
        if answer == "save":
            if self.action_save():  # else it said why, and the game stays open
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
            self.pace, self.bot_delay = self.speeds
            self.say(tr("status.slow", self.session.lang))
