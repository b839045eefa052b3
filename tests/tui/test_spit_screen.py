"""Spit in the Textual app: the real-time screen on a virtual clock, driven by its pilot.

The app's interval timer is set to a rate that never fires during a test (``hz``), so the
host moves only when a test advances the clock and calls ``pump()``, or a key is pressed:
every run is the same."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pexpect
import pytest

import cardtable
from cardtable.core.cards import Card
from cardtable.core.errors import ConfigError
from cardtable.games.spit.actions import A_TIMER_SPIT, FILL, PLAY, SLAP, SPIT, SpitAction
from cardtable.games.spit.state import adjacent
from cardtable.games.spit.view import SpitView
from cardtable.host.clock import VirtualClock
from cardtable.records import Record
from cardtable.tui.app import TableApp
from cardtable.tui.dialogs import HelpScreen
from cardtable.tui.games.spit import SpitTable
from cardtable.tui.realtime_screen import RealtimeScreen
from cardtable.tui.seats import parse_seats
from cardtable.tui.session import Session

from .util import result_shown, settle, sync

SIZE = (110, 34)
NEVER = 1e-4
"""An interval-timer rate (per second) that never fires within a test."""


def spit_session(seed: int = 3, bot: str = "beginner", **options: object) -> tuple[Session, VirtualClock]:
    clock = VirtualClock()
    game = cardtable.load("spit", **options)
    return Session.start(game, parse_seats(f"human,{bot}", "spit"), seed=seed, bot_seed=1, clock=clock), clock


def rt(app: TableApp) -> RealtimeScreen:
    scr = app.table_screen
    assert isinstance(scr, RealtimeScreen)
    return scr


def drawn(app: TableApp) -> SpitView:
    view = rt(app).table.current
    assert isinstance(view, SpitView)
    return view


def table_text(app: TableApp) -> str:
    """Everything the Spit table shows, as text (the event log aside)."""
    table = rt(app).query_one(SpitTable)
    return "\n".join(str(w.render()) for w in table.query("Static"))


def face(card: Card) -> str:
    return f"{card.rank.label}{card.suit.symbol}"


def hidden_faces(session: Session) -> list[str]:
    """The faces of every spit card and face-down stock card now."""
    state = session.match.state
    out = []
    for p in (0, 1):
        out += [face(Card.from_id(c)) for c in state.spitcards[p]]  # type: ignore[attr-defined]
        for pile, up in zip(state.stock[p], state.up[p], strict=True):  # type: ignore[attr-defined]
            out += [face(Card.from_id(c)) for c in pile[:len(pile) - up]]
    return out


def human_keys(view: SpitView) -> list[str]:
    """What a quick human presses for ``view`` (nothing: wait)."""
    legal = [a for a in view.legal_actions if isinstance(a, SpitAction)]
    side = ("left", "right")
    if view.phase == "slap":
        slaps = [a for a in legal if a.kind == SLAP]
        if slaps:
            best = min(slaps, key=lambda a: view.spit_sizes[a.target])
            return [side[best.target]]
        return []
    for a in legal:
        if a.kind == PLAY:
            return [str(a.pile), side[a.target]]
    for a in legal:
        if a.kind == FILL:
            return [str(a.pile), str(a.target)]
    if any(a.kind == SPIT for a in legal):
        return ["space"]
    return []


@sync
async def test_a_round_against_the_bot_by_key_presses_play_spit_and_slap():
    s, clock = spit_session(seed=3, max_rounds=1)
    app = TableApp(s, hz=NEVER)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        scr = rt(app)
        assert "beginner" in str(scr.query_one("#title").render())
        assert "round 1" in str(scr.query_one("#title").render())
        assert len(hidden_faces(s)) == 40  # 10 spit cards and 10 face-down stock cards a seat
        pressed: list[str] = []
        for _ in range(3000):
            if s.is_over:
                break
            view = drawn(app)
            assert view == s.view(0)  # the screen shows the state as it is, from seat 0
            text = table_text(app) + "\n".join(str(line.text) for line in scr.query_one("#log").lines)
            for hidden in hidden_faces(s):  # (one round: no card shown in the log has gone back into hiding)
                assert hidden not in text, hidden
            keys = human_keys(view)
            for key in keys:
                await pilot.press(key)
            pressed += keys
            clock.advance(0.05 if keys else 0.25)
            scr.pump()
            await pilot.pause()
        assert s.is_over
        await settle(pilot, result_shown(app))
        state = s.match.state
        log = scr.host.log
        mine = [a for a in log if a.seat == 0 and a.accepted]
        kinds = {a.action.kind for a in mine}  # type: ignore[attr-defined]
        assert {PLAY, SPIT, SLAP} <= kinds, kinds
        assert A_TIMER_SPIT in state.history or any(
            a.seat == 1 and a.accepted and a.action.kind == SPIT for a in log  # type: ignore[attr-defined]
        )  # a spit when blocked
        assert any(a.seat == 1 and a.accepted and a.action.kind == PLAY for a in log)  # type: ignore[attr-defined]
        assert {"left", "right"} & set(pressed) and "space" in pressed
        outcome = state.outcome()
        assert outcome is not None and outcome.reason == "SP-26"
        result = str(app.screen.query_one("#result").render())
        assert "cards left" in result
        await pilot.press("q")


@sync
async def test_a_late_play_shows_the_note_and_changes_nothing():
    s, clock = spit_session(seed=5, bot="expert")
    app = TableApp(s, hz=NEVER)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        scr = rt(app)
        race: tuple[SpitAction, SpitAction] | None = None
        for _ in range(400):  # wait until both seats can play onto one pile, and the bot's card beats mine
            view = drawn(app)
            state = s.match.state
            mine = [a for a in view.legal_actions if isinstance(a, SpitAction) and a.kind == PLAY]
            theirs = [a for a in state.legal_actions(1) if a.kind == PLAY]  # type: ignore[attr-defined]
            race = next(((m, t) for m in mine for t in theirs
                         if m.target == t.target and not adjacent(m.card, t.card)), None)
            if race is not None:
                break
            for key in human_keys(view) if not mine else []:
                await pilot.press(key)
            clock.advance(0.05)
            scr.pump()
            await pilot.pause()
        assert race is not None
        me, bot = race
        before = drawn(app)
        history = len(s.match.state.history)
        await pilot.press(str(me.pile))
        scr.host.submit(bot, order=0)  # the bot's card arrives first, at the same instant
        await pilot.press("left" if me.target == 0 else "right")
        await pilot.pause()
        assert "Too late" in str(scr.query_one("#spit-note").render())
        assert s.match.state.history[history:] == [bot]  # only the bot's card went down
        after = drawn(app)
        assert after.stock[0] == before.stock[0] and after.cards_held[0] == before.cards_held[0]
        last = [a for a in scr.host.log if a.seat == 0][-1]
        assert not last.accepted and last.action == me


@sync
async def test_the_mouse_plays_a_chosen_pile_and_a_wrong_key_only_says_so():
    s, clock = spit_session(seed=3)
    app = TableApp(s, hz=NEVER)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        scr = rt(app)
        for _ in range(200):
            view = drawn(app)
            plays = [a for a in view.legal_actions if isinstance(a, SpitAction) and a.kind == PLAY]
            if plays:
                break
            clock.advance(0.25)
            scr.pump()
            await pilot.pause()
        play = plays[0]
        await pilot.click(f"#stock-0-{play.pile}")
        assert scr.query_one(f"#stock-0-{play.pile}").has_class("-selected")
        await pilot.click(f"#spitpile-{play.target}")
        await pilot.pause()
        assert s.match.state.history[-1] == play
        assert drawn(app).spit_tops[play.target] == play.card_value
        count = len(s.match.state.history)
        await pilot.press("c")  # nobody may choose a pile now: a note, no action
        await pilot.pause()
        assert "cannot choose" in str(scr.query_one("#spit-note").render())
        assert len(s.match.state.history) == count


@sync
async def test_help_pauses_the_race_and_the_clock_goes_on_after_it():
    s, clock = spit_session(seed=3, bot="expert")
    app = TableApp(s, hz=NEVER)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        scr = rt(app)
        count = len(s.match.state.history)
        await pilot.press("question_mark")
        await settle(pilot, lambda: isinstance(app.screen, HelpScreen))
        assert "1 … 5" in app.screen.text and "spit_delay" in app.screen.text
        clock.advance(30.0)  # the expert would have played several cards by now
        scr.pump()
        assert len(s.match.state.history) == count and s.clock is not None and s.clock.now() == 0.0
        await pilot.press("escape")
        await settle(pilot, lambda: app.screen is scr)
        clock.advance(30.0)
        scr.pump()
        assert len(s.match.state.history) > count


def test_play_spit_in_a_terminal_is_the_app_and_plain_is_the_raw_screen(monkeypatch):
    import cardtable.cli.spit_play as spit_play
    import cardtable.tui.launch as launch
    from cardtable.cli import main as cli_main

    seen: dict[str, object] = {}
    monkeypatch.setattr(launch, "run_play", lambda session, **kw: seen.setdefault("app", session) and 0)
    monkeypatch.setattr(spit_play, "play_spit", lambda game, **kw: seen.setdefault("plain", kw) and 0)
    monkeypatch.setattr(cli_main, "_terminal", lambda: True)
    assert cli_main.main(["play", "spit", "--seed", "2", "--bot", "easy", "--lang", "en"]) == 0
    session = seen["app"]
    assert isinstance(session, Session) and session.realtime and [str(x) for x in session.seats] == ["human", "easy"]
    assert "plain" not in seen
    assert cli_main.main(["play", "spit", "--plain", "--seed", "2", "--bot", "easy"]) == 0
    assert seen["plain"]["level"] == "easy"  # type: ignore[index]


def test_a_real_time_game_has_one_human_seat_at_most():
    with pytest.raises(ConfigError, match="one human seat"):
        Session.start(cardtable.load("spit"), parse_seats("human,human", "spit"), seed=1)
    s, _ = spit_session()
    assert s.realtime and not Session.start(cardtable.load("trash"), parse_seats("human,stock", "trash")).realtime


def _exe() -> str | None:
    found = shutil.which("cardtable")
    local = Path(sys.executable).with_name("cardtable")
    return found or (str(local) if local.exists() else None)


@pytest.mark.skipif(_exe() is None, reason="the cardtable command is not installed")
@pytest.mark.flaky(reruns=1)  # as the Trash app's twin in test_cli_tui.py: a cold start on a loaded machine
def test_the_command_plays_spit_in_the_app_on_the_system_clock():
    exe = _exe()
    assert exe is not None
    env = {**os.environ, "TERM": "xterm-256color", "LANG": "C.UTF-8"}
    child = pexpect.spawn(exe, ["play", "spit", "--seed", "3", "--bot", "expert", "--lang", "en"],
                          encoding="utf-8", timeout=120, env=env, dimensions=(34, 110))  # 120 s: as the twin's STEP
    try:
        child.expect(r"Spit: ready\?")  # the race waits for the player
        child.send("\r")
        child.expect(r"(seat 1|Ben) (plays|moves|asks)")  # the bot plays by itself, in real time
        child.send("q")
        child.expect("Quit without saving")
        child.send("q")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0


@sync
async def test_hint_save_and_resume_a_spit_game_in_the_app(tmp_path):
    s, clock = spit_session(seed=3)
    s.save_path = tmp_path / "spit.json"
    app = TableApp(s, hz=NEVER)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        scr = rt(app)
        for _ in range(40):
            for key in human_keys(drawn(app)):
                await pilot.press(key)
            clock.advance(0.25)
            scr.pump()
            await pilot.pause()
        await pilot.press("h")
        await pilot.pause()
        assert s.view(0).legal_actions  # (a spit request can always be made or withdrawn here)
        assert "Hint (hard): " in str(scr.query_one("#status").render())
        await pilot.press("s")
        await pilot.pause()
        assert "Saved to" in str(scr.query_one("#status").render())
        view = s.view(0)
    again = Session.resume(Record.load(tmp_path / "spit.json"), parse_seats("human,beginner", "spit"), bot_seed=1)
    assert again.realtime and again.view(0) == view
    app = TableApp(again, hz=NEVER)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert drawn(app) == view


@sync
async def test_a_slap_with_the_mouse():
    s, clock = spit_session(seed=3, max_rounds=1)
    app = TableApp(s, hz=NEVER)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        scr = rt(app)
        for _ in range(3000):
            view = drawn(app)
            if s.is_over or view.phase == "slap":
                break
            keys = human_keys(view)
            for key in keys:
                await pilot.press(key)
            clock.advance(0.05 if keys else 0.25)
            scr.pump()
            await pilot.pause()
        assert drawn(app).phase == "slap" and scr.query_one("#spitpile-0").has_class("-slap")
        await pilot.click("#spitpile-1")
        await pilot.pause()
        slap = s.match.state.history[-1]
        assert isinstance(slap, SpitAction) and (slap.kind, slap.seat, slap.target) == (SLAP, 0, 1)
        await settle(pilot, result_shown(app))


@sync
async def test_spit_waits_behind_a_ready_step_and_counts_down():
    """The race does not start when the app opens: the clock stands still until Enter and 3, 2, 1."""
    from cardtable.tui.dialogs import ReadyScreen

    s, clock = spit_session(seed=3, bot="expert")
    app = TableApp(s, hz=NEVER, ready=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, lambda: isinstance(app.screen, ReadyScreen))
        scr = rt(app)
        count = len(s.match.state.history)
        assert "Spit: ready?" in str(app.screen.query_one("#ready").render())
        clock.advance(30.0)  # the expert would have spat and played by now
        scr.pump()
        assert len(s.match.state.history) == count and s.clock is not None and s.clock.now() == 0.0
        app.screen.step = 0.01
        await pilot.press("enter")
        await settle(pilot, lambda: app.screen is scr)
        clock.advance(30.0)
        scr.pump()
        assert len(s.match.state.history) > count


@sync
async def test_each_spit_card_stack_is_on_its_owners_side_with_its_count_at_the_end():
    """The seat on screen's spit cards are counted on its own line at the bottom, the other seat's on
    the top line by its name; at the end of a won game both counts are the state's."""
    s, clock = spit_session(seed=3, max_rounds=1)  # one round, won by the cards left (SP-26)
    app = TableApp(s, hz=NEVER)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        scr = rt(app)
        for _ in range(20000):
            if s.is_over:
                break
            keys = human_keys(drawn(app))
            for key in keys:
                await pilot.press(key)
            clock.advance(0.05 if keys else 0.25)
            scr.pump()
            await pilot.pause()
        assert s.is_over
        await pilot.pause()
        bottom = str(scr.table.query_one("#spit-title-0").render())
        top = str(scr.table.query_one("#spit-title-1").render())
        mine, theirs = (len(p) for p in s.match.state.spitcards)  # type: ignore[attr-defined]
        held = drawn(app).cards_held
        assert s.match.state.outcome() is not None
    assert bottom.startswith("you") and f"spit cards: {mine} " in bottom
    assert top.startswith("Ben") and f"spit cards: {theirs} " in top
    assert f"· {held[0]} cards left" in bottom and f"· {held[1]} cards left" in top and held[0] != held[1]


def test_the_spit_title_names_the_bot_by_its_level_in_the_players_language():
    """The title's "bot: …" is the level in the player's words, as the seat line says it."""
    from cardtable.tui.games.spit import SpitTable

    s, _ = spit_session(bot="medium")
    s.lang = "es"
    table = SpitTable(s)
    assert table.bot_level() == "medio"


def test_the_keys_line_folds_between_items_when_it_is_wider_than_the_screen():
    """The app works in 80×24: a keys' line longer than the screen goes on a second line, broken
    between two items, so "q quit" is read whole (Spit's line is 84 characters in English)."""
    from cardtable.tui.table_screen import fold_keys

    line = "1–5 pile · ←/→ play · Space spit · c choose · ? help · s save · l language · q quit"
    folded = fold_keys(line, 78)
    first = "1–5 pile · ←/→ play · Space spit · c choose · ? help · s save · l language"
    assert folded.split("\n") == [first, "q quit"]
    assert fold_keys(line, 200) == line


@sync
async def test_at_80x24_the_spit_keys_line_shows_every_key_whole():
    s, _ = spit_session()
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.2)
        keys = app.table_screen.query_one("#keys")
        text = str(keys.render())
        assert "q quit" in text and keys.region.height == 2, (text, keys.region)
