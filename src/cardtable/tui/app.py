"""The terminal app: one match at a time, on the table screen its game needs.

:class:`TableApp` chooses the screen (:mod:`.turn_screen` for games played in turns,
:mod:`.realtime_screen` for Spit's race), puts a fresh one on top after a take-back, and starts
another match with the same seats. What every table screen shares is in :mod:`.table_screen`;
the small screens over a table (cover, help, result, ...) are in :mod:`.dialogs`.
"""

from __future__ import annotations

from textual.app import App
from textual.screen import Screen

from .realtime_screen import RealtimeScreen
from .session import Session
from .table_screen import TableScreen
from .turn_screen import TurnScreen


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
        """The table screen for ``session``: a real-time one for a real-time game (Spit), the turn
        scheduler's for the others."""
        if session.realtime:
            return RealtimeScreen(session, pace=pace, bot_delay=bot_delay, hz=self.hz, ready=self.ready,
                                  undo=self.undo)
        return TurnScreen(session, pace=pace, bot_delay=bot_delay, undo=self.undo)

    def get_default_screen(self) -> Screen[None]:
        return self.table_for(self.session, self.pace, self.bot_delay)

    @property
    def table_screen(self) -> TableScreen:
        """The table screen (under any cover, help or result screen)."""
        for screen in reversed(self.screen_stack):
            if isinstance(screen, TableScreen):
                return screen
        raise LookupError("no table screen")

    def on_table_screen_taken_back(self, message: TableScreen.TakenBack) -> None:
        self.restart_table(message.note)

    def on_table_screen_new_match(self, message: TableScreen.NewMatch) -> None:
        self.new_match()

    def restart_table(self, message: str = "") -> None:
        """A fresh table screen for the session (after a take-back): the one below retires."""
        old_screen = self.table_screen
        old_screen.retired = True
        fresh = self.table_for(self.session, *old_screen.speeds)
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
        self.push_screen(self.table_for(self.session, *old_screen.speeds))
