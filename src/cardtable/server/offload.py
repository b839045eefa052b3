"""Work on finished games (replays, reviews) in worker processes, bounded per address and in total.

A replay or a review of a finished game reads the whole record again: a Trex game's views take
most of a second, its review a few seconds. Done on the event loop, or on a thread that holds
the interpreter's lock against it, that is every game's acks and pings waiting. :class:`Offload`
runs each piece of work in a worker process (niced below the server, ended with it) and keeps
what it made, so each (table, seat, ...) is worked out once:

- a request whose answer is kept is answered from memory;
- a request for work already under way waits for that work (it costs nothing more);
- otherwise it starts the work, unless its address already has :attr:`per_address` pieces under
  way or :attr:`total` pieces wait in all: then :class:`Busy` (answered ``429`` with
  ``Retry-After``), and nothing is started.

What is kept is bounded by its size in bytes (:attr:`budget`), least recently used first out.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import concurrent.futures.process
import contextlib
import multiprocessing
import os
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

from ..host.workers import end_with


class Busy(Exception):
    """Too much work under way: for this address (``scope = "address"``) or for the server."""

    def __init__(self, scope: str) -> None:
        super().__init__(scope)
        self.scope = scope


class Offload:
    """``workers`` processes (started when first needed) for work on finished games."""

    def __init__(self, workers: int = 1, *, per_address: int = 2, total: int = 16, budget: int = 64 << 20,
                 executor: concurrent.futures.Executor | None = None) -> None:
        self.workers = max(1, workers)
        self.per_address = per_address
        self.total = total
        self.budget = budget
        self._executor = executor  # tests hand in a thread pool; the server makes processes
        self._owned = executor is None
        self._kept: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self._kept_bytes = 0
        self._working: dict[Hashable, asyncio.Future[Any]] = {}
        self._by_address: dict[str, int] = {}
        self.jobs = 0  # pieces of work done (not answered from memory)

    @property
    def executor(self) -> concurrent.futures.Executor:
        if self._executor is None:
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(["cardtable.review", "cardtable.records.record"])
            self._executor = concurrent.futures.ProcessPoolExecutor(
                self.workers, mp_context=context, initializer=_behind_the_server, initargs=(os.getpid(),))
        return self._executor

    def kept(self, key: Hashable) -> Any | None:
        """What the work of ``key`` made, if it is kept."""
        found = self._kept.get(key)
        if found is None:
            return None
        self._kept.move_to_end(key)
        return found[0]

    async def run(self, key: Hashable, address: str, size: Callable[[Any], int],
                  fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` in a worker, once per ``key``; ``size(result)`` is its weight in bytes.
        Raises :class:`Busy` rather than start more than the bounds allow."""
        kept = self.kept(key)
        if kept is not None:
            return kept
        working = self._working.get(key)
        if working is None:
            if self._by_address.get(address, 0) >= self.per_address:
                raise Busy("address")
            if len(self._working) >= self.total:
                raise Busy("server")
            working = self._working[key] = asyncio.ensure_future(self._work(key, address, size, fn, args))
            self._by_address[address] = self._by_address.get(address, 0) + 1
            working.add_done_callback(lambda done: self._done(key, address, done))
        # a request that goes away does not stop the work: the next one finds it kept
        return await asyncio.shield(working)

    async def _work(self, key: Hashable, address: str, size: Callable[[Any], int], fn: Callable[..., Any],
                    args: tuple[Any, ...]) -> Any:
        loop = asyncio.get_running_loop()
        try:
            result = await loop.run_in_executor(self.executor, fn, *args)
        except concurrent.futures.process.BrokenProcessPool:  # a worker died: new workers next time
            self._executor = None
            raise
        self.jobs += 1
        weight = max(1, size(result))
        if weight <= self.budget:
            self._kept[key] = (result, weight)
            self._kept_bytes += weight
            while self._kept_bytes > self.budget:
                _, (_, gone) = self._kept.popitem(last=False)
                self._kept_bytes -= gone
        return result

    def _done(self, key: Hashable, address: str, task: asyncio.Future[Any]) -> None:
        self._working.pop(key, None)
        left = self._by_address.get(address, 1) - 1
        if left > 0:
            self._by_address[address] = left
        else:
            self._by_address.pop(address, None)
        if not task.cancelled():
            task.exception()  # retrieved: failed work is asked for again next time

    def close(self) -> None:
        """Stop the workers (work under way is dropped) and wait until they are gone."""
        executor, self._executor = self._executor, None
        if executor is None:
            return
        if not self._owned:
            executor.shutdown(wait=False, cancel_futures=True)
            return
        processes = list(getattr(executor, "_processes", {}).values())
        executor.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.terminate()
        for process in processes:
            process.join(5.0)


def _behind_the_server(server: int) -> None:
    """A worker yields the cores to the server's event loop and ends when the server does."""
    with contextlib.suppress(OSError):
        os.nice(10)
    end_with(server)
