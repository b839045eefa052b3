"""Seeded chance.

Engines never touch the global ``random``. A game is seeded once; every shuffle
draws from a generator derived from ``(seed, label, counter)``, so a state only
carries the seed and a few counters, its clone is cheap, and a replay of the
same actions meets the same shuffles.

A provably fair game (docs/fairness.md) draws them instead from a
:class:`FairShuffler`: HMAC-SHA256 under a committed server seed over every
seat's seed, Fisher–Yates with rejection sampling.
"""

from __future__ import annotations

import _random
import hashlib
import hmac
import random
import secrets
from collections.abc import MutableSequence, Sequence
from typing import Protocol, TypeVar

from .build import COMPILED
from .shuffle import shuffle_ids, shuffle_ids_bulk

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
    return random.Random(derived_key(seed, *labels))


def derived_key(seed: int, *labels: int | str) -> int:
    """The seed of :func:`derive`'s generator: a 128-bit BLAKE2 digest of ``repr((seed, labels))``."""
    return labels_key(seed, labels)


def labels_key(seed: int, labels: tuple[int | str, ...]) -> int:
    """:func:`derived_key` with the labels in one tuple, as the engines' shuffles hold them.

    The text digested is ``repr((seed, labels))`` written out part by part: the repr of a
    tuple guards against recursion through a per-thread dict, which costs more than the
    rest of the text (tests/core/test_shuffle.py checks that the text is the same).
    """
    parts = ", ".join([repr(label) for label in labels])
    if len(labels) == 1:
        parts += ","  # the repr of a 1-tuple: ('deal',)
    text = "(" + repr(seed) + ", (" + parts + "))"
    digest = hashlib.blake2b(text.encode(), digest_size=16).digest()
    return int.from_bytes(digest, "big")


def shuffle_derived(items: list[int], seed: int, *labels: int | str) -> None:
    """Shuffle ``items`` in place exactly as ``derive(seed, *labels).shuffle(items)`` does.

    Faster, for the engines' deals: the generator is the C Mersenne Twister under
    ``random.Random``, seeded with the same integer (so in the same state) without the
    Python layer's ``__init__`` and ``seed``; compiled, it is read in bulk, as it serves this
    shuffle alone (:func:`~cardtable.core.shuffle.shuffle_ids_bulk`).

    >>> a, b = list(range(52)), list(range(52))
    >>> derive(7, "deal", 1).shuffle(a); shuffle_derived(b, 7, "deal", 1); a == b
    True
    """
    _shuffle_keyed_generator(items, labels_key(seed, labels))


def _shuffle_keyed_generator(items: list[int], key: int) -> None:
    """Shuffle ``items`` in place as ``random.Random(key).shuffle(items)`` does (see :func:`shuffle_derived`)."""
    rng = _random.Random(key)
    if COMPILED:
        shuffle_ids_bulk(rng, items)
    else:
        shuffle_ids(rng, items)


def keyed_shuffle(items: list[int], seed: int, *labels: int | str) -> None:
    """Shuffle ``items`` in place by sorting them on keys drawn for ``(seed, *labels)``.

    Each position gets a 64-bit key from SHAKE-128 of ``repr((seed, *labels))``; a uniform
    permutation (a key collision has probability below 1e-16) that costs a few microseconds
    for a deck, where :func:`shuffle_derived` costs tens. Trex deals with it.

    >>> a, b = list(range(52)), list(range(52))
    >>> keyed_shuffle(a, 7, "deal", 1); keyed_shuffle(b, 7, "deal", 1); a == b and sorted(a) == list(range(52))
    True
    """
    digest = hashlib.shake_128(repr((seed, *labels)).encode()).digest(len(items) * 8)
    keys = memoryview(digest).cast("Q").tolist()
    order = sorted(range(len(items)), key=keys.__getitem__)
    items[:] = [items[i] for i in order]


def deal_shuffle(
    items: list[int], seed: int, deals: DealSource | None, labels: tuple[int | str, ...], keyed: bool = False
) -> None:
    """The one shuffle of the engines: ``items`` in place for the chance event ``labels``, from
    a provably fair game's ``deals`` when it has them, else from ``seed`` (:func:`shuffle_derived`,
    or :func:`keyed_shuffle` for a game that deals with it)."""
    if deals is not None:
        deals.shuffle(items, *labels)
    elif keyed:
        keyed_shuffle(items, seed, *labels)
    else:
        _shuffle_keyed_generator(items, labels_key(seed, labels))  # shuffle_derived, labels kept in their tuple


def shuffled(items: MutableSequence[T], seed: int, *labels: int | str) -> MutableSequence[T]:
    """Shuffle ``items`` in place with the derived generator and return it."""
    derive(seed, *labels).shuffle(items)
    return items


# ------------------------------------------------------------------ provably fair deals
# The commit–reveal scheme of docs/fairness.md: a game whose state carries a
# DealSource draws every shuffle and every chance pick from it instead of from
# its seed. FairShuffler is the one such source: HMAC-SHA256 keyed with the
# server seed over the seats' seeds and the shuffle's label, read as 32-bit
# words, each uniform draw by rejection sampling, shuffles by Fisher–Yates.

SCHEME = "cardtable-fair/1"
"""The scheme's name and version; part of every HMAC message (docs/fairness.md)."""
SEED_BYTES = 32
"""Every seed of the scheme (the server's and each seat's) is 32 bytes."""
WORD_BYTES = 4
"""A draw reads a 32-bit big-endian word from the HMAC stream."""
_BLOCK_BYTES = 32


def fair_seed() -> bytes:
    """A new 32-byte seed from the operating system's secure source."""
    return secrets.token_bytes(SEED_BYTES)


def commitment(seed: bytes) -> bytes:
    """The SHA-256 commitment to ``seed``: published before the seed is revealed."""
    return hashlib.sha256(seed).digest()


def deal_label(labels: tuple[int | str, ...]) -> str:
    """The label text of a shuffle: its parts joined by ``:`` (``("deal", 0)`` is ``deal:0``)."""
    text = ":".join(str(part) for part in labels)
    if not text or not text.isascii() or "\x00" in text:
        raise ValueError(f"a deal label is non-empty ASCII without NUL, not {text!r}")
    return text


def fair_message(seat_seeds: Sequence[bytes], label: str) -> bytes:
    """The HMAC message prefix of one shuffle (the 8-byte counter follows it)."""
    if not 1 <= len(seat_seeds) <= 255:
        raise ValueError(f"the scheme takes 1 to 255 seats, not {len(seat_seeds)}")
    for seat, seed in enumerate(seat_seeds):
        if len(seed) != SEED_BYTES:
            raise ValueError(f"seat {seat}'s seed has {len(seed)} bytes, not {SEED_BYTES}")
    return b"".join((SCHEME.encode(), b"\x00", bytes((len(seat_seeds),)), *seat_seeds, label.encode(), b"\x00"))


class HmacStream:
    """The bytes ``HMAC(key, message ‖ counter)`` for counter 0, 1, 2, … (8 bytes,
    big-endian) one after the other, read as unsigned big-endian words."""

    def __init__(self, key: bytes, message: bytes) -> None:
        self._mac = hmac.new(key, message, hashlib.sha256)
        self.counter = 0
        """The counter of the next block to compute."""
        self._buffer = b""
        self._pos = 0
        self.words = 0
        """Words read so far (rejected ones included)."""

    def _block(self) -> bytes:
        mac = self._mac.copy()
        mac.update(self.counter.to_bytes(8, "big"))
        self.counter += 1
        return mac.digest()

    def word(self, width: int = WORD_BYTES) -> int:
        """The next ``width`` bytes of the stream as an unsigned big-endian integer."""
        while len(self._buffer) - self._pos < width:
            self._buffer = self._buffer[self._pos:] + self._block()
            self._pos = 0
        start = self._pos
        self._pos += width
        self.words += 1
        return int.from_bytes(self._buffer[start:self._pos], "big")

    def below(self, n: int, width: int = WORD_BYTES) -> int:
        """A uniform integer in ``range(n)``: words at or above the largest multiple
        of ``n`` that fits in ``width`` bytes are rejected (no modulo bias)."""
        span = 1 << (8 * width)
        if not 1 <= n <= span:
            raise ValueError(f"cannot draw below {n} from {width}-byte words")
        limit = span - span % n
        while True:
            value = self.word(width)
            if value < limit:
                return value % n


def fisher_yates(items: MutableSequence[T], stream: HmacStream, width: int = WORD_BYTES) -> None:
    """Shuffle ``items`` in place: for ``i`` from the last index down to 1, swap
    item ``i`` with item ``j = stream.below(i + 1)``."""
    for i in range(len(items) - 1, 0, -1):
        j = stream.below(i + 1, width)
        items[i], items[j] = items[j], items[i]


class DealSource(Protocol):
    """Where a game draws its shuffles and chance picks when not from its seed.

    An engine given one calls :meth:`shuffle` for every shuffle and :meth:`below`
    for every other chance pick, each with the labels it would give
    :func:`derive`; so a replay of the same actions with the same source meets
    the same deals. A source is immutable, so clones of a state share it.
    A protocol, not a base class: a source written outside the compiled core (a
    verifier's log, a test's) is one by having these two methods.
    """

    def shuffle(self, items: list[int], *labels: int | str) -> None:
        """Shuffle ``items`` in place for the shuffle named by ``labels``."""

    def below(self, n: int, *labels: int | str) -> int:
        """A uniform integer in ``range(n)`` for the pick named by ``labels``."""


class FairShuffler:
    """The deals of a provably fair game, determined by the revealed seeds alone.

    >>> deals = FairShuffler(bytes(32), [bytes([1]) * 32, bytes([2]) * 32])
    >>> cards = list(range(10))
    >>> deals.shuffle(cards, "deal", 0)
    >>> sorted(cards) == list(range(10)) and cards != list(range(10))
    True
    """

    def __init__(self, server_seed: bytes, seat_seeds: Sequence[bytes]) -> None:
        if len(server_seed) != SEED_BYTES:
            raise ValueError(f"the server seed has {len(server_seed)} bytes, not {SEED_BYTES}")
        fair_message(seat_seeds, "check")
        self.server_seed = bytes(server_seed)
        self.seat_seeds = tuple(bytes(s) for s in seat_seeds)

    def stream(self, *labels: int | str) -> HmacStream:
        """The HMAC stream of the shuffle or pick named by ``labels``."""
        return HmacStream(self.server_seed, fair_message(self.seat_seeds, deal_label(labels)))

    def shuffle(self, items: list[int], *labels: int | str) -> None:
        fisher_yates(items, self.stream(*labels))

    def below(self, n: int, *labels: int | str) -> int:
        return self.stream(*labels).below(n)
