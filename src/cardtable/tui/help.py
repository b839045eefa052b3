"""The help screen's text: a game's rules summary, the chosen preset, every
option with its value and the keys. Plain Python (Rich markup), from the game's
``OPTIONS``/``PRESET_DOCS`` and the ``tui`` catalog."""

from __future__ import annotations

from typing import Any

from ..core.game import Game
from ..i18n import catalog
from .session import tr


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return "none" if v is None else str(v)


def _esc(text: str) -> str:
    return text.replace("[", r"\[")


def help_text(game: Game, lang: str, keys: list[tuple[str, str]]) -> str:
    """Rich markup for the help screen of ``game`` (with its options) in ``lang``."""
    cls = type(game)
    lines = [f"[b]{cls.title}[/b] — " + tr("help.preset", lang, preset=game.preset)]
    doc = tr(f"{cls.name}.preset.{game.preset}", lang)
    if doc == f"tui.{cls.name}.preset.{game.preset}":
        doc = cls.PRESET_DOCS.get(game.preset, "")
    if doc:
        lines.append(_esc(doc))
    rules_key = f"tui.{cls.name}.rules"
    if rules_key in catalog(lang) or rules_key in catalog("en"):
        lines += ["", f"[b]{tr('help.rules', lang)}[/b]", _esc(tr(f"{cls.name}.rules", lang))]
    lines += ["", f"[b]{tr('help.keys', lang)}[/b]"]
    for key, what in keys:
        lines.append(f"  [b]{_esc(key):<14}[/b] {_esc(what)}")
    lines += ["", f"[b]{tr('help.options', lang)}[/b]"]
    for spec in cls.OPTIONS:
        value = game.options[spec.name]
        changed = " *" if value != spec.default else ""
        option_doc = tr(f"{cls.name}.option.{spec.name}", lang)
        if option_doc == f"tui.{cls.name}.option.{spec.name}":
            option_doc = spec.doc
        lines.append(f"  [b]{spec.name}[/b] = {_esc(_value(value))}{changed}  [dim]\\[{spec.rule}][/dim]")
        lines.append(f"      {_esc(option_doc)}")
    lines += ["", f"[dim]{tr('help.presets', lang, names=', '.join(cls.PRESETS))}[/dim]",
              f"[dim]{tr('help.close', lang)}[/dim]"]
    return "\n".join(lines)
