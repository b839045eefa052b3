"""docs/rules/trex.md §2.3: doubling (TX-15, TX-16, TX-A6 … TX-A9, TX-V4) and the §2.3 test vectors."""

from __future__ import annotations

import pytest

from cardtable.core.cards import Card
from cardtable.core.errors import ConfigError, IllegalActionError
from cardtable.games.trex import Phase, TrexState

from .conftest import deck_from_hands, keep_all, new, play, texts

# Seat 0 holds 7♥ (the holder, who leads). Seat 1 holds K♥ and no spades; seat 3 A♠.
KH_TAKEN_BY_OTHER = deck_from_hands(
    "7H 2S 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC",
    "KH 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
    "3S 4S 5S 6S 7S 8S 9S TS JS QS KC AC AD",
    "AS KS 2H 3H 4H 5H 6H 8H 9H TH JH QH AH",
)
# Seat 1 holds K♥ (its only heart) and wins a heart trick led by seat 3 with it.
KH_SELF_CAPTURE = deck_from_hands("7H 2S 4H", "KH 3S", "2H 5H", "AS 3H AH")
# Seat 3 holds 7♥ and leads; seat 2 holds Q♠ and Q♦ (§2.3 QN vector).
QN_VECTOR = deck_from_hands("7C 3D KS 2C 4H", "4D 4S AC QH", "QD QS 3C 2H", "7H 2D 3S QC 3H")


def kh_state(deck: list[int], **options: object) -> TrexState:
    state = new(deck, **options)
    keep_all(state)
    state.play("contract KH")
    return state


def test_tx15_doubling_declared_in_play_order_from_the_leader() -> None:
    state = kh_state(KH_TAKEN_BY_OTHER)
    assert state.phase is Phase.DOUBLE
    order = []
    while state.phase is Phase.DOUBLE:
        order.append(state.current_player())
        state.play(state.legal_actions()[-1])  # done
    assert order == [0, 1, 2, 3]


def test_tx15_only_the_holder_of_the_king_may_double_it() -> None:
    state = kh_state(KH_TAKEN_BY_OTHER)
    assert texts(state.legal_actions()) == ["done"]  # seat 0
    state.play("done")
    assert texts(state.legal_actions()) == ["double KH", "done"]  # seat 1
    with pytest.raises(IllegalActionError):
        state.play("double QH")


def test_tx15_doubled_card_is_public_and_stays_in_the_hand() -> None:
    state = kh_state(KH_TAKEN_BY_OTHER)
    play(state, "done, double KH")
    kh = Card.parse("KH")
    for seat in (0, 2, 3, None):
        assert state.view(seat).doubled == ((kh, 1),)
    assert kh.id in state.hand(1)
    assert any(e.kind == "double" and e.card == kh for e in state.view(3).events)


def test_tx15_each_queen_doubled_separately() -> None:
    state = new(QN_VECTOR)
    keep_all(state)
    state.play("contract QN")
    play(state, "done, done, done")  # seats 3, 0, 1
    assert texts(state.legal_actions()) == ["double QD", "double QS", "done"]  # seat 2
    state.play("double QS")
    assert texts(state.legal_actions()) == ["double QD", "done"]
    state.play("double QD")
    # Q♣ and Q♥ are still undoubled somewhere: seat 2 keeps the turn and ends it (§0.3)
    assert state.current_player() == 2 and texts(state.legal_actions()) == ["done"]
    state.play("done")
    assert state.phase is Phase.TRICK


def test_tx15_doubling_turn_does_not_tell_whether_the_doubler_holds_another_queen() -> None:
    """§0.3: after seat 2 doubles Q♠, what seat 0 sees must not depend on whether seat 2
    also holds Q♦ (here) or seat 1 does (there)."""
    there = deck_from_hands("7C 3D KS 2C 4H", "4D 4S AC QH QD", "QS 3C 2H", "7H 2D 3S QC 3H")
    views = []
    for deck in (QN_VECTOR, there):
        state = new(deck)
        keep_all(state)
        state.play("contract QN")
        play(state, "done, done, done, double QS")
        views.append(state.view(0))
        assert state.phase is Phase.DOUBLE and state.current_player() == 2
    assert views[0] == views[1]


def test_tx15_round_moves_on_once_every_doublable_card_is_doubled() -> None:
    deck = deck_from_hands("7H QC QD QH QS")
    state = new(deck)
    keep_all(state)
    state.play("contract QN")
    play(state, "double QC, double QD, double QH")
    assert state.current_player() == 0
    state.play("double QS")  # all four are doubled (public): no need to ask for done
    assert state.current_player() == 1 and texts(state.legal_actions()) == ["done"]


def test_tx15_no_doubling_in_diamonds_or_tricks() -> None:
    for code in ("DI", "TK", "TR"):
        state = new(QN_VECTOR)
        keep_all(state)
        state.play(f"contract {code}")
        keep_all(state)
        assert state.phase is not Phase.DOUBLE


def test_tx15_doubling_false_has_no_doubling_phase() -> None:
    state = kh_state(KH_TAKEN_BY_OTHER, doubling=False)
    assert state.phase is Phase.TRICK


def test_tx_v4_doubling_queens_only() -> None:
    state = kh_state(KH_TAKEN_BY_OTHER, doubling="queens_only")
    assert state.phase is Phase.TRICK  # K♥ cannot be doubled
    state = new(QN_VECTOR, doubling="queens_only")
    keep_all(state)
    state.play("contract QN")
    assert state.phase is Phase.DOUBLE


def test_tx16_doubled_king_taken_by_another_seat() -> None:
    """§2.3 vector: K♥ doubled by seat 1, seat 3 captures it: −150 / +75, total −75."""
    state = kh_state(KH_TAKEN_BY_OTHER)
    play(state, "done, double KH, done, done")
    play(state, "2S, KH, 3S, AS")
    deltas = state.records[0][4]
    assert deltas == (0, 75, 0, -150) and sum(deltas) == -75


def test_tx16_doubled_king_captured_by_the_doubler_single() -> None:
    state = kh_state(KH_SELF_CAPTURE)
    play(state, "done, double KH, done, done")
    play(state, "2S, 3S, 2H, AS")  # seat 2 discards a heart: hearts are broken
    play(state, "3H, 4H, KH, 5H")  # seat 1 wins its own K♥
    assert state.records[0][4] == (0, -75, 0, 0)


def test_tx16_doubled_self_capture_forced_bonus() -> None:
    state = kh_state(KH_SELF_CAPTURE, doubled_self_capture="forced_bonus")
    play(state, "done, double KH, done, done")
    play(state, "2S, 3S, 2H, AS", "3H, 4H, KH, 5H")  # the trick was led by seat 3
    deltas = state.records[0][4]
    assert deltas == (0, -150, 0, 75) and sum(deltas) == -75


def test_tx16_doubled_self_capture_quadruple_breaks_the_zero_sum() -> None:
    state = kh_state(KH_SELF_CAPTURE, doubled_self_capture="quadruple")
    play(state, "done, double KH, done, done")
    play(state, "2S, 3S, 2H, AS", "3H, 4H, KH, 5H")
    assert state.records[0][4] == (0, -300, 0, 0)


def test_tx16_undoubled_king_costs_75() -> None:
    state = kh_state(KH_TAKEN_BY_OTHER)
    play(state, "done, done, done, done")
    play(state, "2S, KH, 3S, AS")
    assert state.records[0][4] == (0, 0, 0, -75)


def _qn_vector(**options: object) -> TrexState:
    state = new(QN_VECTOR, **options)
    keep_all(state)
    state.play("contract QN")
    play(state, "done, done, done, double QS, double QD, done")
    play(state, "2D, 3D, 4D, QD")  # seat 3 leads; seat 2 captures its own doubled Q♦
    play(state, "QS, 3S, KS, 4S")  # seat 2 leads Q♠; seat 0 captures it
    play(state, "2C, AC, 3C, QC")  # seat 1 captures Q♣
    play(state, "QH, 2H, 3H, 4H")  # seat 1 captures Q♥: all queens are out (TX-25)
    return state


def test_tx16_queens_vector_default() -> None:
    """§2.3 vector: deltas [−50, −50, 0, 0], total −100."""
    state = _qn_vector()
    assert state.records[0][4] == (-50, -50, 0, 0)


def test_tx16_queens_vector_forced_bonus() -> None:
    """Q♦ trick led by seat 3: seat 2 −50 and seat 3 +25; the total is still −100."""
    state = _qn_vector(doubled_self_capture="forced_bonus")
    deltas = state.records[0][4]
    assert deltas == (-50, -50, 0 - 25, 25) and sum(deltas) == -100


def test_tx16_doubled_queen_gives_the_doubler_25() -> None:
    state = _qn_vector()
    view = state.view(0)
    assert view.deal_scores[0][4][2] == 0  # +25 for Q♠, −25 for own Q♦


def test_tx16_option_is_validated() -> None:
    with pytest.raises(ConfigError):
        new(QN_VECTOR, doubled_self_capture="triple")
