"""The compiled-friendly shuffle deals exactly what random.Random.shuffle deals
(so seeds keep their games, docs/rules/index.md §0.3 seeded chance)."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from cardtable.core.chance import derive, shuffle_derived
from cardtable.core.shuffle import shuffle_ids, shuffle_ids_bulk


@given(st.integers(0, 2**64 - 1), st.integers(0, 520))
def test_shuffle_ids_equals_random_shuffle(seed: int, size: int) -> None:
    expected = list(range(size))
    random.Random(seed).shuffle(expected)
    got = list(range(size))
    shuffle_ids(random.Random(seed), got)
    assert got == expected


def test_shuffle_ids_leaves_the_generator_where_shuffle_does() -> None:
    a, b = derive(7, "deal", 1), derive(7, "deal", 1)
    a.shuffle(list(range(104)))
    shuffle_ids(b, list(range(104)))
    assert a.random() == b.random()


@given(st.integers(0, 2**64 - 1), st.integers(0, 520), st.integers(0, 3))
def test_shuffle_ids_bulk_equals_random_shuffle(seed: int, size: int, first_words: int) -> None:
    """Seeded deals unchanged: the bulk reading deals what random.shuffle deals, also
    when its words run out (``first_words`` 1 to 3 makes it read more many times)."""
    expected = list(range(size))
    random.Random(seed).shuffle(expected)
    got = list(range(size))
    shuffle_ids_bulk(random.Random(seed), got, first_words)
    assert got == expected


@given(st.integers(0, 2**64 - 1), st.sampled_from([("deal", 0), ("rebuild", 3, 1), ("round", 2)]))
def test_shuffle_derived_equals_derive_then_shuffle(seed: int, labels: tuple[str | int, ...]) -> None:
    """The engines' deal (a C generator, read in bulk when compiled) is
    ``derive(seed, *labels).shuffle``, on either build."""
    expected = list(range(104))
    derive(seed, *labels).shuffle(expected)
    got = list(range(104))
    shuffle_derived(got, seed, *labels)
    assert got == expected


@given(st.integers(-(2**70), 2**70), st.lists(st.one_of(st.integers(), st.text()), max_size=4))
def test_derived_key_digests_the_repr_of_seed_and_labels(seed: int, labels: list[int | str]) -> None:
    """Every seed keeps its games: the key is the BLAKE2 digest of ``repr((seed, labels))``,
    whichever labels (none, one, several; quotes and other characters in the text ones)."""
    import hashlib

    from cardtable.core.chance import derived_key, labels_key

    text = repr((seed, tuple(labels)))
    expected = int.from_bytes(hashlib.blake2b(text.encode(), digest_size=16).digest(), "big")
    assert derived_key(seed, *labels) == labels_key(seed, tuple(labels)) == expected


@given(st.integers(0, 2**64 - 1), st.integers(0, 40))
def test_keyed_shuffle_sorts_by_shake_keys(seed: int, number: int) -> None:
    """The Trex deal: each card sorted on its 64-bit SHAKE-128 key of ``(seed, "deal", number)``."""
    import hashlib

    from cardtable.core.chance import deal_shuffle

    digest = hashlib.shake_128(repr((seed, "deal", number)).encode()).digest(52 * 8)
    keys = [int.from_bytes(digest[8 * i:8 * i + 8], "little") for i in range(52)]
    got = list(range(52))
    deal_shuffle(got, seed, None, ("deal", number), keyed=True)
    assert got == sorted(range(52), key=keys.__getitem__)


def test_one_shuffle_serves_every_engine() -> None:
    """``deal_shuffle`` draws from a fair game's deal source when there is one, else from the seed."""
    from cardtable.core.chance import FairShuffler, deal_shuffle

    fair = FairShuffler(bytes(32), [bytes([1]) * 32])
    a, b = list(range(20)), list(range(20))
    deal_shuffle(a, 5, fair, ("deal", 0))
    fair.shuffle(b, "deal", 0)
    assert a == b
    c, d = list(range(20)), list(range(20))
    deal_shuffle(c, 5, None, ("deal", 0))
    shuffle_derived(d, 5, "deal", 0)
    assert c == d
