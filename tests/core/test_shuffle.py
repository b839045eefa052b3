"""Issue #14: the compiled-friendly shuffle deals exactly what random.Random.shuffle deals
(so seeds keep their games, RULES.md §0.4 seeded chance)."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from cardtable.core.chance import derive
from cardtable.core.shuffle import shuffle_ids


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
