"""What a game brings to the app: a :class:`GameTable` widget.

A game's screen module ``cardtable.tui.games.<game>`` defines ``<Game>Table``, a
subclass of :class:`GameTable`. The app shell owns everything else (seats, the
cover screen, help, hints, save, languages, the event log) and talks to the
table through these methods only:

* :meth:`show` draws a view (always the view of the seat on screen, or the
  spectator's); :meth:`play_event` applies one event of the last action to what is
  drawn, so a forced sequence is shown step by step; :meth:`show` follows with
  the view after the action.
* :meth:`key_action` maps a key to an action of the seat to move (or ``None``);
  a mouse choice is posted as a :class:`GameTable.Chosen` message.
* :meth:`prompt`, :meth:`describe` and :meth:`key_help` are texts in the
  session's language.
"""

from __future__ import annotations

from rich.console import RenderableType
from textual.message import Message
from textual.widget import Widget

from ...core.game import Action, Event, PlayerView
from ..session import Session, tr

LOG_MIN_SCREEN = 76
"""Narrower than this the table has the whole width and the log is hidden."""

LOG_ROOM = 24
"""Columns the log keeps beside a table that grows into a wide terminal."""


def table_room(width: int) -> int:
    """The columns a table may take in a terminal ``width`` columns wide (the log keeps its room)."""
    return width if width < LOG_MIN_SCREEN else min(int(width * 0.7), width - LOG_ROOM)


class GameTable(Widget):
    """The base of every game's table widget."""

    class Chosen(Message):
        """The seat on screen chose ``action`` with the mouse (or a button)."""

        def __init__(self, action: Action) -> None:
            super().__init__()
            self.action = action

    MATCH = False
    """True when the game is a match of hands (Trash): the end screen says "match", else "game"."""

    def __init__(self, session: Session, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.session = session
        self.current: PlayerView | None = None

    @property
    def lang(self) -> str:
        return self.session.lang

    def seat_name(self, seat: int) -> str:
        """A seat as the table names it: "you" for the seat on screen (not at a hot-seat table,
        where the screen passes from one person to the next), a given name, a bot's name."""
        viewer = None if self.session.hot_seat or self.current is None else self.current.seat
        return self.session.seat_label(seat, viewer)

    @property
    def acting(self) -> bool:
        """True when the view on screen has legal actions (it is that seat's move)."""
        return self.current is not None and self.current.seat is not None and bool(self.current.legal_actions)

    def show(self, view: PlayerView) -> None:
        """Draw ``view``."""
        self.current = view

    def play_event(self, event: Event) -> None:
        """Show one event of the last action on top of what is drawn (default: nothing to move)."""

    def track(self, event: Event) -> None:
        """Note an event whose frame was skipped (the animation was cut short; default: nothing)."""

    def take_summary(self, view: PlayerView) -> RenderableType | None:
        """A summary to show and wait on after ``view`` is drawn (Trex: the end of a deal), once."""
        return None

    def key_action(self, key: str) -> Action | None:
        """The action a key stands for, for the seat on screen; ``None`` if the key means nothing now."""
        return None

    def subtitle(self) -> str:
        """A short line for the title bar (a hand number, a contract …)."""
        return ""

    def summary(self) -> str:
        """The standings at the end of a match, one line per seat (default: none)."""
        return ""

    def prompt(self) -> str:
        """What the seat on screen is asked now."""
        return tr("generic.prompt", self.lang)

    def describe(self, action: Action) -> str:
        """An action in words (for hints)."""
        return str(action)

    def key_help(self) -> list[tuple[str, str]]:
        """``(keys, what they do)`` for the help screen."""
        return []

    def highlight(self, action: Action | None) -> None:
        """Mark the action a hint suggests (default: nothing to mark)."""

    def note(self, text: str, error: bool = True) -> bool:
        """Show a short note on the table itself ("too late"); False when the table has no place
        for one (default), and the screen's status line says it instead."""
        return False

    def keys_line(self) -> str | None:
        """The key line of a real-time screen; None (default): the shell's."""
        return None

    def fit(self, width: int, height: int) -> None:
        """The terminal is ``width`` × ``height`` now: use the room (default: the CSS does it)."""

    def refresh_texts(self) -> None:
        """Redraw after a change of language."""
        if self.current is not None:
            self.show(self.current)
