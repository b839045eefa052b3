"""What a Trash seat may know: everything face-up, the discard pile, sizes and
counts. Never the stock order or any face-down card, the owner's included (TR-14)."""

from __future__ import annotations

from dataclasses import dataclass

from ...core.cards import CARDS, Card
from ...core.game import Event, PlayerView
from ...core.view import EventsOnFirstUse
from .roles import STOP, WILDCARD, role_table


@dataclass(frozen=True)
class TrashView(PlayerView):
    """A seat's view of a Trash match.

    ``layouts[p][k - 1]`` is the face-up card on seat ``p``'s slot ``k``, or
    ``None`` while that slot is face-down. ``discard`` runs from bottom to top.
    ``events`` are the steps caused by the last action, in order, so a client
    can show a displacement chain one card at a time.
    """

    phase: str
    sizes: tuple[int, ...]
    layouts: tuple[tuple[Card | None, ...], ...]
    stock_count: int
    discard: tuple[Card, ...]
    card_in_hand: Card | None
    hand_number: int
    hands_won: tuple[int, ...]
    starter: int
    free_draws_left: int
    time_up: bool
    wild_mode: str
    passes: int = 0
    """Passes in a row in this hand (TR-7 with ``discard_take_requires_playable`` off): the hand is
    void once they reach ``players × stall_reshuffles`` (TR-26)."""

    @property
    def top_discard(self) -> Card | None:
        return self.discard[-1] if self.discard else None

    def role(self, card: Card) -> int:
        """The card's number 1..10, ``WILDCARD`` (0) or ``STOP`` (-1) in this game (TR-3)."""
        return role_table(self.wild_mode)[card.id]

    def placeable(self, card: Card, seat: int) -> bool:
        """TR-9 from public information: may ``seat`` place ``card`` now?"""
        r = self.role(card)
        layout = self.layouts[seat]
        if r == WILDCARD:
            return any(c is None for c in layout)
        if r == STOP or r > self.sizes[seat]:
            return False
        shown = layout[r - 1]
        return shown is None or self.role(shown) == WILDCARD

    def face_down_slots(self, seat: int) -> tuple[int, ...]:
        """The slots of ``seat`` that are still face-down."""
        return tuple(k + 1 for k, c in enumerate(self.layouts[seat]) if c is None)


setattr(TrashView, "events", EventsOnFirstUse())  # noqa: B010 -- after @dataclass, so it is no field default

_VALUE_EVENTS = frozenset({"deal", "rebuild", "free_draw", "shrink"})
"""Events whose number is a value (hand number, count, size), not a slot."""


def built_events(raw: tuple[tuple[str, int, int, int], ...], seq: int, viewer: int | None) -> tuple[Event, ...]:
    """The :class:`Event` values of the engine's event tuples ``(kind, seat, card id, number)``
    (-1 for none), numbered from ``seq``, with sentences for ``viewer``."""
    card = CARDS
    return tuple([
        Event(
            seq + i,
            kind,
            None if s < 0 else s,
            None if c < 0 else card[c],
            None if kind in _VALUE_EVENTS else number,
            number if kind in _VALUE_EVENTS else None,
            event_text(kind, s, c, number, viewer),
        )
        for i, (kind, s, c, number) in enumerate(raw)
    ])


_TEXTS = {
    # kind: (as another seat sees it, as the acting seat sees it)
    "deal": ("hand {n} is dealt; {who} starts", "hand {n} is dealt; you start"),
    "draw": ("{who} draws {c} from the stock", "you draw {c} from the stock"),
    "take": ("{who} takes {c} from the discard pile", "you take {c} from the discard pile"),
    "place": ("{who} places {c} on slot {n}", "you place {c} on slot {n}"),
    "turn_up": ("{who} turns up {c} from slot {n}", "you turn up {c} from slot {n}"),
    "displace": ("{who} places {c} on slot {n} and picks up the wild there",
                 "you place {c} on slot {n} and pick up the wild there"),
    "decline": ("{who} declines to displace the wild on slot {n}", "you decline to displace the wild on slot {n}"),
    "discard": ("{who} discards {c}", "you discard {c}"),
    "rebuild": ("the stock is rebuilt from {n} discards", "the stock is rebuilt from {n} discards"),
    "void": ("the hand is void (stalled); it is dealt again", "the hand is void (stalled); it is dealt again"),
    "complete": ("{who} completes the layout and wins the hand", "you complete your layout and win the hand"),
    "free_draw": ("{who} has {n} free turn{s} left", "you have {n} free turn{s} left"),
    "reveal": ("{who} reveals {c} on slot {n}", "you reveal {c} on slot {n}"),
    "shrink": ("{who}'s layout is now {n} slot{s}", "your layout is now {n} slot{s}"),
    "time_up": ("time is up: the match ends when this hand is finished",) * 2,
    "match_over": ("{who} wins the match", "you win the match"),
}
EVENT_KINDS = frozenset(_TEXTS)
"""Every kind of event the engine emits (:func:`event_text` has a sentence for each)."""


def event_text(kind: str, seat: int, card: int, number: int, viewer: int | None = None) -> str:
    """An English sentence for an engine event tuple, in the second person for ``viewer``."""
    if kind == "match_over" and seat < 0:
        return "the match ends in a shared win"
    third, second = _TEXTS[kind]
    template = second if seat >= 0 and seat == viewer else third
    c = Card.from_id(card).unicode() if card >= 0 else ""
    return template.format(who=f"seat {seat}", c=c, n=number, s="" if number == 1 else "s")
