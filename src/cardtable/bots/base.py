"""The Bot protocol: a bot sees a seat's view and nothing else.

A bot gets the :class:`~cardtable.core.game.PlayerView` of its seat (whose
``legal_actions`` are its choices), a seeded ``random.Random`` and optionally a
:class:`Budget` (how much thinking a search bot may do), and returns one of
those actions. It never receives a State: search bots build their own states
from the view by sampling the hidden cards (:mod:`cardtable.bots.worlds`).
"""

from __future__ import annotations

import inspect
import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from ..core.errors import ConfigError
from ..core.game import Action, Game, PlayerView
from ..core.registry import game_class


@dataclass(frozen=True)
class Budget:
    """How much a search bot may think for one decision.

    ``iterations`` caps the number of simulations (determinized worlds played
    out); ``seconds`` caps the wall time. Either or both may be set; a bot that
    does not search ignores the budget. ``Budget()`` (neither) means the bot's
    own default.

    >>> Budget(iterations=200).limit(default_iterations=50).iterations
    200
    >>> Budget().limit(default_iterations=50).iterations
    50
    """

    iterations: int | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.iterations is not None and self.iterations < 1:
            raise ConfigError(f"a budget needs at least 1 iteration, not {self.iterations}")
        if self.seconds is not None and not (math.isfinite(self.seconds) and self.seconds > 0):
            raise ConfigError(f"a time budget must be a positive number of seconds, not {self.seconds}")

    def limit(self, default_iterations: int) -> Budget:
        """This budget, with ``default_iterations`` when it sets no limit at all."""
        if self.iterations is None and self.seconds is None:
            return Budget(iterations=default_iterations)
        return self

    def deadline(self) -> float | None:
        """A ``time.perf_counter()`` value to stop at, or ``None``."""
        return None if self.seconds is None else time.perf_counter() + self.seconds

    def more(self, done: int, deadline: float | None) -> bool:
        """May a search that has done ``done`` iterations do another?"""
        if self.iterations is not None and done >= self.iterations:
            return False
        return not (deadline is not None and done > 0 and time.perf_counter() >= deadline)


class Bot(Protocol):
    """Anything with a ``name`` and ``act(view, rng, budget=None) -> action``.

    Optional, asked through the functions below (never probed elsewhere): ``attach(game)``
    to be told the game's rule options (:func:`attach`), ``react(view, now, rng)`` to play
    in real time (:func:`reacts`, ``host.realtime.RealtimeBot``) and ``iterations``, the
    default budget of a bot that searches (:func:`searches`)."""

    name: str

    def act(self, view: PlayerView, rng: random.Random, budget: Budget | None = None) -> Action: ...


def attach(bot: object, game: Game) -> None:
    """Tell ``bot`` the game's rule options if it takes them (a view does not carry them)."""
    hook = getattr(bot, "attach", None)
    if callable(hook):
        hook(game)


def reacts(bot: object) -> bool:
    """Does ``bot`` play in real time (``react(view, now, rng)``, for Spit's host)?"""
    return callable(getattr(bot, "react", None))


def searches(bot: object) -> bool:
    """Does ``bot`` search within an iteration budget, so that its thinking takes time?"""
    return hasattr(bot, "iterations")


class RandomBot:
    """Uniformly random among the legal actions, for every game."""

    name = "random"

    def act(self, view: PlayerView, rng: random.Random, budget: Budget | None = None) -> Action:
        if not view.legal_actions:
            raise ValueError("the bot has no legal action in this view")
        return view.legal_actions[rng.randrange(len(view.legal_actions))]


class PlainBot(Protocol):
    """A bot written before budgets: ``act(view, rng)``. :func:`make_bot` adapts it."""

    name: str

    def act(self, view: PlayerView, rng: random.Random) -> Action: ...


class _Budgetless:
    """Adapts a :class:`PlainBot` to the :class:`Bot` protocol (the budget is ignored)."""

    def __init__(self, inner: PlainBot) -> None:
        self.inner = inner
        self.name = inner.name

    def act(self, view: PlayerView, rng: random.Random, budget: Budget | None = None) -> Action:
        return self.inner.act(view, rng)

    def __getattr__(self, attr: str) -> object:  # real-time hooks (react, sent, sticky) pass through
        if attr.startswith("_") or attr == "inner":  # while unpickling, before inner is set
            raise AttributeError(attr)
        return getattr(self.inner, attr)


def adapt(bot: Bot | PlainBot) -> Bot:
    """``bot`` itself if its ``act`` takes a budget, else an adapter that drops it."""
    return bot if takes_budget(bot) else _Budgetless(bot)  # type: ignore[return-value]


def takes_budget(bot: object) -> bool:
    """Does ``bot.act`` accept a ``budget`` argument?"""
    try:
        return "budget" in inspect.signature(bot.act).parameters  # type: ignore[attr-defined]
    except (TypeError, ValueError):
        return False


BotFactory = Callable[[], "Bot | PlainBot"]
_BOTS: dict[tuple[str, str], BotFactory] = {}
_DOCS: dict[tuple[str, str], str] = {}


def register_bot(game: str, name: str, factory: BotFactory, doc: str = "") -> None:
    """Make ``make_bot(game, name)`` build a bot; ``game="*"`` for every game."""
    _BOTS[(game, name)] = factory
    if doc:
        _DOCS[(game, name)] = doc


def make_bot(game: str, name: str) -> Bot:
    """A new bot by game and name (``random`` works for every game).

    Bots written before budgets (``act(view, rng)``) are returned as they are;
    :func:`adapt` makes them accept a budget."""
    factory = _BOTS.get((game, name)) or _BOTS.get(("*", name))
    if factory is None:
        canonical = game_class(game).name  # a game that does not exist is "unknown game", not a missing bot
        if canonical != game:  # an alias or another spelling of a game's name
            return make_bot(canonical, name)
        raise ConfigError(f"no {game} bot named {name!r}; bots: {', '.join(bot_names(game))}")
    return factory()  # type: ignore[return-value]  # a PlainBot: see adapt()


def bot_names(game: str) -> list[str]:
    """The bots available for ``game``."""
    return sorted({n for (g, n) in _BOTS if g in (game, "*")})


def bot_doc(game: str, name: str) -> str:
    """The one-line description a bot was registered with (may be empty)."""
    return _DOCS.get((game, name)) or _DOCS.get(("*", name), "")


LEVELS: tuple[str, ...] = ("easy", "medium", "hard", "expert")
"""The difficulty levels every game offers (as far as its bots exist)."""


register_bot("*", "random", RandomBot, "uniformly random legal actions")
