"""A table's actor: the one writer of its state.

Commands (:mod:`.commands`) arrive in the table's mailbox from anywhere (the lobby's requests,
sockets, bots' answers, timers) and are applied strictly one at a time by one task. For each,
:func:`.handle.handle` changes the state and leaves effects (:mod:`.effects`), which the actor
carries out in the order persist → publish → reply: every row is stored (in the log's writer
thread: the event loop never waits for the database), then frames go to the connections through
the bus, timers are set and bots asked, and only then does the sender get its answer. While a
write is under way the next command waits: nothing interleaves with a change half-done.

A write that fails rebuilds the table from the log (:func:`.lifecycle.write_failed`): nobody
was told of the change, and the table tries again by itself after a backoff.

:meth:`Actor.run_now` applies a command at once, in the caller (the table's loading, and tests
that drive a table without an event loop); the server's tasks use :meth:`Actor.ask` and
:meth:`Actor.post`.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from ..bots import Bot
from ..core.game import Action
from . import lifecycle
from .botpool import QUICK, BotPool, searches, think_aside
from .commands import (
    Act,
    AddBot,
    BotMoved,
    Chat,
    Command,
    Commit,
    Free,
    Hint,
    Leave,
    Release,
    Reveal,
    Sit,
    Start,
    Undo,
)
from .effects import Close, Drop, Effect, Finished, Persist, Schedule, Send, Think
from .handle import handle
from .lobby import LobbyError, error_frame
from .ports import ActionLog, Bus, LogError, StaleLease, TableLetGo
from .state import TableState

R = TypeVar("R")

LOBBY = (Sit, Commit, Reveal, Leave, AddBot, Free, Start)
"""The lobby's commands: a write of theirs that fails is the request's error (503), not a frame."""

READERS = 4
"""Threads that read a log on the network for the event loop (:meth:`LogRunner.read`)."""
WRITERS = 4
"""Threads that write a log on the network whose calls may run side by side (``concurrent``):
a take-over's read, or a burst of one-table loads, does not hold up every other table's writes."""
QUICK_RUN = 5
"""Quick thinks in a row after which a bot thinks on the loop (no pickling, no round trip)."""


class LogRunner:
    """The action log's calls. A log on the network (PostgreSQL) takes the tables' writes in
    writer threads, so the event loop never waits for a round trip; a local one (SQLite: a commit
    without an fsync, tens of microseconds) is written at once (``inline``), which a thread hop
    would only slow down.

    A log whose calls may run in several threads at once (``concurrent``, each call a
    transaction of its own) is written by :data:`WRITERS` threads side by side: one table's
    writes still come one after another, since its actor waits for each. Any other log is
    called one call at a time (a lock)."""

    def __init__(self, log: ActionLog, *, inline: bool | None = None) -> None:
        from .store import Store

        self.raw = log
        self.inline = isinstance(log, Store) if inline is None else inline
        self.writers = WRITERS if getattr(log, "concurrent", False) else 1
        self._lock: contextlib.AbstractContextManager[Any] = (
            threading.Lock() if self.writers == 1 else contextlib.nullcontext())
        self._thread: ThreadPoolExecutor | None = None
        self._readers: ThreadPoolExecutor | None = None

    def call(self, fn: Callable[..., R], *args: Any) -> R:
        with self._lock:
            return fn(*args)

    async def write(self, fn: Callable[[], R]) -> R:
        """``fn`` (the log's writes of one change): in a writer thread, or at once when ``inline``."""
        if self.inline:
            return self.call(fn)
        if self._thread is None:
            self._thread = ThreadPoolExecutor(self.writers, thread_name_prefix="log-writer")
        return await asyncio.get_running_loop().run_in_executor(self._thread, self.call, fn)

    async def read(self, fn: Callable[[], R]) -> R:
        """``fn`` (a read that needs no order with the writes, such as a table's row): in a
        reader thread beside the writer, or at once when ``inline``."""
        if self.inline:
            return self.call(fn)
        if self._readers is None:
            self._readers = ThreadPoolExecutor(READERS, thread_name_prefix="log-reader")
        return await asyncio.get_running_loop().run_in_executor(self._readers, fn)

    def close(self) -> None:
        for pool in (self._thread, self._readers):
            if pool is not None:
                pool.shutdown(wait=True)
        self._thread = self._readers = None


class LockedLog:
    """The log's methods through :meth:`LogRunner.call`: what a table reads (a replay) waits for
    a write under way in the writer thread rather than running beside it, unless the log takes
    calls side by side (``concurrent``)."""

    def __init__(self, runner: LogRunner) -> None:
        self._runner = runner

    def __getattr__(self, name: str) -> Any:
        method = getattr(self._runner.raw, name)
        if not callable(method):
            return method
        return lambda *args, **kwargs: self._runner.call(lambda: method(*args, **kwargs))


class Actor:
    """The mailbox and effects of one table."""

    def __init__(self, state: TableState, bus: Bus, runner: LogRunner, pool: BotPool | None = None,
                 owner: Callable[[], str] | None = None, lost: Callable[[], None] | None = None,
                 finished: Callable[[], None] | None = None) -> None:
        self.s = state
        self.bus = bus
        self.runner = runner
        self.pool = pool  # where bots think (None: on the loop)
        self._owner = owner or (lambda: f"table {state.id}")
        self._lost = lost  # another owner took the table over (the log refused a write as stale)
        self._finished = finished  # the game's end is stored: its results may be recorded
        self._mail: deque[tuple[Command, asyncio.Future[Any] | None]] = deque()
        self._task: asyncio.Task[None] | None = None
        self._slots: dict[str, asyncio.Handle] = {}
        self._timers: list[tuple[float, asyncio.Handle]] = []  # (when it runs, on the loop's clock)
        self._thinking: asyncio.Task[None] | None = None
        self._over: asyncio.Task[None] | None = None  # 'over' being written (a log on the network)
        self._quick: dict[int, int] = {}  # seat -> its bot's quick thinks in a row in the pool
        self.busy = False  # a command is being applied (its writes under way)
        self.version = state.version  # the game's version as the log holds it (what others may read)
        self.closed = False

    # ------------------------------------------------------------ the mailbox
    async def ask(self, cmd: Command) -> Any:
        """Apply ``cmd`` after the commands before it; its answer (or its error) once its effects are out.
        With nothing before it and a log written at once, it is applied here and now: nothing can
        come between (no await), and the hop to the actor's task is saved."""
        if self.closed:
            raise self._let_go()
        if not self._mail and not self.busy and self.runner.inline:
            return self.run_now(cmd)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._mail.append((cmd, future))
        self._ensure_task()
        return await future

    def post(self, cmd: Command) -> None:
        """``cmd`` to the mailbox; nobody waits for its answer (applied here and now, as by
        :meth:`ask`, when nothing is before it)."""
        if self.closed:
            return
        if not self._mail and not self.busy and self.runner.inline:
            try:
                self.run_now(cmd)
            except Exception as exc:  # a timer's or a bot's command: nobody to tell but the log
                print(f"cardtable serve: table {self.s.id}: {type(cmd).__name__} failed: {exc!r}", file=sys.stderr)
            return
        self._mail.append((cmd, None))
        self._ensure_task()

    def pending(self) -> int:
        return len(self._mail) + (1 if self.busy else 0)

    def _ensure_task(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while self._mail:
            cmd, future = self._mail.popleft()
            self.busy = True
            try:
                reply = await self._apply(cmd)
            except BaseException as exc:
                if future is not None and not future.done():  # cancelled: the table was let go
                    future.set_exception(exc if isinstance(exc, Exception) else self._let_go())
                if not isinstance(exc, Exception):
                    raise
            else:
                if future is not None and not future.done():
                    future.set_result(reply)
            finally:
                self.busy = False

    async def _apply(self, cmd: Command) -> Any:
        reply, effects = self._handle(cmd)
        writes = [e for e in effects if isinstance(e, Persist)]
        if writes:
            try:
                await self.runner.write(lambda: self._store(writes))
            except LogError as exc:
                return self._failed(cmd, exc)
        self.version = self.s.version
        self._deliver(effects)
        return reply

    # ------------------------------------------------------------ at once
    def run_now(self, cmd: Command) -> Any:
        """Apply ``cmd`` now, writes in the caller's thread; its answer."""
        reply, effects = self._handle(cmd)
        writes = [e for e in effects if isinstance(e, Persist)]
        if writes:
            try:
                self.runner.call(self._store, writes)
            except LogError as exc:
                return self._failed(cmd, exc)
        self.version = self.s.version
        self._deliver(effects)
        return reply

    def settle(self) -> None:
        """Carry out the effects left in the state now (a table's loading), writes first."""
        effects = self.s.fx.take()
        writes = [e for e in effects if isinstance(e, Persist)]
        if writes:
            self.runner.call(self._store, writes)
        self.version = self.s.version
        self._deliver(effects)

    # ------------------------------------------------------------ the steps
    def _handle(self, cmd: Command) -> tuple[Any, list[Effect]]:
        """``cmd`` applied; its answer and effects (with any a change made outside a command left
        in the state: a test that advances the real-time host by hand)."""
        s = self.s
        first = len(s.fx.items)
        try:
            reply = handle(s, cmd)
        except LobbyError:
            del s.fx.items[first:]  # refused before anything changed
            raise
        except Exception:
            s.fx.take()  # a fault half-way: the table as the log holds it
            lifecycle.write_failed(s)
            self._deliver([e for e in s.fx.take() if not isinstance(e, Persist)])
            raise
        return reply, s.fx.take()

    def _store(self, writes: list[Persist]) -> None:
        log = self.runner.raw
        for w in writes:
            if w.fenced:
                getattr(log, w.op)(*w.args, epoch=self.s.epoch)
            else:
                getattr(log, w.op)(*w.args)
        self.s.clock.failures = 0

    def _failed(self, cmd: Command, exc: LogError) -> Any:
        """A write of ``cmd``'s change failed: the table is what the log holds again, the others
        get that state, and the sender a ``server`` error (a lobby request: the error itself)."""
        s = self.s
        if isinstance(exc, StaleLease) and self._lost is not None:
            self._lost()  # not this process's table any more: its sockets reconnect to the new owner
            if isinstance(cmd, LOBBY):
                raise exc
            return error_frame("server", "this table moved to another server process; reconnect")
        lifecycle.write_failed(s)
        self.version = s.version
        lifecycle.after_change(s)
        effects = [e for e in s.fx.take() if not isinstance(e, Persist)]  # stored again when it heals
        message = "the change could not be saved (the server's store is not writable now); try again"
        if isinstance(cmd, Act | Undo | Chat | Hint):
            frame = error_frame("server", message, cmd.seq if isinstance(cmd, Act) else None)
            if cmd.conn is not None:
                effects.append(Send(cmd.conn, _out(frame)))
            self._deliver(effects)
            return frame
        self._deliver(effects)
        if isinstance(cmd, LOBBY):
            raise exc  # the lobby answers 503
        return None  # the table's own commands: it tries again by itself

    def _deliver(self, effects: Sequence[Effect]) -> None:
        """What leaves: every effect but the writes (stored before this is called)."""
        send = self.bus.send
        for e in effects:
            kind = type(e)
            if kind is Send:
                send(e.to, e.frame, e.latest)  # type: ignore[union-attr]
            elif kind is Persist:
                continue
            elif isinstance(e, Drop):
                self.bus.drop(e.to, e.latest)
            elif isinstance(e, Close):
                self.bus.close(e.to, e.code, e.reason)
            elif isinstance(e, Schedule):
                self._schedule(e)
            elif isinstance(e, Think):
                self._think(e)
            elif isinstance(e, Finished):
                self.finish()

    def finish(self) -> None:
        """The game has ended (:func:`~.lifecycle.mark_over`): its result recorded (the
        ``finished`` call), then ``over`` written in the log (a log on the network: in a writer
        thread, as the table's other writes). If the result cannot be recorded now, the log keeps
        the table ``playing``, and the next load of the table records it."""
        if self._finished is not None:
            try:
                self._finished()
            except Exception as exc:
                print(f"cardtable serve: table {self.s.id}: the result was not recorded now ({exc!r});"
                      " it will be when the table is loaded again", file=sys.stderr)
                return
        table_id, epoch = self.s.id, self.s.epoch

        def write() -> None:
            self.runner.raw.set_status(table_id, "over", epoch=epoch)

        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # driven by hand (a test, a table's loading): written at once
            loop = None
        if loop is not None and not self.runner.inline:  # a log on the network: in a writer thread
            self._over = loop.create_task(self._write_over_aside(write))
            return
        try:
            self.runner.call(write)
        except LogError as exc:
            self._over_not_written(exc)

    def writing_over(self) -> bool:
        """``over`` is being written in a writer thread now (the log still says ``playing``)."""
        return self._over is not None and not self._over.done()

    async def _write_over_aside(self, write: Callable[[], None]) -> None:
        try:
            await self.runner.write(write)
        except LogError as exc:
            self._over_not_written(exc)

    def _over_not_written(self, exc: LogError) -> None:
        """A lease lost (the new owner finishes the table) or the log down: the table is finished
        again when it is loaded again."""
        print(f"cardtable serve: table {self.s.id}: 'over' not written now ({exc}); it will be when the"
              " table is loaded again", file=sys.stderr)

    # ------------------------------------------------------------ timers
    def _schedule(self, e: Schedule) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop (a test drives the table by hand): no timers
            return
        if self.closed:
            return
        handle = loop.call_later(e.delay, self.post, e.command)
        if e.slot is not None:
            old = self._slots.pop(e.slot, None)
            if old is not None:
                old.cancel()
            self._slots[e.slot] = handle
        else:
            now = loop.time()  # a handle of a delay of 0 has no when() on every loop (uvloop): kept here
            self._timers = [(when, h) for when, h in self._timers if when > now and not h.cancelled()]
            self._timers.append((now + e.delay, handle))

    # ------------------------------------------------------------ bots
    def _think(self, e: Think) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop: bots move by StepBot
            return
        if self.s.bots.thinking is not None or self.closed:
            return
        self.s.bots.thinking = e.key
        self._thinking = loop.create_task(self._work(e))

    async def _work(self, e: Think) -> None:
        await asyncio.sleep(0)  # the table's other commands go first
        try:
            action, bot, rng = await self._move(e.seat, e.bot, e.view, e.rng)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the pool failed: the table asks again a second later
            print(f"cardtable serve: table {self.s.id}: a bot could not move: {exc!r}", file=sys.stderr)
            await asyncio.sleep(1.0)
            self.post(Release(e.seat, (-1, -1), None))
            return
        self.post(BotMoved(e.seat, e.key, action, bot, rng, e.asked))

    async def _move(self, seat: int, bot: Bot, view: Any, rng: random.Random) -> tuple[Action, Bot, random.Random]:
        """The bot's move: in the pool, or in a thread of this process when there is none; a
        quick bot on the loop itself: one that took under :data:`~.botpool.QUICK` seconds
        :data:`QUICK_RUN` times in a row in the pool thinks here, until a move of it takes longer.
        A search never thinks on the loop (:func:`~.botpool.searches`): its thinking time tells
        whether it had a choice, and a stall of the loop would show that time to every socket."""
        if self.pool is None:
            action, bot, rng, _ = await think_aside(bot, view, rng)
            return action, bot, rng
        if self._quick.get(seat, 0) >= QUICK_RUN and not searches(bot):
            start = time.perf_counter()
            action = bot.act(view, rng)
            if time.perf_counter() - start >= QUICK:
                self._quick[seat] = 0  # not so quick after all: back to the pool
            return action, bot, rng
        action, bot, rng, took = await self.pool.think(self._owner(), bot, view, rng)
        self._quick[seat] = self._quick.get(seat, 0) + 1 if took < QUICK else 0
        return action, bot, rng

    # ------------------------------------------------------------ the end
    def close(self) -> None:
        """Forget this table's timers and tasks (it is being dropped from memory)."""
        self.closed = True
        for timer in [*self._slots.values(), *(h for _, h in self._timers)]:
            timer.cancel()
        self._slots.clear()
        self._timers.clear()
        for task in (self._thinking, self._task):
            if task is not None and not task.done():
                with contextlib.suppress(RuntimeError):
                    task.cancel()
        while self._mail:  # whoever waits for a command not yet applied hears that it never will be
            _, future = self._mail.popleft()
            if future is not None and not future.done():
                future.set_exception(self._let_go())

    def _let_go(self) -> TableLetGo:
        return TableLetGo(f"table {self.s.id} was let go by this server process; reconnect")


def _out(frame: dict[str, Any]) -> Any:
    from .connection import Outgoing

    return Outgoing(frame)
