"""Message catalogs: event texts per language, fallbacks."""

from __future__ import annotations

import random

import pytest

import cardtable
from cardtable.core.registry import game_names
from cardtable.i18n import LANGUAGES, catalog, event_text, translate

from .walk import played


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", game_names())
def test_every_event_has_a_sentence_in_every_language(name, lang):
    state = cardtable.load(name).new_state(seed=2)
    for _ in played(state, random.Random(2), 300):
        for seat in (0, None):
            view = state.view(seat)
            for event in view.events:
                text = event_text(name, event, view, lang)
                assert text and f"{name}.event." not in text and "{" not in text


def test_spanish_trash_events_and_fallbacks():
    state = cardtable.load("trash").new_state(seed=1)
    state.play("stock")
    view = state.view(0)
    assert event_text("trash", view.events[0], view, "es").startswith("robas ")
    assert translate("no.such.key", "es") == "no.such.key"
    assert set(catalog("es")) >= {k for k in catalog("es") if k.startswith("trash.event.")}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", game_names())
def test_your_own_events_read_you_in_every_game_and_language(name, lang):
    state = cardtable.load(name).new_state(seed=3)
    mine = 0
    for _ in played(state, random.Random(3), 400):
        view = state.view(0)
        for event in view.events:
            if event.seat == 0:
                mine += 1
                text = event_text(name, event, view, lang)
                assert translate("seat", lang, n=0) not in text, (event.kind, text)
    assert mine > 3


def test_w_names_a_bot_never_takes_the_name_of_a_person_at_the_table():
    """W-names: the terminal names bots as the page does (people.js): by seat, unless a person at
    the table has that name (any case); then the first name past the table's seats nobody has."""
    from cardtable.i18n.bots import bot_name

    people = ["Cleo", None, None, None]
    assert [bot_name(s, people) for s in (1, 2, 3)] == ["Ben", "Eva", "Dani"]
    people = ["eva", None, "Cleo", None, None]  # the spare names skip the people's too
    assert [bot_name(s, people) for s in (1, 3, 4)] == ["Ben", "Dani", "Fede"]
    assert bot_name(4, ["ana", None, None, None, None]) == "Eva" and bot_name(0, []) == "Ana"
