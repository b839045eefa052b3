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

LANGUAGES = ("en", "es", "pt")
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
    """An event in ``lang``, in the second person when it is the viewing seat's."""
    if lang == "en":
        return event.text
    mine = event.seat is not None and event.seat == view.seat
    key = f"{game}.event.{event.kind}" + (".you" if mine else "")
    if key not in catalog(lang) and mine:
        key = f"{game}.event.{event.kind}"
    if key not in catalog(lang):  # not translated yet: the engine's English sentence
        return event.text
    number = event.value if event.value is not None else event.slot
    seat_word = translate("seat", lang, n=event.seat) if event.seat is not None else ""
    return translate(key, lang, who=seat_word, c=event.card.unicode() if event.card else "", n=number,
                     s="" if number == 1 else "s")
