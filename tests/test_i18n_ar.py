"""Arabic (``ar``): complete catalogs, the Levantine Trix terms, every event, and
the terminal's bidi (``cardtable.i18n.bidi``: reordering, joining, digits, fallback)."""

from __future__ import annotations

import importlib
import json
import re
import string
import sys
from collections import Counter
from importlib import resources

import pytest

import cardtable
from cardtable.i18n import bidi, catalog, event_text, translate
from tests import test_i18n_events as events

FOLDER = resources.files("cardtable.i18n")
NAMESPACES = sorted(item.name for item in FOLDER.joinpath("en").iterdir() if item.name.endswith(".json"))
ARABIC = re.compile("[\u0600-\u06ff\ufb50-\ufdff\ufe70-\ufefc]")
LATIN = re.compile("[A-Za-z]")
PLURALS = re.compile(r"^(?:.+_)?s$")  # {s}, {cards_s}: English and Spanish plural endings, not Arabic ones


def written(lang: str, namespace: str) -> dict[str, str]:
    """One catalog file as written (no other namespace merged in)."""
    path = FOLDER.joinpath(lang, namespace)
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def placeholders(template: str) -> Counter[tuple[str, str]]:
    return Counter((name, spec or "") for _, name, spec, _ in string.Formatter().parse(template) if name is not None)


def arabic_fields(template: str) -> set[tuple[str, str]]:
    """The fields of a template an Arabic text must have: all but the plural endings."""
    return {(name, spec) for name, spec in placeholders(template) if not PLURALS.match(name)}


def bare(template: str) -> str:
    """A template without its placeholders, key names and codes such as S0/S1."""
    return re.sub(r"\{[^{}]*\}|\bS\d\b", "", template)


@pytest.mark.parametrize("namespace", NAMESPACES)
def test_every_english_key_has_an_arabic_text(namespace):
    en, ar = written("en", namespace), written("ar", namespace)
    assert ar, f"ar/{namespace} is missing"
    assert sorted(set(en) - set(ar)) == []
    assert all(isinstance(text, str) and text.strip() for text in ar.values())


@pytest.mark.parametrize("namespace", NAMESPACES)
def test_arabic_placeholders_are_the_english_ones(namespace):
    en, ar = written("en", namespace), written("ar", namespace)
    for key in en:
        assert set(placeholders(ar[key])) == arabic_fields(en[key]), key


@pytest.mark.parametrize("namespace", NAMESPACES)
def test_keys_only_spanish_has_are_in_arabic_too_with_the_same_fields(namespace):
    """The event sentences (common) and the option texts (tui) live in es, not en."""
    es, ar = written("es", namespace), written("ar", namespace)
    assert sorted(k for k in set(es) - set(ar) if not k.endswith(".one")) == []  # Arabic's counts read for any n
    for key in es:
        if key.endswith(".one"):
            continue
        assert set(placeholders(ar[key])) == arabic_fields(es[key]), key
        if ".event." in key:
            assert {name for name, _ in placeholders(ar[key])} <= events.FIELDS, key


def test_no_arabic_text_is_left_in_english():
    """A text with Latin letters also has Arabic ones, except texts of codes, cards
    and placeholders only (``{name} ({code})``)."""
    for lang_file in NAMESPACES:
        en = written("en", lang_file)
        for key, text in written("ar", lang_file).items():
            letters = bare(text)
            if LATIN.search(letters) or (key in en and LATIN.search(bare(en[key]))):
                assert ARABIC.search(letters), (key, text)


def test_trex_contracts_carry_the_names_arabic_trix_apps_use():
    names = {"KH": "شيخ الكبة", "QN": "البنات", "DI": "الديناري", "TK": "اللطوش", "TR": "التركس", "CX": "الكومبلكس"}
    for code, name in names.items():
        assert translate(f"tui.trex.contract.{code}", "ar") == name
        assert translate(f"web.trex.contract.{code}", "ar") == name
    assert events.render("trex", ("contract", 1, -1, events.CONTRACTS[0]), None, "ar") == "المقعد 1 يطلب شيخ الكبة"
    assert events.render("trex", ("double", 0, events.K_HEARTS, 0), 0, "ar") == "تدبّل K♥"
    assert events.render("trex", ("kingdom", 2, -1, 0), None, "ar") == "المقعد 2 صاحب المملكة 1"


@pytest.fixture
def arabic_events(monkeypatch):
    """The es/pt event checks of tests/test_i18n_events.py, run on ar."""
    monkeypatch.setattr(events, "LANGS", ("ar",))
    return events


@pytest.mark.parametrize("name", sorted(events.RAW))
def test_every_event_kind_renders_in_arabic_for_every_seat(arabic_events, name):
    game = cardtable.load(name, players=4) if name == "trash" else cardtable.load(name)
    views = [game.new_state(seed=1).view(seat) for seat in (*range(game.num_players), None)]
    assert events.KINDS[name] <= {k.split(".")[2] for k in catalog("ar") if k.startswith(f"{name}.event.")}
    for raw in events.RAW[name]:
        for seat in range(game.num_players):
            for view in views:
                event = events.built(name, events.with_seat(raw, seat), view.seat)
                events.check(name, event, view)
                assert ARABIC.search(event_text(name, event, view, "ar"))


@pytest.mark.parametrize(("name", "preset", "options"), events.GAMES)
def test_every_event_of_a_random_game_renders_in_arabic(arabic_events, name, preset, options):
    for view in events.random_game(name, preset, options, 1, steps=1500):
        for event in view.events:
            events.check(name, event, view)


# --- the terminal: cardtable.i18n.bidi ---------------------------------------------------

LOGICAL = "المقعد 0 يلعب 10♠ (S1)"
# drawn left to right: the pile name first, then the card (its face left to right: 10♠, never
# ♠10), then the words, right to left, each letter in its joined form (ﺪﻌﻘﻤﻟﺍ is المقعد joined
# and reversed); the brackets mirrored
VISUAL = "(S1) 10♠ \ufe90\ufecc\ufee0\ufef3 0 \ufeaa\ufecc\ufed8\ufee4\ufedf\ufe8d"


@pytest.fixture
def clean_cache():
    bidi._visual_line.cache_clear()
    yield
    bidi._visual_line.cache_clear()


@pytest.mark.usefixtures("clean_cache")
def test_uba_l2_reorders_and_l4_mirrors_and_letters_join():
    pytest.importorskip("bidi")
    pytest.importorskip("arabic_reshaper")
    assert bidi.visual(LOGICAL, "app") == VISUAL
    assert bidi.visual("السلام (عليكم)", "app") == "(\ufee2\ufedc\ufef4\ufee0\ufecb) \ufee1\ufefc\ufeb4\ufedf\ufe8d"
    assert bidi.visual("اللغة: English (en)", "app").startswith("English (en) :")  # N0: a pair inside LTR stays LTR
    assert bidi.visual(f"{LOGICAL}\nabc", "app") == f"{VISUAL}\nabc"  # line by line
    assert bidi.visual("\u200f\u200e-75 نقطة", "app").endswith("-75")  # RLM LRM: a minus stays before its number
    assert bidi.visual("Bob يلعب 10♠", "app") == "Bob \ufe90\ufecc\ufee0\ufef3 10♠"  # P2: a Latin first letter
    assert bidi.visual("Bob يلعب 10♠", "app", rtl=True) == "10♠ \ufe90\ufecc\ufee0\ufef3 Bob"  # an Arabic screen


@pytest.mark.usefixtures("clean_cache")
def test_card_faces_and_signed_numbers_stay_left_to_right():
    pytest.importorskip("bidi")
    shown = bidi.visual("أكلت 10♥ وQ♠ وتسجل -75 و+5 و−25", "app", rtl=True)
    for unit in ("10♥", "Q♠", "-75", "+5", "−25"):
        assert unit in shown, unit
    assert "♥10" not in shown and "75-" not in shown
    assert shown.index("Q♠") < shown.index("10♥")  # each its own unit, read from the right: 10♥ first
    assert bidi.visual("seat 0 plays 10♠ and scores -5", "app") == "seat 0 plays 10♠ and scores -5"


@pytest.mark.usefixtures("clean_cache")
def test_visual_runs_keeps_each_run_with_its_style():
    pytest.importorskip("arabic_reshaper")
    runs = bidi.visual_runs([("الطلب", "bold"), (": ", None), ("البنات", "cyan"), (" 10♥", "red")], "app", rtl=True)
    assert "".join(text for text, _ in runs) == bidi.visual("الطلب: البنات 10♥", "app", rtl=True)
    assert [style for _, style in runs] == ["red", "cyan", None, "bold"]
    assert dict((style, text) for text, style in runs)["bold"] == bidi.visual("الطلب", "app")
    assert bidi.visual_runs([("الطلب", "b")], "off") == [("الطلب", "b")]
    with pytest.raises(ValueError, match="one line"):
        bidi.visual_runs([("سطر\nسطر", None)], "app")


@pytest.mark.usefixtures("clean_cache")
def test_the_mode_comes_from_cardtable_bidi_or_the_terminal(monkeypatch):
    pytest.importorskip("bidi")
    for var in ("CARDTABLE_BIDI", "VTE_VERSION", "KONSOLE_VERSION", "MLTERM"):
        monkeypatch.delenv(var, raising=False)
    assert bidi.mode() == "app" and bidi.visual(LOGICAL) != LOGICAL
    monkeypatch.setenv("VTE_VERSION", "7600")  # GNOME Terminal 46: VTE does bidi itself
    assert bidi.mode() == "terminal" and bidi.visual(LOGICAL) == LOGICAL
    monkeypatch.setenv("VTE_VERSION", "7200")
    assert bidi.mode() == "app"
    monkeypatch.setenv("CARDTABLE_BIDI", "off")
    assert bidi.visual(LOGICAL) == LOGICAL
    monkeypatch.setenv("CARDTABLE_BIDI", "Terminal")
    assert bidi.mode() == "terminal"
    monkeypatch.setenv("CARDTABLE_BIDI", "rtl")
    with pytest.raises(ValueError, match="CARDTABLE_BIDI='rtl': expected one of terminal, app, off, auto"):
        bidi.visual(LOGICAL)
    assert bidi.visual("no Arabic here") == "no Arabic here"  # never even reads the mode


def test_visual_wrapped_wraps_in_reading_order_then_reorders_each_line():
    text = "الشباب تفتح صفوف الأنواع الأربعة"
    logical = ["الشباب تفتح صفوف", "الأنواع الأربعة"]
    assert bidi.visual_wrapped(text, 16, "off") == logical
    assert bidi.visual_wrapped(text, 16, "app") == [bidi.visual(line, "app").rjust(16) for line in logical]
    assert bidi.visual_wrapped(text, 16, "app")[0].endswith("\ufe8d")  # the first word ends at the right edge
    assert bidi.visual_wrapped("short", 10, "app") == ["short"]


def test_arabic_indic_digits_for_ar_option_values():
    assert bidi.arabic_digits("0123456789") == "٠١٢٣٤٥٦٧٨٩"
    assert bidi.arabic_digits("players = 4, time 2.5 s, v1.2.3") == "players = ٤, time ٢٫٥ s, v١٫٢٫٣"
    assert bidi.localized_digits("13 ورقة", "ar") == "١٣ ورقة"
    assert bidi.localized_digits("13 cartas", "es") == "13 cartas"
    assert bidi.arabic_digits("no digits") == "no digits"


@pytest.fixture
def without_ar_extra(monkeypatch):
    """cardtable.i18n.bidi imported where python-bidi and arabic-reshaper are not installed."""
    monkeypatch.setitem(sys.modules, "bidi", None)
    monkeypatch.setitem(sys.modules, "arabic_reshaper", None)
    fallback = importlib.reload(bidi)
    yield fallback
    monkeypatch.undo()
    importlib.reload(bidi)


def test_without_the_ar_extra_words_are_ordered_but_not_joined(without_ar_extra):
    fallback = without_ar_extra
    assert fallback._reshape is None and fallback._get_display is None
    assert fallback.visual("المقعد 0 يلعب", "app") == "بعلي 0 دعقملا"
    assert fallback.visual(LOGICAL, "app") == "(S1) 10♠ بعلي 0 دعقملا"
    assert fallback.visual("اللغة: English (en)", "app") == "English (en) :ةغللا"
    assert fallback.visual("\u200f\u200e-75 نقطة", "app") == "ةطقن -75"
    assert fallback.visual("Bob يلعب 10♠", "app", rtl=True) == "10♠ بعلي Bob"
    assert fallback.visual(LOGICAL, "off") == LOGICAL


def test_uba_the_fallback_orders_every_catalog_text_and_event_as_python_bidi_does():
    pytest.importorskip("bidi")
    texts: set[str] = set()
    for namespace in NAMESPACES:
        texts.update(written("ar", namespace).values())
    for name, preset, options in events.GAMES[:6]:
        for view in events.random_game(name, preset, options, 2, steps=120):
            texts.update(event_text(name, event, view, "ar") for event in view.events)
    checked = 0
    for text in texts:
        for line in text.split("\n"):
            for base in (0, 1):
                library = bidi._library_levels(line, base)
                assert library is not None, line
                ours = bidi._reorder(line, bidi._simple_levels(line, base))
                assert ours == bidi._reorder(line, library), line
                if not bidi._MIRRORED.search(line):  # python-bidi's own order, where nothing mirrors
                    display = bidi._get_display(line, base_dir="R" if base else "L")
                    assert ours.translate(bidi._CONTROLS) == display.translate(bidi._CONTROLS), line
                checked += 1
    assert checked > 500
