"""The session without Textual: steps and their events, timers, hints, resume."""

from __future__ import annotations

from pathlib import Path

import cardtable
from cardtable.bots import make_bot
from cardtable.host import VirtualClock
from cardtable.tui.seats import parse_seats
from cardtable.tui.session import Session


def test_a_step_carries_the_events_of_one_action_as_the_display_seat_saw_them():
    s = Session.start(cardtable.load("trash"), parse_seats("human,sensible", "trash"), seed=5, bot_seed=1)
    step = s.submit(0, "stock", display=0)
    assert str(step.action) == "stock" and step.events[0].kind == "draw" and step.events[0].text.startswith("you ")
    assert step.view == s.view(0)
    bot = s.run_bot(display=0)
    assert bot is not None and bot.seat == 1 and all(e.seat in (1, None) for e in bot.events)
    while s.run_bot(display=0) is not None:  # the bot's other decisions of its turn
        pass
    assert s.to_move() == 0 and s.run_bot(display=0) is None


def test_trv2_the_host_timer_is_fed_while_a_human_thinks():
    clock = VirtualClock()
    game = cardtable.load("trash", time_limit=60.0)
    s = Session.start(game, parse_seats("human,sensible", "trash"), seed=5, bot_seed=1, clock=clock)
    assert s.poll_timers(display=0) is None
    clock.advance(61)
    step = s.poll_timers(display=0)
    assert step is not None and str(step.action) == "time-up" and step.events[0].kind == "time_up"
    assert s.poll_timers(display=0) is None


def test_hint_is_what_the_hint_bot_plays_and_resume_replays_exactly():
    s = Session.start(cardtable.load("trash"), parse_seats("human,random", "trash"), seed=8, bot_seed=2)
    for _ in range(10):
        if s.to_move() == 0:
            s.submit(0, s.hint(0), display=0)
        else:
            s.run_bot(display=0)
    view = s.view(s.to_move())
    assert s.hint(s.to_move()) == make_bot("trash", "sensible").act(view, None)
    again = Session.resume(s.record(), s.seats)
    assert str(again.match.state) == str(s.match.state) and again.match.seq == len(s.match.state.history)
    assert s.record().seats == ("human", "random")  # who held each seat, for --resume


def test_seat_labels():
    s = Session.start(cardtable.load("trash", players=3), parse_seats("human:Ana,sensible,human", "trash"), seed=1)
    assert s.hot_seat and s.humans == (0, 2)
    assert s.seat_label(0, 0) == "you" and s.seat_label(0, 2) == "Ana" and s.seat_label(1, 0) == "Ben · sensible bot"
    assert s.seat_title(0) == "Ana (seat 0)" and s.seat_title(2) == "seat 2" and s.seat_title(1) == "Ben (seat 1)"


def test_bots_have_the_pages_names_and_translated_level_labels():
    from cardtable.i18n.bots import BOT_NAMES

    people_js = (Path(cardtable.__file__).parent / "web" / "static" / "people.js").read_text(encoding="utf-8")
    assert "const BOT_NAMES = [" + ", ".join(f'"{n}"' for n in BOT_NAMES) + "];" in people_js  # one list for both
    s = Session.start(cardtable.load("trex"), parse_seats("human,hard,expert,medium", "trex"), seed=1, lang="es")
    assert [s.seat_label(p, 0) for p in range(4)] == ["tú", "Ben · bot difícil", "Cleo · bot experto",
                                                      "Dani · bot medio"]
    s.lang = "ar"
    assert s.seat_label(1, 0) == "Ben · بوت صعب"
    spit = Session.start(cardtable.load("spit"), parse_seats("human,reaction-expert", "spit"), seed=1, lang="en")
    assert spit.seat_label(1, 0) == "Ben · expert, reaction bot" and spit.seat_title(1) == "Ben (seat 1)"
