"""Spanish and Portuguese event texts of Trex and Spit (``<game>.event.<kind>[.you]``)."""

from __future__ import annotations

import json
import random
import re
import string
from collections import Counter
from importlib import resources
from typing import Any

import pytest

import cardtable
from cardtable.core.cards import Card
from cardtable.core.game import Event
from cardtable.i18n import catalog, event_text

LANGS = ("es", "pt")
FIELDS = {"who", "c", "n", "s"}
LEFTOVER = re.compile(r"\{[^{}]*\}")

# (game, preset, options): the standard games plus the variants that emit rarer kinds
# (twos laid face up in partnership Trex, Spit's points and same-rank stacking).
GAMES = [
    ("trex", None, {}),
    ("trex", "partnership", {}),
    ("spit", None, {}),
    ("spit", "points", {}),
    ("spit", None, {"allow_same_rank_stacking": True, "auto_flip": False}),
]
SEEDS = (1, 2, 3)


def covered(game: str, lang: str) -> set[str]:
    """The event kinds of ``game`` the ``lang`` catalog translates."""
    prefix = f"{game}.event."
    return {k[len(prefix) :].removesuffix(".you") for k in catalog(lang) if k.startswith(prefix)}


def placeholders(template: str) -> Counter[tuple[str, str]]:
    """The ``(field, format spec)`` replacement fields of a template."""
    return Counter((name, spec or "") for _, name, spec, _ in string.Formatter().parse(template) if name is not None)


def check(game: str, event: Event, view: Any) -> None:
    keys = {f"{game}.event.{event.kind}", f"{game}.event.{event.kind}.you"}
    for lang in LANGS:
        text = event_text(game, event, view, lang)
        where = f"{game} {lang} {event.kind} seat={event.seat} view={view.seat}: {text!r}"
        assert text, where
        assert not LEFTOVER.search(text), where
        assert text not in keys and f"{game}.event." not in text, where
        if event.kind in covered(game, lang):
            assert text != event.text, where


def random_game(name: str, preset: str | None, options: dict[str, Any], seed: int, steps: int = 4000):
    """Views of seat 0 and of a spectator after every uniformly random action."""
    state = cardtable.load(name, preset, **options).new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
        for seat in (0, None):
            yield state.view(seat)


@pytest.mark.parametrize(("name", "preset", "options"), GAMES)
@pytest.mark.parametrize("seed", SEEDS)
def test_random_game_events_are_translated(name, preset, options, seed):
    seen: set[str] = set()
    for view in random_game(name, preset, options, seed):
        for event in view.events:
            check(name, event, view)
            seen.add(event.kind)
    assert seen & covered(name, "es"), "the game emitted no translated event"


@pytest.mark.parametrize("name", ["trex", "spit"])
def test_the_seat_sees_its_own_events_in_the_second_person(name):
    for view in random_game(name, None, {}, 5, steps=400):
        for event in view.events:
            if view.seat != 0 or event.seat != 0 or event.kind not in covered(name, "es"):
                continue
            for lang in LANGS:
                mine = event_text(name, event, view, lang)
                assert "lugar 0" not in mine and "asiento 0" not in mine, (lang, mine)
                assert lang != "pt" or "você" in mine, mine


@pytest.mark.parametrize("name", ["trex", "spit"])
def test_every_catalog_kind_renders_for_every_seat(name):
    """Kinds random play rarely reaches (a revoke, a tie-break) still fill in cleanly."""
    view0 = cardtable.load(name).new_state(seed=1).view(0)
    spectator = cardtable.load(name).new_state(seed=1).view(None)
    card = Card.from_id(9)  # J♣: a Trex row opener as well as an ordinary card
    for kind in covered(name, "es") | covered(name, "pt"):
        for seat in (0, 1, None):
            for slot, value in ((0, None), (1, None), (None, 1), (None, 7), (None, -25)):
                event = Event(0, kind, seat, card, slot, value, f"English text of {kind}")
                for view in (view0, spectator):
                    check(name, event, view)


def common(lang: str) -> dict[str, str]:
    """The ``common`` catalog of ``lang`` as written (no other namespace merged in)."""
    path = resources.files("cardtable.i18n").joinpath(lang, "common.json")
    return json.loads(path.read_text(encoding="utf-8"))


def test_spanish_and_portuguese_catalogs_have_the_same_keys_and_placeholders():
    es, pt = common("es"), common("pt")
    assert sorted(set(es) - set(pt)) == []
    assert sorted(set(pt) - set(es)) == []
    for key in es:
        assert placeholders(es[key]) == placeholders(pt[key]), key
        assert {field for field, _ in placeholders(es[key])} <= FIELDS, key


@pytest.mark.parametrize("lang", LANGS)
def test_second_person_forms_have_a_third_person_form(lang):
    """``event_text`` falls back from ``.you`` to the plain key, never the other way."""
    keys = set(catalog(lang))
    for key in keys:
        if ".event." in key and key.endswith(".you"):
            assert key.removesuffix(".you") in keys, key
            assert "{who}" not in catalog(lang)[key], key
