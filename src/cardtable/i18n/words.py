"""Words for players: the names and one-line explanations of presets, options and their values
(the ``web.preset.*``, ``web.option.*``, ``web.choice.*`` and ``web.lobby.*`` keys the page
uses, web/static/words.js), for the terminal and any Python client. A name the catalog does not
have yet shows as it is.

>>> option_label("trash", "wild_mode", "es"), value_text("trash", "wild_mode", "kings", "en")
('Comodines', 'Kings')
>>> value_text("trash", "jokers", False, "es"), value_text("trex", "num_deals", 20, "ar")
('no', '٢٠')
"""

from __future__ import annotations

from . import DEFAULT, catalog, translate

_ARABIC_DIGITS = str.maketrans("0123456789.", "٠١٢٣٤٥٦٧٨٩٫")


def _has(key: str, lang: str) -> bool:
    return key in catalog(lang) or key in catalog(DEFAULT)


def _or(key: str, fallback: str, lang: str) -> str:
    return translate(key, lang) if _has(key, lang) else fallback


def digits(text: str, lang: str) -> str:
    """Numbers in the digits of ``lang`` (Arabic-Indic for ``ar``, as on the page)."""
    return text.translate(_ARABIC_DIGITS) if lang == "ar" else text


def preset_label(game: str, preset: str, lang: str) -> str:
    return _or(f"web.preset.{game}.{preset}", preset, lang)


def preset_doc(game: str, preset: str, lang: str, doc: str = "") -> str:
    return _or(f"web.preset.{game}.{preset}.doc", doc, lang)


def option_label(game: str, name: str, lang: str) -> str:
    return _or(f"web.option.{game}.{name}", name, lang)


def option_doc(game: str, name: str, lang: str, doc: str = "") -> str:
    return _or(f"web.option.{game}.{name}.doc", doc, lang)


def value_text(game: str, name: str, value: object, lang: str) -> str:
    """An option's value as a player reads it: a choice by its label, on/off, none, a number."""
    if value is None:
        return translate("web.lobby.none", lang)
    key = f"web.choice.{game}.{name}.{str(value).lower() if isinstance(value, bool) else value}"
    if _has(key, lang):
        return translate(key, lang)
    if isinstance(value, bool):
        return translate("web.lobby.yes" if value else "web.lobby.no", lang)
    if isinstance(value, (list, tuple)):
        return digits(", ".join(str(v) for v in value), lang)
    return digits(str(value), lang)


__all__ = ["digits", "option_doc", "option_label", "preset_doc", "preset_label", "value_text"]
