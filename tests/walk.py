"""The one random walk of the suite: uniformly random legal actions from a seeded generator.

``walk(state, rng)`` yields ``(state, action)`` before each action and applies it after, ``played``
yields them after each action; ``walked`` gives the state at the end and ``random_state`` a new
seeded game after a walk. Every walk is bounded, and a walk draws exactly one ``rng.randrange``
per action, so a seed keeps its game.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import cardtable
from cardtable.core.game import Action, State

LIMIT = 100_000
"""More actions than any game of the suite takes."""


def walk(
    state: State, rng: random.Random, steps: int = LIMIT, *,
    until: Callable[[Any], bool] | None = None, checked: bool = False,
) -> Iterator[tuple[Any, Action]]:
    """Yield ``(state, action)`` before each of at most ``steps`` random legal actions, then apply it
    (through ``play``, which checks it, when ``checked``); stop at the end of the game or as soon as
    ``until(state)`` holds."""
    for _ in range(steps):
        action = _draw(state, rng, until)
        if action is None:
            return
        yield state, action
        _take(state, action, checked)


def played(
    state: State, rng: random.Random, steps: int = LIMIT, *,
    until: Callable[[Any], bool] | None = None, checked: bool = False,
) -> Iterator[tuple[Any, Action]]:
    """The same walk as :func:`walk`, yielding ``(state, action)`` after each action is applied."""
    for _ in range(steps):
        action = _draw(state, rng, until)
        if action is None:
            return
        _take(state, action, checked)
        yield state, action


def _draw(state: State, rng: random.Random, until: Callable[[Any], bool] | None) -> Action | None:
    """The next random legal action (one ``randrange``), or ``None`` at the end of the game or once
    ``until(state)`` holds."""
    if state.is_terminal() or (until is not None and until(state)):
        return None
    legal = state.legal_actions()
    return legal[rng.randrange(len(legal))]


def _take(state: State, action: Action, checked: bool) -> None:
    if checked:
        state.play(action)
    else:
        state.apply(action)


def walked(
    state: State, rng: random.Random, steps: int = LIMIT, *,
    until: Callable[[Any], bool] | None = None, checked: bool = False,
) -> Any:
    """``state`` after :func:`walk` (at most ``steps`` random legal actions)."""
    for _ in walk(state, rng, steps, until=until, checked=checked):
        pass
    return state


def random_state(name: str, seed: int, steps: int = LIMIT, preset: str | None = None, **options: Any) -> Any:
    """A new game of ``name`` from ``seed`` after a walk of at most ``steps`` actions drawn from ``Random(seed)``."""
    state = cardtable.load(name, preset, **options).new_state(seed=seed)
    return walked(state, random.Random(seed), steps)
