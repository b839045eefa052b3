"""Batch playouts: whole games from a position in one call, for search bots and
simulations. In the compiled build the loop over actions runs in C.

>>> import cardtable, random
>>> state = cardtable.load("trash", max_hands=1).new_state(seed=1)
>>> outcomes = playouts(state, 3, random.Random(2))
>>> len(outcomes), state.history
(3, [])
"""

from __future__ import annotations

from typing import Protocol

from .errors import ConfigError
from .game import Outcome, State

POLICIES = ("random",)
"""``random``: a uniformly random legal action at every decision."""


class Random(Protocol):
    """What a playout needs of its generator (a ``random.Random`` has it)."""

    def random(self) -> float: ...


def playouts(
    state: State, n: int, rng: Random, policy: str = "random", max_actions: int = 1_000_000
) -> list[Outcome]:
    """The outcomes of ``n`` games played on from copies of ``state`` (left unchanged).

    Under ``random`` the action is ``legal[int(rng.random() * len(legal))]``, one draw
    per decision, so a seeded ``rng`` gives the same games on every build. A game still
    running after ``max_actions`` actions raises :class:`ConfigError`.
    """
    if policy not in POLICIES:
        raise ConfigError(f"unknown playout policy {policy!r}; policies: {', '.join(POLICIES)}")
    if n < 0:
        raise ConfigError(f"cannot play {n} playouts")
    out: list[Outcome] = []
    for _ in range(n):
        game = state.clone()
        actions = 0
        while not game.is_terminal():
            legal = game.legal_actions()
            game.apply(legal[int(rng.random() * len(legal))])
            actions += 1
            if actions > max_actions:
                raise ConfigError(f"a playout ran past {max_actions} actions")
        outcome = game.outcome()
        assert outcome is not None
        out.append(outcome)
    return out
