"""Seat lists for ``cardtable play --seats`` and the per-game bot tables (no Textual needed)."""

from __future__ import annotations

import pytest

from cardtable.core.errors import ConfigError
from cardtable.tui.seats import HINT_BOTS, default_seats, parse_seats, pick_bot


def test_seats_humans_bots_and_names():
    seats = parse_seats("human:Ana, sensible ,h,bot,random", "trash")
    assert [s.kind for s in seats] == ["human", "sensible", "human", "sensible", "random"]
    assert seats[0].name == "Ana" and seats[0].is_human and not seats[1].is_human


@pytest.mark.parametrize("text", ["human,robot", "human,,sensible", ""])
def test_bad_seats_are_config_errors(text):
    with pytest.raises(ConfigError, match="--seats"):
        parse_seats(text, "trash")


def test_default_seats_put_the_human_where_asked():
    assert [str(s) for s in default_seats(3, "trash", human=1)] == ["sensible", "human", "sensible"]
    with pytest.raises(ConfigError):
        default_seats(2, "trash", bot="nope")


def test_hint_bot_table_falls_back_to_random():
    assert pick_bot("trash", HINT_BOTS) == "hard"
    assert pick_bot("no-such-game", HINT_BOTS) == "random"


def test_every_tui_catalog_has_every_english_key_and_the_same_placeholders():
    import json
    import string
    from importlib import resources

    from cardtable.tui.session import languages

    def load(lang):
        return json.loads(resources.files("cardtable.i18n").joinpath(lang, "tui.json").read_text(encoding="utf-8"))

    def fields(text):
        return {name for _, name, _, _ in string.Formatter().parse(text) if name}

    english = load("en")
    assert "es" in languages() and all(key.startswith("tui.") for key in english)
    for lang in languages():
        catalog = load(lang)
        assert set(english) <= set(catalog), (lang, set(english) - set(catalog))
        for key, text in english.items():
            assert fields(catalog[key]) == fields(text), (lang, key)


def test_tx_2_and_tr_6_the_next_seat_sits_right_in_trex_and_left_in_trash():
    from cardtable.tui.seats import around

    for me in range(4):
        bottom, left, top, right = around(me, "trex")
        assert (bottom, right, top, left) == (me, (me + 1) % 4, (me + 2) % 4, (me + 3) % 4)
        bottom, left, top, right = around(me, "trash")
        assert (bottom, left, top, right) == (me, (me + 1) % 4, (me + 2) % 4, (me + 3) % 4)
