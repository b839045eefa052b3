"""The table for a game without its own screen: the view's public fields, cards
drawn as faces, per-seat fields one line per seat, and the legal actions as
buttons (keys 1–9 pick the first nine)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields, is_dataclass
from enum import Enum
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Container, VerticalScroll
from textual.widgets import Button, Static

from ...core.cards import Card
from ...core.game import Action, PlayerView
from ..cards import card_text, pretty_cards
from ..rtl import ui
from ..session import tr
from .base import GameTable

_SKIP = {"legal_actions", "events", "game", "num_players", "seat", "outcome"}


class GenericTable(GameTable):
    DEFAULT_CSS = """
    GenericTable { height: 1fr; width: 1fr; }
    GenericTable #generic-scroll { height: 1fr; }
    GenericTable #generic-view { height: auto; padding: 0 1; }
    GenericTable #generic-actions { height: auto; max-height: 10; layout: grid; grid-size: 3; grid-gutter: 0 1;
                             padding: 0 1; }
    GenericTable #generic-actions Button { width: 1fr; }
    """

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="generic-scroll"):
            yield Static(id="generic-view")
        yield Container(id="generic-actions")

    def show(self, view: PlayerView) -> None:
        super().show(view)
        out = Text()
        for f in fields(view):
            if f.name in _SKIP:
                continue
            value = getattr(view, f.name)
            if f.name == "current_player":
                who = self.session.seat_label(value, view.seat) if value >= 0 else "—"
                out.append_text(Text.assemble((tr("generic.to_play", self.lang), "bold"), f": {who}\n"))
                continue
            out.append(f"{f.name}", style="bold")
            per_seat = isinstance(value, (tuple, list)) and len(value) == view.num_players and value and all(
                isinstance(v, (tuple, list, Mapping)) for v in value)
            if per_seat:
                out.append("\n")
                for seat, item in enumerate(value):
                    out.append(f"  {self.session.seat_label(seat, view.seat)}: ", style="dim")
                    out.append_text(_render(item))
                    out.append("\n")
            else:
                out.append(": ")
                out.append_text(_render(value))
                out.append("\n")
        self.query_one("#generic-view", Static).update(ui(out, self.lang))
        box = self.query_one("#generic-actions", Container)
        box.remove_children()
        if view.seat is not None:
            box.mount_all(ActionButton(i, a) for i, a in enumerate(view.legal_actions, 1))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if isinstance(event.button, ActionButton):
            event.stop()
            self.post_message(self.Chosen(event.button.action_value))

    def key_action(self, key: str) -> Action | None:
        if self.current is None:
            return None
        legal = self.current.legal_actions
        if key == "enter" and len(legal) == 1:
            return legal[0]
        if not (key.isascii() and key.isdigit()) or key == "0":
            return None
        index = int(key) - 1
        return legal[index] if index < len(legal) else None

    def describe(self, action: Action) -> str:
        return pretty_cards(str(action))

    def prompt(self) -> str:
        return tr("generic.prompt", self.lang)

    def key_help(self) -> list[tuple[str, str]]:
        return [("1 … 9", tr("generic.key.pick", self.lang)), ("Tab, Enter", tr("generic.key.buttons", self.lang))]


class ActionButton(Button):
    """A legal action as a button."""

    def __init__(self, number: int, action: Action) -> None:
        label = pretty_cards(str(action))
        super().__init__(f"{number}. {label}" if number <= 9 else label, compact=True, classes="action")
        self.action_value = action


def _render(value: Any) -> Text:
    """A view field as text: cards as faces, sequences space-separated, mappings as key=value."""
    if isinstance(value, Card):
        return card_text(value, width=len(value.unicode()) + 2)
    if value is None:
        return Text("—", style="dim")
    if isinstance(value, Enum):
        return Text(value.name.lower())
    if isinstance(value, bool):
        return Text("yes" if value else "no")
    if isinstance(value, (str, int, float)):
        return Text(pretty_cards(str(value)) if isinstance(value, str) else str(value))
    if isinstance(value, Action):
        return Text(pretty_cards(str(value)))
    if isinstance(value, Mapping):
        return Text(", ").join(Text.assemble(f"{k}=", _render(v)) for k, v in value.items())
    if is_dataclass(value) and not isinstance(value, type):
        return Text(", ").join(Text.assemble(f"{f.name}=", _render(getattr(value, f.name))) for f in fields(value))
    if isinstance(value, (tuple, list, set, frozenset)):
        items = list(value)
        if not items:
            return Text("—", style="dim")
        if all(isinstance(v, Card) or v is None for v in items):  # cards; None is a card face down
            return Text(" ").join(card_text(v, width=4) if v is None else _render(v) for v in items)
        return Text(", ").join(_render(v) for v in items)
    return Text(str(value))
