"""Positions where one legal move ends the hand or deal, for the review and
the search bots: such a move must be judged by the hand or deal it ends."""

from __future__ import annotations

from typing import Any

from cardtable.core.cards import Card
from cardtable.games.trash import TrashState
from cardtable.games.trex import TrexState
from tests.trash.util import new
from tests.trex.conftest import deck_from_hands, no_doubles, play, start
from tests.trex.conftest import new as new_trex


def trash_discard_wins_the_hand(**options: Any) -> TrashState:
    """Seat 0 turns up slots 2..10 with the first stock card; seat 1 discards A♥; seat 0 now
    chooses between the stock and A♥, which completes its layout and wins the hand (TR-11)."""
    state = new(["5H 3C 4C 5C 6C 7C 8C 9C TC QC", "AH 2D 3D 4D 5D 6D 7D 8D 9D TD"], "2C AD QH 6H 7H 8H",
                **options)
    state.play("stock")
    state.play("stock")
    assert state.current_player() == 0 and [str(a) for a in state.legal_actions()] == ["stock", "discard"]
    return state


def trex_king_of_hearts_falls() -> tuple[TrexState, list[Card]]:
    """King of Hearts (TX-25, ends early): seat 0 leads 2♠, seat 1 throws K♥ on it, seat 2 plays
    Q♠. Seat 3 follows with A♠ (takes K♥: −75, and the deal ends) or 5♠ (seat 2 takes it)."""
    deck = deck_from_hands(
        "7H 2S 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC",
        "KH 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
        "3S 4S 6S 7S 8S 9S TS JS QS KS KC AH 5H",
        "AS 5S AC AD 2H 3H 4H 6H 8H 9H TH JH QH",
    )
    state = start(new_trex(deck), "KH")
    no_doubles(state)
    play(state, "2S, KH, QS")
    assert state.current_player() == 3 and [str(a) for a in state.legal_actions()] == ["AS", "5S"]
    return state, [Card.from_id(c) for c in deck]
