"""What a Trex seat may know (docs/rules/index.md §0.3, TX-15, TX-24, TX-13, TX-V2, TX-V6).

A seat sees its own hand, the current and last trick, every captured scoring
card, the doubled cards, hands shown for a redeal, the Trex layout, the
finishing order and the score sheet. Other hands are ``None`` unless
``open_hands`` is on; in partnership Trex the 2s become public (TX-V2). Never
the seed or the deck order.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...core.cards import CARDS, Card
from ...core.game import Event, PlayerView
from ...core.view import EventsOnFirstUse
from .actions import contract_code, contract_name, parse_contract


@dataclass(frozen=True)
class TrexView(PlayerView):
    """A seat's view of a Trex game.

    * ``hand``: the seat's own cards (empty for a spectator); ``hands[p]`` is seat
      ``p``'s hand when this seat may see it (its own, or all with ``open_hands``),
      else ``None``; ``hand_sizes`` always.
    * ``contract``: the announced contract code (``KH``, ``QN+DI``, ``CX``, ``TR``) or
      ``None`` before the announcement; ``contracts_left``: the holder's unused ones.
    * ``trick``: ``(seat, card)`` pairs of the current trick in order of play;
      ``last_trick`` the previous one and ``last_trick_winner``.
    * ``captured[p]``: scoring cards captured by ``p`` this deal (face up, TX-24);
      ``tricks_taken[p]``: tricks taken this deal.
    * ``doubled``: ``(card, doubler)`` pairs (TX-15).
    * ``redeal_shown``: ``(seat, cards)`` for every hand shown to force a redeal
      of this deal (TX-13).
    * ``layout[s]``: ``None`` or ``(low, high)`` for suit ``s`` (0 ♣, 1 ♦, 2 ♥, 3 ♠)
      with J = 11, Q = 12, K = 13, A = 14 (TX-32); ``finishing`` the seats out
      so far in order (TX-34); ``exposed_twos[p]`` the 2s still in ``p``'s hand once
      exposed (TX-V2).
    * ``totals``: official totals per seat; ``team_totals`` in partnership;
      ``deal_scores``: ``(deal number, kingdom, holder, contract, deltas)`` per
      finished deal; ``kingdom_scores[k][p]``; ``trex_firsts[p]``.

    ``events`` (kind: seat, card, value): ``deal``/``redeal_deal``/``tiebreak_deal``
    (dealer, deal number), ``kingdom`` (holder, kingdom index), ``keep``/``redeal``,
    ``contract`` (holder, contract mask), ``double`` (doubler, card), ``no_double``,
    ``play`` (seat, card), ``capture`` (capturer, card), ``trick`` (winner, trick
    number), ``revoke`` (offender, card), ``open`` (seat, Jack; ``slot`` = suit),
    ``pass``, ``out`` (seat, place 0..3), ``twos_exposed``, ``deal_over`` (deal
    number), ``score`` (seat, delta), ``tiebreak`` (its dealer), ``game_over``
    (the winner, ``None`` for a shared win). ``args`` (:func:`event_args`): the
    contract's code, the place (1–4) and the kingdom (1–4).
    """

    phase: str
    deal_number: int
    num_deals: int
    kingdom: int
    kingdom_holder: int
    dealer: int
    leader: int
    contract: str | None
    contracts_left: tuple[str, ...]
    hand: tuple[Card, ...]
    hands: tuple[tuple[Card, ...] | None, ...]
    hand_sizes: tuple[int, ...]
    trick: tuple[tuple[int, Card], ...]
    last_trick: tuple[tuple[int, Card], ...]
    last_trick_winner: int | None
    tricks_taken: tuple[int, ...]
    captured: tuple[tuple[Card, ...], ...]
    doubled: tuple[tuple[Card, int], ...]
    hearts_broken: bool
    redeal_shown: tuple[tuple[int, tuple[Card, ...]], ...]
    layout: tuple[tuple[int, int] | None, ...]
    finishing: tuple[int, ...]
    exposed_twos: tuple[tuple[Card, ...], ...]
    deal_scores_now: tuple[int, ...]
    totals: tuple[int, ...]
    team_totals: tuple[int, ...] | None
    deal_scores: tuple[tuple[int, int, int, str, tuple[int, ...]], ...]
    kingdom_scores: tuple[tuple[int, ...], ...]
    trex_firsts: tuple[int, ...]
    tiebreak: bool
    partnership: bool

    @property
    def contract_title(self) -> str | None:
        """The English name of the announced contract."""
        if self.contract is None:
            return None
        return contract_name(parse_contract(self.contract))


setattr(TrexView, "events", EventsOnFirstUse())  # noqa: B010 -- after @dataclass, so it is no field default

SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
PLACES = ("1st", "2nd", "3rd", "4th")
EVENT_KINDS = frozenset({
    "kingdom", "deal", "redeal_deal", "tiebreak_deal", "redeal", "keep", "contract", "double", "no_double",
    "play", "trick", "capture", "revoke", "pass", "open", "out", "twos_exposed", "deal_over", "score",
    "game_over", "tiebreak",
})
"""Every kind of event the engine emits (:func:`event_text` has a sentence for each)."""
ARG_KINDS = frozenset({"contract", "out", "kingdom"})
"""The kinds whose :attr:`Event.args` are not empty."""


def build_event(seq: int, kind: str, seat: int, card: int, value: int) -> Event:
    """The :class:`Event` numbered ``seq`` of an engine event tuple ``(kind, seat,
    card id, value)`` (-1 for no seat or card): ``open`` puts its suit in ``slot``,
    every other kind its number in ``value``."""
    return Event(
        seq,
        kind,
        None if seat < 0 else seat,
        None if card < 0 else CARDS[card],
        value if kind == "open" else None,
        None if kind == "open" else value,
        event_text(kind, seat, card, value),
        event_args(kind, value) if kind in ARG_KINDS else (),
    )


def built_events(raw: tuple[tuple[str, int, int, int], ...], seq: int) -> tuple[Event, ...]:
    """The :class:`Event` values of the engine's event tuples, numbered from ``seq``."""
    return tuple([build_event(seq + i, kind, s, c, v) for i, (kind, s, c, v) in enumerate(raw)])


def event_args(kind: str, value: int) -> tuple[tuple[str, int | str], ...]:
    """What a sentence needs beyond the seat and the card, for an engine event tuple
    (``()`` unless ``kind`` is in :data:`ARG_KINDS`): ``contract`` its code (``QN+DI``),
    ``out`` the ``place`` 1–4, ``kingdom`` its number 1–4."""
    if kind == "contract":
        return (("contract", contract_code(value)),)
    if kind == "out":
        return (("place", value + 1),)
    if kind == "kingdom":
        return (("kingdom", value + 1),)
    return ()


def event_text(kind: str, seat: int, card: int, value: int) -> str:
    """An English sentence for an engine event tuple."""
    who = f"seat {seat}"
    c = Card.from_id(card).unicode() if card >= 0 else ""
    match kind:
        case "kingdom":
            return f"{who} holds kingdom {value + 1}"
        case "deal":
            return f"{who} deals deal {value}"
        case "redeal_deal":
            return f"{who} deals again (deal {value} is redealt)"
        case "tiebreak_deal":
            return f"{who} deals the tie-break Trex deal"
        case "redeal":
            return f"{who} shows their hand and forces a redeal"
        case "keep":
            return f"{who} does not ask for a redeal"
        case "contract":
            return f"{who} announces {contract_name(value)}"
        case "double":
            return f"{who} doubles {c}"
        case "no_double":
            return f"{who} is done doubling"
        case "play":
            return f"{who} plays {c}"
        case "trick":
            return f"{who} wins trick {value}"
        case "capture":
            return f"{who} captures {c}"
        case "revoke":
            return f"{who} revokes with {c}: the deal stops and {who} takes every unit not yet captured"
        case "pass":
            return f"{who} cannot play and passes"
        case "open":
            return f"{who} opens the {SUIT_NAMES[value]} row with {c}"
        case "out":
            return f"{who} goes out {PLACES[value]}"
        case "twos_exposed":
            return "every player lays their 2s face up"
        case "deal_over":
            return f"deal {value} is over"
        case "score":
            return f"{who} scores {value:+d}"
        case "game_over":
            return f"{who} wins the game" if seat >= 0 else "the game ends in a shared win"
        case "tiebreak":
            return f"a tie for the best total: {who} deals an extra Trex deal outside the totals"
    return kind


Layout = tuple[tuple[int, int] | None, ...]
"""A view's ``layout``: per suit ``None`` or ``(low, high)`` TX-32 ranks, A = 14."""


def layout_frontier(layout: Layout) -> list[int]:
    """The cards playable next on a Trex layout (TX-32), as card ids."""
    out = []
    for s, row in enumerate(layout):
        if row is None:
            out.append(s * 13 + 10)
            continue
        lo, hi = row
        if lo > 2:
            out.append(s * 13 + lo - 2)
        if hi < 14:
            out.append(s * 13 + (0 if hi + 1 == 14 else hi))
    return out


def layout_card_ids(layout: Layout) -> list[int]:
    """Every card on a Trex layout, as card ids."""
    out = []
    for s, row in enumerate(layout):
        if row is not None:
            lo, hi = row
            out += [s * 13 + (0 if r == 14 else r - 1) for r in range(lo, hi + 1)]
    return out
