"""The table screen of a real-time match (Spit): the host runs on the match's clock and the
screen pumps it many times a second."""

from __future__ import annotations

from ..core.game import Action, Event, PlayerView
from ..host.realtime import Arrival
from .dialogs import ReadyScreen
from .session import Session, tr
from .table_screen import TableScreen


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
                 ready: bool = False, undo: bool = False) -> None:
        super().__init__(session, pace=pace, bot_delay=bot_delay, undo=undo)
        self.hz = hz
        self.ready_step = ready
        humans = session.humans
        self.viewer = humans[0] if humans else None
        self.awaiting = self.viewer
        self._changed = False
        self._late: str | None = None
        self.host = session.live(self._arrived)

    def on_mount(self) -> None:
        """Besides :meth:`TableScreen.on_mount` (Textual runs both): start the pump; with a person at
        the table and ``ready`` set, the race waits behind a ready screen first (its clock paused)."""
        self.log_widget.can_focus = False  # the arrow keys are the game's
        if self.ready_step and self.viewer is not None and self.session.clock is not None:
            self.session.clock.pause()
            self.app.push_screen(ReadyScreen(self.session.game.title, self.session.lang))
        self.set_interval(1.0 / self.hz, self.pump)
        self.pump()

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
        if not self.table.note(text):
            self.say(text, error=True)

    def act(self, action: Action) -> None:
        """The seat on screen chose ``action``: it goes to the host now."""
        if self.viewer is None or self.session.is_over or self.retired:
            return
        self.host.submit(action)
        self.pump()

    def _keys_line(self) -> str:
        line = self.table.keys_line()
        return line if line is not None else super()._keys_line()

    def _status_line(self) -> str:
        if self.session.is_over and self.table.current is not None:
            return super()._status_line()
        return self.table.prompt()
