"""Cards, ranks, suits, Jokers and decks.

A :class:`Card` is an immutable value with a canonical ASCII text form
(``"QH"``, ``"TD"`` for the ten, ``"JK"`` for a Joker) and a Unicode display
form (``"Q♥"``). Inside the engines a card is its small integer :attr:`Card.id`:
``suit * 13 + rank - 1`` for the 52 standard cards and 52 for a Joker. Cards of
several decks are equal when they show the same face.

>>> Card.parse("QH")
Card.parse('QH')
>>> str(Card.parse("10d")), Card.parse("TD").unicode()
('TD', '10♦')
>>> Card.parse("JK").is_joker
True
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum
from typing import Final

from .errors import ParseError


class Suit(IntEnum):
    """The four suits, in the order used by card ids."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        return "CDHS"[self]

    @property
    def symbol(self) -> str:
        return "♣♦♥♠"[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.DIAMONDS, Suit.HEARTS)

    @classmethod
    def parse(cls, text: str) -> Suit:
        """A suit from its letter or symbol (``"H"``, ``"h"``, ``"♥"``)."""
        key = text.strip().upper()
        for suit in cls:
            if key in (suit.letter, suit.symbol, suit.name):
                return suit
        raise ParseError(f"not a suit: {text!r} (use C, D, H or S)")


class Rank(IntEnum):
    """Ranks by number: Ace is 1, Jack 11, Queen 12, King 13. Games give them their order."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def letter(self) -> str:
        """The one-character ASCII form (``T`` for ten)."""
        return _RANK_LETTERS[self]

    @property
    def label(self) -> str:
        """The display form (``10`` for ten)."""
        return "10" if self is Rank.TEN else _RANK_LETTERS[self]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """A rank from ``A 2 … 9 T/10 J Q K`` (any case)."""
        key = text.strip().upper()
        if key == "10":
            return cls.TEN
        if key == "1":
            return cls.ACE
        index = _RANK_LETTERS.find(key) if len(key) == 1 else -1
        if index <= 0:
            raise ParseError(f"not a rank: {text!r} (use A, 2-9, T or 10, J, Q, K)")
        return cls(index)


_RANK_LETTERS: Final = "?A23456789TJQK"

JOKER_ID: Final = 52
"""The card id of a Joker (all Jokers are alike)."""
NUM_CARD_IDS: Final = 53


class Card:
    """One playing card. Immutable and hashable; obtain one with :meth:`parse`,
    :meth:`of` or :meth:`from_id` (every id has exactly one instance)."""

    __slots__ = ("id",)
    id: int

    def __new__(cls, card_id: int) -> Card:
        if not isinstance(card_id, int) or not 0 <= card_id < NUM_CARD_IDS:
            raise ParseError(f"not a card id: {card_id!r}")
        try:
            return _ALL[card_id]
        except (NameError, IndexError):
            self = object.__new__(cls)
            object.__setattr__(self, "id", card_id)
            return self

    @staticmethod
    def from_id(card_id: int) -> Card:
        """The card with this engine id."""
        return _ALL[card_id]

    @staticmethod
    def of(rank: Rank | int, suit: Suit | int) -> Card:
        """The standard card of this rank and suit."""
        return _ALL[int(suit) * 13 + int(rank) - 1]

    @staticmethod
    def joker() -> Card:
        return _ALL[JOKER_ID]

    @staticmethod
    def parse(text: str) -> Card:
        """A card from its ASCII (``QH``, ``10d``, ``JK``) or Unicode (``Q♥``) text."""
        if not isinstance(text, str):
            raise ParseError(f"not card text: {text!r}")
        key = text.strip().upper()
        if key in ("JK", "JOKER", "🃏", "*"):
            return _ALL[JOKER_ID]
        if len(key) < 2:
            raise ParseError(f"not a card: {text!r} (write rank then suit, e.g. QH, 10D, JK)")
        try:
            return Card.of(Rank.parse(key[:-1]), Suit.parse(key[-1]))
        except ParseError:
            raise ParseError(
                f"not a card: {text!r} (write rank then suit, e.g. QH, 10D, JK)"
            ) from None

    @property
    def is_joker(self) -> bool:
        return self.id == JOKER_ID

    @property
    def rank(self) -> Rank:
        """The rank; a Joker has none."""
        if self.id == JOKER_ID:
            raise AttributeError("a Joker has no rank")
        return Rank(self.id % 13 + 1)

    @property
    def suit(self) -> Suit:
        """The suit; a Joker has none."""
        if self.id == JOKER_ID:
            raise AttributeError("a Joker has no suit")
        return Suit(self.id // 13)

    def unicode(self) -> str:
        """Display form, e.g. ``Q♥``, ``10♦``, ``🃏``."""
        return _UNICODE[self.id]

    def __str__(self) -> str:
        return _ASCII[self.id]

    def __repr__(self) -> str:
        return f"Card.parse({_ASCII[self.id]!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Card) and other.id == self.id

    def __lt__(self, other: Card) -> bool:
        return self.id < other.id

    def __hash__(self) -> int:
        return self.id

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Card.from_id, (self.id,))


def _ascii(card_id: int) -> str:
    if card_id == JOKER_ID:
        return "JK"
    return Rank(card_id % 13 + 1).letter + Suit(card_id // 13).letter


def _unicode(card_id: int) -> str:
    if card_id == JOKER_ID:
        return "🃏"
    return Rank(card_id % 13 + 1).label + Suit(card_id // 13).symbol


_ALL: Final[tuple[Card, ...]] = tuple(Card(i) for i in range(NUM_CARD_IDS))
_ASCII: Final = tuple(_ascii(i) for i in range(NUM_CARD_IDS))
_UNICODE: Final = tuple(_unicode(i) for i in range(NUM_CARD_IDS))

CARDS: Final = _ALL
"""``CARDS[id]`` is ``Card.from_id(id)``, without a call. For engines' views."""

RANK_OF: Final = tuple(i % 13 + 1 if i < JOKER_ID else 0 for i in range(NUM_CARD_IDS))
"""``RANK_OF[id]``: 1..13, or 0 for a Joker. For engines."""
SUIT_OF: Final = tuple(i // 13 if i < JOKER_ID else -1 for i in range(NUM_CARD_IDS))
"""``SUIT_OF[id]``: 0..3, or -1 for a Joker. For engines."""

# Suit ids and named card ids as plain ints, for engines and bots (the one place they are defined):
# ``HEARTS == Suit.HEARTS`` and ``KING_HEARTS == Card.parse("KH").id``.
CLUBS: Final = 0
DIAMONDS: Final = 1
HEARTS: Final = 2
SPADES: Final = 3
ACE_HEARTS: Final = 26
SEVEN_HEARTS: Final = 32
KING_HEARTS: Final = 38
QUEENS: Final = (11, 24, 37, 50)
"""``QUEENS[suit]``: the Queen of each suit."""
JACKS: Final = (10, 23, 36, 49)
"""``JACKS[suit]``: the Jack of each suit."""
TWOS: Final = (1, 14, 27, 40)
"""``TWOS[suit]``: the 2 of each suit."""
THREES: Final = (2, 15, 28, 41)
"""``THREES[suit]``: the 3 of each suit."""


def standard_deck(decks: int = 1, jokers_per_deck: int = 0) -> list[int]:
    """Card ids of ``decks`` 52-card decks plus Jokers, in id order (unshuffled)."""
    if decks < 1:
        raise ValueError("at least one deck")
    one = list(range(52)) + [JOKER_ID] * jokers_per_deck
    return one * decks


def parse_cards(items: Iterable[Card | str | int]) -> list[Card]:
    """Cards from a mix of :class:`Card`, card text and card ids; text may be one
    space- or comma-separated string."""
    if isinstance(items, str):
        items = items.replace(",", " ").split()
    out: list[Card] = []
    for item in items:
        if isinstance(item, Card):
            out.append(item)
        elif isinstance(item, bool):
            raise ParseError(f"not a card: {item!r}")
        elif isinstance(item, int):
            out.append(Card(item))
        else:
            out.append(Card.parse(item))
    return out


def cards_text(cards: Iterable[Card | int], unicode: bool = False) -> str:
    """Cards as space-separated text."""
    out = []
    for c in cards:
        card = c if isinstance(c, Card) else _ALL[c]
        out.append(card.unicode() if unicode else str(card))
    return " ".join(out)
