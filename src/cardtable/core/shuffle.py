"""``random.Random.shuffle``'s exact algorithm, for lists of card ids (issue #14).

:func:`shuffle_ids` draws the same ``getrandbits`` values in the same order as
``rng.shuffle(items)`` (CPython's Fisher-Yates with ``_randbelow_with_getrandbits``),
so it deals the same cards; compiled, its loop runs in C. The generator is still made
by :mod:`cardtable.core.chance`.

>>> import random
>>> a, b = list(range(52)), list(range(52))
>>> random.Random(7).shuffle(a); shuffle_ids(random.Random(7), b); a == b
True
"""

from __future__ import annotations

from typing import Protocol


class Bits(Protocol):
    """What a shuffle needs of its generator (a ``random.Random`` has it)."""

    def getrandbits(self, k: int, /) -> int: ...


def shuffle_ids(rng: Bits, items: list[int]) -> None:
    """Shuffle ``items`` in place exactly as ``rng.shuffle(items)`` would."""
    getrandbits = rng.getrandbits
    i = len(items) - 1
    while i > 0:
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)  # random._randbelow_with_getrandbits(n)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]
        i -= 1
