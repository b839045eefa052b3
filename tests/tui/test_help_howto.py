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
