"""The Textual app driven by its pilot: whole matches, hot-seat, help, hints, save/resume, Spanish."""

from __future__ import annotations

import re

import pytest

import cardtable
from cardtable.bots import make_bot
from cardtable.core.registry import game_names
from cardtable.games.trash.actions import TrashAction
from cardtable.records import Record
from cardtable.tui.app import TableApp
from cardtable.tui.dialogs import CoverScreen, HelpScreen, QuitScreen
from cardtable.tui.games import class_name, table_class
from cardtable.tui.seats import parse_seats
from cardtable.tui.session import Session

from .util import ready, result_shown, screen, settle, sync, trash_key

SIZE = (110, 34)


def session(seats: str = "human,sensible", seed: int = 5, lang: str = "en", **options) -> Session:
    game = cardtable.load("trash", players=len(seats.split(",")), **options)
    return Session.start(game, parse_seats(seats, "trash"), seed=seed, bot_seed=1, lang=lang)


def status(app: TableApp) -> str:
    return str(app.table_screen.query_one("#status").render())


@sync
async def test_tr_a_whole_match_against_a_bot_by_key_presses():
    s = session(seed=12)
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        presses = 0
        while True:
            await settle(pilot, ready(app))
            if s.is_over:
                break
            view = s.view(screen(app).awaiting)
            await pilot.press(trash_key(view))
            presses += 1
        await settle(pilot, result_shown(app))
        outcome = s.match.state.outcome()
        assert outcome is not None and outcome.reason == "target_size"
        assert presses > 20
        text = str(app.screen.query_one("#result").render())
        assert ("You win the match!" in text) == (outcome.winners == (0,))
        assert all(str(a) != "time-up" for a in s.match.state.history)
        await pilot.press("q")


@sync
async def test_hot_seat_cover_screen_hides_the_table_between_humans():
    """Trex hands are private: a cover between two people's turns (seed 7: Ben, seat 1, is asked
    first and may force a redeal; Ana, seat 0, is asked last)."""
    game = cardtable.load("trex")
    s = Session.start(game, parse_seats("human:Ana,human:Ben,hard,hard", "trex"), seed=7, bot_seed=1)
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, lambda: isinstance(app.screen, CoverScreen))
        assert "Ben" in str(app.screen.query_one("#cover").render())
        await pilot.press("enter")
        await settle(pilot, ready(app))
        assert screen(app).viewer == 1 and app.screen is screen(app)
        screen(app).act(s.view(1).legal_actions[-1])
        for _ in range(5):  # a bot may force a redeal: Ben is asked again first
            await settle(pilot, lambda: isinstance(app.screen, CoverScreen))
            if "Ana" in str(app.screen.query_one("#cover").render()):
                break
            await pilot.press("enter")  # (Ben's one-answer "keep" is then given for him)
            await settle(pilot, lambda: isinstance(app.screen, CoverScreen) or ready(app)())
            if screen(app).awaiting == 1:
                screen(app).act(s.view(1).legal_actions[-1])
        assert "Ana" in str(app.screen.query_one("#cover").render())
        assert screen(app).awaiting is None  # keys cannot act for Ana behind the cover
        await pilot.press("enter")

        def log_top() -> str:
            lines = screen(app).query_one("#log").lines
            return str(lines[0].text) if lines else ""

        await settle(pilot, lambda: log_top() == "— Ana (seat 0) —")  # Ben's log, worded for him, is gone


@sync
async def test_hot_seat_trash_has_no_cover_screen():
    """Trash has no private cards: the table turns to the next person without a cover."""
    s = session("human:Ana,human:Ben", seed=3)
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        covers = 0
        for _ in range(30):
            await settle(pilot, lambda: isinstance(app.screen, CoverScreen) or ready(app)())
            covers += isinstance(app.screen, CoverScreen)
            if covers or s.is_over:
                break
            seat = screen(app).awaiting
            assert screen(app).viewer == seat
            await pilot.press(trash_key(s.view(seat)))
        assert covers == 0
        assert len(s.match.state.history) > 5


@sync
async def test_help_shows_rules_options_of_the_preset_and_keys():
    s = Session.start(cardtable.load("trash", preset="d2_kings"), parse_seats("human,stock", "trash"), seed=1)
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, ready(app))
        await pilot.press("question_mark")
        await settle(pilot, lambda: isinstance(app.screen, HelpScreen))
        text = app.screen.text
        for word in ("d2_kings", "Kings wild", "wild_mode", "Kings *", "TR-26", "1 … 9, 0", "hint"):
            assert word in text, word
        await pilot.press("escape")
        await settle(pilot, lambda: app.screen is screen(app))


@sync
async def test_hint_is_the_hard_bots_advice_and_is_marked():
    s = session(seed=9)
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(40):  # play until a wild must be placed: the hint names a slot
            await settle(pilot, ready(app))
            view = s.view(0)
            if view.phase == "place_wild":
                break
            await pilot.press(trash_key(view))
        else:
            pytest.skip("no wild came up")
        advice = make_bot("trash", "hard").act(view, None)
        await pilot.press("h")
        await pilot.pause()
        assert f"Hint (hard): put the wild on slot {advice.slot}" in status(app)
        row = s.game.num_players - 1
        assert app.table_screen.query_one(f"#slot-{row}-{advice.slot}").has_class("-hint")


@sync
async def test_a_wild_slot_chosen_with_the_mouse():
    s = session(seed=9)
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(40):
            await settle(pilot, ready(app))
            view = s.view(0)
            if view.phase == "place_wild":
                break
            await pilot.press(trash_key(view))
        else:
            pytest.skip("no wild came up")
        slot = view.legal_actions[-1].slot
        before = len(s.match.state.history)
        assert await pilot.click(f"#slot-1-{slot}")
        await pilot.pause()
        assert s.match.state.history[before] == TrashAction("wild", slot)


@sync
async def test_save_and_resume_round_trip(tmp_path):
    path = tmp_path / "game.json"
    s = session(seed=4)
    s.save_path = path
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(6):
            await settle(pilot, ready(app))
            await pilot.press(trash_key(s.view(0)))
        await settle(pilot, ready(app))
        await pilot.press("s")
        await pilot.pause()
        assert f"Saved to {path}" in status(app)
    record = Record.load(path)
    assert list(record.actions) == [str(a) for a in s.match.state.history]
    again = Session.resume(record, parse_seats("human,sensible", "trash"))
    assert str(again.match.state) == str(s.match.state)
    app2 = TableApp(again, pace=0, bot_delay=0)
    async with app2.run_test(size=SIZE) as pilot:
        await settle(pilot, ready(app2))
        assert app2.table_screen.table.current == s.view(0)
        await pilot.press(trash_key(s.view(0)))  # and play on
        await settle(pilot, lambda: len(again.match.state.history) > len(record.actions))


@sync
async def test_a_save_that_fails_on_quit_keeps_the_game_says_why_and_asks(tmp_path):
    """Quitting with a save file that cannot be written (its folder is gone) ended the app with a
    traceback and lost the game. The game stays, the status says why, and the quit question lets
    the person stay, save elsewhere or quit without saving."""
    s = session(seed=4)
    s.save_path = tmp_path / "gone" / "game.json"
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(3):
            await settle(pilot, ready(app))
            await pilot.press(trash_key(s.view(0)))
        await settle(pilot, ready(app))
        await pilot.press("q")
        await settle(pilot, lambda: isinstance(app.screen, QuitScreen))
        assert "Could not save: No such file or directory" in status(app)
        await pilot.press("s")  # saving again fails again: the game stays open
        await settle(pilot, lambda: not isinstance(app.screen, QuitScreen))
        assert app.is_running and "Could not save" in status(app)
        (tmp_path / "gone").mkdir()
        await pilot.press("q")  # now the folder is there: saved, and the app ends
        await settle(pilot, lambda: not app.is_running)
    saved = Record.load(tmp_path / "gone" / "game.json")
    assert list(saved.actions) == [str(a) for a in s.match.state.history] and saved.actions


@sync
async def test_spanish_strings_with_lang_es():
    s = session(seed=5, lang="es")
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, ready(app))
        assert "Te toca." in status(app) and "robar del mazo" in status(app)
        assert "? ayuda" in str(app.table_screen.query_one("#keys").render())
        assert "Mazo" in str(app.table_screen.query_one("#pile-stock").render())
        await pilot.press("enter")
        await settle(pilot, ready(app))
        lines = [str(line.text) for line in app.table_screen.query_one("#log").lines]
        assert any("robas" in line for line in lines)
        await pilot.press("l")  # the next language at a key press (es -> pt -> en)
        await pilot.pause()
        assert "Sua vez." in status(app)
        await pilot.press("l")
        await pilot.pause()
        assert "Your move." in status(app)


@sync
async def test_spectator_watches_bots_play_a_match_out():
    s = session("sensible,stock,random", seed=2, target_size=9)
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, result_shown(app))
        assert screen(app).viewer is None and s.is_over


@sync
async def test_generic_table_plays_any_game(monkeypatch):
    """A game without its own screen gets buttons for its legal actions (here Trash on the generic table)."""
    from cardtable.tui import table_screen
    from cardtable.tui.games import generic

    monkeypatch.setattr(table_screen, "table_class", lambda name: generic.GenericTable)
    s = session(seed=7)
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(5):
            await settle(pilot, ready(app))
            assert app.table_screen.query(generic.ActionButton)
            await pilot.press("1")
        await settle(pilot, ready(app))
        assert len(s.match.state.history) >= 5
        await pilot.click(generic.ActionButton)
        await pilot.pause()


@sync
async def test_tr10_the_displacement_chain_is_drawn_one_event_at_a_time():
    s = session(seed=5)
    app = TableApp(s, pace=0.001, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, ready(app))
        table = app.table_screen.table
        drawn: list[tuple[str, int]] = []
        original = table.play_event

        def spy(event):
            original(event)
            face_up = sum(card is not None for card in table.model.layouts[0])
            drawn.append((event.kind, face_up))
            if event.kind == "place" and event.seat == 0:
                assert table.model.layouts[0][event.slot - 1] == event.card
                assert table.query_one(f"#slot-1-{event.slot}").has_class("-flash")

        table.play_event = spy
        before = sum(card is not None for card in s.view(0).layouts[0])
        await pilot.press("enter")  # draw: the chain of this seed places several cards
        await settle(pilot, lambda: s.to_move() != 0 or ready(app)())
        await settle(pilot, lambda: not app.table_screen.busy)
        mine = [d for d in drawn if d[0] in ("draw", "place", "turn_up")][:6]
        assert [k for k, _ in mine[:3]] == ["draw", "place", "turn_up"]
        counts = [n for k, n in drawn if k == "place"]
        assert counts and counts[0] == before + 1 and counts == sorted(counts)


@sync
async def test_stock_and_discard_by_mouse():
    s = session(seed=5)
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, ready(app))
        assert await pilot.click("#pile-stock")
        await settle(pilot, lambda: len(s.match.state.history) > 0)
        assert str(s.match.state.history[0]) == "stock"


@sync
async def test_a_real_time_game_on_the_generic_table():
    """Spit-shaped: SIMULTANEOUS, actions carry their seat; the bot acts on its timer while the human types."""
    from cardtable.tui.games import generic

    from .fakegame import GOAL, RaceGame

    s = Session.start(RaceGame.make(), parse_seats("human,random", "race"), seed=1, bot_seed=1)
    app = TableApp(s, pace=0, bot_delay=0.02)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, ready(app))
        assert isinstance(app.table_screen.table, generic.GenericTable)
        await settle(pilot, lambda: s.match.state.counts[1] >= 1)  # the bot taps by itself
        for _ in range(GOAL * 3):
            if s.is_over:
                break
            await pilot.press("1")
            await pilot.pause()
        await settle(pilot, result_shown(app))
        assert s.match.state.counts[0] >= 1 and max(s.match.state.counts) == GOAL


@sync
async def test_help_in_spanish_translates_the_option_docs():
    s = session(seed=1, lang="es")
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, ready(app))
        await pilot.press("f1")
        await settle(pilot, lambda: isinstance(app.screen, HelpScreen))
        text = app.screen.text
        assert "Reglas" in text and "Comodines" in text and "preajuste Estándar" in text
        assert "Intro, Espacio" in text and "Space" not in text  # the keys by their Spanish names too


@pytest.mark.parametrize("lang", ["en", "es", "pt", "ar"])
@sync
async def test_help_shows_every_option_by_its_label_with_its_explanation(lang, monkeypatch):
    """Every option the help shows has its players' label, value and one-line explanation in the
    language (the page's web.option/web.choice keys); the raw name stays only as the --option key."""
    from cardtable.i18n import catalog
    from cardtable.i18n.words import option_doc, option_label, preset_label, value_text

    monkeypatch.setenv("CARDTABLE_BIDI", "off")  # the words as stored (test_arabic.py checks their order)
    s = session(seed=1, lang=lang)
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, ready(app))
        await pilot.press("f1")
        await settle(pilot, lambda: isinstance(app.screen, HelpScreen))
        text = app.screen.text
        title = str(screen(app).query_one("#title").render())
    for spec in type(s.game).OPTIONS:
        for key in (f"web.option.trash.{spec.name}", f"web.option.trash.{spec.name}.doc"):
            assert key in catalog(lang), key  # translated, not the English fallback
        label = option_label("trash", spec.name, lang)
        value = value_text("trash", spec.name, s.game.options[spec.name], lang)
        assert f"[b]{label}[/b]: {value}" in text and option_doc("trash", spec.name, lang) in text
    assert preset_label("trash", "standard", lang) in title and "standard" not in title


@sync
async def test_quitting_an_unsaved_game_asks_first(tmp_path, monkeypatch):
    from cardtable.tui.dialogs import QuitScreen

    monkeypatch.chdir(tmp_path)
    s = session(seed=5)
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, ready(app))
        await pilot.press("enter")
        await settle(pilot, ready(app))
        await pilot.press("q")
        await settle(pilot, lambda: isinstance(app.screen, QuitScreen))
        await pilot.press("escape")  # keep playing
        await settle(pilot, lambda: app.screen is screen(app))
        await pilot.press("q")
        await settle(pilot, lambda: isinstance(app.screen, QuitScreen))
        await pilot.press("s")  # save and quit
        await pilot.pause()
    saved = list(tmp_path.glob("cardtable-trash-*.json"))
    assert len(saved) == 1 and Record.load(saved[0]).actions == tuple(str(a) for a in s.match.state.history)


@sync
async def test_seat_names_are_text_not_markup():
    s = session("human:[b]Ana[/],human:[/]", seed=3)
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, ready(app))
        assert "[b]Ana[/]" in str(screen(app).query_one("#title").render())


@sync
async def test_in_80x24_the_seat_on_screen_always_fits():
    s = session("human,sensible,stock,random", seed=5)
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, ready(app))
        await pilot.pause(0.1)  # the layout after the table's resize
        panel = screen(app).query_one("#seat-row-3")
        region = panel.region
        assert region.height == 7 and region.bottom <= 24 - 3  # above the status lines and the key bar
        assert screen(app).query_one("#slot-3-10").region.bottom <= region.bottom


@sync
async def test_portuguese_app_strings_and_english_events_until_the_common_catalog_has_them():
    s = session(seed=5, lang="pt")
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, ready(app))
        assert "Sua vez." in status(app) and "comprar do monte" in status(app)
        await pilot.press("enter")
        await settle(pilot, ready(app))
        lines = [str(line.text) for line in app.table_screen.query_one("#log").lines]
        assert not any("trash.event." in line for line in lines)


@sync
async def test_a_new_match_with_the_same_seats_after_the_result():
    s = session("sensible,stock", seed=2, target_size=9)
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, result_shown(app))
        await pilot.press("n")
        await settle(pilot, lambda: app.session is not s and len(app.session.match.state.history) > 3)
        assert app.session.seats == s.seats and app.session.game is s.game
        assert app.table_screen.session is app.session and app.screen_stack[0].retired


@sync
async def test_after_looking_at_the_table_n_plays_again_and_a_click_closes_the_result():
    """docs/tui.md: `n` (at the end) plays again, also from the table once the result box is
    closed; played by mouse alone, a click closes the result box (as Enter: look at the table)."""
    s = session("sensible,stock", seed=2, target_size=9)
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, result_shown(app))
        await pilot.click("#result")
        await settle(pilot, lambda: app.screen is app.table_screen)
        await pilot.press("n")
        await settle(pilot, lambda: app.session is not s and len(app.session.match.state.history) > 3)
        assert app.session.seats == s.seats


@sync
async def test_trv2_time_up_is_shown_before_the_move_that_found_it():
    from cardtable.host import VirtualClock

    clock = VirtualClock()
    s = Session.start(cardtable.load("trash", time_limit=3600.0), parse_seats("human,sensible", "trash"),
                      seed=5, bot_seed=1, clock=clock)
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, ready(app))
        clock.advance(3601)
        await pilot.press("enter")
        await settle(pilot, ready(app))
        lines = [str(line.text) for line in app.table_screen.query_one("#log").lines]
        up = next(i for i, line in enumerate(lines) if "time is up" in line)
        assert any("you draw" in line for line in lines[up:])
        assert "time is up" in str(app.table_screen.query_one("#title").render())


@sync
async def test_a_narrow_terminal_keeps_the_table_and_drops_the_log():
    s = session(seed=5)
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=(60, 24)) as pilot:
        await settle(pilot, ready(app))
        await pilot.pause(0.1)
        assert not screen(app).log_widget.display
        assert screen(app).query_one("#slot-1-5").region.right <= 60


@sync
async def test_after_the_match_the_header_shows_the_last_hand_played():
    s = session("sensible,stock", seed=2, target_size=8)
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, result_shown(app))
        played = sum(s.match.state.hands_won)
        title = str(screen(app).query_one("#title").render())
        assert f"hand {played} ·" in title and f"hand {played + 1} " not in title


async def _result_text(s: Session) -> str:
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, result_shown(app))
        return str(app.screen.query_one("#result").render())


@sync
async def test_end_screens_call_you_you_and_a_spit_game_a_game():
    from cardtable.host.clock import VirtualClock
    from cardtable.host.realtime import RealtimeHost
    from cardtable.records import record_of

    state = cardtable.load("spit").new_state(seed=3)
    RealtimeHost(state, VirtualClock(), bots={0: make_bot("spit", "hard"), 1: make_bot("spit", "easy")},
                 seed=1).run()
    assert state.outcome() is not None and state.outcome().winners == (0,)
    text = await _result_text(Session.resume(record_of(state), parse_seats("human,medium", "spit")))
    assert text.startswith("You win the game!") and "match" not in text.split("\n\n")[0]
    assert "you: 0 cards left" in text and "seat 0" not in text

    trash = cardtable.load("trash", max_hands=1)
    from cardtable.host.match import play_out

    end = play_out(trash, [make_bot("trash", "sensible"), make_bot("trash", "sensible")], seed=4)
    text = await _result_text(Session.resume(record_of(end), parse_seats("human,sensible", "trash")))
    assert "match" in text.split("\n\n")[0]  # a Trash match of hands
    assert "\nyou: " in text and "seat 0" not in text


@sync
async def test_a_key_that_is_no_move_gets_a_short_note_and_enter_still_draws():
    s = session(seed=5)
    app = TableApp(s, pace=0, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, ready(app))
        view = s.view(0)
        assert view.phase == "draw" and [str(a) for a in view.legal_actions] == ["stock"]  # no discard yet
        await pilot.press("d")
        assert "✗ d · Enter: draw from the stock." in status(app)
        assert s.match.state.history == []  # the note, nothing played
        await pilot.press("x")
        assert "✗ x ·" in status(app)
        await pilot.press("enter")  # the stock draw stays a key press (host/forced.py)
        await settle(pilot, lambda: len(s.match.state.history) > 0)
        assert str(s.match.state.history[0]) == "stock"


@pytest.mark.parametrize("game", [*game_names(), "generic"])
def test_each_game_table_has_its_own_class_name_and_its_css_selects_it(game):
    """Each game's table is ``<Game>Table``, not one of several classes called ``Table``, and its
    Textual CSS selects it by that name (a bare ``Table`` selector would style nothing)."""
    cls = table_class(game)
    assert cls.__name__ == class_name(game)
    assert re.search(r"(?<![\w.-])Table\b", cls.DEFAULT_CSS) is None
    assert re.search(rf"^\s*{cls.__name__} {{", cls.DEFAULT_CSS, re.MULTILINE)


@pytest.mark.parametrize("game", ["trash", "trex", "spit"])
@pytest.mark.parametrize(("lang", "space"), [("es", "Espacio"), ("pt", "Espaço"), ("ar", "المسافة")])
def test_the_help_names_the_keys_in_the_language_of_the_app(game, lang, space):
    """The help's keys section said "Enter, Space" in every language, where the prompts and the
    keys line say "Intro" and "Espacio" (es), "Espaço" (pt)."""
    from types import SimpleNamespace

    names = " ".join(key for key, _ in table_class(game).key_help(SimpleNamespace(lang=lang)))  # type: ignore[arg-type]
    assert space in names and "Space," not in names and not names.startswith("Space")
