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
