"""The turn scheduler: a table screen for games played in turns (Trash, Trex).

:class:`TurnScreen` drives the match. It asks the session who may act; a bot acts after a
short delay (thinking in a thread, its move shown when its pacing says); a human seat gets
the keyboard (after a cover screen when several humans share it); a question with one answer
is answered for the seat after a pause. Every accepted action comes back as a
:class:`~cardtable.tui.session.Step`, whose events are animated one by one on the game's table
(the frame queue) before the view after the action is drawn.
"""

from __future__ import annotations

import time
from collections import deque
from contextlib import suppress
from typing import Literal

from rich.text import Text

from ..core.errors import CardtableError
from ..core.game import Action, Event, PlayerView
from ..host.forced import answered_line, forced_action
from ..host.pacing import Pacing, bot_pacing
from .dialogs import CoverScreen, SummaryScreen
from .session import Session, Step, tr, without_rule_ids
from .table_screen import LONG_PAUSE, TableScreen

Frame = tuple[Literal["event"], Event, PlayerView] | tuple[Literal["view"], None, PlayerView]
"""One step of the animation: an event to draw, or the view after the action."""


class TurnScreen(TableScreen):
    """The table of a match played in turns, with its scheduler (bots, covers, animation)."""

    def __init__(self, session: Session, *, pace: float = 0.25, bot_delay: float = 0.4,
                 undo: bool = False) -> None:
        super().__init__(session, pace=pace, bot_delay=bot_delay, undo=undo)
        self.frames: deque[Frame] = deque()
        self._pending = False  # a tick is scheduled
        self._bot_pending = False  # a bot move is scheduled
        self._forced_pending = False  # a one-answer question is being answered
        self.threaded_bots = True  # bots think in a thread (tests may switch it off)

    def on_mount(self) -> None:
        """Besides :meth:`TableScreen.on_mount` (Textual runs both): start driving (the first tick
        comes after the first view is drawn), and feed the host's timers every second when the
        game has a time limit (Trash)."""
        self._kick()
        if getattr(self.session.game.options, "time_limit", None) is not None:
            self.set_interval(1.0, self._poll_timers)

    def on_screen_resume(self) -> None:
        self._kick()

    @property
    def busy(self) -> bool:
        return bool(self.frames)

    def skip_animation(self) -> None:
        self._flush()
        self._kick()

    def _poll_timers(self) -> None:
        """Feed the host's due timers (Trash's time limit) even while a human is thinking."""
        if not self.retired and self._feed_timers():
            self._kick()

    def _feed_timers(self) -> bool:
        step = self.session.poll_timers(self.viewer)
        if step is not None:
            self._enqueue(step)
        return step is not None

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
                self.app.push_screen(CoverScreen(s, seat, self.action_quit_game),
                                     callback=lambda _: self._show_seat(seat))
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
