"""What a Trash seat may know: everything face-up, the discard pile, sizes and
counts. Never the stock order or any face-down card, the owner's included (TR-14)."""

from __future__ import annotations

from dataclasses import dataclass

from ...core.cards import Card
from ...core.game import PlayerView


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

    @property
    def top_discard(self) -> Card | None:
        return self.discard[-1] if self.discard else None

    def face_down_slots(self, seat: int) -> tuple[int, ...]:
        """The slots of ``seat`` that are still face-down."""
        return tuple(k + 1 for k, c in enumerate(self.layouts[seat]) if c is None)


def event_text(kind: str, seat: int, card: int, slot: int) -> str:
    """An English sentence for an engine event tuple."""
    who = f"seat {seat}"
    c = Card.from_id(card).unicode() if card >= 0 else ""
    match kind:
        case "deal":
            return f"hand {slot} is dealt; {who} starts"
        case "draw":
            return f"{who} draws {c} from the stock"
        case "take":
            return f"{who} takes {c} from the discard pile"
        case "place":
            return f"{who} places {c} on slot {slot}"
        case "turn_up":
            return f"{who} turns up {c} from slot {slot}"
        case "displace":
            return f"{who} places {c} on slot {slot} and picks up the wild there"
        case "decline":
            return f"{who} declines to displace the wild on slot {slot}"
        case "discard":
            return f"{who} discards {c}"
        case "rebuild":
            return f"the stock is rebuilt from {slot} discards"
        case "void":
            return "the hand is void (stalled); it is dealt again"
        case "complete":
            return f"{who} completes the layout and wins the hand"
        case "free_draw":
            return f"{who} has {slot} free turn{'s' if slot != 1 else ''} left"
        case "reveal":
            return f"{who} reveals {c} on slot {slot}"
        case "shrink":
            return f"{who}'s layout is now {slot} slot{'s' if slot != 1 else ''}"
        case "time_up":
            return "time is up: the match ends when this hand is finished"
        case "match_over":
            return f"{who} wins the match" if seat >= 0 else "the match ends in a shared win"
    return kind
