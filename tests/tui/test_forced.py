"""Questions with one answer: the engine keeps asking, a person's client answers
a one-answer question by itself (host/forced.py) and says so in the log."""

from __future__ import annotations

import cardtable
from cardtable.games.trex.actions import DONE, KEEP
from cardtable.host.forced import answered_line, forced_action
from cardtable.tui.app import TableApp
from cardtable.tui.dialogs import SummaryScreen
from cardtable.tui.seats import parse_seats
from cardtable.tui.session import Session

from .util import ready, screen, settle, sync


def log_text(app: TableApp) -> str:
    return "\n".join(strip.text for strip in screen(app).log_widget.lines)


def test_tx_13_the_engine_still_asks_a_seat_that_may_not_redeal():
    state = cardtable.load("trex").new_state(seed=2)
    view = state.view(state.current_player())
    assert [str(a) for a in view.legal_actions] == ["keep"]
    assert str(forced_action("trex", view)) == "keep"
    state = cardtable.load("trex").new_state(seed=1)  # seat 0 may show its hand: a real question
    assert forced_action("trex", state.view(0)) is None
    assert forced_action("trex", state.view(None)) is None  # a spectator answers nothing


def test_forced_single_actions_of_trash_but_drawing_stays_a_key_press():
    state = cardtable.load("trash").new_state(seed=1)
    view = state.view(state.current_player())
    assert [str(a) for a in view.legal_actions] == ["stock"] and forced_action("trash", view) is None
    assert answered_line("keep your hand", "es").startswith("solo hay una respuesta: keep your hand")


@sync
async def test_tx_13_tx_15_one_answer_questions_are_answered_for_you_and_logged():
    """Seed 11: nobody may force a redeal; seat 0 is asked "keep" only and the app answers it."""
    game = cardtable.load("trex")
    s = Session.start(game, parse_seats("human,hard,hard,hard", "trex"), seed=11, bot_seed=1)
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=(110, 34)) as pilot:
        await settle(pilot, lambda: s.view(0).phase not in ("redeal",) and ready(app)())
        history = [str(a) for a in s.match.state.history]
        assert history[:4] == ["keep"] * 4  # every seat was asked, seat 0 included
        assert "only one answer: keep" in log_text(app)
        assert s.view(0).phase != "redeal"
        # Run on: whenever seat 0's answer is forced (done with nothing to double, a lone card),
        # the app gives it without waiting for a key.
        for _ in range(12):
            await settle(pilot, lambda: ready(app)() or isinstance(app.screen, SummaryScreen))
            if isinstance(app.screen, SummaryScreen):  # the end of a deal: read, go on
                await pilot.press("enter")
                continue
            view = s.view(0)
            assert screen(app).awaiting == 0 and len(view.legal_actions) > 1  # only real questions
            legal = view.legal_actions
            pick = next((a for a in legal if a.kind in (KEEP, DONE)), legal[0])
            before = len(s.match.state.history)
            screen(app).act(pick)
            await settle(pilot, lambda: len(s.match.state.history) > before)  # noqa: B023
