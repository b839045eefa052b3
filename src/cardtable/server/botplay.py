"""Bots at a table: the seats' own bots and the stand-ins for people who are away or left.

Turn-based games: one task per table (:meth:`BotDriver._run`) moves whichever bot is
to move, ``bot_delay`` seconds apart, through :meth:`BotDriver.release` -- the one place a
bot's move leaves for the table. Real-time games (Spit): the bots live in the
:class:`~cardtable.host.realtime.RealtimeHost`, driven by :mod:`.driver`.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from typing import TYPE_CHECKING, Any

from ..bots import Bot, make_bot
from ..bots.base import adapt
from ..bots.roles import STAND_IN_BOTS, pick_bot
from ..core.chance import derive
from ..core.game import Action
from ..host.pacing import bot_pacing
from ..host.realtime import Intent, RealtimeBot
from .botpool import QUICK, BotPool

if TYPE_CHECKING:
    from .tables import Table


QUICK_RUN = 5
"""Quick thinks in a row after which a bot thinks on the loop (no pickling, no round trip)."""


def stand_in(game: str) -> str:
    """The bot that plays for a person of ``game`` who is away too long or leaves."""
    return pick_bot(game, STAND_IN_BOTS)


class _Reacting:
    """A turn-based bot made real-time: it looks at its view ``delay`` seconds after each change."""

    def __init__(self, bot: Bot, name: str, delay: float = 0.8) -> None:
        self.bot = bot
        self.name = name
        self.delay = delay

    def react(self, view: Any, now: float, rng: random.Random) -> Intent | None:
        if not view.legal_actions:
            return None
        return self.bot.act(view, rng), now + self.delay * (0.75 + rng.random() / 2)

    def sent(self, action: Action, when: float) -> None:
        pass

    def sticky(self, action: Action) -> bool:
        return False


def realtime_bot(game: str, name: str) -> RealtimeBot:
    """The bot ``name`` as a :class:`RealtimeBot`: its own reaction-time model if it has one."""
    bot = make_bot(game, name)
    if hasattr(bot, "react"):
        return bot  # type: ignore[return-value]
    return _Reacting(adapt(bot), name)


class BotDriver:
    """Who moves for a seat nobody plays right now, and the task that makes them move."""

    def __init__(self, table: Table, delay: float, pool: BotPool | None = None) -> None:
        self.t = table
        self.delay = delay
        self.pool = pool  # where bots think (None: in this process, on the loop)
        self.quick: dict[int, int] = {}  # seat -> its bot's quick thinks in a row in the pool (QUICK_RUN: here)
        self.standins: dict[int, tuple[Bot, random.Random]] = {}
        self.realtime_standins: set[int] = set()  # real-time seats a stand-in plays while their person is away
        self.task: asyncio.Task[None] | None = None

    def release_tasks(self) -> None:
        if self.task is not None:
            self.task.cancel()

    def mover(self) -> tuple[Bot, random.Random] | None:
        """The bot that moves for the seat to move: its own bot, or a stand-in for a
        person who has been away longer than the table's ``hold`` (R5); ``None`` otherwise."""
        t = self.t
        m = t.match
        if m is None or m.is_over:
            return None
        seat = m.to_move()
        if seat in m.bots:
            return m.bots[seat], m.rngs[seat]
        if seat < 0 or t.hold is None or seat in t.players:
            return None
        since = t.presence.away.get(seat)
        if since is None or time.monotonic() - since < t.hold:
            return None
        if seat not in self.standins:
            bot = adapt(make_bot(t.row.game, stand_in(t.row.game)))
            self.standins[seat] = (bot, derive(t.row.bot_seed, "stand-in", seat))
        return self.standins[seat]

    def stand_in_realtime(self, seat: int) -> None:
        """A real-time game no longer waits for ``seat``'s person: a stand-in plays it until they are back."""
        t = self.t
        if t.rt is None or seat in self.realtime_standins or seat in t.rt.bots:
            return
        self.realtime_standins.add(seat)
        t.rt.add_bot(seat, realtime_bot(t.row.game, stand_in(t.row.game)))
        t.driver.wake()
        t.fanout.broadcast_table()

    def stand_down_realtime(self, seat: int) -> None:
        """``seat``'s person is back: they play it again."""
        t = self.t
        if seat in self.realtime_standins:
            self.realtime_standins.discard(seat)
            if t.rt is not None:
                t.rt.remove_bot(seat)

    def step(self) -> bool:
        """One bot move through the host, if a bot (or a stand-in) is to move (lock held)."""
        m = self.t.match
        found = self.mover()
        if m is None or found is None:
            return False
        seat = m.to_move()
        bot, rng = found
        action = bot.act(m.state.view(seat), rng)
        return self.release(seat, action)

    def release(self, seat: int, action: Action) -> bool:
        """The one place a turn-based bot's chosen move goes to the table (lock held); *when*
        it may be seen is the pacing's (host/pacing.py, in :meth:`_run`)."""
        reply = self.t.act(seat, None, str(action))
        if reply["type"] != "ack":
            return False
        self.t.after_change()
        return True

    async def _run(self) -> None:
        """The bot task: a move about every ``delay`` seconds (paced) while a bot is to move and somebody watches.
        The bot thinks without the table's lock (in the pool, when there is one); if the table
        moved on meanwhile (a timer, a person), it looks again."""
        t = self.t
        while True:
            await asyncio.sleep(0)  # others go first; the pacing below keeps the pace of play
            async with t.lock:
                m = t.match
                found = None if t.unwatched() else self.mover()
                if m is None or found is None:
                    return
                seat, version = m.to_move(), (t.version, t.flow.undos)
                bot, rng = found
                view = m.state.view(seat)
                asked = time.monotonic()
            action, bot, rng = await self._think(seat, bot, view, rng)
            pacing = bot_pacing(bot, self.delay)
            if pacing is not None:  # released a drawn delay after asking, whatever the bot held (#17)
                await asyncio.sleep(pacing.wait(asked, time.monotonic(), m.pace_rngs[seat]))
            async with t.lock:
                m = t.match
                # an undo may bring the table back to the same version: its count tells
                if m is None or (t.version, t.flow.undos) != version or m.to_move() != seat or self.mover() is None:
                    continue
                self._keep(seat, bot, rng)
                if not self.release(seat, action):
                    return

    async def _think(self, seat: int, bot: Bot, view: Any, rng: random.Random) -> tuple[Action, Bot, random.Random]:
        """The bot's move: in the pool, or here when there is none or the bot is quick: one
        that took under :data:`~.botpool.QUICK` seconds :data:`QUICK_RUN` times in a row in the
        pool thinks here, until a move of it takes longer."""
        if self.pool is None:
            return bot.act(view, rng), bot, rng
        if self.quick.get(seat, 0) >= QUICK_RUN:
            start = time.perf_counter()
            action = bot.act(view, rng)
            if time.perf_counter() - start >= QUICK:
                self.quick[seat] = 0  # not so quick after all: back to the pool
            return action, bot, rng
        owner = self.t.owner or f"table {self.t.id}"
        action, bot, rng, took = await self.pool.think(owner, bot, view, rng)
        self.quick[seat] = self.quick.get(seat, 0) + 1 if took < QUICK else 0
        return action, bot, rng

    def _keep(self, seat: int, bot: Bot, rng: random.Random) -> None:
        """The bot and its generator as they came back from thinking (a search bot's memory)."""
        m = self.t.match
        assert m is not None
        if seat in m.bots:
            m.bots[seat], m.rngs[seat] = bot, rng
        elif seat in self.standins:
            self.standins[seat] = (bot, rng)

    def kick(self) -> None:
        """Let the bot to move (if any) go on: the real-time driver, or this table's bot task.
        A table of bots alone that nobody watches waits until somebody comes."""
        t = self.t
        if t.rt is not None:
            t.driver.wake()
            return
        if self.task is not None and not self.task.done():
            return
        if t.unwatched() or self.mover() is None:
            return
        with contextlib.suppress(RuntimeError):  # no running loop: nothing drives bots
            self.task = asyncio.get_running_loop().create_task(self._run())
