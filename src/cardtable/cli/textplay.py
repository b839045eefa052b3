"""A turn-based game at the terminal: the human seat types, bots answer.

Game-specific pieces come from a renderer module ``cardtable.cli.render_<game>``
with ``render(view, *, color) -> str``, ``help_text(game) -> str`` (the keys, as the
game's options have them), ``prompt(view) -> str`` (what the person is asked) and
``interpret(view, text) -> str`` (what they typed, as an action's text). Only the
human seat's view is ever shown.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from types import ModuleType

from ..core.errors import CardtableError
from ..core.game import PlayerView
from ..host.match import Match
from ..tui.session import without_rule_ids
from .style import Style

InputFn = Callable[[str], str]
OutputFn = Callable[[str], None]


def renderer_for(game: str) -> ModuleType:
    return importlib.import_module(f"{__package__}.render_{game}")


def play_text(
    match: Match,
    human: int,
    *,
    color: bool,
    ask: InputFn = input,
    say: OutputFn = print,
    pace: float = 0.0,
    save: Path | None = None,
    seats: tuple[str, ...] | None = None,
) -> int:
    """Play ``match`` with ``human`` typing at the terminal; returns an exit code. ``seats``: who
    holds each seat, as a saved record says it (``--resume`` seats them so again)."""
    r = renderer_for(match.game.name)
    st = Style(color)
    prompt = r.prompt
    interpret = r.interpret
    last_seq = -1

    def show_events(view: PlayerView) -> None:
        nonlocal last_seq
        for event in view.events:
            if event.seq <= last_seq:
                continue
            last_seq = event.seq
            say(st("  · " + event.text, "green" if event.seat == human else "dim"))

    def on_action(seat: int, action: object) -> None:
        show_events(match.view(human))
        if pace and seat != human and seat >= 0:
            time.sleep(pace)

    match.listeners.append(on_action)
    say(st(f"{match.game.title} — you are seat {human}. Type ? for help, q to quit.", "bold"))
    try:
        while not match.is_over:
            match.run_bots()
            if match.is_over:
                break
            view = match.view(human)
            if match.to_move() != human:  # not our turn and no bot moved: nothing can happen
                say("Waiting for another player, but none is connected here.")
                return 1
            say("")
            say(r.render(view, color=color))
            answer = ask(prompt(view))
            word = answer.strip().lower()
            if word in ("q", "quit", "exit"):
                say("Goodbye.")
                return _finish(match, save, say, seats)
            if word in ("?", "h", "help"):
                say(r.help_text(match.game))
                continue
            try:
                match.submit(human, interpret(view, answer))
            except CardtableError as exc:
                say(st(f"✗ {without_rule_ids(str(exc))}", "red"))
    except (EOFError, KeyboardInterrupt):
        say("\nGoodbye.")
        return _finish(match, save, say, seats)
    say("")
    say(r.render(match.view(human), color=color))
    outcome = match.state.outcome()
    if outcome is not None:
        if human in outcome.winners:
            say(st("You win!" if len(outcome.winners) == 1 else "You share the win.", "green", "bold"))
        else:
            say(st(f"Seat {', '.join(map(str, outcome.winners))} wins.", "bold"))
    return _finish(match, save, say, seats)


def _finish(match: Match, save: Path | None, say: OutputFn, seats: tuple[str, ...] | None = None) -> int:
    if save is not None:
        replace(match.record(), seats=seats).save(save)
        say(f"Saved the game to {save} (cardtable replay {save} --seat N).")
    return 0
