"""The provably fair scheme of core.chance (docs/fairness.md): determinism, uniform
Fisher–Yates, rejection sampling without modulo bias, multiple decks, and the
engines' deal hook."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

import cardtable
from cardtable.core.cards import Card, standard_deck
from cardtable.core.chance import (
    SEED_BYTES,
    FairShuffler,
    HmacStream,
    commitment,
    deal_label,
    fair_message,
    fair_seed,
    fisher_yates,
)
from cardtable.core.game import State
from cardtable.records.fairness import DealLog, Shuffle

from ..walk import walked

SERVER = bytes(range(32))
SEATS = [bytes([0xAA]) * 32, bytes([0xBB]) * 32]


def chi_square(counts: Counter[object], cells: list[object], total: int) -> float:
    expected = total / len(cells)
    return sum((counts[c] - expected) ** 2 / expected for c in cells)


def critical(df: int) -> float:
    """The chi-square value exceeded with probability 10⁻⁶ (Wilson–Hilferty): threat F1's
    fixed threshold; the seeds are fixed too, so the test never flakes."""
    k = 2 / (9 * df)
    return df * (1 - k + 4.7534 * k**0.5) ** 3


def test_f3_fair_shuffle_is_deterministic():
    a, b = list(range(52)), list(range(52))
    FairShuffler(SERVER, SEATS).shuffle(a, "deal", 3)
    FairShuffler(bytes(SERVER), list(SEATS)).shuffle(b, "deal", 3)
    assert a == b and sorted(a) == list(range(52)) and a != list(range(52))


@pytest.mark.parametrize("change", ["server", "seat0", "seat1", "label", "number", "order"])
def test_f3_fair_shuffle_depends_on_every_input(change):
    server, seats, labels = SERVER, list(SEATS), ("deal", 3)
    if change == "server":
        server = bytes([1]) + SERVER[1:]
    elif change == "seat0":
        seats[0] = bytes([0xAB]) + seats[0][1:]
    elif change == "seat1":
        seats[1] = seats[1][:-1] + bytes([0xBC])
    elif change == "label":
        labels = ("rebuild", 3)
    elif change == "number":
        labels = ("deal", 4)
    else:
        seats = seats[::-1]
    base, other = list(range(52)), list(range(52))
    FairShuffler(SERVER, SEATS).shuffle(base, "deal", 3)
    FairShuffler(server, seats).shuffle(other, *labels)
    assert base != other


def permutation_counts(size: int, total: int) -> Counter[object]:
    deals = FairShuffler(SERVER, SEATS)
    counts: Counter[object] = Counter()
    for i in range(total):
        cards = list(range(size))
        deals.shuffle(cards, "deal", i)
        counts[tuple(cards)] += 1
    return counts


@pytest.mark.parametrize("size,per_cell", [(3, 2000), (4, 500), (5, 150)])
def test_f1_fisher_yates_is_uniform_over_small_decks(size, per_cell):
    """Every permutation of a 3-, 4- or 5-card deck equally often (chi-square)."""
    cells: list[object] = list(itertools.permutations(range(size)))
    total = per_cell * len(cells)
    counts = permutation_counts(size, total)
    assert set(counts) == set(cells)
    assert chi_square(counts, cells, total) < critical(len(cells) - 1)


@pytest.mark.slow
@pytest.mark.parametrize("size", [4, 5])
def test_f1_fisher_yates_is_uniform_over_a_million_shuffles(size):
    """Threat F1 exactly: 10⁶ shuffles of a 4- and a 5-card deck."""
    cells: list[object] = list(itertools.permutations(range(size)))
    counts = permutation_counts(size, 10**6)
    assert chi_square(counts, cells, 10**6) < critical(len(cells) - 1)


def test_f1_fisher_yates_puts_every_card_everywhere_in_a_deck_of_52():
    """Position of the A♣ over many shuffles of 52 cards: uniform over the 52 places."""
    deals = FairShuffler(SERVER, SEATS)
    total = 52 * 100
    counts: Counter[object] = Counter()
    for i in range(total):
        cards = list(range(52))
        deals.shuffle(cards, "deal", i)
        counts[cards.index(0)] += 1
    cells: list[object] = list(range(52))
    assert chi_square(counts, cells, total) < critical(51)


def test_f1_rejection_sampling_has_no_modulo_bias_with_a_tiny_range():
    """With 1-byte words and n = 100, words 200..255 must be rejected: reading
    ``word % 100`` would make 0..55 half again as likely as 56..99."""
    n, width, total = 100, 1, 40_000
    stream = HmacStream(SERVER, b"bias test")
    draws = [stream.below(n, width) for _ in range(total)]
    cells: list[object] = list(range(n))
    fair = chi_square(Counter(draws), cells, total)
    assert fair < critical(99)
    assert stream.words > total  # some words were rejected
    raw = HmacStream(SERVER, b"bias test")
    words = [raw.word(width) for _ in range(stream.words)]
    assert draws == [w % n for w in words if w < 200]  # exactly the documented rule
    biased = chi_square(Counter(w % n for w in words), cells, len(words))
    assert biased > 10 * critical(99)  # the test can see modulo bias when it is there


def test_f4_rejection_sampling_with_a_range_that_divides_the_word_never_rejects():
    stream = HmacStream(SERVER, b"powers of two")
    draws = [stream.below(64, 1) for _ in range(1000)]
    assert stream.words == 1000 and max(draws) < 64


def test_f4_a_draw_outside_the_word_is_refused():
    with pytest.raises(ValueError, match="cannot draw below 257"):
        HmacStream(SERVER, b"x").below(257, 1)
    with pytest.raises(ValueError, match="cannot draw below 0"):
        HmacStream(SERVER, b"x").below(0)


def test_f4_the_stream_is_hmac_blocks_with_an_8_byte_counter():
    import hashlib
    import hmac

    stream = HmacStream(SERVER, b"msg")
    words = b"".join(stream.word().to_bytes(4, "big") for _ in range(16))
    expected = b"".join(hmac.new(SERVER, b"msg" + c.to_bytes(8, "big"), hashlib.sha256).digest() for c in (0, 1))
    assert words == expected and stream.counter == 2


def test_f4_fisher_yates_swaps_from_the_last_place_down():
    stream, copy = HmacStream(SERVER, b"fy"), HmacStream(SERVER, b"fy")
    cards = list("abcde")
    fisher_yates(cards, stream)
    expected = list("abcde")
    for i in range(4, 0, -1):
        j = copy.below(i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert cards == expected


@pytest.mark.parametrize("decks,jokers", [(2, 0), (3, 2), (4, 2)])
def test_f4_multiple_decks_shuffle_to_the_same_multiset(decks, jokers):
    cards = standard_deck(decks, jokers)
    shuffled = list(cards)
    FairShuffler(SERVER, SEATS).shuffle(shuffled, "deal", 0)
    assert Counter(shuffled) == Counter(cards) and shuffled != cards


def test_f1_a_card_of_a_double_deck_lands_anywhere():
    """Where one copy of the A♣ of a double deck lands: every eighth of the deck alike."""
    deals = FairShuffler(SERVER, SEATS)
    total = 104 * 60
    counts: Counter[object] = Counter()
    for i in range(total):
        cards = list(range(104))  # ids 0 and 52 stand for the two copies, told apart
        deals.shuffle(cards, "deal", i)
        counts[cards.index(0) // 8] += 1  # 13 buckets of 8 places
    cells: list[object] = list(range(13))
    assert chi_square(counts, cells, total) < critical(12)


def test_f4_seeds_and_labels_are_checked():
    with pytest.raises(ValueError, match="server seed has 31 bytes"):
        FairShuffler(bytes(31), SEATS)
    with pytest.raises(ValueError, match="seat 1's seed has 33 bytes"):
        FairShuffler(SERVER, [bytes(32), bytes(33)])
    with pytest.raises(ValueError, match="1 to 255 seats"):
        fair_message([], "deal:0")
    with pytest.raises(ValueError, match="deal label"):
        deal_label(())
    assert deal_label(("rebuild", 2, 1)) == "rebuild:2:1"
    assert len(fair_seed()) == SEED_BYTES and fair_seed() != fair_seed()
    assert commitment(bytes(32)).hex() == "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"


GAMES = [("trash", {}), ("trash", {"players": 5, "decks": 3, "jokers": True}), ("trex", {}),
         ("spit", {}), ("spit", {"scoring": "points", "points_round_mode": "fresh_deal"})]


def _play(state: State, seed: int, limit: int = 4000) -> None:
    walked(state, random.Random(seed), limit)


@pytest.mark.parametrize("name,options", GAMES)
def test_f4_a_fair_game_draws_every_shuffle_from_its_deals_and_ignores_its_seed(name, options):
    game = cardtable.load(name, **options)
    seats = [bytes([s + 1]) * 32 for s in range(game.num_players)]
    logs, histories = [], []
    for seed in (0, 12345):
        log = DealLog(FairShuffler(SERVER, seats))
        state = game.new_state(seed=seed, deals=log)
        _play(state, 7)
        logs.append(log.entries)
        histories.append([str(a) for a in state.history])
    assert logs[0] == logs[1] and histories[0] == histories[1]
    first = logs[0][0]
    assert isinstance(first, Shuffle) and first.label == "deal:0"
    ids = [Card.parse(t).id for t in first.before]  # the first deal shuffles the game's cards in id order
    assert ids == (list(game.cards) if name == "trash" else list(range(52)))


@pytest.mark.parametrize("name,options", GAMES)
def test_f4_a_fair_game_replays_from_the_same_deals(name, options):
    game = cardtable.load(name, **options)
    deals = FairShuffler(SERVER, [bytes([s + 9]) * 32 for s in range(game.num_players)])
    state = game.new_state(deals=deals)
    _play(state, 3)
    again = game.new_state(deals=deals)
    for action in state.history:
        again.play(str(action))
    assert again.view(None) == state.view(None) and again.outcome() == state.outcome()


def test_tr8_a_fair_trash_game_rebuilds_its_stock_from_the_deals_too():
    log = DealLog(FairShuffler(SERVER, SEATS))
    s = cardtable.load("trash").new_state(deals=log)
    s.play("stock")
    s.discard[:0], s.stock = s.stock, []  # white box: the stock has run out into the discards
    below = [Card.from_id(c) for c in s.discard[:-1]]
    s.play("stock")
    rebuild = log.entries[-1]
    assert isinstance(rebuild, Shuffle) and rebuild.label == "rebuild:1:0"
    assert list(rebuild.before) == [str(c) for c in below]
    expected = [c.id for c in below]
    FairShuffler(SERVER, SEATS).shuffle(expected, "rebuild", 1, 0)
    assert [Card.parse(t).id for t in rebuild.after] == expected
