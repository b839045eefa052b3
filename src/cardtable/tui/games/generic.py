"""The table for a game without its own screen: the view's public fields as
text, the legal actions as buttons (keys 1–9 pick the first nine)."""

from __future__ import annotations

import json
from typing import Any

from textual.app import ComposeResult
from textual.containers import HorizontalGroup, VerticalScroll
from textual.widgets import Button, Static

from ...core.game import Action, PlayerView
from ..session import tr
from .base import GameTable

_SKIP = {"legal_actions", "events", "game", "num_players"}


class Table(GameTable):
    DEFAULT_CSS = """
    Table { height: 1fr; }
    Table #generic-view { height: 1fr; padding: 0 1; }
    Table #generic-actions { height: auto; max-height: 8; }
    Table #generic-actions Button { min-width: 8; margin: 0 1 0 0; }
    """

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="generic-scroll"):
            yield Static(id="generic-view")
        yield HorizontalGroup(id="generic-actions")

    def show(self, view: PlayerView) -> None:
        super().show(view)
        data: dict[str, Any] = {k: v for k, v in view.to_json().items() if k not in _SKIP}
        lines = []
        for key, value in data.items():
            text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
            lines.append(f"[b]{key}[/b]: {_escape(text)}")
        self.query_one("#generic-view", Static).update("\n".join(lines))
        box = self.query_one("#generic-actions", HorizontalGroup)
        box.remove_children()
        if view.seat is not None:
            box.mount_all(ActionButton(i, a) for i, a in enumerate(view.legal_actions, 1))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if isinstance(event.button, ActionButton):
            event.stop()
            self.post_message(self.Chosen(event.button.action_value))

    def key_action(self, key: str) -> Action | None:
        if self.current is None or not key.isdigit() or key == "0":
            return None
        index = int(key) - 1
        legal = self.current.legal_actions
        return legal[index] if index < len(legal) else None

    def prompt(self) -> str:
        return tr("generic.prompt", self.lang)

    def key_help(self) -> list[tuple[str, str]]:
        return [("1 … 9", tr("generic.key.pick", self.lang)), ("Tab, Enter", tr("generic.key.buttons", self.lang))]


class ActionButton(Button):
    """A legal action as a button."""

    def __init__(self, number: int, action: Action) -> None:
        super().__init__(f"{number}. {action}" if number <= 9 else str(action), compact=True, classes="action")
        self.action_value = action


def _escape(text: str) -> str:
    return text.replace("[", r"\[")
