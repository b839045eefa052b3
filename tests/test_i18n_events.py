"""Spanish and Portuguese event texts of every game (``<game>.event.<kind>[.you|.none]``).

Every kind of event of Trash, Trex and Spit, in every preset, is a sentence of its
own in es and pt: never the engine's English sentence, never a placeholder left
over, every number of the English sentence kept, and in the second person when
the event is the viewing seat's.
"""

from __future__ import annotations

import json
import random
import re
import string
from collections import Counter
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

import cardtable
from cardtable.core.cards import Card
from cardtable.core.game import Event, PlayerView
from cardtable.core.registry import game_names
from cardtable.games.spit import view as spit_view
from cardtable.games.trash import view as trash_view
from cardtable.games.trex import view as trex_view
from cardtable.games.trex.actions import CX, NEGATIVES, TR, contract_code
from cardtable.i18n import catalog, event_text, translate

from .walk import played

LANGS = ("es", "pt")
FIELDS = {
    "who", "c", "n", "s",  # every event: the seat, the card, the value (else the slot) and its plural
    "contract", "place", "kingdom",  # Trex args
    "laid", "cards", "cards_s", "spit_cards", "spit_cards_s", "pile", "spit", "space", "onto",  # Spit args
    "points", "points_s", "total",
}
LEFTOVER = re.compile(r"\{[^{}]*\}")
KEY = re.compile(r"\b(?:trash|trex|spit|tui|web)\.[a-z_]+\.")
NUMBER = re.compile(r"\d+")
KINDS = {"trash": trash_view.EVENT_KINDS, "trex": trex_view.EVENT_KINDS, "spit": spit_view.EVENT_KINDS}

# (game, preset, options): every preset of every game, plus the variants that emit rarer
# kinds (four-player Trash, Trash's free draws and reveals, a shared Trash win after
# max_hands, Spit's same-rank stacking without auto flip, Spit ending at max_rounds).
GAMES = [(name, preset, {}) for name in game_names() for preset in cardtable.load(name).PRESETS] + [
    ("trash", None, {"players": 4}),
    ("trash", None, {"loser_free_draws": 2}),
    ("trash", None, {"players": 3, "max_hands": 2, "stall_reshuffles": 1}),
    ("spit", None, {"allow_same_rank_stacking": True, "auto_flip": False}),
    ("spit", None, {"max_rounds": 2}),
]
SEEDS = (1, 2, 3)


def covered(game: str, lang: str) -> set[str]:
    """The event kinds of ``game`` the ``lang`` catalog translates."""
    prefix = f"{game}.event."
    return {
        k[len(prefix) :].removesuffix(".one").removesuffix(".you").removesuffix(".none")
        for k in catalog(lang) if k.startswith(prefix)
    }


def placeholders(template: str) -> Counter[tuple[str, str]]:
    """The ``(field, format spec)`` replacement fields of a template."""
    return Counter((name, spec or "") for _, name, spec, _ in string.Formatter().parse(template) if name is not None)


def check(game: str, event: Event, view: Any) -> None:
    """``event`` as ``view``'s seat reads it in es and pt: a whole sentence of its own."""
    mine = event.seat is not None and event.seat == view.seat
    data = [event.seat, event.slot, event.value, *(v for _, v in event.args if isinstance(v, int))]
    numbers = {str(abs(x)) for x in data if x is not None} | set(NUMBER.findall(str(event.card or "")))
    sentence = event.text.replace(f"seat {event.seat}", "") if mine else event.text  # "you play …"
    english = [x for x in NUMBER.findall(sentence) if x in numbers]  # the event's numbers, not "2s"
    for lang in LANGS:
        text = event_text(game, event, view, lang)
        where = f"{game} {lang} {event.kind} seat={event.seat} view={view.seat} args={event.args}: {text!r}"
        assert text and text == text.strip() and "  " not in text, where  # no empty {who}
        assert text != event.text, where  # not the engine's English sentence
        assert not LEFTOVER.search(text), where
        assert not KEY.search(text), where  # no catalog key shown for a missing one
        assert not Counter(english) - Counter(NUMBER.findall(text)), f"{where} lost a number of {event.text!r}"
        if mine:
            assert translate("seat", lang, n=event.seat) not in text, where


def random_game(name: str, preset: str | None, options: dict[str, Any], seed: int, steps: int = 4000):
    """Views of seat 0 and of a spectator after every uniformly random action."""
    state = cardtable.load(name, preset, **options).new_state(seed=seed)
    for _ in played(state, random.Random(seed), steps):
        for seat in (0, None):
            yield state.view(seat)


@pytest.mark.parametrize(("name", "preset", "options"), GAMES)
@pytest.mark.parametrize("seed", SEEDS)
def test_every_event_of_a_random_game_renders_fully_in_spanish_and_portuguese(name, preset, options, seed):
    seen: set[str] = set()
    for view in random_game(name, preset, options, seed):
        for event in view.events:
            check(name, event, view)
            seen.add(event.kind)
    assert seen <= KINDS[name], f"kinds missing from {name}'s EVENT_KINDS: {seen - KINDS[name]}"
    assert len(seen) >= 8, seen


@pytest.mark.parametrize("name", sorted(KINDS))
@pytest.mark.parametrize("lang", LANGS)
def test_every_event_kind_of_every_game_has_a_sentence(name, lang):
    assert set(game_names()) == set(KINDS)
    assert KINDS[name] <= covered(name, lang), sorted(KINDS[name] - covered(name, lang))
    assert covered(name, lang) <= KINDS[name], sorted(covered(name, lang) - KINDS[name])
    # a kind the engine emits as a literal is one of its EVENT_KINDS, even one random play never reaches
    source = (Path(cardtable.__file__).parent / "games" / name / "state.py").read_text(encoding="utf-8")
    literal = set(re.findall(r'(?:\(\(|_event\()"([a-z_]+)",', source))
    assert len(literal) >= 10 and literal <= KINDS[name], sorted(literal - KINDS[name])


J_CLUBS, K_HEARTS, Q_SPADES, TEN_SPADES = (Card.parse(c).id for c in ("J♣", "K♥", "Q♠", "10♠"))
CONTRACTS = [*NEGATIVES, NEGATIVES[1] | NEGATIVES[2], NEGATIVES[0] | NEGATIVES[3], TR, CX]

# Engine event tuples of every kind, the rare ones included (a revoke, a tie-break deal,
# a shared win, no spit cards, a count of one), built into events by the engine's own code.
TREX_RAW = [  # (kind, seat, card, value)
    ("kingdom", 2, -1, 3), ("deal", 1, -1, 5), ("redeal_deal", 1, -1, 5), ("tiebreak_deal", 0, -1, 0),
    ("redeal", 3, -1, 0), ("keep", 3, -1, 0), *(("contract", 0, -1, m) for m in CONTRACTS),
    ("double", 1, K_HEARTS, 0), ("no_double", 1, -1, 0), ("play", 0, TEN_SPADES, 0), ("trick", 1, -1, 13),
    ("capture", 2, Q_SPADES, 0), ("revoke", 0, J_CLUBS, 0), ("pass", 3, -1, 0),
    *(("open", 1, J_CLUBS + 13 * s, s) for s in range(4)), *(("out", 2, -1, k) for k in range(4)),
    ("twos_exposed", -1, -1, 0), ("deal_over", -1, -1, 20), ("score", 0, -1, -75), ("score", 0, -1, 200),
    ("score", 0, -1, 0), ("game_over", 3, -1, 0), ("game_over", -1, -1, 0), ("tiebreak", 2, -1, 0),
]
SPIT_RAW = [  # (kind, seat, card, slot, value)
    ("round", -1, -1, 0, 3), ("deal", 0, -1, 11, 26), ("deal", 1, -1, 1, 16), ("deal", 1, -1, 0, 7),
    ("spit", 0, TEN_SPADES, 1, 0), ("play", 1, Q_SPADES, 0, 4), ("fill", 0, K_HEARTS, 3, 4),
    ("stack", 1, J_CLUBS, 2, 5), ("flip", 0, TEN_SPADES, 5, 0), ("request", 1, -1, 0, 0),
    ("withdraw", 1, -1, 0, 0), ("choose", 0, -1, 1, 0), ("blocked", -1, -1, 0, 0), ("round_end", 1, -1, 0, 0),
    ("round_end", -1, -1, 0, 0), ("slap", 0, -1, 1, 0), ("take", 1, -1, 1, 23), ("take", 0, -1, 0, 1),
    ("avoid", 0, -1, 0, 0), ("collect", 1, -1, 0, 30), ("collect", 0, -1, 0, 1), ("score", 1, -1, 4, 101),
    ("score", 0, -1, 1, 1), ("score", 0, -1, 0, 12), ("game_over", 0, -1, 0, 0), ("game_over", -1, -1, 0, 0),
]
TRASH_RAW = [  # (kind, seat, card, number)
    ("deal", 1, -1, 3), ("draw", 0, TEN_SPADES, 0), ("take", 1, J_CLUBS, 0), ("place", 0, TEN_SPADES, 10),
    ("turn_up", 1, Q_SPADES, 7), ("displace", 0, TEN_SPADES, 10), ("decline", 1, J_CLUBS, 4),
    ("discard", 0, K_HEARTS, 0), ("rebuild", 1, -1, 23), ("void", -1, -1, 0), ("complete", 0, -1, 0),
    ("free_draw", 1, -1, 1), ("free_draw", 0, -1, 3), ("reveal", 1, TEN_SPADES, 10), ("shrink", 0, -1, 9),
    ("shrink", 1, -1, 1), ("time_up", -1, -1, 0), ("match_over", 2, -1, 0), ("match_over", -1, -1, 0),
]


def with_seat(raw: tuple[Any, ...], seat: int) -> tuple[Any, ...]:
    return raw if raw[1] < 0 else (raw[0], seat, *raw[2:])


def built(name: str, raw: tuple[Any, ...], viewer: int | None) -> Event:
    """The event of an engine tuple, as the engine builds it for ``viewer``."""
    if name == "trex":
        return trex_view.build_event(0, *raw)
    if name == "spit":
        return spit_view.built_events([[raw], 0])[0]
    kind, seat, card, number = raw
    return Event(0, kind, None if seat < 0 else seat, None if card < 0 else Card.from_id(card), None, number,
                 trash_view.event_text(kind, seat, card, number, viewer))


RAW = {"trex": TREX_RAW, "spit": SPIT_RAW, "trash": TRASH_RAW}


@pytest.mark.parametrize("name", sorted(RAW))
def test_every_event_kind_renders_for_every_seat_even_the_rare_ones(name):
    """Kinds random play rarely reaches (a revoke, a tie-break, a shared win) fill in cleanly."""
    game = cardtable.load(name, players=4) if name == "trash" else cardtable.load(name)
    state = game.new_state(seed=1)
    views = [state.view(seat) for seat in (*range(game.num_players), None)]
    assert {raw[0] for raw in RAW[name]} == KINDS[name]
    for raw in RAW[name]:
        for seat in range(game.num_players):
            for view in views:
                check(name, built(name, with_seat(raw, seat), view.seat), view)


def render(name: str, raw: tuple[Any, ...], seat: int | None, lang: str) -> str:
    view = cardtable.load(name).new_state(seed=1).view(seat)
    return event_text(name, built(name, raw, seat), view, lang)


@pytest.mark.parametrize("name", ["trash", "trex", "spit"])
def test_the_seat_sees_its_own_events_in_the_second_person(name):
    for view in random_game(name, None, {}, 5, steps=400):
        for event in view.events:
            if view.seat != 0 or event.seat != 0 or f"{name}.event.{event.kind}.you" not in catalog("es"):
                continue  # not the seat's own event, or one told alike to all (a Trash rebuild)
            for lang in LANGS:
                mine = event_text(name, event, view, lang)
                assert "lugar 0" not in mine and "asiento 0" not in mine, (lang, mine)
                assert lang != "pt" or re.search(r"\b(você|seu|sua)\b", mine), mine


def test_a_contract_is_announced_by_its_translated_name():
    assert render("trex", ("contract", 1, -1, CONTRACTS[0]), None, "es") == "asiento 1 anuncia Rey de corazones"
    assert render("trex", ("contract", 0, -1, CONTRACTS[0]), 0, "pt") == "você anuncia Rei de copas"
    for mask in CONTRACTS:
        for lang in LANGS:
            names = [translate(f"tui.trex.contract.{part}", lang) for part in contract_code(mask).split("+")]
            assert render("trex", ("contract", 2, -1, mask), 0, lang).endswith(" + ".join(names))


def test_a_trex_place_is_an_ordinal_and_a_kingdom_counts_from_one():
    assert render("trex", ("out", 2, -1, 3), None, "es") == "asiento 2 sale en 4.º lugar"
    assert render("trex", ("out", 0, -1, 0), 0, "es") == "sales en 1.º lugar"
    assert render("trex", ("out", 0, -1, 1), 0, "pt") == "você sai em 2º"
    assert render("trex", ("kingdom", 0, -1, 3), None, "es") == "asiento 0 tiene el reino 4"


def test_spit_events_name_the_pile_and_the_spit_pile():
    eight_hearts, eight_spades = Card.parse("8♥").id, Card.parse("8♠").id
    assert render("spit", ("play", 0, eight_hearts, 1, 4), None, "es") == "asiento 0 juega 8♥ del montón 4 sobre S1"
    assert render("spit", ("play", 0, eight_hearts, 1, 4), 0, "pt") == "você joga 8♥ da pilha 4 em S1"
    assert render("spit", ("fill", 1, eight_spades, 3, 4), None, "es") == "asiento 1 mueve 8♠ del montón 4 al hueco 3"
    assert render("spit", ("score", 1, -1, 4, 101), 1, "es") == "anotas 4 puntos (total 101)"
    assert (
        render("spit", ("deal", 1, -1, 15, 30), None, "es")
        == "asiento 1 coloca 15 de 30 cartas en sus montones; 15 cartas de escupir"
    )


def test_a_count_of_one_is_singular():
    assert render("spit", ("take", 1, -1, 1, 1), None, "es") == "asiento 1 se lleva S1 (1 carta)"
    assert render("spit", ("take", 1, -1, 1, 23), None, "pt") == "lugar 1 leva S1 (23 cartas)"
    assert render("spit", ("score", 0, -1, 1, 7), None, "pt") == "lugar 0 marca 1 ponto (total 7)"
    assert render("spit", ("deal", 0, -1, 1, 16), 0, "es").endswith("; 1 carta de escupir")


def test_a_shared_win_or_a_round_nobody_ends_has_a_sentence_without_a_seat():
    assert render("spit", ("game_over", -1, -1, 0, 0), 0, "es") == "la partida termina en empate"
    assert render("spit", ("round_end", -1, -1, 0, 0), None, "pt").startswith("ninguém pode jogar")
    assert render("trex", ("game_over", -1, -1, 0), 0, "es") == "la partida termina con una victoria compartida"
    assert render("trash", ("match_over", -1, -1, 0), 0, "pt") == "a partida termina com uma vitória compartilhada"
    assert render("trex", ("game_over", 1, -1, 0), 1, "es") == "ganas la partida"


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
def test_second_person_and_seatless_forms_have_a_third_person_form(lang):
    """``event_text`` falls back from ``.you``/``.none`` to the plain key, never the other way;
    neither form names a seat."""
    keys = set(catalog(lang))
    for key in keys:
        if ".event." in key and key.endswith((".you", ".none")):
            assert key.rsplit(".", 1)[0] in keys, key
            assert "{who}" not in catalog(lang)[key], key


@pytest.mark.parametrize(("lang", "kind", "seat", "says"), [
    ("es", "shrink", 0, "tu tablero tiene ahora 1 casilla"),
    ("es", "shrink", 1, "el tablero de asiento 1 tiene ahora 1 casilla"),
    ("es", "free_draw", 0, "te queda 1 turno libre"),
    ("pt", "shrink", 0, "o seu layout agora tem 1 posição"),
    ("pt", "free_draw", 1, "lugar 1 tem 1 turno livre"),
])
def test_tr_a_count_of_one_reads_in_the_singular_in_spanish_and_portuguese(lang, kind, seat, says):
    """The last hand of a Trash match leaves a layout of 1 slot: Spanish and Portuguese said
    "1 casillas", "1 posições", "te quedan 1 turnos libres"; a ``.one`` sentence is taken for 1."""
    view = PlayerView("trash", 0, 2, 0, (), (), None)
    text = event_text("trash", Event(3, kind, seat, None, None, 1, "English", ()), view, lang)
    assert text == says
    many = event_text("trash", Event(3, kind, seat, None, None, 4, "English", ()), view, lang)
    assert "4 " in many and many != text


def test_sp16_portuguese_says_who_spits_alone_without_a_gender():
    """The log puts a person's or a bot's name where the sentence says the seat (Ana, Ben …):
    "Ana vai cuspir sozinho" was the masculine for every name. "só" is the same for anyone."""
    view = PlayerView("spit", 1, 2, -2, (), (), None)
    for seat in (0, 1):
        text = event_text("spit", Event(5, "choose", seat, None, None, 1, "English", ()), view, "pt")
        assert "cuspir só em S1" in text and "sozinh" not in text, text
