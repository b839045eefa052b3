"""Helpers for Spit rule tests: literal positions and stacked decks (docs/rules/index.md §0.5)."""

from __future__ import annotations

from typing import Any

import cardtable
from cardtable.core.cards import Card
from cardtable.games.spit import SpitState
from cardtable.games.spit.state import Phase

# §0.5 / SP-4: the deck index of each stock pile's cards for a full layout, bottom to top.
PILE_INDICES = ([0], [1, 5], [2, 6, 9], [3, 7, 10, 12], [4, 8, 11, 13, 14])


def ids(text: str) -> list[int]:
    return [Card.parse(t).id for t in text.split()]


def stacked_deck(tops0: str, tops1: str, spit0: str = "", spit1: str = "", *, fill: str = "") -> list[int]:
    """A §0.5 deck with the given five stock tops per seat and the first spit cards (top first).

    Every other card is taken, in id order, from the cards not named (``fill`` first)."""
    deck: list[int | None] = [None] * 52
    for base, tops, spit in ((0, tops0, spit0), (26, tops1, spit1)):
        for j, c in enumerate(ids(tops)):
            deck[base + PILE_INDICES[j][-1]] = c
        for i, c in enumerate(ids(spit)):
            deck[base + 15 + i] = c
    used = {c for c in deck if c is not None}
    rest = [c for c in ids(fill) if c not in used] + [c for c in range(52) if c not in used and c not in ids(fill)]
    it = iter(rest)
    return [c if c is not None else next(it) for c in deck]


def piles(*stock: str) -> list[str]:
    """Five stock piles for :func:`position`: the given ones, then empty spaces."""
    return [*stock, *[""] * (5 - len(stock))]


def position(
    stock0: list[str],
    stock1: list[str],
    spit0: str = "",
    spit1: str = "",
    s0: str | None = "",
    s1: str | None = "",
    **options: Any,
) -> SpitState:
    """A literal position in phase PLAY.

    ``stockP`` holds five piles as text, bottom to top (the top face-up, the rest
    face-down; ``""`` is an empty space); ``spitP`` the spit cards, top first;
    ``s0``/``s1`` the spit piles bottom to top (``None``: not in use). Every card
    not named goes under the bottom of the first spit pile in use, so all 52
    cards are somewhere and the position plays as written."""
    game = cardtable.load("spit", **options)
    st = game.new_state(seed=0)
    named: list[int] = []
    st.stock = [[ids(p) for p in stock0], [ids(p) for p in stock1]]
    st.up = [[1 if p.split() else 0 for p in stock0], [1 if p.split() else 0 for p in stock1]]
    st.spitcards = [list(reversed(ids(spit0))), list(reversed(ids(spit1)))]
    st.spit = [ids(s0) if s0 is not None else [], ids(s1) if s1 is not None else []]
    st.live = [s0 is not None, s1 is not None]
    for x in (*st.stock[0], *st.stock[1], *st.spitcards, *st.spit):
        named += x
    assert len(named) == len(set(named)), "a card is named twice"
    rest = [c for c in range(52) if c not in set(named)]
    first = 0 if st.live[0] else 1
    st.spit[first] = rest + st.spit[first]
    st.phase = Phase.PLAY
    st.requests = [False, False]
    st.choice = [-1, -1]
    st.lone_target = -1
    st.finisher = -1
    st.events = []
    st.history = []
    st._changes = None
    st._piles = [None, None]
    return st


def snapshot(st: SpitState) -> tuple[str, int, list[str], tuple[str, ...]]:
    """Everything that must stay unchanged after a rejected action."""
    return (str(st), len(st.history), sorted(map(str, st.legal_actions())), tuple(e.text for e in st.view(None).events))


def conserved(st: SpitState) -> bool:
    cards = st.all_cards()
    return sorted(cards) == list(range(52))
