"""What a Spit seat may know: every face-up card, the spit piles' tops and
sizes, counts of face-down stock cards and of spit cards. Never a face-down
stock card nor a spit card, the owner's included (SP-4, docs/rules/index.md §0.3)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final

from ...core.cards import Card
from ...core.game import Event, PlayerView

RawEvent = tuple[str, int, int, int, int]
"""An engine event: ``(kind, seat, card id, slot, value)``, -1 for none."""


@dataclass(frozen=True)
class SpitView(PlayerView):
    """A seat's view of a Spit game.

    ``stock[p][j]`` are the face-up cards of seat ``p``'s stock pile ``j + 1``,
    bottom to top (one card unless same-rank stacking is on; none while the top
    is face-down or the space is empty); ``face_down[p][j]`` counts the
    face-down cards beneath. ``spit_tops[k]``/``spit_sizes[k]`` describe spit
    pile ``S{k}`` (``None``/0 when it is not in use this round).
    ``spit_requests[p]`` is true while seat ``p`` asks for a spit (SP-17).
    ``lone_pile`` is the pile a lone spitter is bound to this round (SP-16),
    ``finisher`` the seat that emptied its stock in the slap phase.
    ``cards_held[p]`` counts seat ``p``'s stock and spit cards.
    ``events``: the kinds of :data:`EVENT_KINDS`, with the ``args`` of :func:`event_args`.
    """

    phase: str
    round: int
    stock: tuple[tuple[tuple[Card, ...], ...], ...]
    face_down: tuple[tuple[int, ...], ...]
    spit_cards: tuple[int, ...]
    spit_tops: tuple[Card | None, ...]
    spit_sizes: tuple[int, ...]
    spit_requests: tuple[bool, ...]
    lone_pile: int | None
    finisher: int | None
    scores: tuple[int, ...]
    cards_held: tuple[int, ...]
    scoring: str

    def top(self, seat: int, pile: int) -> Card | None:
        """The face-up top card of ``seat``'s stock pile ``pile`` (1–5), if any."""
        cards = self.stock[seat][pile - 1]
        return cards[-1] if cards else None

    def pile_size(self, seat: int, pile: int) -> int:
        return len(self.stock[seat][pile - 1]) + self.face_down[seat][pile - 1]


_CARD: Final = tuple(Card.from_id(c) for c in range(52))
_SLOT_EVENTS: Final = frozenset({"spit", "play", "fill", "stack", "flip", "choose", "slap", "take"})
_VALUE_EVENTS: Final = frozenset({"round", "deal", "play", "fill", "stack", "take", "collect", "score"})
EVENT_KINDS: Final = frozenset({
    "round", "deal", "spit", "play", "fill", "stack", "flip", "request", "withdraw", "choose", "blocked",
    "round_end", "slap", "take", "avoid", "collect", "score", "game_over",
})
"""Every kind of event the engine emits (:func:`event_text` has a sentence for each)."""
ARG_KINDS: Final = frozenset({"deal", "play", "fill", "stack", "take", "score"})
"""The kinds whose :attr:`Event.args` are not empty."""


def built_events(shared: list[Any]) -> tuple[Event, ...]:
    """The events of one change, as every seat sees them (Spit events show only public
    cards and counts). The engine puts ``[raw event tuples, seq of the first]`` in every
    view of the change, frozen when its first view is built; the first view to read
    ``events`` has them built into :class:`Event` values here, once, appended to that
    shared list for the other views. Bots never read events, so real-time play does not
    pay for them."""
    if len(shared) == 3:
        built: tuple[Event, ...] = shared[2]
        return built
    raw, seq = shared
    card = _CARD
    built = tuple([
        Event(
            seq + i,
            kind,
            None if s < 0 else s,
            None if c < 0 else card[c],
            slot if kind in _SLOT_EVENTS else None,
            value if kind in _VALUE_EVENTS else None,
            event_text(kind, s, c, slot, value),
            event_args(kind, slot, value) if kind in ARG_KINDS else (),
        )
        for i, (kind, s, c, slot, value) in enumerate(raw)
    ])
    shared.append(built)
    return built


class _EventsOnFirstUse:
    """``SpitView.events`` of a view the engine built: taken from the change's
    :func:`built_events` on first use, then an ordinary attribute of the view.
    (A non-data descriptor: a view built with ``SpitView(...)`` has ``events``
    in its own ``__dict__``, which takes precedence.)"""

    def __get__(self, view: SpitView | None, owner: type | None = None) -> object:
        if view is None:
            return self
        d = view.__dict__
        shared = d.get("_events")
        if not isinstance(shared, list):
            raise AttributeError("events")
        events = d["events"] = built_events(shared)
        del d["_events"]
        return events


setattr(SpitView, "events", _EventsOnFirstUse())  # noqa: B010 -- after @dataclass, so it is no field default


@lru_cache(maxsize=1024)
def event_args(kind: str, slot: int, value: int) -> tuple[tuple[str, int | str], ...]:
    """What a sentence needs beyond the seat, the card and ``n``, for an engine event tuple
    (``()`` unless ``kind`` is in :data:`ARG_KINDS`). Piles are numbered as in the actions:
    stock piles 1–5, spit piles ``S0``/``S1``."""
    match kind:
        case "deal":
            return (("laid", value - slot), ("cards", value), ("spit_cards", slot))
        case "play":
            return (("pile", value), ("spit", slot))
        case "fill":
            return (("pile", value), ("space", slot))
        case "stack":
            return (("pile", value), ("onto", slot))
        case "take":
            return (("spit", slot), ("cards", value))
        case "score":
            return (("points", slot), ("total", value))
    return ()


@lru_cache(maxsize=8192)
def event_text(kind: str, seat: int, card: int, slot: int, value: int) -> str:
    """An English sentence for an engine event tuple."""
    who = f"seat {seat}"
    c = Card.from_id(card).unicode() if card >= 0 else ""
    match kind:
        case "round":
            return f"round {value} begins"
        case "deal":
            spits = f"{slot} spit card{'s' if slot != 1 else ''}" if slot else "no spit cards"
            return f"{who} lays out {value - slot} of {value} cards in stock piles; {spits}"
        case "spit":
            return f"{who} spits {c} onto S{slot}"
        case "play":
            return f"{who} plays {c} from pile {value} onto S{slot}"
        case "fill":
            return f"{who} moves {c} from pile {value} into space {slot}"
        case "stack":
            return f"{who} stacks {c} from pile {value} onto pile {slot}"
        case "flip":
            return f"{who} turns up {c} on pile {slot}"
        case "request":
            return f"{who} asks for a spit"
        case "withdraw":
            return f"{who} withdraws the spit request"
        case "choose":
            return f"{who} will spit alone onto S{slot}"
        case "blocked":
            return "nobody can play: spit again"
        case "round_end":
            if seat >= 0:
                return f"{who} has played every stock card: the round is over"
            return "nobody can play and nobody has spit cards: the round is over"
        case "slap":
            return f"{who} slaps S{slot}"
        case "take":
            return f"{who} takes S{slot} ({value} card{'s' if value != 1 else ''})"
        case "avoid":
            return f"{who} avoids the spit pile"
        case "collect":
            return f"{who} now holds {value} card{'s' if value != 1 else ''}"
        case "score":
            return f"{who} scores {slot} point{'s' if slot != 1 else ''} (total {value})"
        case "game_over":
            return f"{who} wins the game" if seat >= 0 else "the game is drawn"
    return kind
