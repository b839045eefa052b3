"""Where a server's bot thinks (H, bot timing): a search's thinking time tells whether it had a
choice (a forced move is answered at once), so a search never thinks on the event loop, whose
stalls every socket of the server feels: with the bot pool it always goes to the pool, without
one it thinks in a thread. A rule-based bot, quick whatever it holds, may think on the loop."""

from __future__ import annotations

import asyncio
import random
import threading
from types import SimpleNamespace
from typing import Any

from cardtable.bots import make_bot
from cardtable.bots.base import adapt
from cardtable.server.actor import QUICK_RUN, Actor
from cardtable.server.botpool import searches


class QuickPool:
    """A bot pool whose every think takes no time: what it was asked."""

    def __init__(self) -> None:
        self.asked = 0

    async def think(self, owner: str, bot: Any, view: Any, rng: random.Random) -> tuple[Any, Any, Any, float]:
        self.asked += 1
        return bot.act(view, rng), bot, rng, 0.0


def moves(bot: Any, pool: Any, n: int) -> list[int]:
    """``n`` moves of ``bot`` through :meth:`Actor._move`; the thread each ``act`` ran in, and the
    loop's thread last."""
    import cardtable

    state = cardtable.load("trex").new_state(seed=4)
    seat = state.current_player()
    threads: list[int] = []
    inner = bot.act

    def act(view: Any, rng: random.Random, *args: Any, **kwargs: Any) -> Any:
        threads.append(threading.get_ident())
        return inner(view, rng, *args, **kwargs)

    bot.act = act
    actor = SimpleNamespace(pool=pool, _quick={}, _owner=lambda: "owner")

    async def main() -> None:
        for _ in range(n):
            await Actor._move(actor, seat, bot, state.view(seat), random.Random(1))  # type: ignore[arg-type]
        threads.append(threading.get_ident())

    asyncio.run(main())
    return threads


def test_h_bot_timing_a_search_is_told_from_a_rule_bot():
    assert searches(adapt(make_bot("trex", "expert")))
    assert not searches(adapt(make_bot("trex", "hard")))
    assert not searches(adapt(make_bot("trash", "random")))


def test_h_bot_timing_a_quick_search_still_thinks_in_the_pool_and_a_quick_rule_bot_on_the_loop():
    for level, asked in (("expert", QUICK_RUN + 3), ("hard", QUICK_RUN)):
        pool = QuickPool()
        threads = moves(adapt(make_bot("trex", level)), pool, QUICK_RUN + 3)
        assert pool.asked == asked, level
        if level == "hard":  # the last three on the loop itself
            assert threads[-4:-1] == [threads[-1]] * 3


def test_h_bot_timing_without_a_pool_a_bot_thinks_beside_the_loop():
    threads = moves(adapt(make_bot("trex", "expert")), None, 2)
    assert threads[-1] not in threads[:-1]
