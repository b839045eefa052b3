"""The server's collection policy (``server/collector.py``): long-lived objects are frozen out of the
collections that pause the event loop (LD1), and a cycle that dies after it was frozen is still
freed at the next sweep, so memory does not grow with the tables that came and went (LD2)."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator

import pytest

from cardtable.server.collector import Collector


class Node:
    """One half of a reference cycle, the shape a dropped table's parts can have."""

    other: Node | None = None


def a_cycle() -> weakref.ref[Node]:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


@pytest.fixture
def policy() -> Iterator[Collector]:
    collector = Collector(young=5000, freeze_every=10.0, sweep_every=600.0)
    thresholds = gc.get_threshold()
    yield collector
    collector.uninstall()
    assert gc.get_threshold() == thresholds and gc.get_freeze_count() == 0


def test_ld1_young_objects_are_collected_less_often_while_installed(policy: Collector):
    middle, old = gc.get_threshold()[1:]
    policy.install(now=0.0)
    assert gc.get_threshold() == (5000, middle, old)


def test_ld1_installing_freezes_the_heap_without_collecting_it_and_the_first_sweep_frees_its_cycles(
        policy: Collector):
    gc.disable()  # no collection of the young objects between the cycle and the install
    try:
        cycle = a_cycle()
        policy.install(now=0.0)
    finally:
        gc.enable()
    assert cycle() is not None and gc.get_freeze_count() > 0
    policy.tick(now=600.0)
    assert cycle() is None


def test_ld1_what_lives_at_a_tick_leaves_the_collections(policy: Collector):
    policy.install(now=0.0)
    cycle = a_cycle()
    policy.tick(now=10.0)
    assert gc.get_freeze_count() > 0
    gc.collect()  # the cycle is garbage, but frozen: no collection looks at it
    assert cycle() is not None


def test_ld2_a_cycle_that_died_frozen_is_freed_at_the_next_sweep(policy: Collector):
    policy.install(now=0.0)
    cycle = a_cycle()
    policy.tick(now=10.0)
    policy.tick(now=599.0)  # not yet a sweep
    assert cycle() is not None and policy.sweeps == 0
    policy.tick(now=600.0)
    assert cycle() is None and policy.sweeps == 1
    assert gc.get_freeze_count() > 0  # what is alive is frozen again


def test_ld2_the_running_policy_sweeps_on_the_clock_and_undoes_itself_when_cancelled():
    thresholds = gc.get_threshold()
    collector = Collector(young=4000, freeze_every=0.001, sweep_every=0.0)

    async def run() -> None:
        task = asyncio.get_running_loop().create_task(collector.run())
        for _ in range(10_000):  # bounded: a few ticks are enough
            await asyncio.sleep(0.001)
            if collector.sweeps >= 2:
                break
        assert collector.sweeps >= 2 and gc.get_threshold()[0] == 4000
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(run())
    assert gc.get_threshold() == thresholds and gc.get_freeze_count() == 0
