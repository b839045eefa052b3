"""A rated table's per-move clock (docs/play-online.md, "Clocks").

A table made with a ``clock`` (``{"move": 15, "bank": 30, "timeouts": 3}``) gives each person
``move`` seconds for each move, then their bank: ``bank`` seconds per deal, spent only by the
moves that take longer than ``move``. When both run out a stand-in bot makes the move (the
seat's bank is then empty until the next deal); after ``timeouts`` such moves in one game the
person has abandoned the seat: a stand-in plays it to the end and, at a rated table, they rank
last. Bots' moves are not timed. Spit is played in real time and keeps its own rules: it has no
per-move clock.

The clock is a concern of the table's actor: :func:`settle` runs after every command and starts
the clock of a new move (a scheduled :class:`~.commands.MoveTimeUp`), :func:`time_up` answers
that command. What the pages see is a ``clock`` frame (:func:`frame`): the table's settings,
whose move is timed and the seconds left, each seat's bank and timeouts; nothing of the game.
After a restart the move being played gets its full time again (downtime is not charged); the
banks and timeouts so far are rebuilt from the log (:class:`Rebuild`).
"""

from __future__ import annotations

import time
from typing import Any

from ..bots import make_bot
from ..bots.base import adapt
from ..core.chance import derive
from .commands import MoveTimeUp
from .lobby import LobbyError
from .state import TableState
from .store import ActionRow

DEFAULT = {"move": 15.0, "bank": 30.0, "timeouts": 3}
"""A rated turn-based table's clock unless its creator chooses another: 15 seconds a move, a
30-second bank each deal, and the third timeout in a game counts as abandoning it."""
BOUNDS = {"move": (3.0, 300.0), "bank": (0.0, 600.0), "timeouts": (1, 20)}
SLOT = "move_clock"


def check(clock: Any, *, rated: bool, realtime: bool) -> dict[str, Any] | None:
    """A table's clock as the lobby's request gives it: ``None`` (no clock), ``"default"`` or
    missing at a rated table (:data:`DEFAULT`), or ``{"move", "bank", "timeouts"}`` within
    :data:`BOUNDS` (a missing key takes its default). A real-time game has none. :class:`LobbyError`
    ``bad_clock`` otherwise."""
    if clock == "default":
        clock = dict(DEFAULT) if not realtime else None
    if clock is None:
        return None
    if realtime:
        raise LobbyError(400, "bad_clock", "a real-time game (Spit) has no per-move clock")
    if not isinstance(clock, dict) or set(clock) - set(BOUNDS):
        raise LobbyError(400, "bad_clock", "clock is {move, bank, timeouts} or null")
    out: dict[str, Any] = {}
    for key, (low, high) in BOUNDS.items():
        value = clock.get(key, DEFAULT[key])
        whole = key == "timeouts"
        if (isinstance(value, bool) or not isinstance(value, int if whole else (int, float))
                or not low <= value <= high):
            raise LobbyError(400, "bad_clock", f"clock {key}: {'a whole number' if whole else 'seconds'}"
                             f" from {low:g} to {high:g}")
        out[key] = int(value) if whole else float(value)
    return out


def _deal(s: TableState) -> Any:
    """Which deal (hand) the game is in, from the public view: a bank is per deal."""
    assert s.match is not None
    return _deal_of(s.match.state)


def _deal_of(state: Any) -> Any:
    view = state.view(None)
    return getattr(view, "deal_number", getattr(view, "hand_number", 0))


class Rebuild:
    """The clock's banks and timeouts as the log tells them, worked out while a table's game is
    replayed after a restart (:func:`~.lifecycle.replay` calls :meth:`before` for each stored
    action): a person's move spent from the bank what it took over the move's seconds (from the
    time the action before it was stored to its own), and a move a stand-in made at a person's
    seat was a timeout. So a restart gives back neither a bank spent nor a timeout counted; the
    move being played when it happened still gets its full time again."""

    def __init__(self, s: TableState) -> None:
        self.s = s
        self.cfg = s.row.clock
        self.deal: Any = None
        self.banks: dict[int, float] = {}
        self.timeouts: dict[int, int] = {}
        self.last_at: float | None = None

    def before(self, state: Any, row: ActionRow) -> None:
        """``row`` is about to be replayed on ``state``."""
        cfg, seats = self.cfg, self.s.row.seats
        if cfg is not None and 0 <= row.seat < len(seats) and seats[row.seat].kind == "human":
            deal = _deal_of(state)
            if deal != self.deal:
                self.deal = deal
                self.banks = {seat.seat: float(cfg["bank"]) for seat in seats if seat.kind == "human"}
            if row.client_seq is None:  # the clock's stand-in made it: the time ran out
                self.banks[row.seat] = 0.0
                self.timeouts[row.seat] = self.timeouts.get(row.seat, 0) + 1
            elif row.at is not None and self.last_at is not None:
                spent = row.at - self.last_at - float(cfg["move"])
                if spent > 0:
                    self.banks[row.seat] = max(0.0, self.banks.get(row.seat, 0.0) - spent)
        if row.at is not None:
            self.last_at = row.at

    def done(self, state: Any) -> None:
        """The replay is over: the clock goes on from the banks and timeouts the log gave."""
        if self.cfg is None:
            return
        mc = self.s.moves
        mc.turn, mc.timeouts = None, dict(self.timeouts)
        if self.deal is not None and _deal_of(state) == self.deal:  # still in the deal the banks are of
            mc.deal, mc.banks = self.deal, dict(self.banks)
        else:
            mc.deal, mc.banks = None, {}  # a new deal: full banks when its first move is timed


def _timed(s: TableState, seat: int) -> bool:
    return 0 <= seat < len(s.row.seats) and s.row.seats[seat].kind == "human"


def settle(s: TableState) -> None:
    """After a command: if the move to be made is a new one, charge the move that ended to its
    seat's bank and start the new move's clock."""
    cfg, m, mc = s.row.clock, s.match, s.moves
    if cfg is None or m is None or s.rt is not None:
        return
    now = time.monotonic()
    over = m.is_over or s.row.status != "playing"
    turn = None if over else (m.to_move(), m.seq)
    if turn == mc.turn:
        return
    if mc.turn is not None and mc.turn[0] in mc.banks:
        spent = now - mc.started - float(cfg["move"])
        if spent > 0:
            mc.banks[mc.turn[0]] = max(0.0, mc.banks[mc.turn[0]] - spent)
    mc.turn, mc.started = turn, now
    if turn is not None:
        deal = _deal(s)
        if deal != mc.deal:
            mc.deal = deal
            mc.banks = {seat.seat: float(cfg["bank"]) for seat in s.row.seats if seat.kind == "human"}
        seat = turn[0]
        if _timed(s, seat):
            left = float(cfg["move"]) + mc.banks.get(seat, 0.0)
            s.fx.schedule(left + 0.05, MoveTimeUp(seat, turn[1]), slot=SLOT)
    broadcast(s)


def overdue(s: TableState, seat: int) -> bool:
    """Whether ``seat``'s move, timed now, has used up its seconds and the bank: a move that
    arrives then is too late, even if the timer's command has not been handled yet (a loaded
    machine runs it late). :func:`~.lifecycle.act` then lets the clock's stand-in move."""
    cfg, m, mc = s.row.clock, s.match, s.moves
    return (cfg is not None and m is not None and s.rt is None and not m.is_over
            and mc.turn == (seat, m.seq) and _timed(s, seat)
            and time.monotonic() - mc.started >= float(cfg["move"]) + mc.banks.get(seat, 0.0))


def time_up(s: TableState, cmd: MoveTimeUp) -> None:
    """The clock of ``cmd``'s move ran out (if that move is still to be made): a stand-in bot
    makes it; the seat's bank is spent, and its timeouts counted (too many: it abandons)."""
    from .botplay import release, stand_in
    from .seating import abandon

    cfg, m, mc = s.row.clock, s.match, s.moves
    if (cfg is None or m is None or m.is_over or mc.turn != (cmd.seat, cmd.version)
            or m.to_move() != cmd.seat or m.seq != cmd.version or not _timed(s, cmd.seat)):
        return
    seat = cmd.seat
    if not overdue(s, seat):
        s.fx.schedule(0.1, cmd, slot=SLOT)  # early (a timer's rounding): look again
        return
    mc.banks[seat] = 0.0
    mc.timeouts[seat] = mc.timeouts.get(seat, 0) + 1
    found = s.bots.standins.get(seat)  # an away person's stand-in (it keeps its memory)
    if found is None:  # else one for this move: the person is here and moves again next time
        found = (adapt(make_bot(s.row.game, stand_in(s.row.game))),
                 derive(s.row.bot_seed, "clock", seat, mc.timeouts[seat]))
    bot, rng = found
    mc.turn = None  # the next move is timed afresh, even the same seat's
    if not release(s, seat, bot.act(m.state.view(seat), rng)):
        return
    if mc.timeouts[seat] >= int(cfg["timeouts"]) and s.row.seats[seat].kind == "human":
        # the close reason's start is the page's cue to say so (table/page.js), not "you left"
        abandon(s, seat, "your time ran out too often: a bot plays this seat now")


def frame(s: TableState) -> dict[str, Any]:
    """The ``clock`` frame: whether the table is rated, its clock, the move timed now (its seat
    and the seconds left of the move's time and of the bank), each seat's bank and timeouts."""
    cfg, mc = s.row.clock, s.moves
    out: dict[str, Any] = {"type": "clock", "rated": s.row.rated, "clock": cfg, "turn": None,
                           "banks": None, "timeouts": None}
    if cfg is None or s.match is None:
        return out
    seats = range(len(s.row.seats))
    out["banks"] = [round(mc.banks[x], 1) if x in mc.banks else None for x in seats]
    out["timeouts"] = [mc.timeouts.get(x, 0) for x in seats]
    if mc.turn is not None and _timed(s, mc.turn[0]):
        used = time.monotonic() - mc.started
        move = float(cfg["move"])
        bank = mc.banks.get(mc.turn[0], 0.0)
        out["turn"] = {"seat": mc.turn[0], "move": round(max(0.0, move - used), 1),
                       "bank": round(max(0.0, bank - max(0.0, used - move)), 1)}
    return out


def shown(s: TableState) -> bool:
    """A table whose pages get ``clock`` frames: a rated one, or one with a clock."""
    return s.row.rated or s.row.clock is not None


def broadcast(s: TableState) -> None:
    if shown(s):
        f = frame(s)
        for conn in s.connections():
            s.fx.send(conn, f, latest="clock")


def attached(s: TableState, conn: str) -> None:
    """A connection said hello: the table's clock, after its welcome."""
    if shown(s):
        s.fx.send(conn, frame(s), latest="clock")
