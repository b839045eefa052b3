"""Trex actions: every player decision of docs/rules/trex.md.

Canonical text forms (printed by ``str`` and read by :func:`parse_action`):

======================  ==============================================================
``QH``                  play a card: to a trick (TX-21, TX-22) or to the layout (TX-32)
``contract KH``         the kingdom holder announces a contract (TX-9). Codes: ``KH``
                        King of Hearts, ``QN`` Queens, ``DI`` Diamonds, ``TK`` Collections
                        (tricks), ``TR`` Trex, ``CX`` Complex (all four negatives, TX-V1),
                        or a ``complex_groups`` group joined with ``+`` (``contract QN+DI``)
``double KH``           double the King of Hearts or a queen (TX-15), exposing it
``done``                no (further) doubling
``redeal``              show the hand and force a redeal (TX-13)
``keep``                do not ask for a redeal
======================  ==============================================================

A Trex pass (TX-33) is not an action: the engine makes it and reports it as an event.
``parse_action`` also accepts ``play QH``, Unicode cards (``Q♥``, ``10♦``), ``10H``,
contract names after ``contract`` (``contract queens``, ``contract trex``,
``contract complex``), ``nodouble`` for ``done`` and ``no``/``stay`` for ``keep``.

Indices: a play is its card id (0..51); ``contract M`` is ``51 + M`` for the contract
mask ``M`` (KH 1, QN 2, DI 4, TK 8, any union of those, TR 16); ``double C`` is
68..72 for K♥, Q♣, Q♦, Q♥, Q♠; ``done`` 73, ``redeal`` 74, ``keep`` 75.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ...core.cards import KING_HEARTS, QUEENS, Card
from ...core.errors import ParseError
from ...core.game import Action

PLAY: Final = 0
CONTRACT: Final = 1
DOUBLE: Final = 2
DONE: Final = 3
REDEAL: Final = 4
KEEP: Final = 5

KH: Final = 1
QN: Final = 2
DI: Final = 4
TK: Final = 8
TR: Final = 16
CX: Final = KH | QN | DI | TK
NEGATIVES: Final = (KH, QN, DI, TK)

CODE: Final = {KH: "KH", QN: "QN", DI: "DI", TK: "TK", TR: "TR"}
NAME: Final = {KH: "King of Hearts", QN: "Queens", DI: "Diamonds", TK: "Collections", TR: "Trex"}

DOUBLABLE: Final = (KING_HEARTS, *QUEENS)


def contract_code(mask: int) -> str:
    """``KH``, ``QN+DI``, ``CX`` (all four negatives) or ``TR``."""
    if 0 <= mask < len(CONTRACT_CODES):
        return CONTRACT_CODES[mask]
    return _contract_code(mask)


def _contract_code(mask: int) -> str:
    if mask == CX:
        return "CX"
    if mask == TR:
        return "TR"
    return "+".join(CODE[m] for m in NEGATIVES if mask & m)


CONTRACT_CODES: Final = tuple(_contract_code(m) for m in range(2 * TR))
"""``CONTRACT_CODES[mask]`` is ``contract_code(mask)``, for the views."""


def contract_name(mask: int) -> str:
    """An English name: ``Queens``, ``Queens + Diamonds``, ``Complex``."""
    if mask == CX:
        return "Complex"
    if mask == TR:
        return "Trex"
    return " + ".join(NAME[m] for m in NEGATIVES if mask & m)


_CONTRACT_WORDS: Final = {
    "kh": KH, "king": KH, "kingofhearts": KH, "king-of-hearts": KH, "kingdom": KH,
    "qn": QN, "queens": QN, "queen": QN, "banat": QN,
    "di": DI, "diamonds": DI, "dinari": DI,
    "tk": TK, "tricks": TK, "collections": TK, "lutoosh": TK, "slaps": TK,
    "tr": TR, "trex": TR, "trix": TR,
    "cx": CX, "complex": CX,
}


def parse_contract(text: str) -> int:
    """The contract mask written as ``text`` (``KH``, ``QN+DI``, ``trex``, ``CX``)."""
    key = text.strip().lower().replace(" ", "")
    if key in _CONTRACT_WORDS:
        return _CONTRACT_WORDS[key]
    mask = 0
    for part in key.split("+"):
        m = _CONTRACT_WORDS.get(part)
        if m is None or m in (TR, CX) or mask & m:
            raise ParseError(f"not a contract: {text!r} (use KH, QN, DI, TK, TR, CX or e.g. QN+DI)")
        mask |= m
    return mask


_INTERNED: dict[tuple[int, int], TrexAction] = {}


@dataclass(frozen=True, slots=True, eq=False)
class TrexAction(Action):
    """A Trex action: ``kind`` (PLAY, CONTRACT, DOUBLE, DONE, REDEAL, KEEP) and
    ``arg`` (a card id for PLAY and DOUBLE, a contract mask for CONTRACT).

    Every action is interned: ``TrexAction(PLAY, 5) is A_PLAY[5]``, so equality
    and hashing are by identity, which keeps ``in`` and ``list.remove`` in C on
    the engine's hot path.
    """

    kind: int
    arg: int = 0

    def __new__(cls, kind: int = 0, arg: int = 0) -> TrexAction:
        known = _INTERNED.get((kind, arg))
        if known is not None:
            return known
        self = object.__new__(cls)
        _INTERNED[(kind, arg)] = self
        return self

    def __reduce__(self) -> tuple[object, tuple[int, int]]:
        return (TrexAction, (self.kind, self.arg))

    @property
    def index(self) -> int:
        kind = self.kind
        if kind == PLAY:
            return self.arg
        if kind == CONTRACT:
            return 51 + self.arg
        if kind == DOUBLE:
            return 68 + DOUBLABLE.index(self.arg)
        return 70 + kind  # DONE 73, REDEAL 74, KEEP 75

    @property
    def card(self) -> Card | None:
        """The card played or doubled, if any."""
        return Card.from_id(self.arg) if self.kind in (PLAY, DOUBLE) else None

    def __str__(self) -> str:
        kind = self.kind
        if kind == PLAY:
            return str(Card.from_id(self.arg))
        if kind == CONTRACT:
            return "contract " + contract_code(self.arg)
        if kind == DOUBLE:
            return "double " + str(Card.from_id(self.arg))
        return ("done", "redeal", "keep")[kind - DONE]

    def __repr__(self) -> str:
        return f"TrexAction.parse({str(self)!r})"

    @staticmethod
    def parse(text: str) -> TrexAction:
        return parse_action(text)


A_PLAY: Final = tuple(TrexAction(PLAY, c) for c in range(52))
"""``A_PLAY[c]``: play card ``c``."""
A_CONTRACT: Final = (None, *(TrexAction(CONTRACT, m) for m in range(1, 17)))
"""``A_CONTRACT[mask]``: announce the contract ``mask`` (1..16)."""
A_DOUBLE: Final = {c: TrexAction(DOUBLE, c) for c in DOUBLABLE}
A_DONE: Final = TrexAction(DONE)
A_REDEAL: Final = TrexAction(REDEAL)
A_KEEP: Final = TrexAction(KEEP)

ALL_ACTIONS: Final[tuple[TrexAction, ...]] = (
    *A_PLAY,
    *(a for a in A_CONTRACT if a is not None),
    *(A_DOUBLE[c] for c in DOUBLABLE),
    A_DONE,
    A_REDEAL,
    A_KEEP,
)
NUM_ACTIONS: Final = len(ALL_ACTIONS)

_WORDS: Final = {
    "done": A_DONE, "nodouble": A_DONE, "no double": A_DONE, "no-double": A_DONE,
    "redeal": A_REDEAL,
    "keep": A_KEEP, "no": A_KEEP, "stay": A_KEEP, "no redeal": A_KEEP,
}


def parse_action(text: str) -> TrexAction:
    """The action written as ``text``.

    >>> parse_action("QH"), parse_action("contract queens"), parse_action("double K♥")
    (TrexAction.parse('QH'), TrexAction.parse('contract QN'), TrexAction.parse('double KH'))
    """
    if not isinstance(text, str):
        raise ParseError(f"not a Trex action: {text!r}")
    key = " ".join(text.strip().split())
    low = key.lower()
    if low in _WORDS:
        return _WORDS[low]
    if low.startswith("contract "):
        return A_CONTRACT[parse_contract(key[9:])]  # type: ignore[return-value]
    if low.startswith("double "):
        card = _card(key[7:])
        if card.id not in A_DOUBLE:
            raise ParseError(f"only the King of Hearts and the queens can be doubled, not {card}")
        return A_DOUBLE[card.id]
    if low.startswith("play "):
        key = key[5:]
    try:
        return A_PLAY[_card(key).id]
    except ParseError:
        raise ParseError(
            f"not a Trex action: {text!r} (try: a card such as QH, contract KH, double QS, done, redeal, keep)"
        ) from None


def _card(text: str) -> Card:
    card = Card.parse(text)
    if card.is_joker:
        raise ParseError("Trex has no Jokers")
    return card


def action_from_index(index: int) -> TrexAction:
    """The action whose :attr:`TrexAction.index` is ``index``."""
    if not isinstance(index, int) or not 0 <= index < NUM_ACTIONS:
        raise ParseError(f"no Trex action has index {index!r}")
    return ALL_ACTIONS[index]
