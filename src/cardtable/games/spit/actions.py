"""Spit actions (docs/rules/spit.md §3.3–§3.6). Every action carries its seat; the two
timer actions are the host's (their seat is ``None``).

Canonical text forms (printed by ``str`` and read by :func:`parse_action`).
Stock piles are numbered 1–5 from the left of their owner; ``S0`` and ``S1``
are the spit piles started by seat 0 and seat 1 (SP-6). Cards are written as
in :mod:`cardtable.core.cards` (``QH``, ``TD``).

=====================  =================================================================
``0 play 3 QH S1``     seat 0 plays QH, the top of its stock pile 3, onto spit pile S1 (SP-7)
``0 fill 2 QH 4``      seat 0 moves QH, the top of pile 2, into empty space 4 (SP-9)
``0 flip 3``           seat 0 turns up the face-down top of pile 3 (SP-8, ``auto_flip`` off)
``0 stack 2 QH 4``     seat 0 moves QH from pile 2 onto pile 4, whose top is a Queen
                       (SP-12 extension, ``allow_same_rank_stacking`` on)
``0 spit``             seat 0 asks for a spit by mutual request (SP-17)
``0 unspit``           seat 0 withdraws that request (SP-17)
``0 choose S1``        a lone spitter picks the pile for its lone spits this round (SP-16)
``0 slap S1``          seat 0 slaps spit pile S1 at the end of a round (SP-20, SP-22)
``timer spit``         the host: ``spit_delay`` has passed in a blocked position (SP-16)
``timer slap``         the host: ``slap_timeout`` has passed with nobody slapping (SP-20, SP-22)
=====================  =================================================================

``parse_action`` is case-insensitive and also accepts ``p0`` for a seat and
``0``/``1`` for a spit pile.

>>> parse_action("0 play 3 QH S1")
SpitAction.parse('0 play 3 QH S1')
>>> parse_action("1 SLAP s0").index == action_from_index(parse_action("1 slap S0").index).index
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ...core.cards import Card
from ...core.errors import ParseError
from ...core.game import Action

PLAY: Final = "play"
FILL: Final = "fill"
STACK: Final = "stack"
FLIP: Final = "flip"
SPIT: Final = "spit"
UNSPIT: Final = "unspit"
CHOOSE: Final = "choose"
SLAP: Final = "slap"
TIMER_SPIT: Final = "timer_spit"
TIMER_SLAP: Final = "timer_slap"

SEATS: Final = 2
PILES: Final = 5
CARDS: Final = 52

# Index layout (stable): each block in seat-major order.
_PLAY0: Final = 0  # ((seat*5 + pile-1)*52 + card)*2 + spit pile
_FILL0: Final = _PLAY0 + SEATS * PILES * CARDS * 2  # ((seat*5 + pile-1)*52 + card)*5 + space-1
_STACK0: Final = _FILL0 + SEATS * PILES * CARDS * PILES
_FLIP0: Final = _STACK0 + SEATS * PILES * CARDS * PILES  # seat*5 + pile-1
_SPIT0: Final = _FLIP0 + SEATS * PILES  # seat
_UNSPIT0: Final = _SPIT0 + SEATS
_CHOOSE0: Final = _UNSPIT0 + SEATS  # seat*2 + spit pile
_SLAP0: Final = _CHOOSE0 + SEATS * 2
_TIMER0: Final = _SLAP0 + SEATS * 2  # spit, slap
NUM_ACTIONS: Final = _TIMER0 + 2


@dataclass(frozen=True, slots=True)
class SpitAction(Action):
    """A Spit action.

    ``seat`` is the acting seat (``None`` for a timer); ``pile`` a stock pile
    1–5; ``card`` the card id it moves (``-1`` when it names none); ``target``
    a spit pile 0/1 (``play``, ``choose``, ``slap``) or a stock space 1–5
    (``fill``, ``stack``).
    """

    kind: str
    seat: int | None = None
    pile: int = 0
    card: int = -1
    target: int = 0

    def __reduce__(self) -> tuple[object, tuple[str, int | None, int, int, int]]:
        """By its fields: the compiled frozen class refuses to be set back field by field."""
        return (SpitAction, (self.kind, self.seat, self.pile, self.card, self.target))

    @property
    def index(self) -> int:
        return _index(self.kind, self.seat or 0, self.pile, self.card, self.target)

    @property
    def card_value(self) -> Card | None:
        """The card this action moves, as a :class:`Card`."""
        return Card.from_id(self.card) if self.card >= 0 else None

    def __str__(self) -> str:
        k = self.kind
        if k == TIMER_SPIT:
            return "timer spit"
        if k == TIMER_SLAP:
            return "timer slap"
        s = self.seat
        if k == PLAY:
            return f"{s} play {self.pile} {Card.from_id(self.card)} S{self.target}"
        if k in (FILL, STACK):
            return f"{s} {k} {self.pile} {Card.from_id(self.card)} {self.target}"
        if k == FLIP:
            return f"{s} flip {self.pile}"
        if k in (CHOOSE, SLAP):
            return f"{s} {k} S{self.target}"
        return f"{s} {k}"

    def __repr__(self) -> str:
        return f"SpitAction.parse({str(self)!r})"

    @staticmethod
    def parse(text: str) -> SpitAction:
        return parse_action(text)


def _index(kind: str, seat: int, pile: int, card: int, target: int) -> int:
    if kind == PLAY:
        return _PLAY0 + ((seat * PILES + pile - 1) * CARDS + card) * 2 + target
    if kind == FILL:
        return _FILL0 + ((seat * PILES + pile - 1) * CARDS + card) * PILES + target - 1
    if kind == STACK:
        return _STACK0 + ((seat * PILES + pile - 1) * CARDS + card) * PILES + target - 1
    if kind == FLIP:
        return _FLIP0 + seat * PILES + pile - 1
    if kind == SPIT:
        return _SPIT0 + seat
    if kind == UNSPIT:
        return _UNSPIT0 + seat
    if kind == CHOOSE:
        return _CHOOSE0 + seat * 2 + target
    if kind == SLAP:
        return _SLAP0 + seat * 2 + target
    if kind == TIMER_SPIT:
        return _TIMER0
    return _TIMER0 + 1


def _build() -> tuple[SpitAction, ...]:
    table: list[SpitAction | None] = [None] * NUM_ACTIONS
    for s in range(SEATS):
        for p in range(1, PILES + 1):
            for c in range(CARDS):
                for k in range(2):
                    table[_index(PLAY, s, p, c, k)] = SpitAction(PLAY, s, p, c, k)
                for t in range(1, PILES + 1):
                    table[_index(FILL, s, p, c, t)] = SpitAction(FILL, s, p, c, t)
                    table[_index(STACK, s, p, c, t)] = SpitAction(STACK, s, p, c, t)
            table[_index(FLIP, s, p, -1, 0)] = SpitAction(FLIP, s, p)
        table[_index(SPIT, s, 0, -1, 0)] = SpitAction(SPIT, s)
        table[_index(UNSPIT, s, 0, -1, 0)] = SpitAction(UNSPIT, s)
        for k in range(2):
            table[_index(CHOOSE, s, 0, -1, k)] = SpitAction(CHOOSE, s, target=k)
            table[_index(SLAP, s, 0, -1, k)] = SpitAction(SLAP, s, target=k)
    table[_TIMER0] = SpitAction(TIMER_SPIT)
    table[_TIMER0 + 1] = SpitAction(TIMER_SLAP)
    assert all(a is not None for a in table)
    return tuple(a for a in table if a is not None)


ALL_ACTIONS: Final = _build()
"""``ALL_ACTIONS[i].index == i``: every action, built once (the engine never constructs one)."""
A_TIMER_SPIT: Final = ALL_ACTIONS[_TIMER0]
A_TIMER_SLAP: Final = ALL_ACTIONS[_TIMER0 + 1]

# Index helpers for the engine's hot path.
PLAY_BASE: Final = _PLAY0
FILL_BASE: Final = _FILL0
STACK_BASE: Final = _STACK0
FLIP_BASE: Final = _FLIP0
SPIT_BASE: Final = _SPIT0
UNSPIT_BASE: Final = _UNSPIT0
CHOOSE_BASE: Final = _CHOOSE0
SLAP_BASE: Final = _SLAP0
TIMER_BASE: Final = _TIMER0

_HELP = (
    "try: 0 play 3 QH S1, 0 fill 2 QH 4, 0 flip 3, 0 stack 2 QH 4, 0 spit, 0 unspit, "
    "0 choose S1, 0 slap S1, timer spit"
)


def _seat(tok: str) -> int:
    t = tok.removeprefix("seat").removeprefix("p")
    if t in ("0", "1"):
        return int(t)
    raise ParseError(f"not a Spit seat: {tok!r} (0 or 1)")


def _spit_pile(tok: str) -> int:
    t = tok[1:] if tok.startswith("s") else tok
    if t in ("0", "1"):
        return int(t)
    raise ParseError(f"not a spit pile: {tok!r} (S0 or S1)")


_STOCK_PILES: Final = frozenset(str(t) for t in range(1, PILES + 1))


def _stock_pile(tok: str) -> int:
    if tok in _STOCK_PILES:  # "1" to "5" exactly (no other digits, no long numbers)
        return int(tok)
    raise ParseError(f"not a stock pile: {tok!r} (1 to 5)")


def _card(tok: str) -> int:
    card = Card.parse(tok)
    if card.is_joker:
        raise ParseError("Spit has no Jokers")
    return card.id


def parse_action(text: str) -> SpitAction:
    """The action written as ``text`` (see the module docstring)."""
    if not isinstance(text, str):
        raise ParseError(f"not a Spit action: {text!r}")
    toks = text.strip().lower().split()
    if toks == ["timer", "spit"]:
        return A_TIMER_SPIT
    if toks == ["timer", "slap"]:
        return A_TIMER_SLAP
    if len(toks) < 2:
        raise ParseError(f"not a Spit action: {text!r} ({_HELP})")
    seat = _seat(toks[0])
    verb, args = toks[1], toks[2:]
    i: int
    if verb == PLAY and len(args) == 3:
        i = _index(PLAY, seat, _stock_pile(args[0]), _card(args[1]), _spit_pile(args[2]))
    elif verb in (FILL, STACK) and len(args) == 3:
        i = _index(verb, seat, _stock_pile(args[0]), _card(args[1]), _stock_pile(args[2]))
    elif verb == FLIP and len(args) == 1:
        i = _index(FLIP, seat, _stock_pile(args[0]), -1, 0)
    elif verb in (SPIT, UNSPIT) and not args:
        i = _index(verb, seat, 0, -1, 0)
    elif verb in (CHOOSE, SLAP) and len(args) == 1:
        i = _index(verb, seat, 0, -1, _spit_pile(args[0]))
    else:
        raise ParseError(f"not a Spit action: {text!r} ({_HELP})")
    return ALL_ACTIONS[i]


def action_from_index(index: int) -> SpitAction:
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < NUM_ACTIONS:
        raise ParseError(f"no Spit action has index {index!r}")
    return ALL_ACTIONS[index]
