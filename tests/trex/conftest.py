"""Helpers for the Trex tests: stacked decks (docs/rules/index.md §0.5) and random play."""

from __future__ import annotations

import random
from collections.abc import Iterable

import pytest

import cardtable
from cardtable.core.cards import Card
from cardtable.games.trex import TrexGame, TrexState

from ..walk import walked


def deck_from_hands(*hands: str) -> list[int]:
    """A stacked deck: ``hands[i]`` (13 card texts, or fewer) goes to seat ``i``;
    the cards not named are filled in, in id order, wherever seats lack cards."""
    named = [[Card.parse(t).id for t in h.split()] for h in hands]
    while len(named) < 4:
        named.append([])
    used = {c for h in named for c in h}
    assert len(used) == sum(len(h) for h in named), "a card is named twice"
    rest = [c for c in range(52) if c not in used]
    deck: list[int] = []
    for h in named:
        assert len(h) <= 13
        fill = 13 - len(h)
        deck += h + rest[:fill]
        rest = rest[fill:]
    return deck


def load(preset: str | None = None, **options: object) -> TrexGame:
    game = cardtable.load("trex", preset=preset, **options)
    assert isinstance(game, TrexGame)
    return game


def new(deck: Iterable[int] | None = None, preset: str | None = None, seed: int = 1, **options: object) -> TrexState:
    return load(preset, **options).new_state(seed=seed, deck=list(deck) if deck is not None else None)


def play(state: TrexState, *texts: str) -> None:
    for t in texts:
        for word in t.split(","):
            state.play(word.strip())


def random_game(state: TrexState, rng: random.Random, limit: int = 100_000) -> TrexState:
    """``state`` played to its end by random legal actions."""
    walked(state, rng, limit)
    assert state.is_terminal(), "the game did not end"
    return state


@pytest.fixture
def rng() -> random.Random:
    return random.Random(12345)


SUITS_DEAL = deck_from_hands(
    " ".join(r + "C" for r in "A23456789TJQK"),
    " ".join(r + "D" for r in "A23456789TJQK"),
    " ".join(r + "H" for r in "A23456789TJQK"),
    " ".join(r + "S" for r in "A23456789TJQK"),
)
"""Seat 0 all clubs, 1 all diamonds, 2 all hearts (so 2 holds 7♥ and the first kingdom), 3 all spades."""


def keep_all(state: TrexState) -> None:
    """Answer every redeal request prompt with ``keep``."""
    from cardtable.games.trex import Phase

    while state.phase is Phase.REDEAL:
        state.play("keep")


def no_doubles(state: TrexState) -> None:
    """Answer every doubling prompt with ``done``."""
    from cardtable.games.trex import Phase

    while state.phase is Phase.DOUBLE:
        state.play("done")


def start(state: TrexState, contract: str) -> TrexState:
    """Keep through redeal requests and announce ``contract`` (a code such as ``KH``)."""
    keep_all(state)
    state.play(f"contract {contract}")
    keep_all(state)
    return state


def texts(actions: Iterable[object]) -> list[str]:
    return [str(a) for a in actions]
