"""Real-time Spit in the terminal against a bot, with the standard library only
(termios/tty raw keys, select, ANSI escapes).

You are seat 0 (bottom row), the bot is seat 1 (top row). The spit pile you
started, S0, is on the left; the bot's, S1, on the right.

Keys
  1-5            choose one of your stock piles (it is highlighted)
  left / a       play the chosen card on S0; with no pile chosen, play any card that fits S0
  right / l      the same on S1
  1-5 (again)    with a pile chosen, a number of an empty space moves the card there (fill);
                 the same number again unselects; with auto_flip off, a face-down top is turned up
  space / s      ask for a spit (SP-17); again to withdraw
  left/right     in the slap race, slap S0 / S1 (try for the smaller pile)
  c + left/right a lone spitter picks the spit pile for the round (SP-16)
  q              quit

The screen is redrawn after every change; the host runs on the system clock
and feeds the bot's moves and the timers in as they fall due.
"""

from __future__ import annotations

import contextlib
import os
import random
import select
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

from ..bots.base import make_bot
from ..core.cards import Card
from ..core.errors import CardtableError
from ..core.game import Game, State
from ..games.spit.actions import SpitAction
from ..games.spit.view import SpitView
from ..host.clock import SystemClock
from ..host.factory import realtime_host
from ..host.realtime import Arrival, RealtimeBot
from ..records.record import record_of
from ..tui.session import tr, without_rule_ids
from ..tui.spit_controls import SpitControls

HUMAN = 0
BOT = 1

LEFT = "left"
RIGHT = "right"
_KEYS = {
    "\x1b[D": LEFT, "\x1bOD": LEFT, "a": LEFT, "A": LEFT,
    "\x1b[C": RIGHT, "\x1bOC": RIGHT, "l": RIGHT, "L": RIGHT,
    " ": "spit", "s": "spit", "S": "spit",
    "c": "choose", "C": "choose",
    "q": "quit", "Q": "quit", "\x03": "quit", "\x04": "quit",
}


def split_keys(data: str) -> list[str]:
    """Raw terminal input as key names (arrows arrive as escape sequences)."""
    keys: list[str] = []
    i = 0
    while i < len(data):
        if data[i] == "\x1b" and i + 2 < len(data) and data[i + 1] in "[O":
            keys.append(_KEYS.get(data[i:i + 3], ""))
            i += 3
            continue
        ch = data[i]
        keys.append(ch if ch in "12345" else _KEYS.get(ch, ""))
        i += 1
    return [k for k in keys if k]


class Controller:
    """Turns keys into actions for the human seat, from its view alone
    (:class:`~cardtable.tui.spit_controls.SpitControls`, shared with the Textual table)."""

    def __init__(self, seat: int = HUMAN) -> None:
        self.seat = seat
        self.controls = SpitControls()

    @property
    def selected(self) -> int | None:
        """The chosen stock pile (1-5), if any."""
        return self.controls.selected

    @property
    def message(self) -> str:
        """What the last key could not do, or the pile choice under way (English)."""
        note = self.controls.note
        if note is not None:
            return tr(note.key, "en", **note.values)
        return tr("spit.note.choose", "en") if self.controls.choosing else ""

    def key(self, key: str, view: SpitView) -> SpitAction | None:
        """The action the key asks for, or ``None`` (the controller may just change its selection)."""
        controls = self.controls
        controls.seen(view)
        if key in "12345" and len(key) == 1:
            return controls.pile(view, int(key))
        if key in (LEFT, RIGHT):
            return controls.spit_pile(view, 0 if key == LEFT else 1)
        if key == "spit":
            return controls.spit(view)
        if key == "choose":
            controls.choose(view)
        return None


# ---------------------------------------------------------------- drawing
_RED = "\x1b[31m"
_BOLD = "\x1b[1m"
_REV = "\x1b[7m"
_DIM = "\x1b[2m"
_OFF = "\x1b[0m"


def _card(card: Card | None, color: bool) -> str:
    if card is None:
        return " -- "
    text = card.unicode().rjust(3) + " "
    if color and card.suit.is_red:
        return f"{_RED}{text}{_OFF}"
    return text


def render(view: SpitView, ctl: Controller, *, color: bool, log: list[str], level: str) -> str:
    """The whole screen as text (ANSI styles only when ``color``)."""
    b = (lambda s: f"{_BOLD}{s}{_OFF}") if color else (lambda s: s)
    lines = [b(f"Spit — round {view.round} — you (seat {ctl.seat}) against the {level} bot") + "    q quits", ""]

    def row(seat: int, mine: bool) -> list[str]:
        cells, downs = [], []
        for j in range(5):
            pile = view.stock[seat][j]
            top = _card(pile[-1], color) if pile else (" ## " if view.face_down[seat][j] else "    ")
            label = f"{j + 1}:" if mine else "  "
            cell = f"{label}{top}"
            if mine and ctl.selected == j + 1:
                cell = f"{_REV}{cell}{_OFF}" if color else f"[{cell}]"
            cells.append(cell)
            downs.append(f"  +{view.face_down[seat][j]:<3d}" if view.face_down[seat][j] else "      ")
        return ["  ".join(cells) + f"     spit cards: {view.spit_cards[seat]}", "  ".join(downs)]

    other = BOT if ctl.seat == HUMAN else HUMAN
    lines += ["Bot:  " + s for s in row(other, False)]
    lines.append("")
    piles = []
    for k in (0, 1):
        if view.spit_tops[k] is None:
            piles.append(f"S{k}:  (none)      ")
        else:
            piles.append(f"S{k}: {_card(view.spit_tops[k], color)} ({view.spit_sizes[k]:2d})")
    lines.append("        " + "          ".join(piles))
    lines.append("")
    lines += ["You:  " + s for s in row(ctl.seat, True)]
    lines.append("")
    status = {
        "play": "play!",
        "spit_pending": "nobody can play: spit coming…",
        "slap": "SLAP! left/right for S0/S1",
        "over": "game over",
    }[view.phase]
    reqs = [f"seat {s} asks for a spit" for s in (0, 1) if view.spit_requests[s]]
    lines.append(b(status) + ("   " + "; ".join(reqs) if reqs else ""))
    if view.scoring == "points":
        lines.append(f"scores: you {view.scores[ctl.seat]}, bot {view.scores[other]}")
    lines.append(f"cards: you {view.cards_held[ctl.seat]}, bot {view.cards_held[other]}")
    lines.append(ctl.message)
    lines.append("")
    dim = (lambda s: f"{_DIM}{s}{_OFF}") if color else (lambda s: s)
    lines += [dim(t) for t in log[-8:]]
    lines.append("")
    lines.append("1-5 pile, ←/→ or a/l play on S0/S1, space spit, c choose, q quit")
    return "\r\n".join(lines)


@contextlib.contextmanager
def _raw(stream: TextIO) -> Iterator[int]:
    import termios
    import tty

    fd = stream.fileno()
    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        sys.stdout.write("\x1b[?25l\x1b[2J")
        yield fd
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        sys.stdout.write("\x1b[?25h\r\n")
        sys.stdout.flush()


def play_spit(game: Game, *, seed: int | None, level: str, color: bool, save: Path | None = None) -> int:
    """Play ``game`` (a loaded Spit game) in this terminal against the bot ``level`` (a level such
    as ``medium`` or any Spit bot that plays in real time, as ``cardtable rules spit`` lists them);
    with ``save``, the record is written there when the game ends or is left. The exit code.

    0 when the game was played to its end or quit, 2 for bad input (no terminal,
    unknown bot), 1 for an unexpected failure, which is reported in one line."""
    from .main import seat_bots

    if game.name != "spit":
        print("cardtable: play_spit needs the game spit", file=sys.stderr)
        return 2
    if level not in seat_bots(game):
        print(f"cardtable: no Spit bot {level!r} that plays in real time; bots: {', '.join(seat_bots(game))}",
              file=sys.stderr)
        return 2
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        print("cardtable: Spit is played in real time: run it in an interactive terminal.", file=sys.stderr)
        return 2
    bot: RealtimeBot = make_bot("spit", level)  # type: ignore[assignment]  # seat_bots: it reacts
    state = game.new_state(seed=seed)
    try:
        code = _loop(state, bot, seed, level, color)
    except KeyboardInterrupt:
        code = 130
    except CardtableError as exc:
        print(f"cardtable: {exc}", file=sys.stderr)
        code = 2
    except Exception as exc:  # never a traceback in the terminal
        print(f"cardtable: unexpected error: {type(exc).__name__}: {exc}", file=sys.stderr)
        code = 1
    if save is not None:  # the game so far, however the loop ended
        record_of(state).save(save)
        print(f"Saved the game to {save} (cardtable replay {save} --seat {HUMAN}).")
    return code


def _loop(state: State, bot: RealtimeBot, seed: int | None, level: str, color: bool) -> int:
    game = state.game
    clock = SystemClock()
    log: list[str] = []

    def on_arrival(a: Arrival) -> None:
        if a.accepted:
            view = state.view(HUMAN)
            log.extend(e.text for e in view.events if e.kind not in ("deal",))
        elif a.seat == HUMAN:
            log.append(f"rejected: {without_rule_ids(a.reason or '')}")

    host_seed = seed if seed is not None else random.SystemRandom().getrandbits(32)
    host = realtime_host(game, state, clock, bots={BOT: bot}, seed=host_seed, on_arrival=on_arrival)
    ctl = Controller(HUMAN)
    with _raw(sys.stdin) as fd:
        dirty = True
        while True:
            if host.advance():
                dirty = True
            view = state.view(HUMAN)
            assert isinstance(view, SpitView)
            if dirty:
                sys.stdout.write("\x1b[H\x1b[J" + render(view, ctl, color=color, log=log, level=level))
                if state.is_terminal():
                    out = state.outcome()
                    assert out is not None
                    result = "draw" if len(out.winners) != 1 else (
                        "you win!" if out.winners[0] == HUMAN else "the bot wins"
                    )
                    sys.stdout.write(f"\r\n\r\n{result} — press q to leave")
                sys.stdout.flush()
                dirty = False
            due = host.next_due()
            wait = 0.25 if due is None else max(0.0, min(0.25, due - clock.now()))
            ready, _, _ = select.select([fd], [], [], wait)
            if not ready:
                continue
            data = os.read(fd, 64).decode("utf-8", "replace")
            for key in split_keys(data):
                if key == "quit":
                    return 0
                if state.is_terminal():
                    continue
                action = ctl.key(key, view)
                if action is not None:
                    host.submit(action)
                dirty = True
            if host.advance():
                dirty = True
