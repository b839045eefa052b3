"""Hypothesis properties of Trash over random legal play (docs/rules/trash.md §1.8 invariants)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import cardtable
from cardtable.games.trash import TrashState
from cardtable.games.trash.state import NO_CARD, WILDCARD

from . import util

VARIANTS = [
    {},
    {"wild_mode": "kings"},
    {"wild_mode": "all_faces"},
    {"jokers": True},
    {"players": 3},
    {"players": 5, "jokers": True},
    {"loser_free_draws": 3},
    {"loser_reveal": True, "target_size": 6},
    {"discard_take_requires_playable": False},
    {"rotate_first_player": True, "max_hands": 3},
    {"preset": "d2_kings"},
    {"players": 4, "first_player": 2, "wild_mode": "all_faces", "jokers": True},
    {"max_hands": 2, "tiebreak_extra_hands": True, "loser_reveal": True, "wild_mode": "kings"},
    {"loser_free_draws": 3, "discard_take_requires_playable": False, "stall_reshuffles": 1},
]

variant = st.sampled_from(VARIANTS)
seeds = st.integers(0, 2**32)


def random_state(options: dict, seed: int, steps: int) -> TrashState:
    return util.random_state(seed, steps, **options)


def check_slot_invariant(state: TrashState) -> None:
    for p in range(state.n):
        size = state.sizes[p]
        if state.is_terminal():
            continue
        assert len(state.up[p]) == len(state.down[p]) == size + 1
        for k in range(1, size + 1):
            up, down = state.up[p][k], state.down[p][k]
            assert (up == NO_CARD) != (down == NO_CARD), "a slot is face-down or face-up, never both"
            if up != NO_CARD:
                assert state.role[up] in (k, WILDCARD), "face-up slot k holds the number k or a wild"
        assert state.ndown[p] == sum(1 for c in state.down[p][1:] if c != NO_CARD)


@settings(max_examples=40, deadline=None)
@given(variant, seeds, st.integers(0, 400))
def test_i1_card_conservation_and_slot_invariant(options, seed, steps):
    state = cardtable.load("trash", **options).new_state(seed=seed)
    cards = sorted(state.game.cards)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        assert legal, "legal actions are non-empty until the match is over"
        state.apply(legal[rng.randrange(len(legal))])
        assert sorted(state.all_cards()) == cards
        check_slot_invariant(state)
        if not state.is_terminal():  # the hand ends exactly when the active player has no face-down slot
            assert state.ndown[state.turn] > 0


@settings(max_examples=15, deadline=None)
@given(variant, seeds)
def test_i3_matches_terminate(options, seed):
    state = random_state(options, seed, 200_000)
    assert state.is_terminal()
    outcome = state.outcome()
    assert outcome is not None and abs(sum(outcome.returns) - 1.0) < 1e-9


@settings(max_examples=25, deadline=None)
@given(variant, seeds, st.integers(0, 300))
def test_replay_determinism(options, seed, steps):
    state = random_state(options, seed, steps)
    again = cardtable.load("trash", **options).new_state(seed=seed)
    for action in state.history:
        again.play(action)
    assert str(again) == str(state)
    assert again.view(None) == state.view(None)


@settings(max_examples=40, deadline=None)
@given(variant, seeds, st.integers(0, 300), st.integers(0, 2**32))
def test_h8_view_invariance_under_hidden_cards(options, seed, steps, reseed):
    """A seat's view is the same whatever the face-down cards and the stock are (TR-14).

    H8: cardtable sends no identifier for a face-down card at all, only which slots are face down
    and how many cards the stock holds; that nothing in a view depends on which card lies face down
    (so no handle could be derived from it or follow it through a shuffle) is what this checks."""
    state = random_state(options, seed, steps)
    other = state.clone()
    hidden = list(other.stock)
    for p in range(other.n):
        hidden += [c for c in other.down[p][1:] if c != NO_CARD]
    random.Random(reseed).shuffle(hidden)
    other.stock = hidden[: len(other.stock)]
    pos = len(other.stock)
    for p in range(other.n):
        for k in range(1, len(other.down[p])):
            if other.down[p][k] != NO_CARD:
                other.down[p][k] = hidden[pos]
                pos += 1
    for seat in [*range(state.n), None]:
        assert other.view(seat) == state.view(seat)
        assert other.view(seat).to_json() == state.view(seat).to_json()
