"""The Bot protocol: a bot sees a seat's view and nothing else.

A bot gets the :class:`~cardtable.core.game.PlayerView` of its seat (whose
``legal_actions`` are its choices) and a seeded ``random.Random``, and returns
one of those actions. It never receives a State.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from ..core.errors import ConfigError
from ..core.game import Action, PlayerView


class Bot(Protocol):
    """Anything with a ``name`` and ``act(view, rng) -> action``."""

    name: str

    def act(self, view: PlayerView, rng: random.Random) -> Action: ...


class RandomBot:
    """Uniformly random among the legal actions, for every game."""

    name = "random"

    def act(self, view: PlayerView, rng: random.Random) -> Action:
        if not view.legal_actions:
            raise ValueError("the bot has no legal action in this view")
        return view.legal_actions[rng.randrange(len(view.legal_actions))]


BotFactory = Callable[[], Bot]
_BOTS: dict[tuple[str, str], BotFactory] = {}


def register_bot(game: str, name: str, factory: BotFactory) -> None:
    """Make ``make_bot(game, name)`` build a bot; ``game="*"`` for every game."""
    _BOTS[(game, name)] = factory


def make_bot(game: str, name: str) -> Bot:
    """A new bot by game and name (``random`` works for every game)."""
    factory = _BOTS.get((game, name)) or _BOTS.get(("*", name))
    if factory is None:
        raise ConfigError(f"no {game} bot named {name!r}; bots: {', '.join(bot_names(game))}")
    return factory()


def bot_names(game: str) -> list[str]:
    """The bots available for ``game``."""
    return sorted({n for (g, n) in _BOTS if g in (game, "*")})


register_bot("*", "random", RandomBot)
