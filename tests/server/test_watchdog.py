"""The event loop's watchdog (``server/watchdog.py``): a loop held past the threshold is reported
once, with the stack where it stood; a loop that keeps beating is not (LD10)."""

from __future__ import annotations

import asyncio
import io
import time

from cardtable.server.watchdog import Watchdog


def hold_the_loop(seconds: float) -> None:
    """A synchronous call on the loop, as a blocking database call would be."""
    time.sleep(seconds)


def reports_in(text: str, where: str) -> int:
    return sum(1 for report in text.split("cardtable serve: the event loop stood still")[1:] if where in report)


def test_ld10_a_held_loop_is_reported_once_with_where_it_stood():
    out = io.StringIO()
    dog = Watchdog(stall=0.2, out=out)

    async def main() -> None:
        task = asyncio.get_running_loop().create_task(dog.run())
        await asyncio.sleep(0)
        for _ in range(400):  # bounded: held until the watchdog's thread has written the stall
            hold_the_loop(0.05)
            if reports_in(out.getvalue(), ", in hold_the_loop"):
                break
        hold_the_loop(0.3)  # still the same stall: not written again
        await asyncio.sleep(0.05)
        task.cancel()

    asyncio.run(main())
    text = out.getvalue()
    assert text.startswith("cardtable serve: the event loop stood still for ")
    assert reports_in(text, ", in hold_the_loop") == 1


def test_ld10_a_loop_that_keeps_beating_is_never_reported():
    out = io.StringIO()
    dog = Watchdog(stall=5.0, out=out)  # far above any pause a loaded machine gives a process

    async def main() -> None:
        task = asyncio.get_running_loop().create_task(dog.run())
        for _ in range(20):
            await asyncio.sleep(0.02)
        task.cancel()

    asyncio.run(main())
    assert dog.reports == 0 and out.getvalue() == ""
