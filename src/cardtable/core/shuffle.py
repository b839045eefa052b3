"""``random.Random.shuffle``'s exact algorithm, for lists of card ids, in a form the compiled build runs fast.

:func:`shuffle_ids` draws the same ``getrandbits`` values in the same order as
``rng.shuffle(items)`` (CPython's Fisher-Yates with ``_randbelow_with_getrandbits``),
so it deals the same cards; compiled, its loop runs in C. :func:`shuffle_ids_bulk` deals
the same cards from the same generator, reading its 32-bit words in one call instead of
one call per draw. The generator is still made by :mod:`cardtable.core.chance`.

>>> import random
>>> a, b, c = list(range(52)), list(range(52)), list(range(52))
>>> random.Random(7).shuffle(a); shuffle_ids(random.Random(7), b); shuffle_ids_bulk(random.Random(7), c)
>>> a == b == c
True
"""

from __future__ import annotations

from typing import Protocol, TypeVar

T = TypeVar("T")


class Bits(Protocol):
    """What a shuffle needs of its generator (a ``random.Random`` has it)."""

    def getrandbits(self, k: int, /) -> int: ...


def shuffle_ids(rng: Bits, items: list[T]) -> None:
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


def shuffle_ids_bulk(rng: Bits, items: list[T], first_words: int = 0) -> None:
    """Shuffle ``items`` in place exactly as ``rng.shuffle(items)`` would, for a generator
    used for this shuffle alone: it may read more of the generator than the shuffle uses.

    A Mersenne Twister's ``getrandbits(k)`` for ``k <= 32`` is its next 32-bit word shifted
    right by ``32 - k``, and ``getrandbits(32 * m)`` is its next ``m`` words, the first one
    lowest; so the words are read in one call and each draw shifts the next one. The call
    reads ``first_words`` words, by default 1.5 per draw plus 16 (a 52-card shuffle, its
    rejected draws included, takes 76 on average and more than 92 about once in a hundred),
    and more are read when they run out. A draw of at most 8 bits (fewer than 256 items left)
    is the top byte of its word shifted, so only that byte is read. Compiled, the bytes are
    read without making an int object per word: faster than :func:`shuffle_ids` there,
    slower in pure Python. Both functions take a list of anything (``T``): compiled, the
    items are then moved as objects, without converting each card id to a C integer and back.
    """
    i = len(items) - 1
    if i >= 1 << 31:  # a draw would need more than one word (never for cards)
        shuffle_ids(rng, items)
        return
    data = _words(rng, first_words or i + (i >> 1) + 16)
    w = 0  # the byte offset of the next word in data
    while i > 0:
        n = i + 1
        shift = 32 - n.bit_length()
        while True:
            if w == len(data):
                data = _words(rng, i + 16)
                w = 0
            if shift >= 24:  # the draw is within the top byte (data[w + 3], little-endian)
                j = data[w + 3] >> (shift - 24)
            else:
                j = (data[w] | data[w + 1] << 8 | data[w + 2] << 16 | data[w + 3] << 24) >> shift
            w += 4
            if j < n:  # else rejected, as _randbelow_with_getrandbits rejects it
                break
        items[i], items[j] = items[j], items[i]
        i -= 1


def _words(rng: Bits, m: int) -> bytes:
    """The generator's next ``m`` 32-bit words, little-endian, in the order it makes them."""
    return rng.getrandbits(32 * m).to_bytes(4 * m, "little")
