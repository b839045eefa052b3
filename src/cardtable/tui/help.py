"""The help screen's text: a game's rules summary, the chosen preset, every
option with its value and the keys. Plain Python (Rich markup), from the game's
``OPTIONS``/``PRESET_DOCS`` and the catalogs: presets, options and values by the
players' words the page uses (:mod:`cardtable.i18n.words`), each option with its
one-line explanation and, dim, the name ``--option`` takes."""

from __future__ import annotations

from ..core.game import Game
from ..i18n import catalog
from ..i18n.words import option_doc, option_label, preset_doc, preset_label, value_text
from .session import tr


def _esc(text: str) -> str:
    return text.replace("[", r"\[")


def help_text(game: Game, lang: str, keys: list[tuple[str, str]]) -> str:
    """Rich markup for the help screen of ``game`` (with its options) in ``lang``."""
    cls = type(game)
    lines = [f"[b]{cls.title}[/b] — " + _esc(tr("help.preset", lang, preset=preset_label(cls.name, game.preset, lang)))]
    doc = preset_doc(cls.name, game.preset, lang, cls.PRESET_DOCS.get(game.preset, ""))
    if doc:
        lines.append(_esc(doc))
    rules_key = f"tui.{cls.name}.rules"
    if rules_key in catalog(lang) or rules_key in catalog("en"):
        lines += ["", f"[b]{tr('help.rules', lang)}[/b]", _esc(tr(f"{cls.name}.rules", lang))]
        if any(game.options[spec.name] != spec.default for spec in cls.OPTIONS):  # a preset or options change them
            lines.append(f"[b]{_esc(tr('help.rules_changed', lang))}[/b]")
    lines += ["", _esc(tr("help.howto", lang, game=cls.name))]
    lines += ["", f"[b]{tr('help.keys', lang)}[/b]"]
    mark = "\u200e" if lang == "ar" else ""  # Arabic: a key's name is drawn as it is written (LRM)
    for key, what in keys:
        lines.append(f"  [b]{mark}{_esc(key)}{mark}{' ' * max(0, 14 - len(key))}[/b] {_esc(what)}")
    lines += ["", f"[b]{tr('help.options', lang)}[/b]"]
    for spec in cls.OPTIONS:
        value = game.options[spec.name]
        changed = " *" if value != spec.default else ""
        label, shown = option_label(cls.name, spec.name, lang), value_text(cls.name, spec.name, value, lang)
        lines.append(f"  [b]{_esc(label)}[/b]: {_esc(shown)}{changed}  [dim]\\[{spec.name} · {spec.rule}][/dim]")
        lines.append(f"      {_esc(option_doc(cls.name, spec.name, lang, spec.doc))}")
    names = ", ".join(f"{preset_label(cls.name, p, lang)} ({p})" for p in cls.PRESETS)
    lines += ["", f"[dim]{_esc(tr('help.presets', lang, names=names))}[/dim]",
              f"[dim]{tr('help.close', lang)}[/dim]"]
    return "\n".join(lines)
