"""Which bot plays which part, per game, shared by the terminal app and the server.

Each mapping lists bot names by preference; :func:`pick_bot` takes the first one
registered for the game (``random`` if none is).

>>> pick_bot("trex", HINT_BOTS)
'hard'
"""

from __future__ import annotations

from .base import bot_names

DEFAULT_BOTS: dict[str, tuple[str, ...]] = {
    "trash": ("sensible", "hard"),
    "trex": ("hard", "rules"),
    "spit": ("medium",),
}
"""The opponent bot of each game, by preference."""

HINT_BOTS: dict[str, tuple[str, ...]] = {
    "trash": ("hard", "sensible"),
    "trex": ("hard", "rules"),
    "spit": ("hard", "medium"),
}
"""The bot whose advice a hint shows (best first)."""

STAND_IN_BOTS: dict[str, tuple[str, ...]] = {
    "trash": ("sensible",),
    "trex": ("medium", "rules"),
    "spit": ("medium",),
}
"""The bot that plays for a person who is away too long or leaves a game in progress."""


def pick_bot(game: str, preferences: dict[str, tuple[str, ...]]) -> str:
    """The first preferred bot that exists for ``game``, else ``random``."""
    available = bot_names(game)
    for name in preferences.get(game, ()):
        if name in available:
            return name
    return "random"
