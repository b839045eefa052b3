"""Properties over whole random games: the zero sum of §2.7 (and its documented breaches),
view invariance (§0.3), conservation, clone, replay and the action protocol."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.core.cards import TWOS
from cardtable.core.errors import IllegalActionError
from cardtable.games.trex import ZERO_SUM_PRESETS, Phase, TrexState
from cardtable.games.trex.actions import ALL_ACTIONS, CX, DI, KH, QN, TK, TR, parse_action
from cardtable.games.trex.state import SUIT

from ..walk import walk
from .conftest import load, random_game

CONSTANT = {KH: -75, QN: -100, DI: -130, TK: -195}


def deal_constant(mask: int, payouts: tuple[int, ...] = (200, 150, 100, 50), swap: bool = False) -> int:
    if mask == TR:
        return sum(payouts)
    values = {**CONSTANT, DI: -195, TK: -130} if swap else CONSTANT  # TX-V8
    return sum(v for m, v in values.items() if mask & m)


def check_zero_sum(state: TrexState) -> None:
    """§2.7: every deal total is its contract constant; every kingdom and the game sum to 0."""
    kingdoms = [0, 0, 0, 0]
    for _, kingdom, _, mask, deltas in state.records:
        o = state.game.options
        sign = -1 if o.reverse_scores else 1
        assert sum(deltas) == sign * deal_constant(mask, swap=o.swap_diamonds_tricks)
        kingdoms[kingdom] += sum(deltas)
    assert kingdoms == [0, 0, 0, 0]
    assert sum(state.totals) == 0


SEEDS = st.integers(min_value=0, max_value=2**63)


@pytest.mark.parametrize("preset", ZERO_SUM_PRESETS)
@settings(max_examples=25, deadline=None)
@given(seed=SEEDS)
def test_i2_zero_sum_whole_games(preset: str, seed: int) -> None:
    state = random_game(load(preset).new_state(seed=seed), random.Random(seed))
    check_zero_sum(state)


@pytest.mark.parametrize(
    "options",
    [
        {"doubled_self_capture": "forced_bonus"},
        {"reverse_scores": True},
        {"swap_diamonds_tricks": True},
        {"complex_mode": True, "complex_groups": "QN+DI,KH,TK"},
        {"accept_unchecked_plays": True},
        {"forced_penalty_discard": True, "hearts_lead_rule": "free"},
        {"redeal_timing": "after_announcement", "dealer": "rotating"},
    ],
    ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()),
)
@settings(max_examples=10, deadline=None)
@given(seed=SEEDS)
def test_i2_zero_sum_under_options(options: dict[str, object], seed: int) -> None:
    state = random_game(load(**options).new_state(seed=seed), random.Random(seed))
    check_zero_sum(state)


@settings(max_examples=10, deadline=None)
@given(seed=SEEDS)
def test_tx_v5_inverted_breaks_the_zero_sum_as_documented(seed: int) -> None:
    state = random_game(load("inverted").new_state(seed=seed), random.Random(seed))
    for _, _, _, mask, deltas in state.records:
        assert sum(deltas) == deal_constant(mask, (150, 100, 50, -50))
    assert sum(state.totals) == 4 * (250 - 500)  # each kingdom: −500 in penalties, +250 in Trex


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS)
def test_tx16_quadruple_breaks_the_zero_sum_as_documented(seed: int) -> None:
    """A self-captured doubled card costs −4v: each one moves its deal total by −3v."""
    state = random_game(load(doubled_self_capture="quadruple").new_state(seed=seed), random.Random(seed))
    for _, _, _, mask, deltas in state.records:
        excess = deal_constant(mask) - sum(deltas)
        if mask == KH:
            assert excess in (0, 225)
        elif mask == QN:
            assert excess in (0, 75, 150, 225, 300)
        else:
            assert excess == 0
    assert sum(state.totals) <= 0


def _redeal_hidden(state: TrexState, seat: int, rng: random.Random, pinned: int = -1) -> TrexState:
    """A clone in which the cards ``seat`` cannot see are re-dealt among the other seats
    (same counts; doubled cards and exposed 2s, which are public, stay put, and so does card
    ``pinned``, about to be played or doubled, if given)."""
    other = state.clone()
    public = {c for c, _ in other.doubled}
    if other.twos_exposed:
        public |= set(TWOS)
    if pinned >= 0:
        public.add(pinned)
    seats = [q for q in range(4) if q != seat]
    pool = [c for q in seats for c in other.hand(q) if c not in public]
    rng.shuffle(pool)
    hands = [other.hand(q) for q in range(4)]
    for q in seats:
        keep = [c for c in hands[q] if c in public]
        take = other.count[q] - len(keep)
        hands[q] = keep + pool[:take]
        pool = pool[take:]
    return other.with_hands(hands, (), other.seed)


@pytest.mark.parametrize("preset", ["standard", "partnership", "complex", "seed"])
def test_view_invariance_when_other_hands_are_redealt(preset: str) -> None:
    rng = random.Random(preset)
    game = load(preset)
    checked = 0
    for seed in range(3):
        state = game.new_state(seed=seed)
        for _ in walk(state, rng):
            if rng.random() < 0.05:
                seat = rng.randrange(4)
                twin = _redeal_hidden(state, seat, rng)
                assert twin.view(seat) == state.view(seat)
                assert twin.view(None) == state.view(None)
                checked += 1
    assert checked > 20


def test_view_never_shows_other_hands_or_the_seed() -> None:
    state = load().new_state(seed=987654321)
    view = state.view(1)
    assert [h is None for h in view.hands] == [True, False, True, True]
    assert "987654321" not in repr(view) and "987654321" not in str(view.to_json())
    assert state.view(None).hand == () and state.view(None).legal_actions == ()


@pytest.mark.parametrize("preset", ["standard", "complex", "partnership"])
def test_protocol_over_random_games(preset: str) -> None:
    """legal_actions non-empty until terminal, sorted by index; play accepts exactly them;
    clone independent; cards conserved; replay of history reproduces the state."""
    game = load(preset)
    rng = random.Random(preset)
    for seed in range(2):
        state = game.new_state(seed=seed)
        steps = 0
        while not state.is_terminal():
            legal = list(state.legal_actions())
            assert legal, str(state)
            assert [a.index for a in legal] == sorted(a.index for a in legal)
            assert state.legal_actions(state.current_player()) == legal
            assert all(not state.legal_actions(q) for q in range(4) if q != state.current_player())
            if steps % 17 == 0:
                legal_set = set(legal)
                before = str(state)
                for a in ALL_ACTIONS:
                    if a not in legal_set:
                        with pytest.raises(IllegalActionError):
                            state.play(a)
                assert str(state) == before
                twin = state.clone()
                twin.play(legal[-1])
                assert str(state) == before and len(twin.history) == len(state.history) + 1
            assert sorted(state.all_cards()) == list(range(52))
            state.play(legal[rng.randrange(len(legal))])
            steps += 1
        replay = game.new_state(seed=seed)
        for a in state.history:
            replay.play(a)
        assert str(replay) == str(state) and replay.outcome() == state.outcome()
        assert replay.view(0) == state.view(0)
        with pytest.raises(IllegalActionError):
            state.play(ALL_ACTIONS[0])


def test_every_action_round_trips_text_and_index() -> None:
    game = load()
    assert game.num_distinct_actions == len(ALL_ACTIONS) == 76
    for i, a in enumerate(ALL_ACTIONS):
        assert a.index == i and game.action_from_index(i) is a
        assert game.parse_action(str(a)) is a and parse_action(str(a)) is a
        assert eval(repr(a), {"TrexAction": type(a)}) is a
    assert parse_action("play Q♥") is parse_action("QH") is parse_action("qh")
    assert parse_action("contract complex") is parse_action("contract CX")
    assert str(parse_action("contract DI+QN")) == "contract QN+DI"
    assert CX == 15


def test_the_game_ends_with_an_outcome_and_no_legal_actions() -> None:
    state = random_game(load().new_state(seed=8), random.Random(8))
    assert state.phase is Phase.OVER and state.legal_actions() == () and state.outcome() is not None
    assert state.view(0).outcome == state.outcome()


@settings(max_examples=10, deadline=None)
@given(seed=SEEDS)
def test_invariant_every_player_follows_suit_when_able(seed: int) -> None:
    """§4 invariant: in trick contracts a card off the led suit means a void in it."""
    state = load().new_state(seed=seed)
    for _, action in walk(state, random.Random(seed)):
        if state.phase is Phase.TRICK and state.trick:
            led = SUIT[state.trick[0]]
            hand = state.hand(state.current_player())
            if SUIT[action.arg] != led:
                assert all(SUIT[c] != led for c in hand)


@settings(max_examples=10, deadline=None)
@given(seed=SEEDS)
def test_invariant_layout_is_a_contiguous_run_through_each_jack(seed: int) -> None:
    """§4 invariant: each opened row is a run low…high containing its Jack (TX-32)."""
    from cardtable.games.trex.state import LAYOUT_RANK

    state = load().new_state(seed=seed)
    for _ in walk(state, random.Random(seed)):
        if state.phase is Phase.TREX:
            for s in range(4):
                ranks = sorted(LAYOUT_RANK[c] for c in state.layout_cards if SUIT[c] == s)
                if state.hi[s]:
                    assert ranks == list(range(state.lo[s], state.hi[s] + 1))
                    assert 2 <= state.lo[s] <= 11 <= state.hi[s] <= 14
                else:
                    assert ranks == []


@pytest.mark.parametrize("preset", ["standard", "complex", "seed"])
def test_view_invariance_through_the_next_action(preset: str) -> None:
    """§0.3, TX-13, TX-15: what a seat sees after another seat's redeal answer, announcement,
    doubling answer or trick play does not depend on the cards it cannot see (the twin has them
    re-dealt). The Trex contract is left out: its passes are public by rule (TX-33)."""
    from cardtable.games.trex.actions import DOUBLE, PLAY, REDEAL

    rng = random.Random(preset)
    game = load(preset)
    checked = doubles = 0
    for seed in range(4):
        state = game.new_state(seed=seed)
        for _, action in walk(state, rng):
            p = state.current_player()
            if state.phase is not Phase.TREX and action.kind != REDEAL:
                seat = rng.choice([q for q in range(4) if q != p])
                pinned = action.arg if action.kind in (PLAY, DOUBLE) else -1
                twin = _redeal_hidden(state, seat, rng, pinned=pinned)
                state_after = state.clone()
                state_after.apply(action)
                if action in twin.legal_actions() and state_after.phase is not Phase.TREX:
                    twin.apply(action)
                    assert twin.view(seat) == state_after.view(seat), (str(state), str(action))
                    checked += 1
                    doubles += action.kind == DOUBLE
    assert checked > 500 and doubles > 5
