"""``render_mode="ansi"``: the table as a spectator sees it (``state.view(None)``), as text."""

from __future__ import annotations

from typing import Any

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
