"""Bot thinking off the event loop: a process pool sized to the machine, shared fairly.

A search bot can think for half a second; on the server's one event loop that is half a second
of every game's acks and pings. :class:`BotPool` runs :meth:`Bot.act` in worker processes (the
bot, its view and its random generator go there pickled, a few kilobytes, and come back with the
bot's updated memory). Jobs wait in one queue per owner (the address that made the table) and
the owners take turns, so one address with sixty expert tables gets one share of the machine,
like any other address; a table has one job at a time, so it gets one share of its owner's.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import concurrent.futures.process
import contextlib
import multiprocessing
import os
import pickle
import random
import time
from collections import deque
from typing import Any

from ..bots.base import adapt, takes_budget
from ..core.game import Action
from ..host.workers import end_with


def machine_workers() -> int:
    """Worker processes for this machine: one per core this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


QUICK = 0.002
"""Seconds of thinking under which a bot is cheaper to run on the loop than to send to a worker."""


def searches(bot: Any) -> bool:
    """Whether ``bot`` (the server's adapter around a level's bot, or the bot itself) searches
    (its class says ``searches = True``). A search's thinking time depends on the cards it holds
    (a forced move is answered at once), so it never thinks on the event loop, whose stalls every
    socket of the server would feel."""
    inner = vars(bot).get("inner") if hasattr(bot, "__dict__") else None
    return bool(getattr(inner if inner is not None else bot, "searches", False))


async def think_aside(bot: Any, view: Any, rng: random.Random) -> tuple[Action, Any, random.Random, float]:
    """:func:`think` in a thread of this process (no pool, or a bot the pool cannot take): the
    event loop goes on serving while the bot thinks."""
    return await asyncio.to_thread(think, bot, view, rng)


def think(bot: Any, view: Any, rng: random.Random) -> tuple[Action, Any, random.Random, float]:
    """One move of ``bot`` (in a worker): the action, the bot and generator after it, and the
    seconds it thought."""
    start = time.perf_counter()
    action = bot.act(view, rng)
    return action, bot, rng, time.perf_counter() - start


class BotPool:
    """``workers`` processes (started when first needed); owners take turns for them."""

    def __init__(self, workers: int) -> None:
        self.workers = max(1, workers)
        self._executor: concurrent.futures.ProcessPoolExecutor | None = None
        self._busy = 0
        self._waiting: dict[str, deque[asyncio.Future[None]]] = {}
        self._turns: deque[str] = deque()  # owners with jobs waiting, in turn order
        self.jobs = 0  # moves worked out in the pool
        self.fallbacks = 0  # moves worked out in the server process (a bot that cannot be pickled)
        self.unpoolable: set[type] = set()  # bot classes that did not survive the trip to a worker

    @property
    def executor(self) -> concurrent.futures.ProcessPoolExecutor:
        if self._executor is None:
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(["cardtable.bots", "cardtable.games"])  # imported once, forked warm
            self._executor = concurrent.futures.ProcessPoolExecutor(
                self.workers, mp_context=context, initializer=_behind_the_loop, initargs=(os.getpid(),))
        return self._executor

    def warm(self) -> None:
        """Start every worker now (the server's start-up), so that the first bot move of the first
        game does not wait a second or two for a worker process to start and import the bots."""
        for _ in range(self.workers):
            self.executor.submit(_ready)

    async def think(self, owner: str, bot: Any, view: Any, rng: random.Random
                    ) -> tuple[Action, Any, random.Random, float]:
        """``bot``'s move on ``view``, worked out in the pool when ``owner``'s turn comes."""
        if type(bot) in self.unpoolable:
            self.fallbacks += 1
            return await think_aside(bot, view, rng)
        inner = vars(bot).get("inner") if hasattr(bot, "__dict__") else None
        plain = inner is not None and not takes_budget(inner)  # the bots' adapter around a plain bot
        try:
            job = pickle.dumps((inner if plain else bot, view, rng))
        except (pickle.PicklingError, TypeError, AttributeError, RecursionError):
            self.unpoolable.add(type(bot))
            self.fallbacks += 1
            return await think_aside(bot, view, rng)
        loop = asyncio.get_running_loop()
        if self._busy < self.workers:
            self._busy += 1
        else:
            gate: asyncio.Future[None] = loop.create_future()
            queue = self._waiting.setdefault(owner, deque())
            if not queue:
                self._turns.append(owner)
            queue.append(gate)
            try:
                await gate  # a worker was handed to this job
            except asyncio.CancelledError:
                if gate.done() and not gate.cancelled():
                    self._hand_on()
                raise
        try:
            self.jobs += 1
            action, thought, rng, took = await loop.run_in_executor(self.executor, _think_pickled, job)
            return action, (adapt(thought) if plain else thought), rng, took
        except concurrent.futures.process.BrokenProcessPool:  # a worker died: new workers next time
            self._executor = None
            self.fallbacks += 1
            return await think_aside(bot, view, rng)
        except Exception:  # the bot does not survive the trip (it cannot be unpickled): it thinks here
            self.unpoolable.add(type(bot))
            self.fallbacks += 1
            return await think_aside(bot, view, rng)
        finally:
            self._hand_on()

    def _hand_on(self) -> None:
        """A worker is free: the next owner in turn gets it (or nobody waits)."""
        while self._turns:
            owner = self._turns.popleft()
            queue = self._waiting[owner]
            gate = queue.popleft()
            if queue:
                self._turns.append(owner)  # to the back: the others go first
            else:
                del self._waiting[owner]
            if not gate.done():
                gate.set_result(None)
                return
        self._busy -= 1

    def close(self) -> None:
        """Stop the workers (a move being worked out is dropped) and wait until they are gone."""
        if self._executor is not None:
            processes = list(getattr(self._executor, "_processes", {}).values())
            self._executor.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                process.terminate()
            for process in processes:
                process.join(5.0)
            self._executor = None


def _behind_the_loop(server: int) -> None:
    """A worker yields the cores to the server's event loop (acks and pings go first), and ends
    when the server does, however it ended."""
    with contextlib.suppress(OSError):
        os.nice(10)
    end_with(server)


def _ready() -> None:
    """A worker's first job: the games and bots imported, nothing else."""
    import cardtable.bots  # noqa: F401


def _think_pickled(job: bytes) -> tuple[Action, Any, random.Random, float]:
    bot, view, rng = pickle.loads(job)
    return think(bot, view, rng)
