"""Message catalogs shared by the terminal and the browser.

A catalog is ``i18n/<lang>/<namespace>.json``: a flat object of keys to
templates in ``str.format`` syntax. ``common`` holds the games' event texts
(``trash.event.draw`` …) and card words; each client keeps its own namespace
(``tui``, ``web``). A key missing in a language falls back to English, and a
key missing in English is returned as it is, so a gap shows instead of crashing.

>>> translate("trash.event.draw", "es", who="asiento 1", c="3♥")
'asiento 1 roba 3♥ del mazo'
"""

from __future__ import annotations

import json
import locale
import os
from functools import cache
from importlib import resources
from typing import Any

from ..core.game import Event, PlayerView

LANGUAGES = ("en", "es", "pt", "ar")
DEFAULT = "en"


@cache
def catalog(lang: str) -> dict[str, str]:
    """Every key of ``lang`` (all namespaces merged)."""
    out: dict[str, str] = {}
    folder = resources.files(__package__).joinpath(lang)
    if not folder.is_dir():
        return out
    for item in sorted(folder.iterdir(), key=lambda p: p.name):
        if item.name.endswith(".json"):
            out.update(json.loads(item.read_text(encoding="utf-8")))
    return out


def translate(key: str, lang: str = DEFAULT, **values: Any) -> str:
    """The template of ``key`` in ``lang`` (falling back to English) filled with ``values``."""
    template = catalog(lang).get(key) or catalog(DEFAULT).get(key) or key
    try:
        return template.format(**values)
    except (KeyError, IndexError, ValueError):
        return template


def default_language() -> str:
    """The language of the user's locale if a catalog exists for it, else English."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var)
        if value:
            code = value.split(".")[0].split("_")[0].lower()
            return code if code in LANGUAGES else DEFAULT
    code = (locale.getlocale()[0] or "").split("_")[0].lower()
    return code if code in LANGUAGES else DEFAULT


def event_text(game: str, event: Event, view: PlayerView, lang: str = DEFAULT) -> str:
    """An event in ``lang``, in the second person when it is the viewing seat's (in English too:
    "you play 10♥", never "seat 0 plays 10♥" on seat 0's own screen).

    The template is ``<game>.event.<kind>``: ``.you`` added for the viewer's own
    event, ``.none`` for an event of no seat (a shared win), where the catalog has
    them, and then ``.one`` when the number is 1 and the catalog has it (a singular
    that differs in more than a plural ``s``: "te queda 1 turno libre"). It is filled
    with ``who`` (the seat), ``c`` (the card), ``n`` (the event's value, else its
    slot) and ``s`` (a plural ``s`` for ``n``), and with the event's
    :attr:`~cardtable.core.game.Event.args` by name, each int arg also with its
    plural ``<name>_s``; a ``contract`` code is written as its name, a ``place`` as
    an ordinal (the ``tui.<game>.contract.*`` and ``tui.<game>.place.*`` keys the
    screens use).

    >>> from cardtable.core.game import Event
    >>> view = PlayerView("spit", 1, 2, -2, (), (), None)
    >>> event = Event(7, "take", 0, None, 1, 23, "seat 0 takes S1 (23 cards)", (("spit", 1), ("cards", 23)))
    >>> event_text("spit", event, view, "es")
    'asiento 0 se lleva S1 (23 cartas)'
    """
    templates = catalog(lang)
    key = f"{game}.event.{event.kind}"
    seat = event.seat
    if lang == "en" and not (seat is not None and seat == view.seat and key + ".you" in templates):
        return event.text  # the engine's sentence is the English one, but for "you …"
    if seat is None:
        if key + ".none" in templates:
            key += ".none"
    elif seat == view.seat and key + ".you" in templates:
        key += ".you"
    if key not in templates:  # not translated yet: the engine's English sentence
        return event.text
    number = event.value if event.value is not None else event.slot
    if number == 1 and key + ".one" in templates:  # a language whose singular is not "s" less
        key += ".one"
    values: dict[str, Any] = {
        "who": translate("seat", lang, n=seat) if seat is not None else "",
        "c": event.card.unicode() if event.card else "",
        "n": number,
        "s": "" if number == 1 else "s",
    }
    for name, arg in event.args:
        if isinstance(arg, int):
            values[name + "_s"] = "" if arg == 1 else "s"
        values[name] = _arg_text(game, name, arg, lang)
    return translate(key, lang, **values)


def _arg_text(game: str, name: str, arg: int | str, lang: str) -> int | str:
    """An event arg as a template shows it: contracts by name, places as ordinals."""
    if name == "contract":  # a code: KH, QN+DI, CX
        return " + ".join(translate(f"tui.{game}.contract.{part}", lang) for part in str(arg).split("+"))
    if name == "place":  # 1, 2, … as 1.º, 2.º, … (the keys count from 0)
        return translate(f"tui.{game}.place.{int(arg) - 1}", lang)
    return arg
