"""``render_mode="ansi"``: the table as a spectator sees it (``state.view(None)``), as text."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from ..core.cards import Card
from ..core.game import PlayerView

_SKIP = frozenset({"events", "legal_actions", "game", "seat"})


def spectator_text(view: PlayerView, title: str) -> str:
    """One line per public field of a spectator's view; no hidden card can appear."""
    data: dict[str, Any] = view.to_json()
    lines = [title]
    for key, value in data.items():
        if key in _SKIP or value in (None, [], ()):
            continue
        lines.append(f"{key}: {_short(value)}")
    return "\n".join(lines) + "\n"


def _short(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_short(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_short(v)}" for k, v in value.items()) + "}"
    return "-" if value is None else str(value)


_LONG = frozenset({"events", "legal_actions", "game", "seat", "deal_scores", "kingdom_scores", "num_players"})


def view_line(view: PlayerView) -> str:
    """The view on one line, cheaply (OpenSpiel's observation strings): every field but the
    events, the legal actions and the per-deal score history (the totals stand for it)."""
    parts = []
    for f in fields(view):
        if f.name in _LONG:
            continue
        parts.append(f"{f.name}={_fmt(getattr(view, f.name))}")
    return " ".join(parts)


def _fmt(value: Any) -> str:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, (tuple, list)):
        return "(" + ",".join(_fmt(v) for v in value) + ")"
    if value is None:
        return "-"
    return str(value)
