"""Helpers for literal Trash positions (docs/rules/index.md §0.5 stacked decks)."""

from __future__ import annotations

from typing import Any

import cardtable
from cardtable.core.cards import Card, parse_cards
from cardtable.games.trash import TrashGame, TrashState

from .. import walk


def stacked_deck(game: TrashGame, layouts: list[str], stock: str = "") -> list[Card]:
    """A full deck in §0.5 order: each seat's layout (slot 1 first), then the
    stock top first; every card of the game not named goes below, in id order."""
    named = [c for text in [*layouts, stock] for c in parse_cards(text)]
    rest = [Card.from_id(i) for i in game.cards]
    for card in named:
        if card not in rest:
            raise ValueError(f"{card} is named more often than the game has it")
        rest.remove(card)
    out: list[Card] = []
    for text in layouts:
        out += parse_cards(text)
    return out + parse_cards(stock) + rest


def new(layouts: list[str], stock: str = "", seed: int = 1, **options: Any) -> TrashState:
    """A Trash state whose first hand is stacked."""
    game = cardtable.load("trash", **options)
    assert isinstance(game, TrashGame)
    return game.new_state(seed=seed, deck=stacked_deck(game, layouts, stock))


def face_up(state: TrashState, seat: int) -> str:
    """``"1:JC 2:2D …"`` for the face-up slots of ``seat``."""
    layout = state.view(seat).layouts[seat]
    return " ".join(f"{k}:{c}" for k, c in enumerate(layout, 1) if c is not None)


def redeal(state: TrashState, sizes: list[int], layouts: list[str], stock: str = "") -> None:
    """Start a new stacked hand in an existing match with the given layout sizes
    (for rules about later hands)."""
    state.sizes = list(sizes)
    state._deal([c.id for c in stacked_deck(state.game, layouts, stock)])


# Seat 0 wins a hand on its first turn: A goes to slot 1, turning up 2, … up to 10.
RUN_LAYOUT = "2C 3C 4C 5C 6C 7C 8C 9C TC KC"
RUN_STOCK = "AC"


def random_state(seed: int, steps: int, **options: Any) -> TrashState:
    """A Trash state after up to ``steps`` uniformly random legal actions, seeded."""
    state = walk.random_state("trash", seed, steps, **options)
    assert isinstance(state, TrashState)
    return state
