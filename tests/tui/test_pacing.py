"""Issue #17 item 6 in the terminal: a bot's move shows a drawn delay after the bot was asked,
whatever it held and however many moves it had (host/pacing.py)."""

from __future__ import annotations

import time

import cardtable
from cardtable.tui.app import TableApp
from cardtable.tui.seats import parse_seats
from cardtable.tui.session import Session

from .util import screen, settle, sync

DELAY = 0.12


@sync
async def test_issue_17_a_bots_move_is_released_a_drawn_delay_after_it_was_asked_single_legal_or_not():
    game = cardtable.load("trex")
    s = Session.start(game, parse_seats("hard,hard,hard,hard", "trex"), seed=3, bot_seed=2)
    asked: dict[int, tuple[float, int]] = {}
    released: list[tuple[float, int]] = []  # (release - asked, number of legal moves)
    play = s.play_bot

    def timed_play(seat, action, display):  # type: ignore[no-untyped-def]
        start, legal = asked.pop(seat)
        released.append((time.monotonic() - start, legal))
        return play(seat, action, display)

    s.play_bot = timed_play  # type: ignore[method-assign]
    app = TableApp(s, pace=0, bot_delay=DELAY)
    async with app.run_test(size=(110, 34)) as pilot:
        table = screen(app)
        think = table._think

        def timed_think(seat: int) -> None:  # the moment the screen asks the bot
            asked[seat] = (time.monotonic(), len(s.match.view(seat).legal_actions))
            think(seat)

        table._think = timed_think  # type: ignore[method-assign]
        await settle(pilot, lambda: len(released) >= 40 or s.is_over, limit=100_000)
        pacing = screen(app).pacing(0)
    assert pacing is not None
    single = [d for d, n in released if n == 1]
    many = [d for d, n in released if n > 1]
    assert single and many, "the game had both single-move and many-move decisions"
    # Every move, forced or not, is held at least the pacing's floor after it was asked: the
    # rule-based bot answers in milliseconds, so without pacing a single legal card would show
    # at once and the others a little later.
    assert min(single) >= pacing.floor and min(many) >= pacing.floor
    assert max(single + many) < pacing.floor + pacing.spread + 0.5  # + scheduling slack
