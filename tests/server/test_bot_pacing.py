"""On the server, a bot's move is released a drawn delay after the bot was
asked, not ``bot_delay`` plus its thinking time (which told the table how many moves it had)."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Iterator

import pytest

from cardtable.host.pacing import bot_pacing
from cardtable.server.client import GameClient

from .netserver import Server

DELAY = 1.0


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("pacing") / "server.sqlite3", "--bot-delay", str(DELAY)).start()
    yield srv
    srv.stop()


def test_h_bot_timing_a_bots_reply_comes_a_drawn_delay_after_the_move_before_it(server: Server):
    pacing = bot_pacing(object(), DELAY)
    assert pacing is not None

    async def main() -> list[float]:
        waits: list[float] = []
        rng = random.Random(3)
        while len(waits) < 10:  # a table's deal is random and may end early: another table then
            table_id, tokens = server.table({1: "sensible"}, players=2, max_hands=2)
            async with GameClient(server.ws, table_id, tokens[0]) as me:
                while len(waits) < 14:
                    await me.wait_turn()
                    if me.over():
                        break
                    assert me.view is not None
                    # timed from before the move: the server asks the bot only once it has the move,
                    # so however slow the machine, a reply never comes sooner than this says
                    asked = time.monotonic()
                    await me.act(rng.choice(me.view["legal_actions"]))
                    if me.view["current_player"] != 1:
                        continue
                    version = me.version
                    await me.until(lambda f, v=version: f["type"] == "state" and f["version"] > v)  # type: ignore[misc]
                    waits.append(time.monotonic() - asked)
        return waits

    waits = asyncio.run(asyncio.wait_for(main(), 120))
    assert len(waits) >= 10
    waits = waits[1:]  # the server's bot workers may still be starting at the first move (a busy machine)
    # Every reply waits at least the pacing's floor, and the drawn part spreads them: without
    # pacing every reply came bot_delay plus the (tiny, move-dependent) thinking time after it.
    # (A loaded machine only adds to a wait: the upper bounds leave it 2 s, and the spread is seen
    # as one reply of nine in the lower 80% of the drawn range.)
    assert min(waits) >= pacing.floor - 0.01, waits
    assert max(waits) < pacing.floor + pacing.spread + 2.0, waits
    assert sum(w < pacing.floor + 0.8 * pacing.spread for w in waits) >= 1, waits
