"""One command applied to a table's state: the whole of what a table does.

:func:`handle` changes the state as ``cmd`` says and returns the command's answer; what must
follow is left in ``s.fx`` (:mod:`.effects`). It does no I/O, awaits nothing and reads no
clock but the monotonic one the concerns use for presence, so a table can be driven and tested
command by command with no event loop and no sockets (``tests/server/test_table_commands.py``).
A :class:`~.lobby.LobbyError` is raised before anything changes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import botplay, driver, fairplay, fanout, lifecycle, moveclock, presence, seating, talk
from .commands import (
    Act,
    AddBot,
    Advance,
    Attach,
    BotMoved,
    Chat,
    CloseAll,
    Command,
    Commit,
    Detach,
    Fan,
    Free,
    Heal,
    Hint,
    HoldOver,
    Leave,
    Look,
    MoveTimeUp,
    Release,
    RenameSeat,
    Resume,
    Reveal,
    Show,
    Sit,
    Start,
    StepBot,
    TimeUp,
    Undo,
    UpdatePause,
)
from .connection import Outgoing
from .effects import Send
from .state import TableState


def handle(s: TableState, cmd: Command) -> Any:
    """Apply ``cmd``; its answer (a frame or a lobby reply), effects in ``s.fx``. Then a rated
    table's clock looks at the move to be made (:func:`.moveclock.settle`)."""
    reply = _apply(s, cmd)
    moveclock.settle(s)
    return reply


def _apply(s: TableState, cmd: Command) -> Any:
    match cmd:
        case Act():
            act = cmd
            return _socket(s, act.conn, act.seat, act.seq, "act", lambda: _act(s, act))
        case Undo():
            undo = cmd
            return _socket(s, undo.conn, undo.seat, None, "undo", lambda: lifecycle.undo(s, undo.seat))
        case Chat():
            chat = cmd
            return _socket(s, chat.conn, chat.seat, None, "chat", lambda: talk.chat(s, chat.seat, chat.text))
        case Hint():
            hint = cmd
            return _socket(s, hint.conn, hint.seat, None, "hint", lambda: talk.hint(s, hint.seat))
        case Attach(conn, seat, since, lang, holder):
            presence.attach(s, conn, seat, since, lang, holder)
            moveclock.attached(s, conn)
            return None
        case Detach(conn):
            presence.detach(s, conn)
            return None
        case Sit(seat, name, commitment, account):
            token = seating.sit(s, seat, name, commitment, account)
            return {"table": fanout.public(s), "seat": seat, "token": token}
        case Commit(token, commitment):
            return {"table": fanout.public(s), "seat": fairplay.commit(s, token, commitment)} | _after(s)
        case Reveal(token, seed):
            return {"seat": fairplay.reveal(s, token, seed)} | _after(s)
        case Leave(token):
            return {"seat": seating.leave(s, token)} | _after(s)
        case AddBot(seat, bot):
            seating.add_bot(s, seat, bot)
            return _after(s)
        case Free(seat):
            seating.free(s, seat)
            return _after(s)
        case Start(seed):
            lifecycle.start(s, seed)
            return _after(s)
        case BotMoved():
            botplay.bot_moved(s, cmd)
        case Release():
            botplay.released(s, cmd)
        case StepBot():
            return botplay.step(s)
        case Advance():
            driver.advance(s)
        case TimeUp():
            driver.time_up(s)
        case MoveTimeUp():
            moveclock.time_up(s, cmd)
        case RenameSeat(seat, name):
            seating.rename(s, seat, name)
        case HoldOver():
            presence.hold_over(s)
        case UpdatePause():
            presence.update_pause(s)
        case Heal():
            driver.heal(s)
        case Resume():
            lifecycle.mark_over(s)  # a game that ended before the process stopped, not yet marked
            if s.match is not None:
                presence.away_since_start(s)
            presence.update_pause(s)
            botplay.kick(s)
            driver.arm_timer(s)
        case Fan():
            lifecycle.after_change(s)
        case Show():
            return fanout.public(s)
        case Look(watcher):
            return lifecycle.runner_look(s, watcher)
        case CloseAll(code):
            driver.drop_held(s)
            fanout.close_all(s, code)
    return None


def _after(s: TableState) -> dict[str, Any]:
    return {"table": fanout.public(s)}


def _socket(s: TableState, conn: str | None, seat: int, seq: int | None, kind: str, apply: Callable[[], Any]) -> Any:
    """A seated socket's command (``conn``; ``None``: a caller in the process, a test): refused
    if the socket no longer holds the seat (freed, left, replaced by a newer one) or the game is
    over (a seat's token is read-only then: A4). The answer goes to the socket before the frames
    of the change it made."""
    if conn is None:
        return apply()
    extra = {} if seq is None else {"seq": seq}
    if s.players.get(seat) != conn:
        reply = {"type": "error", "code": "spectator", "message": f"this connection holds no seat: it cannot {kind}",
                 **extra}
    elif s.row.status == "over":
        reply = {"type": "error", "code": "over", "message": f"the game is over: no more {kind}", **extra}
    else:
        first = len(s.fx.items)
        reply = apply()
        if reply is not None:
            s.fx.items.insert(first, Send(conn, Outgoing(reply)))
        return reply
    s.fx.send(conn, reply)
    return reply


def _act(s: TableState, cmd: Act) -> dict[str, Any]:
    """An action; from a socket, an accepted one is fanned out (from a test, the caller does it)."""
    reply = lifecycle.act(s, cmd.seat, cmd.seq, cmd.text, cmd.seen)
    if cmd.conn is not None and reply["type"] == "ack" and not reply.get("dup"):
        lifecycle.after_change(s)
    return reply

