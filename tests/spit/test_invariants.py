"""Spit invariants (docs/rules/spit.md §3.10), view invariance, checked play vs legal actions, clone, replay."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st_

import cardtable
from cardtable.core import IllegalActionError
from cardtable.games.spit import SpitState
from cardtable.games.spit.actions import ALL_ACTIONS
from cardtable.games.spit.state import ADJ, Phase

from ..walk import walk
from .util import conserved

PRESETS = [
    ("standard", {}),
    ("points", {}),
    ("standard", {"auto_flip": False}),
    ("standard", {"allow_same_rank_stacking": True}),
    ("standard", {"allow_mutual_spit": False}),
]


def random_game(seed: int, preset: str = "standard", **opts):
    game = cardtable.load("spit", preset=preset, max_rounds=6, **opts)
    st = game.new_state(seed=seed)
    for _ in walk(st, random.Random(seed), checked=True):
        yield st
    yield st


@pytest.mark.parametrize(("preset", "opts"), PRESETS)
def test_i1_invariants_conservation_adjacency_five_piles_fill_turns_up(preset, opts):
    for seed in range(8):
        prev_tops = None
        prev_round = None
        for st in random_game(seed, preset, **opts):
            assert conserved(st)
            assert all(len(piles) == 5 for piles in st.stock)
            last = st.history[-1] if st.history else None
            if last is not None and st.round == prev_round and last.kind == "play":
                k = last.target
                assert ADJ[st.spit[k][-1]][prev_tops[k]]
            if last is not None and st.round == prev_round and last.kind == "fill":
                assert any(e.kind == "flip" for e in st.view(None).events) or not st.auto_flip
            prev_tops = [s[-1] if s else None for s in st.spit]
            prev_round = st.round


@pytest.mark.parametrize(("preset", "opts"), PRESETS[:3])
def test_play_accepts_exactly_the_legal_actions(preset, opts):
    for seed in range(3):
        for i, st in enumerate(random_game(seed, preset, **opts)):
            if i % 9:
                continue
            legal = {a.index for a in st.legal_actions()}
            for a in ALL_ACTIONS[:: 1 if i % 2 else 3]:
                ok = st.illegal_reason(a) is None
                assert ok == (a.index in legal), (str(a), str(st))
            for a in list(st.legal_actions())[:3]:
                c = st.clone()
                c.play(a)
            if st.is_terminal():
                with pytest.raises(IllegalActionError):
                    st.play(ALL_ACTIONS[0])


def _shuffle_hidden(st: SpitState, rng: random.Random) -> SpitState:
    """The same position with every face-down stock card and spit card re-dealt."""
    other = st.clone()
    hidden: list[int] = []
    for p in (0, 1):
        for j, pile in enumerate(other.stock[p]):
            hidden += pile[: len(pile) - other.up[p][j]]
        hidden += other.spitcards[p]
    rng.shuffle(hidden)
    it = iter(hidden)
    for p in (0, 1):
        for j, pile in enumerate(other.stock[p]):
            for i in range(len(pile) - other.up[p][j]):
                pile[i] = next(it)
        other.spitcards[p] = [next(it) for _ in other.spitcards[p]]
    return other


@pytest.mark.parametrize(("preset", "opts"), PRESETS)
def test_h8_view_invariance_under_hidden_cards(preset, opts):
    """No view carries a face-down stock card or a spit card, the owner's included (SP-4,
    docs/rules/index.md §0.3): re-dealing them changes no view. Over every preset, so that face-down tops
    (auto_flip off), stacked piles and the points variant are covered.

    H8: cardtable sends no identifier for a face-down or spit card, only counts and which piles
    have face-down cards; that no view depends on which cards they are (so nothing could be derived
    from them or follow them through the reshuffle of a new round) is what this checks."""
    rng = random.Random(0)
    for seed in range(4):
        for i, st in enumerate(random_game(seed, preset, **opts)):
            if i % 5:
                continue
            other = _shuffle_hidden(st, rng)
            for seat in (0, 1, None):
                assert st.view(seat) == other.view(seat)
                assert st.view(seat).to_json() == other.view(seat).to_json()


def test_views_hide_spit_and_face_down_cards():
    st = cardtable.load("spit").new_state(seed=9)
    import re

    from cardtable.core.cards import Card

    text = repr(st.view(0).to_json()) + repr(st.view(1).to_json()) + repr(st.view(None).to_json())
    tokens = set(re.findall(r"\b[2-9TJQKA][CDHS]\b", text))
    for c in st.spitcards[0] + st.spitcards[1] + [c for s in (0, 1) for p in st.stock[s] for c in p[:-1]]:
        assert str(Card.from_id(c)) not in tokens
    face_up = {Card.from_id(p[-1]) for s in (0, 1) for p in st.stock[s] if p}
    shown = {c for piles in st.view(0).stock for p in piles for c in p}
    assert shown == face_up
    assert st.view(0).spit_cards == (10, 10) and st.view(0).face_down[1] == (0, 1, 2, 3, 4)


def test_clone_is_independent_and_replay_is_deterministic():
    game = cardtable.load("spit", max_rounds=5)
    for seed in range(3):
        *_, st = random_game(seed)
        replay = game.new_state(seed=seed)
        for a in st.history:
            replay.play(a)
        assert str(replay) == str(st) and replay.outcome() == st.outcome()
    st = game.new_state(seed=1)
    c = st.clone()
    c.play(c.legal_actions()[0])
    assert len(st.history) == 0 and str(st) != str(c)


@settings(max_examples=40, deadline=None)
@given(
    seed=st_.integers(0, 2**32),
    picks=st_.lists(st_.integers(0, 10_000), min_size=1, max_size=300),
    preset=st_.sampled_from(["standard", "points"]),
    stacking=st_.booleans(),
    auto_flip=st_.booleans(),
)
def test_property_random_legal_prefixes(seed, picks, preset, stacking, auto_flip):
    game = cardtable.load("spit", preset=preset, allow_same_rank_stacking=stacking, auto_flip=auto_flip)
    st = game.new_state(seed=seed)
    for pick in picks:
        if st.is_terminal():
            break
        legal = st.legal_actions()
        assert legal
        st.play(legal[pick % len(legal)])
        assert conserved(st)
        assert all(sum(1 for p in st.stock[s]) == 5 for s in (0, 1))
        view = st.view(0)
        assert view.spit_cards == (len(st.spitcards[0]), len(st.spitcards[1]))
    replay = game.new_state(seed=seed)
    for a in st.history:
        replay.apply(a)
    assert str(replay) == str(st)


def _reference_plays(st: SpitState, seat: int) -> set[str]:
    """The card plays the rules allow ``seat`` (SP-2, SP-7, SP-12), worked out from the position
    alone: the face-up top of each of its stock piles onto each spit pile in use whose top is one
    rank above or below (A and K adjacent), written as the action text."""
    from cardtable.core.cards import Card

    if st.phase is not Phase.PLAY:
        return set()
    plays = set()
    for j, pile in enumerate(st.stock[seat]):
        if not pile or st.up[seat][j] < 1:
            continue
        card = Card.from_id(pile[-1])
        for k, centre in enumerate(st.spit):
            if not st.live[k] or not centre:
                continue
            gap = abs(card.rank - Card.from_id(centre[-1]).rank)
            if gap in (1, 12):
                plays.add(f"{seat} play {j + 1} {card} S{k}")
    return plays


@pytest.mark.parametrize(("preset", "opts"), [("standard", {}), ("points", {}), ("standard", {"auto_flip": False})])
def test_i4_card_plays_agree_with_an_independent_reference(preset, opts):
    """I4: at every position of random games, each seat's legal card plays are exactly those the
    reference above derives from the rules (the engine's own adjacency table is not used)."""
    compared = 0
    for seed in range(4):
        for st in random_game(seed, preset, **opts):
            for seat in (0, 1):
                engine = {str(a) for a in st.legal_actions(seat) if a.kind == "play"}
                assert engine == _reference_plays(st, seat), (seat, str(st))
                compared += bool(engine)
    assert compared > 100
