"""The terminal replay's review pane (docs/review.md) (``r``), computed off the UI thread;
a decision chosen in it moves the replay to that step."""

from __future__ import annotations

import threading
from dataclasses import replace

import cardtable
import cardtable.tui.replay as replay
from cardtable.bots import make_bot
from cardtable.host.match import play_out
from cardtable.records.record import record_of
from cardtable.tui.replay import ReplayApp, ReplayScreen, ReviewScreen

from .util import settle, sync


def _record():  # type: ignore[no-untyped-def]
    game = cardtable.load("trash", max_hands=1)
    end = play_out(game, [make_bot("trash", "random"), make_bot("trash", "hard")], seed=2)  # one costly choice
    return record_of(end)


@sync
async def test_the_replay_review_lists_the_costliest_decisions_and_jumps_to_one(monkeypatch):
    threads: list[str] = []
    compute = replay.review

    def watched(*args, **kwargs):  # type: ignore[no-untyped-def]
        threads.append(threading.current_thread().name)
        return compute(*args, **kwargs)

    monkeypatch.setattr(replay, "review", watched)
    record = _record()
    app = ReplayApp(record, 0, pace=0)
    async with app.run_test(size=(110, 34)) as pilot:
        await pilot.pause()
        main = app.screen
        assert isinstance(main, ReplayScreen)
        await pilot.press("r")
        await settle(pilot, lambda: isinstance(app.screen, ReviewScreen))
        pane = app.screen
        assert isinstance(pane, ReviewScreen)
        await settle(pilot, lambda: pane.review is not None, limit=20_000)
        assert threads and threads[0] != threading.main_thread().name  # a worker thread, not the UI's
        assert pane.review is not None and pane.review.seat == 0 and pane.review.worlds == replay.REVIEW_WORLDS
        steps = pane.costliest
        assert steps, "a random player makes costly decisions"
        text = str(pane.query_one("#review-text").render())
        assert "1. " in text and f"step {steps[0]} " in text
        await pilot.press("1")
        await settle(pilot, lambda: app.screen is main)
        assert main.index == steps[0] - 1  # the position the decision was made in
        _, view = main.steps[main.index + 1]
        assert view.seat == 0  # still only seat 0's views
        await pilot.press("r")  # the second time the review is there at once
        await settle(pilot, lambda: isinstance(app.screen, ReviewScreen) and app.screen.review is not None)
        assert len(threads) == 1
        await pilot.press("escape")
        await settle(pilot, lambda: app.screen is main)


@sync
async def test_the_review_of_a_game_not_over_judges_from_the_seats_views_only(monkeypatch):
    """H-threats for the review: a saved game still to be played on is reviewed from the seat's
    views alone, never with all cards known (which would tell the hands it may yet play against);
    a finished game's review adds that judgement."""
    asked: list[bool] = []
    compute = replay.review

    def watched(*args, **kwargs):  # type: ignore[no-untyped-def]
        asked.append(kwargs["hindsight"])
        return compute(*args, **kwargs)

    monkeypatch.setattr(replay, "review", watched)
    done = _record()
    unfinished = replace(done, actions=done.actions[:len(done.actions) // 2], result=None)
    for record, over in ((unfinished, False), (done, True)):
        app = ReplayApp(record, 0, pace=0)
        async with app.run_test(size=(110, 34)) as pilot:
            review = (await _reviewed(app, pilot)).review
        assert asked[-1] is over and review is not None
        assert any(d.hindsight for d in review.decisions) is (over and bool(review.decisions))


async def _reviewed(app: ReplayApp, pilot, limit: int = 20_000) -> ReviewScreen:  # type: ignore[no-untyped-def]
    """The review pane ``r`` opens in the replay ``app``, once its review is computed."""
    await pilot.pause()
    await pilot.press("r")
    await settle(pilot, lambda: isinstance(app.screen, ReviewScreen) and app.screen.review is not None, limit=limit)
    pane = app.screen
    assert isinstance(pane, ReviewScreen)
    return pane


@sync
async def test_a_spectators_replay_asks_for_a_seat_to_review():
    app = ReplayApp(_record(), None, pace=0)
    async with app.run_test(size=(110, 34)) as pilot:
        await pilot.pause()
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)
        assert "--seat" in str(app.screen.query_one("#status").render())


@sync
async def test_a_finished_trex_games_review_lists_its_costliest_decisions_and_contracts():
    """The review of a finished Trex game in the terminal replay, with the
    best move once all cards are known and every contract choice with its value."""
    game = cardtable.load("trex", complex_mode=True)
    record = record_of(play_out(game, [make_bot("trex", "random") for _ in range(4)], seed=5))
    app = ReplayApp(record, 1, pace=0)
    async with app.run_test(size=(140, 40)) as pilot:
        pane = await _reviewed(app, pilot, limit=60_000)
        assert pane.review is not None
        assert pane.costliest and pane.review.contract_choices()
        text = str(pane.query_one("#review-text").render())
        assert f"step {pane.costliest[0]} " in text
        assert "with all cards known" in text, text[:800]
        assert "Contract choices" in text


@sync
async def test_the_replay_log_is_the_game_up_to_the_step_shown_not_the_steps_visited():
    record = _record()
    app = ReplayApp(record, 0, pace=0)
    async with app.run_test(size=(110, 34)) as pilot:
        await pilot.pause()
        main = app.screen
        assert isinstance(main, ReplayScreen)

        def numbers() -> list[int]:
            log = main.query_one("#log")
            return [int(t.plain.split(".")[0]) for t in log.source if t.plain[:1].isdigit()]

        assert numbers() == [0]
        await pilot.press("right", "right")
        assert numbers() == [0, 1, 2]
        await pilot.press("end")
        last = len(main.steps) - 1
        assert numbers() == list(range(last + 1))
        await pilot.press("left")
        assert numbers() == list(range(last))
        await pilot.press("home")
        assert numbers() == [0]
        await pilot.press("right")
        assert numbers() == [0, 1]
