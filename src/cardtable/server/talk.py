"""What seated players say and ask at a table: chat lines and the hint bot's advice."""

from __future__ import annotations

from collections import deque
from typing import Any

from ..bots import make_bot
from ..bots.base import adapt, attach
from ..bots.roles import HINT_BOTS, pick_bot
from ..core.chance import derive
from . import fanout
from .connection import Outgoing
from .lobby import clean_name, error_frame
from .state import TableState

MAX_CHAT = 250
CHAT_KEPT = 50


def load(s: TableState, lines: list[dict[str, Any]]) -> None:
    """The table's last chat ``lines`` (at most :data:`CHAT_KEPT` are kept), as the log holds them."""
    s.talk.log = deque(lines, maxlen=CHAT_KEPT)


def forget(s: TableState) -> None:
    """The advisers start afresh (an undo: their memory is of the line taken back)."""
    s.talk.hint_bots.clear()


def chat(s: TableState, seat: int, text: str) -> dict[str, Any] | None:
    """A seat's chat line to everyone at the table (P10: control characters and runs of spaces
    removed, cut to :data:`MAX_CHAT`; clients show it as text, never HTML). ``None``, or an
    ``error`` frame for the sender."""
    line = clean_name(text, "", MAX_CHAT)
    if not line:
        return error_frame("bad_message", "chat.text is empty")
    name = s.row.seats[seat].name
    s.fx.persist("add_chat", s.id, seat, name, line, fenced=True)
    entry = {"seat": seat, "name": name, "text": line}
    s.talk.log.append(entry)
    fanout.to_everyone(s, Outgoing({"type": "chat", "messages": [entry]}))
    return None


def hint(s: TableState, seat: int) -> dict[str, Any]:
    """The advice of the game's hint bot (:data:`~cardtable.bots.roles.HINT_BOTS`) to ``seat``,
    worked out from that seat's view alone: a ``hint`` frame, or an ``error``."""
    m = s.match
    view = m.state.view(seat) if m is not None and not m.is_over else None
    if view is None or not view.legal_actions:
        return error_frame("no_hint", "you have nothing to play now")
    name = pick_bot(s.row.game, HINT_BOTS)
    bot = s.talk.hint_bots.get(seat)
    if bot is None:
        bot = s.talk.hint_bots[seat] = adapt(make_bot(s.row.game, name))
        attach(bot, s.game)  # search bots learn the table's public rules
    action = bot.act(view, derive(s.row.bot_seed, "hint", seat, s.version))
    return {"type": "hint", "version": s.version, "action": str(action), "bot": name}
