"""Seeded chance.

Engines never touch the global ``random``. A game is seeded once; every shuffle
draws from a generator derived from ``(seed, label, counter)``, so a state only
carries the seed and a few counters, its clone is cheap, and a replay of the
same actions meets the same shuffles.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections.abc import MutableSequence
from typing import TypeVar

T = TypeVar("T")

MAX_SEED = 2**64 - 1


def fresh_seed() -> int:
    """A seed from the operating system's secure source, for production play."""
    return secrets.randbits(64)


def derive(seed: int, *labels: int | str) -> random.Random:
    """A generator determined by ``seed`` and ``labels`` alone.

    >>> derive(7, "deal", 1).random() == derive(7, "deal", 1).random()
    True
    """
    text = repr((seed, labels)).encode()
    digest = hashlib.blake2b(text, digest_size=16).digest()
    return random.Random(int.from_bytes(digest, "big"))


def shuffled(items: MutableSequence[T], seed: int, *labels: int | str) -> MutableSequence[T]:
    """Shuffle ``items`` in place with the derived generator and return it."""
    derive(seed, *labels).shuffle(items)
    return items
