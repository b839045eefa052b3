"""The app's help points to the game's How to play page, which exists."""

from __future__ import annotations

from pathlib import Path

import pytest

import cardtable
from cardtable.tui.help import help_text

DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.mark.parametrize("lang", ["en", "es", "pt", "ar"])
@pytest.mark.parametrize("game", ["trash", "trex", "spit"])
def test_the_help_names_the_how_to_play_page_of_the_game(game: str, lang: str):
    text = help_text(cardtable.load(game), lang, [])
    page = f"howto-{game}.md" if lang == "en" else f"howto-{game}.{lang}.md"
    assert f"docs/{page}" in text and f"/howto/{game}" in text
    assert (DOCS / page).is_file()


def test_the_help_shows_option_numbers_in_arabic_indic_digits_in_arabic():
    game = cardtable.load("trash", target_size=7)
    arabic, english = help_text(game, "ar", []), help_text(game, "en", [])
    assert "٧ *" in arabic and "7 *" not in arabic  # the changed option, in the digits of ar
    assert "7 *" in english


@pytest.mark.parametrize(("game", "preset"), [("spit", "points"), ("trex", "inverted"), ("trash", "d2_kings")])
def test_a_preset_that_changes_the_rules_says_the_short_rules_are_the_standard_ones(game: str, preset: str):
    """The help's short rules are the standard game's; under a preset that changes them (Spit's
    points have no slap, inverted Trex scores otherwise, kings wild in Trash) it says so, pointing
    to the changed options, rather than letting the standard rules pass for the table's."""
    note = "These are the standard rules: this table changes those of the options marked * below."
    assert note in help_text(cardtable.load(game, preset), "en", [])
    assert note not in help_text(cardtable.load(game), "en", [])
