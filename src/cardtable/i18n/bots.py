"""Bots' names and translated level labels, the same in the terminal and on the page.

A bot is named by its seat (``Ana`` at seat 0, ``Ben`` at seat 1, …), unless a person at the
table has that name: then it takes the first name past the table's seats that nobody has (a
person called Cleo at seat 0 and a bot at seat 2 of four: the bot is ``Eva``), so a sentence never
names two seats alike. It is labelled with its
level in the player's language (the ``web.bot.level.*`` keys; a ``policy-*`` or
``reaction-*`` level is the level with its style, ``web.bot.style.*``). The page's
``BOT_NAMES`` and ``botLevel`` (web/static/people.js) are the same list and rule and could be
served from here.

>>> bot_named(1, "hard", "es")
'Ben · bot difícil'
>>> bot_level("reaction-expert", "en")
'expert, reaction'
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from . import translate

BOT_NAMES = ("Ana", "Ben", "Cleo", "Dani", "Eva", "Fede", "Gala", "Hugo")
"""A bot's name by its seat; from seat 8 on (a Trash table of 9 or more) the names come round
again with a number, so that no two seats share one: seat 8 is ``Ana 2``, seat 16 ``Ana 3``."""

_STYLES = ("policy", "reaction")


def _by_seat(seat: int) -> str:
    name = BOT_NAMES[seat % len(BOT_NAMES)]
    round_ = seat // len(BOT_NAMES)
    return f"{name} {round_ + 1}" if round_ else name


def bot_name(seat: int, people: Sequence[str | None] = ()) -> str:
    """The name of the bot at ``seat`` (see :data:`BOT_NAMES`); ``people``: every seat's person's
    name (``None`` at a bot's or an open seat), the table's seats in order.

    >>> bot_name(1), bot_name(9), bot_name(17)
    ('Ben', 'Ben 2', 'Ben 3')
    >>> bot_name(2, ["Cleo", None, None, None]), bot_name(3, ["Cleo", None, None, None])
    ('Eva', 'Dani')
    """
    taken = {p.casefold() for p in people if p}
    name = _by_seat(seat)
    if name.casefold() not in taken:
        return name
    clashes = [q for q in range(len(people)) if people[q] is None and _by_seat(q).casefold() in taken]
    spare = (n for n in map(_by_seat, itertools.count(len(people))) if n.casefold() not in taken)
    for q, n in zip(clashes, spare, strict=False):  # spare is endless
        if q == seat:
            return n
    return name  # ``people`` does not list this seat as a bot's


def bot_level(kind: str, lang: str) -> str:
    """A bot level (``hard``, ``reaction-expert``, …) as the player reads it in ``lang``."""
    style, _, level = kind.partition("-")
    if style in _STYLES and level:
        return translate(f"web.bot.style.{style}", lang, level=translate(f"web.bot.level.{level}", lang))
    return translate(f"web.bot.level.{kind}", lang)


def bot_named(seat: int, kind: str, lang: str, people: Sequence[str | None] = ()) -> str:
    """The bot at ``seat`` as a table shows it: its name (:func:`bot_name`) and its level
    (``Ben · hard bot``)."""
    return translate("web.bot.named", lang, name=bot_name(seat, people), level=bot_level(kind, lang))


__all__ = ["BOT_NAMES", "bot_level", "bot_name", "bot_named"]
