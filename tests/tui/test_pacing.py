"""In the terminal, a bot's move shows a drawn delay after the bot was asked, whatever it
held and however many moves it had (host/pacing.py); ``--pace 0`` (no bot delay) waits not at all."""

from __future__ import annotations

import time

import pytest

import cardtable
from cardtable.cli import main as cli_main
from cardtable.cli.main import main
from cardtable.host.pacing import Pacing
from cardtable.tui.app import TableApp
from cardtable.tui.seats import parse_seats
from cardtable.tui.session import Session
from cardtable.tui.turn_screen import TurnScreen

from .util import screen, settle, sync

DELAY = 0.2


def _timed(monkeypatch: pytest.MonkeyPatch, s: Session) -> list[tuple[float, int]]:
    """(seconds from asking the bot to showing its move, its number of legal moves), move by move
    (installed before the app starts: its first bot is asked as it mounts)."""
    asked: dict[int, tuple[float, int]] = {}
    released: list[tuple[float, int]] = []
    play = s.play_bot

    def timed_play(seat, action, display):  # type: ignore[no-untyped-def]
        start, legal = asked.pop(seat)
        released.append((time.monotonic() - start, legal))
        return play(seat, action, display)

    s.play_bot = timed_play  # type: ignore[method-assign]
    think = TurnScreen._think

    def timed_think(self: TurnScreen, seat: int) -> None:  # the moment the screen asks the bot
        asked[seat] = (time.monotonic(), len(s.match.view(seat).legal_actions))
        think(self, seat)

    monkeypatch.setattr(TurnScreen, "_think", timed_think)
    return released


@sync
async def test_a_bots_move_is_released_a_drawn_delay_after_it_was_asked_single_legal_or_not(monkeypatch):
    game = cardtable.load("trex")
    s = Session.start(game, parse_seats("hard,hard,hard,hard", "trex"), seed=3, bot_seed=2)
    released = _timed(monkeypatch, s)
    app = TableApp(s, pace=0, bot_delay=DELAY)
    async with app.run_test(size=(110, 34)) as pilot:
        await settle(pilot, lambda: len(released) >= 30 or s.is_over, limit=50_000)
        pacing = screen(app).pacing(0)
    assert pacing is not None and pacing.floor == pytest.approx(DELAY / 2)
    single = [d for d, n in released if n == 1]
    many = [d for d, n in released if n > 1]
    assert single and many, "the game had both single-move and many-move decisions"
    # Every move, forced or not, is held at least the pacing's floor after it was asked: the
    # rule-based bot answers in milliseconds, so without pacing a single legal card would show
    # at once and the others a little later.
    assert min(single) >= pacing.floor and min(many) >= pacing.floor


@sync
async def test_no_bot_delay_means_no_pacing_wait_at_all(monkeypatch):
    def never(*args: object) -> float:
        raise AssertionError("a table without a bot delay waited for a pacing")

    monkeypatch.setattr(Pacing, "wait", never)
    game = cardtable.load("trex")
    s = Session.start(game, parse_seats("hard,hard,hard,hard", "trex"), seed=3, bot_seed=2)
    released = _timed(monkeypatch, s)
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=(110, 34)) as pilot:
        await settle(pilot, lambda: len(released) >= 30 or s.is_over, limit=20_000)
        assert all(screen(app).pacing(seat) is None for seat in range(4))
    assert len(released) >= 30


def test_pace_0_on_the_command_line_is_a_table_without_bot_delay(monkeypatch):
    import cardtable.tui.launch as launch

    seen: dict[str, object] = {}

    def fake_run(session, **kwargs):  # type: ignore[no-untyped-def]
        seen.update(kwargs)
        return 0

    monkeypatch.setattr(launch, "run_play", fake_run)
    monkeypatch.setattr(cli_main, "_terminal", lambda: True)
    assert main(["play", "trex", "--seed", "1", "--pace", "0"]) == 0
    assert seen["bot_delay"] == 0 and seen["pace"] == 0
