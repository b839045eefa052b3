"""Bots at a table: the seats' own bots and the stand-ins for people who are away or left.

Turn-based games: when a bot is to move and somebody watches, the table asks it
(:class:`~.effects.Think`: the actor works the move out in the bot pool, away from the table)
and goes on with other commands meanwhile. The answer comes back as a
:class:`~.commands.BotMoved` command; if the table moved on meanwhile (a timer, a person, an
undo), the answer is dropped and the bot is asked again. Its pacing delay
(:mod:`cardtable.host.pacing`) then runs as a scheduled :class:`~.commands.Release`, and
:func:`release` is the one place a bot's move reaches the table. Real-time games (Spit): the
bots live in the :class:`~cardtable.host.realtime.RealtimeHost`, driven by :mod:`.driver`.
"""

from __future__ import annotations

import random
import time
from typing import Any

from ..bots import Bot, make_bot
from ..bots.base import adapt, reacts
from ..bots.roles import STAND_IN_BOTS, pick_bot
from ..core.chance import derive
from ..core.game import Action
from ..host.pacing import bot_pacing
from ..host.realtime import Intent, RealtimeBot
from . import driver, fanout
from .commands import BotMoved, Release
from .effects import Think
from .state import TableState


def stand_in(game: str) -> str:
    """The bot that plays for a person of ``game`` who is away too long or leaves."""
    return pick_bot(game, STAND_IN_BOTS)


class _Reacting:
    """A turn-based bot made real-time: it looks at its view ``delay`` seconds after each change."""

    def __init__(self, bot: Bot, name: str, delay: float = 0.8) -> None:
        self.bot = bot
        self.name = name
        self.delay = delay

    def react(self, view: Any, now: float, rng: random.Random) -> Intent | None:
        if not view.legal_actions:
            return None
        return self.bot.act(view, rng), now + self.delay * (0.75 + rng.random() / 2)

    def sent(self, action: Action, when: float) -> None:
        pass

    def sticky(self, action: Action) -> bool:
        return False


def realtime_bot(game: str, name: str) -> RealtimeBot:
    """The bot ``name`` as a :class:`RealtimeBot`: its own reaction-time model if it has one."""
    bot = make_bot(game, name)
    if reacts(bot):
        return bot  # type: ignore[return-value]
    return _Reacting(adapt(bot), name)


def mover(s: TableState) -> tuple[Bot, random.Random] | None:
    """The bot that moves for the seat to move: its own bot, or a stand-in for a person who has
    been away longer than the table's ``hold`` (R5); ``None`` otherwise. At a table with a
    per-move clock an away person is timed as one who is there: the clock's stand-in makes the
    moves whose time runs out (:func:`.moveclock.time_up`), and those count as timeouts."""
    m = s.match
    if m is None or m.is_over:
        return None
    seat = m.to_move()
    if seat in m.bots:
        return m.bots[seat], m.rngs[seat]
    if seat < 0 or s.hold is None or seat in s.players or s.row.clock is not None:
        return None
    since = s.presence.away.get(seat)
    if since is None or time.monotonic() - since < s.hold:
        return None
    if seat not in s.bots.standins:
        bot = adapt(make_bot(s.row.game, stand_in(s.row.game)))
        s.bots.standins[seat] = (bot, derive(s.row.bot_seed, "stand-in", seat))
    return s.bots.standins[seat]


def stand_in_realtime(s: TableState, seat: int) -> None:
    """A real-time game no longer waits for ``seat``'s person: a stand-in plays it until they are back."""
    if s.rt is None or seat in s.bots.realtime_standins or seat in s.rt.bots:
        return
    s.bots.realtime_standins.add(seat)
    s.rt.add_bot(seat, realtime_bot(s.row.game, stand_in(s.row.game)))
    driver.wake(s)
    fanout.broadcast_table(s)


def stand_down_realtime(s: TableState, seat: int) -> None:
    """``seat``'s person is back: they play it again."""
    if seat in s.bots.realtime_standins:
        s.bots.realtime_standins.discard(seat)
        if s.rt is not None:
            s.rt.remove_bot(seat)


def key(s: TableState) -> tuple[int, int]:
    """The position a bot is asked about: an undo may bring the table back to the same version,
    its count tells them apart."""
    return s.version, s.flow.undos


def kick(s: TableState) -> None:
    """Let the bot to move (if any) go on: the real-time driver, or ask the turn-based bot to
    move. A table of bots alone that nobody watches waits until somebody comes."""
    if s.rt is not None:
        driver.wake(s)
        return
    if s.bots.thinking is not None or s.unwatched():
        return
    found = mover(s)
    if found is None:
        return
    assert s.match is not None
    seat = s.match.to_move()
    bot, rng = found
    s.fx.think(Think(seat, key(s), bot, s.match.state.view(seat), rng, time.monotonic()))


def _current(s: TableState, seat: int, asked: tuple[int, int]) -> bool:
    m = s.match
    return m is not None and asked == key(s) and m.to_move() == seat and not s.unwatched() and mover(s) is not None


def bot_moved(s: TableState, cmd: BotMoved) -> None:
    """A bot's answer: dropped (and the bot asked again) if the table moved on meanwhile;
    otherwise released once its pacing delay has passed since it was asked."""
    if not _current(s, cmd.seat, cmd.key):
        s.bots.thinking = None
        kick(s)
        return
    _keep(s, cmd.seat, cmd.bot, cmd.rng)
    assert s.match is not None
    pacing = bot_pacing(cmd.bot, s.bot_delay)
    wait = 0.0 if pacing is None else pacing.wait(cmd.asked, time.monotonic(), s.match.pace_rngs[cmd.seat])
    if wait > 0:  # released a drawn delay after asking, whatever the bot took to think
        s.fx.schedule(wait, Release(cmd.seat, cmd.key, cmd.action))
        return
    released(s, Release(cmd.seat, cmd.key, cmd.action))


def released(s: TableState, cmd: Release) -> None:
    """A bot's move after its pacing delay: played if the position is still the one it answered."""
    s.bots.thinking = None
    if _current(s, cmd.seat, cmd.key):
        if release(s, cmd.seat, cmd.action):
            _stood_in(s, cmd.seat)
    else:
        kick(s)


def step(s: TableState) -> bool:
    """One bot move, worked out on the table now, if a bot (or a stand-in) is to move."""
    m = s.match
    found = mover(s)
    if m is None or found is None:
        return False
    seat = m.to_move()
    bot, rng = found
    moved = release(s, seat, bot.act(m.state.view(seat), rng))
    if moved:
        _stood_in(s, seat)
    return moved


def _stood_in(s: TableState, seat: int) -> None:
    """After a move made for ``seat``: if an away person's stand-in made it at a rated table, it
    counts as a timeout (the table has no clock: a clock's table times away people itself), and
    after :data:`.moveclock.DEFAULT`'s number of them the person has abandoned the seat, ranked
    last as when their clock runs out too often. A bot of its own is not a stand-in."""
    from .moveclock import DEFAULT
    from .seating import abandon

    m = s.match
    if not s.row.rated or m is None or seat in m.bots or seat not in s.bots.standins:
        return
    timeouts = s.moves.timeouts[seat] = s.moves.timeouts.get(seat, 0) + 1
    if timeouts >= int(DEFAULT["timeouts"]) and s.row.seats[seat].kind == "human":
        if m.is_over:  # the stand-in's move ended the game: the seat was abandoned all the same
            s.left.add(seat)
        else:
            abandon(s, seat, "you were away too long: a bot plays this seat now")


def release(s: TableState, seat: int, action: Action) -> bool:
    """The one place a turn-based bot's chosen move goes to the table."""
    from .lifecycle import act, after_change

    reply = act(s, seat, None, str(action))
    if reply["type"] != "ack":
        return False
    after_change(s)
    return True


def _keep(s: TableState, seat: int, bot: Bot, rng: random.Random) -> None:
    """The bot and its generator as they came back from thinking (a search bot's memory)."""
    m = s.match
    assert m is not None
    if seat in m.bots:
        m.bots[seat], m.rngs[seat] = bot, rng
    elif seat in s.bots.standins:
        s.bots.standins[seat] = (bot, rng)
