"""cardtable.core: cards, options, seats, chance, registry."""

from __future__ import annotations

import pickle
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardtable
from cardtable.core import (
    Card,
    ConfigError,
    Option,
    ParseError,
    Rank,
    Suit,
    cards_text,
    next_seat,
    parse_cards,
    prev_seat,
    seats_from,
    standard_deck,
)
from cardtable.core.chance import derive
from cardtable.core.options import parse_pairs, resolve


@given(st.integers(0, 52))
def test_card_text_round_trips(card_id):
    card = Card.from_id(card_id)
    assert Card.parse(str(card)) is card
    assert Card.parse(card.unicode()) is card
    assert eval(repr(card), {"Card": Card}) is card
    assert pickle.loads(pickle.dumps(card)) is card
    assert hash(card) == card_id


def test_card_forms():
    assert str(Card.parse("10h")) == "TH" and Card.parse("TH").unicode() == "10♥"
    assert Card.parse("q♠") == Card.of(Rank.QUEEN, Suit.SPADES)
    assert Card.parse("1C").rank is Rank.ACE
    assert Card.joker().is_joker and str(Card.joker()) == "JK"
    with pytest.raises(AttributeError):
        Card.joker().rank  # noqa: B018
    with pytest.raises(AttributeError):
        Card.parse("AS").id = 3  # type: ignore[misc]
    assert Card.parse("AH").suit.is_red and not Card.parse("AS").suit.is_red


def test_named_card_ids_are_the_cards_they_name():
    """Card constants from one module: core.cards defines each suit id and named card id once;
    the engines and bots import them from there."""
    from cardtable.core import cards

    assert [int(s) for s in Suit] == [cards.CLUBS, cards.DIAMONDS, cards.HEARTS, cards.SPADES]
    assert Card.from_id(cards.ACE_HEARTS) == Card.parse("AH")
    assert Card.from_id(cards.SEVEN_HEARTS) == Card.parse("7H")
    assert Card.from_id(cards.KING_HEARTS) == Card.parse("KH")
    named = ((Rank.QUEEN, cards.QUEENS), (Rank.JACK, cards.JACKS), (Rank.TWO, cards.TWOS), (Rank.THREE, cards.THREES))
    for rank, ids in named:
        assert ids == tuple(Card.of(rank, suit).id for suit in Suit)


@pytest.mark.parametrize("text", ["", "Q", "QX", "11H", "ZZ", "AHH", "JOKERS"])
def test_bad_card_text(text):
    with pytest.raises(ParseError):
        Card.parse(text)


def test_decks_and_card_lists():
    assert len(standard_deck()) == 52 and len(set(standard_deck())) == 52
    assert len(standard_deck(3, 2)) == 162 and standard_deck(1, 2).count(52) == 2
    assert cards_text(parse_cards("AS, 10d JK")) == "AS TD JK"
    assert cards_text(parse_cards([0, "KS"]), unicode=True) == "A♣ K♠"


def test_seats_go_round():
    assert next_seat(3, 4) == 0 and prev_seat(0, 4) == 3 and seats_from(1, 3) == (1, 2, 0)


def test_derived_chance_is_reproducible_and_separate():
    assert derive(1, "deal", 0).random() == derive(1, "deal", 0).random()
    assert derive(1, "deal", 0).random() != derive(1, "deal", 1).random()
    assert derive(1, "deal", 0).random() != derive(2, "deal", 0).random()


SPECS = (
    Option("n", int, 2, "X-1", "a count", minimum=2, maximum=8),
    Option("mode", str, "a", "X-2", "a mode", choices=("a", "b")),
    Option("flag", bool, False, "X-3", "a switch"),
    Option("limit", float, None, "X-4", "a limit", nullable=True, minimum=0.5),
    Option("mixed", object, True, "X-5", "bool or word", choices=(True, False, "only")),
)
PRESETS = {"standard": {}, "big": {"n": 6}}


def test_options_resolve_presets_and_overrides():
    opts = resolve("x", SPECS, PRESETS, "big", {"mode": "b", "limit": "2.5", "mixed": "only"})
    assert (opts.n, opts.mode, opts.limit, opts.mixed, opts.flag) == (6, "b", 2.5, "only", False)
    assert opts.preset == "big" and dict(opts)["n"] == 6
    assert resolve("x", SPECS, PRESETS, None, {"flag": "yes", "mixed": "false"}).mixed is False
    with pytest.raises(AttributeError):
        opts.n = 3


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"n": 1}, "below"),
        ({"n": 9}, "above"),
        ({"n": "two"}, "not a int"),
        ({"n": True}, "not a int"),
        ({"mode": "c"}, "not one of"),
        ({"flag": "maybe"}, "true or false"),
        ({"limit": 0.1}, "below"),
        ({"mixed": "sometimes"}, "not one of"),
        ({"colour": 1}, "no option"),
    ],
)
def test_bad_options_are_config_errors(overrides, message):
    with pytest.raises(ConfigError, match=message):
        resolve("x", SPECS, PRESETS, None, overrides)


@pytest.mark.parametrize(
    ("game", "option"),
    [("trash", "time_limit"), ("spit", "spit_delay"), ("spit", "slap_timeout")],
)
@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf"), "NaN", "Infinity"])
def test_non_finite_float_options_are_config_errors(game, option, value):
    # A NaN passes every comparison with a bound (one such table broke the lobby).
    with pytest.raises(ConfigError, match="finite"):
        cardtable.load(game, **{option: value})


@pytest.mark.parametrize(
    ("game", "name", "value", "off", "on", "needs"),
    [
        ("trash", "tiebreak_extra_hands", True, {}, {"max_hands": 3}, "max_hands or time_limit (TR-V2, TR-A10)"),
        ("trex", "complex_groups", "KH+QN,DI+TK", {}, {"complex_mode": True}, "complex_mode=true (TX-V1)"),
        ("trex", "partnership_expose_twos", False, {}, {"partnership": True}, "partnership=true (TX-V2)"),
        ("trex", "doubled_self_capture", "quadruple", {"doubling": False}, {"doubling": "queens_only"},
         "doubling (TX-15, TX-16)"),
        ("trex", "redeal_timing", "after_announcement", {"redeal_requests": False}, {"redeal_requests": "kh_only"},
         "redeal_requests (TX-13)"),
        ("spit", "points_limit", 50, {}, {"scoring": "points"}, "scoring=points (SP-V1)"),
    ],
)
def test_an_option_that_would_change_nothing_is_refused(game, name, value, off, on, needs):
    """TR-A10, TX-V1, TX-V2, TX-16, TX-13, SP-V1: a value other than its default for an option
    that applies only with another is refused, naming what it needs, never silently ignored; its
    default value, or the option with what it needs, is accepted."""
    with pytest.raises(ConfigError, match=rf"option {name}: it applies only with {re.escape(needs)}"):
        cardtable.load(game, **off, **{name: value})
    default = cardtable.load(game).options[name]
    assert cardtable.load(game, **off, **{name: default}).options[name] == default
    assert cardtable.load(game, **on, **{name: value}).options[name] == value


def test_word_options_written_with_spaces_and_tuples_that_are_not_whole_numbers():
    """A word option written `key = value` on a command line is read without the spaces, as a
    true/false one is; a tuple of numbers that are not whole says so."""
    assert cardtable.load("trash", **parse_pairs(["wild_mode = kings"])).options.wild_mode == "kings"
    with pytest.raises(ConfigError, match="not whole numbers separated by commas"):
        cardtable.load("trex", **parse_pairs(["trex_payouts=(200,150,100,50.5)"]))


def test_unknown_preset():
    with pytest.raises(ConfigError, match="no preset"):
        resolve("x", SPECS, PRESETS, "tiny", {})


@pytest.mark.parametrize("size", [4, 5])
def test_f1_shuffles_are_uniform_over_permutations(size: int):
    """Every ordering of a small deck is equally likely (chi-square over all permutations, a fixed
    p > 1e-6 threshold so the test does not flake) for the derived generator behind every deal."""
    import math
    from collections import Counter

    from cardtable.core.chance import shuffled

    perms = math.factorial(size)
    draws = 600 * perms
    counts = Counter(tuple(shuffled(list(range(size)), seed, "deal", 1)) for seed in range(draws))
    assert len(counts) == perms
    expected = draws / perms
    chi2 = sum((counts[p] - expected) ** 2 / expected for p in counts)
    # Wilson-Hilferty: the chi-square quantile for p = 1e-6 with perms - 1 degrees of freedom
    k = perms - 1
    z = 4.753  # the standard normal quantile of 1 - 1e-6
    limit = k * (1 - 2 / (9 * k) + z * math.sqrt(2 / (9 * k))) ** 3
    assert chi2 < limit, (chi2, limit)
