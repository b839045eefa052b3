"""What seated players say and ask at a table: chat lines and the hint bot's advice."""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Any

from ..bots import Bot, make_bot
from ..bots.base import adapt
from ..bots.roles import HINT_BOTS, pick_bot
from ..core.chance import derive
from .connection import Outgoing
from .lobby import clean_name, error_frame
from .ports import LogError

if TYPE_CHECKING:
    from .tables import Table

MAX_CHAT = 250
CHAT_KEPT = 50


class Talk:
    """The table's last :data:`CHAT_KEPT` chat lines and one hint adviser per seat."""

    def __init__(self, table: Table) -> None:
        self.t = table
        self.log: deque[dict[str, Any]] = deque(table.store.chat(table.id, CHAT_KEPT), maxlen=CHAT_KEPT)
        self._hint_bots: dict[int, Bot] = {}  # one adviser per seat (a bot's memory is one seat's)

    def forget(self) -> None:
        """The advisers start afresh (an undo: their memory is of the line taken back)."""
        self._hint_bots.clear()

    def chat(self, seat: int, text: str) -> dict[str, Any] | None:
        """A seat's chat line to everyone at the table (P10: control characters and runs
        of spaces removed, cut to :data:`MAX_CHAT`; clients show it as text, never HTML).
        ``None``, or an ``error`` frame for the sender."""
        t = self.t
        line = clean_name(text, "", MAX_CHAT)
        if not line:
            return error_frame("bad_message", "chat.text is empty")
        name = t.row.seats[seat].name
        try:
            t.store.add_chat(t.id, seat, name, line)
        except LogError:
            return error_frame("server", "the line could not be saved; try again")
        entry = {"seat": seat, "name": name, "text": line}
        self.log.append(entry)
        t.fanout.to_everyone(Outgoing({"type": "chat", "messages": [entry]}))
        return None

    def hint(self, seat: int) -> dict[str, Any]:
        """The advice of the game's hint bot (:data:`~cardtable.bots.roles.HINT_BOTS`) to
        ``seat``, worked out from that seat's view alone: a ``hint`` frame, or an ``error``."""
        t = self.t
        m = t.match
        view = m.state.view(seat) if m is not None and not m.is_over else None
        if view is None or not view.legal_actions:
            return error_frame("no_hint", "you have nothing to play now")
        name = pick_bot(t.row.game, HINT_BOTS)
        bot = self._hint_bots.get(seat)
        if bot is None:
            bot = self._hint_bots[seat] = adapt(make_bot(t.row.game, name))
            attach = getattr(bot, "attach", None)
            if attach is not None:
                attach(t.game)
        action = bot.act(view, derive(t.row.bot_seed, "hint", seat, t.version))
        return {"type": "hint", "version": t.version, "action": str(action), "bot": name}
