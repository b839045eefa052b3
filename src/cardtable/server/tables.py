"""Tables: the lobby's seats and, once started, one :class:`~cardtable.host.Match` each.

A :class:`Table` is the single authority over its game. Every action, a
human's or a bot's, goes through :meth:`Table.act` under the table's lock:
checked by the host, appended to the store (committed), then acknowledged and
fanned out. Every frame that carries game data is built by :meth:`Table.view_json`
from ``state.view(seat)`` and nothing else.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import random
import re
import secrets
import sys
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from ..bots import Bot, bot_names, make_bot
from ..bots.base import adapt
from ..bots.roles import HINT_BOTS, STAND_IN_BOTS, pick_bot
from ..core.chance import derive
from ..core.errors import CardtableError, ConfigError, IllegalActionError
from ..core.game import Action, Game
from ..core.registry import load
from ..core.seats import SIMULTANEOUS
from ..host.clock import PausableClock
from ..host.match import Match
from ..host.realtime import Arrival, Intent, RealtimeBot, RealtimeHost
from ..i18n import event_text
from .encode import jsonable, view_json
from .protocol import CLOSE_FREED, CLOSE_LEFT, CLOSE_REPLACED, CLOSE_RESTART, CLOSE_SLOW, TokenBucket, dumps
from .store import BadRow, SeatRow, Store, TableRow, token_hash

MAX_NAME = 25
MAX_WAIT = 60.0
"""Seconds a real-time game waits for a person when the server has no ``hold`` (R9)."""
MAX_CHAT = 250
CHAT_KEPT = 50
MAX_QUEUE = 256
SEND_TIMEOUT = 20.0
MAX_MERGED_EVENTS = 500
SPECTATOR_PACE = 0.03
"""Seconds a spectator's state frame waits, so fan-out to many spectators never delays a player."""
MAX_RESUME_EVENTS = 5000
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")


class LobbyError(Exception):
    """A lobby request that cannot be done: an HTTP 4xx with ``message``."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def new_token() -> str:
    """An unguessable seat token: 24 random bytes (192 bits), URL-safe."""
    return secrets.token_urlsafe(24)


def clean_name(name: Any, fallback: str, limit: int = MAX_NAME) -> str:
    """A display text without control characters or runs of spaces, at most ``limit`` long."""
    if not isinstance(name, str):
        return fallback
    text = " ".join(_CONTROL.sub(" ", name).split())[:limit]
    return text or fallback


def stand_in(game: str) -> str:
    """The bot that plays for a person of ``game`` who is away too long or leaves."""
    return pick_bot(game, STAND_IN_BOTS)


def check_row(row: TableRow) -> None:
    """A stored row this server can hold: a known status, one seat row per seat in order,
    known seat kinds (:class:`ValueError` otherwise; the game's options are checked by loading it)."""
    if row.status not in ("open", "playing", "over"):
        raise ValueError(f"unknown status {row.status!r}")
    if [s.seat for s in row.seats] != list(range(len(row.seats))) or not row.seats:
        raise ValueError("the seat rows are not 0 to n-1")
    if any(s.kind not in ("open", "human", "bot") for s in row.seats):
        raise ValueError("unknown seat kind")
    if row.status != "open" and row.seed is None:
        raise ValueError("a started game without a seed")


class Outgoing:
    """A frame to send, turned into JSON text once however many connections send it
    (one spectator projection goes to every spectator: LD6)."""

    __slots__ = ("_text", "data")

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self._text: str | None = None

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = dumps(self.data)
        return self._text


class Connection:
    """One client socket: an outbound queue drained in order by a writer task.

    :meth:`push` never blocks the table. Whole-state frames (``state``,
    ``table``) are pushed with a ``latest`` key: a queued one that has not been
    sent yet is dropped for the newer one, so a spectator or a player who reads
    slowly gets the newest state rather than a backlog (LD5, LD6). A client that
    still lets :data:`MAX_QUEUE` frames pile up (its own acks and errors), or
    whose socket takes :data:`SEND_TIMEOUT` seconds to take one frame, is
    closed with ``CLOSE_SLOW`` and resumes by version.
    """

    def __init__(
        self,
        send: Callable[[str], Awaitable[None]],
        close: Callable[[int, str], Awaitable[None]],
        lang: str = "en",
    ) -> None:
        self._send = send
        self._close = close
        self.lang = lang
        self.seat: int | None = None
        self.pace = 0.0  # seconds a state frame waits before it is sent (spectators)
        self.closed = False
        # (latest key or None, frame) or (close code, reason)
        self.queue: deque[tuple[str | None, Outgoing] | tuple[int, str]] = deque()
        self._ready = asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._writer())

    def push(self, frame: dict[str, Any] | Outgoing, latest: str | None = None) -> None:
        """Queue ``frame``; with ``latest``, in place of a queued unsent frame of that key
        (a replaced ``state`` hands its events on, so the client's log misses nothing)."""
        if self.closed:
            return
        out = frame if isinstance(frame, Outgoing) else Outgoing(frame)
        if latest is not None:
            for i, (key, older) in enumerate(self.queue):
                if key == latest:
                    del self.queue[i]
                    if latest == "state" and isinstance(older, Outgoing):
                        out = Outgoing(_with_events_of(older.data, out.data))
                    break
        item: tuple[str | None, Outgoing] = (latest, out)
        if len(self.queue) >= MAX_QUEUE:
            self.queue.clear()  # it will not be read: the close goes out first
            self.close_soon(CLOSE_SLOW, "slow consumer")
            return
        self.queue.append(item)
        self._ready.set()

    def close_soon(self, code: int, reason: str = "") -> None:
        """Send what is queued, then close with ``code``."""
        if not self.closed:
            self.closed = True
            self.queue.append((code, reason))
            self._ready.set()

    async def _writer(self) -> None:
        try:
            while True:
                if not self.queue:
                    self._ready.clear()
                    await self._ready.wait()
                    continue
                index = 0
                if self.pace and self.queue[0][0] == "state":
                    # A spectator's state waits a moment: the players' frames and the next action
                    # go first, states that come meanwhile replace it, and the sends to many
                    # spectators are spread out rather than one burst (LD6). Other frames already
                    # queued (a pong, a chat line) go before it; one that comes during the wait
                    # follows it, at most 45 ms late.
                    index = next((i for i, item in enumerate(self.queue) if item[0] != "state"), -1)
                    if index < 0:
                        await asyncio.sleep(self.pace * (0.5 + random.random()))
                        if not self.queue:
                            continue
                        index = 0
                key, payload = self.queue[index]
                del self.queue[index]
                if isinstance(key, int):
                    with contextlib.suppress(Exception):
                        await self._close(key, str(payload))
                    return
                text = payload.text if isinstance(payload, Outgoing) else str(payload)
                try:
                    await asyncio.wait_for(self._send(text), SEND_TIMEOUT)
                except TimeoutError:
                    self.closed = True
                    with contextlib.suppress(Exception):
                        await asyncio.wait_for(self._close(CLOSE_SLOW, "slow consumer"), 1.0)
                    return
        except Exception:  # the socket went away; the reader side cleans up
            self.closed = True


def _with_events_of(older: dict[str, Any], newer: dict[str, Any]) -> dict[str, Any]:
    """``newer`` (a state frame) carrying ``older``'s events before its own: the events since
    the last state the client received. The frames may be shared: nothing is changed in place."""
    before = older.get("view", {}).get("events")
    view = newer.get("view")
    if not before or not isinstance(view, dict) or not isinstance(view.get("events"), list):
        return newer
    events = (before + view["events"])[-MAX_MERGED_EVENTS:]
    return {**newer, "view": {**view, "events": events}}


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
    if hasattr(bot, "react"):
        return bot  # type: ignore[return-value]
    return _Reacting(adapt(bot), name)


class Table:
    """One table of the lobby and its game.

    A simultaneous game (Spit) runs on a :class:`~cardtable.host.realtime.RealtimeHost`
    on the server's clock: actions are applied in arrival order, the state's timers
    (re-spit, slap) fire from the host, and bots move with their reaction-time model,
    driven by one task per table (:meth:`_run_realtime`).
    """

    def __init__(
        self,
        row: TableRow,
        store: Store,
        *,
        bot_delay: float = 0.0,
        hold: float | None = 60.0,
        countdown: float | None = None,
    ) -> None:
        self.row = row
        self.hold = hold
        self.countdown = countdown
        self.pause: dict[str, Any] | None = None  # what the table waits for (real-time games, R9)
        self._resume_at: float | None = None
        self._handles: list[asyncio.TimerHandle] = []  # pending hold and countdown checks
        self.away: dict[int, float] = {}  # human seat -> when it went offline (monotonic)
        self._standins: dict[int, tuple[Bot, random.Random]] = {}
        self.id = row.id
        self.store = store
        self.game: Game = load(row.game, row.preset, **row.options)
        self.bot_delay = bot_delay
        self.match: Match | None = None
        self.lock = asyncio.Lock()
        self.players: dict[int, Connection] = {}
        self.spectators: set[Connection] = set()
        self.last_seq: dict[int, tuple[int, int]] = {}
        self.buckets: dict[int, TokenBucket] = {}  # per-seat rate limits, kept across reconnects
        self._pending: tuple[int, int | None] | None = None
        self._bot_task: asyncio.Task[None] | None = None
        self._timer_task: asyncio.Task[None] | None = None
        self.rt: RealtimeHost | None = None  # simultaneous games only
        self._rt_task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._accepted: list[int] = []  # versions of the arrivals accepted in the current advance
        self.chat_log: deque[dict[str, Any]] = deque(store.chat(row.id, CHAT_KEPT), maxlen=CHAT_KEPT)
        self._hint_bots: dict[int, Bot] = {}  # one adviser per seat (a bot's memory is one seat's)
        self.visitors = 0  # sockets on their way in (between finding the table and attaching)
        self.touched = time.monotonic()
        if row.status in ("playing", "over"):
            self._replay()

    def idle_since(self, now: float) -> float:
        """Seconds since anyone was at this table (0 while a socket is open or on its way, or the lock is held)."""
        if self.players or self.spectators or self.visitors or self.lock.locked():
            return 0.0
        return now - self.touched

    def resume(self) -> None:
        """A game loaded from the store goes on: away seats, bots, timers (needs a running loop)."""
        if self.match is not None:
            self.away_since_start()
        self.update_pause()
        self.kick_bots()
        self.arm_timer()

    def release(self) -> None:
        """Forget this table's tasks and timers (it is being dropped from memory)."""
        for task in (self._bot_task, self._timer_task, self._rt_task):
            if task is not None:
                task.cancel()
        for handle in self._handles:
            handle.cancel()

    # ------------------------------------------------------------ lobby state
    @property
    def num_players(self) -> int:
        return self.game.num_players

    @property
    def version(self) -> int:
        return self.match.seq if self.match is not None else 0

    def public(self) -> dict[str, Any]:
        """What anyone may know of the table: no tokens, no seed."""
        return {
            "id": self.id,
            "game": self.row.game,
            "title": self.game.title,
            "preset": self.row.preset,
            "options": self.row.options,
            "status": self.row.status,
            "version": self.version,
            "pause": self.pause_info(),
            "watchers": len(self.spectators),
            "seats": [
                {"seat": s.seat, "kind": s.kind, "name": s.name, "online": s.seat in self.players,
                 "auto": s.seat in self._standins}
                for s in self.row.seats
            ],
        }

    def seat_for_token(self, token: str) -> int | None:
        """The seat a token holds, compared in constant time; ``None`` if it holds none."""
        digest = token_hash(token)
        found = None
        for s in self.row.seats:
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, digest):
                found = s.seat
        return found

    def is_host(self, token: Any) -> bool:
        return isinstance(token, str) and hmac.compare_digest(self.row.host_hash, token_hash(token))

    def sit(self, seat: Any, name: Any) -> str:
        if self.row.status != "open":
            raise LobbyError(409, "started", "the game has started")
        s = self._seat(seat)
        if s.kind != "open":
            raise LobbyError(409, "taken", f"seat {s.seat} is taken")
        token = new_token()
        s.kind, s.name, s.token_hash = "human", clean_name(name, f"Player {s.seat + 1}"), token_hash(token)
        self.store.set_seat(self.id, s)
        self.broadcast_table()
        return token

    def add_bot(self, seat: Any, bot: Any) -> None:
        if self.row.status != "open":
            raise LobbyError(409, "started", "the game has started")
        s = self._seat(seat)
        if s.kind != "open":
            raise LobbyError(409, "taken", f"seat {s.seat} is taken")
        if not isinstance(bot, str) or bot not in bot_names(self.row.game):
            raise LobbyError(400, "bad_bot", "bots: " + ", ".join(bot_names(self.row.game)))
        s.kind, s.name, s.token_hash = "bot", bot, None
        self.store.set_seat(self.id, s)
        self.broadcast_table()

    def free(self, seat: Any) -> None:
        """Before the start, the host opens a seat again (a bot's or a person's, whose token dies)."""
        if self.row.status != "open":
            raise LobbyError(409, "started", "the game has started")
        s = self._seat(seat)
        self._vacate(s, "open", "", CLOSE_FREED, "the host opened this seat")

    def leave(self, token: Any) -> int:
        """The person holding ``token`` leaves their seat, whose token dies (A4): before the
        start the seat is open again; during the game a stand-in bot plays it to the end."""
        seat = self.seat_for_token(token) if isinstance(token, str) and token else None
        if seat is None:
            raise LobbyError(403, "bad_token", "no seat of this table holds that token")
        if self.row.status == "over":
            raise LobbyError(409, "over", "the game is over")
        s = self.row.seats[seat]
        if self.row.status == "open":
            self._vacate(s, "open", "", CLOSE_LEFT, "you left this seat")
            return seat
        name = stand_in(self.row.game)
        self._vacate(s, "bot", name, CLOSE_LEFT, "you left this seat; a bot plays it now")
        self.away.pop(seat, None)
        self._standins.pop(seat, None)
        assert self.match is not None
        if self.rt is not None:
            self.rt.add_bot(seat, realtime_bot(self.row.game, name))  # queued actions and timers stand
            self.update_pause()  # nobody waits for a seat a bot now plays
        else:
            self.match.add_bot(seat, make_bot(self.row.game, name), self.row.bot_seed)
        self.kick_bots()
        return seat

    def _vacate(self, s: SeatRow, kind: str, name: str, code: int, reason: str) -> None:
        s.kind, s.name, s.token_hash = kind, name, None
        self.store.set_seat(self.id, s)
        self.buckets.pop(s.seat, None)
        conn = self.players.pop(s.seat, None)
        if conn is not None:
            conn.seat = None
            conn.close_soon(code, reason)
        self.broadcast_table()

    def start(self, seed: int | None = None) -> None:
        if self.row.status != "open":
            raise LobbyError(409, "started", "the game has started")
        if any(s.kind == "open" for s in self.row.seats):
            raise LobbyError(409, "seats_open", "every seat needs a player or a bot")
        self.row.seed = secrets.randbits(64) if seed is None else seed
        self.store.start(self.id, self.row.seed)
        self.row.status = "playing"
        self._new_match()
        self.broadcast_table()
        self.broadcast_state()
        self.away_since_start()
        self.update_pause()
        self.kick_bots()
        self.arm_timer()

    def _seat(self, seat: Any) -> SeatRow:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.num_players:
            raise LobbyError(400, "bad_seat", f"seats are 0 to {self.num_players - 1}")
        return self.row.seats[seat]

    # ------------------------------------------------------------- the game
    def _new_match(self) -> Match:
        realtime = self.game.new_state(seed=0).current_player() == SIMULTANEOUS
        bots = {} if realtime else {s.seat: make_bot(self.row.game, s.name) for s in self.row.seats if s.kind == "bot"}
        clock = PausableClock() if realtime else None
        match = Match(self.game, seed=self.row.seed, bots=bots, bot_seed=self.row.bot_seed, clock=clock)
        match.listeners.append(self._persist)
        self.match = match
        self.rt = None
        if realtime:
            self._make_host()
        return match

    def _make_host(self) -> None:
        """The real-time host over the match's state (again after a replay: fresh bot intents)."""
        assert self.match is not None
        bots = {s.seat: realtime_bot(self.row.game, s.name) for s in self.row.seats if s.kind == "bot"}
        self.rt = RealtimeHost(self.match.state, self.match.clock, bots=bots, seed=self.row.bot_seed,
                               on_arrival=self._arrived)

    def _arrived(self, arrival: Arrival) -> None:
        """Real-time host listener: an accepted action is numbered and committed before
        anything is sent (a player's, a bot's or a timer's)."""
        if not arrival.accepted:
            return
        assert self.match is not None
        self.match.seq += 1
        seat = -1 if arrival.seat is None else arrival.seat
        client_seq = None
        if arrival.source == "player" and self._pending is not None and self._pending[0] == seat:
            client_seq = self._pending[1]
        self.store.append(self.id, self.match.seq, seat, str(arrival.action), client_seq)
        self._accepted.append(self.match.seq)

    def _replay(self) -> None:
        """Rebuild the game from the seed and the committed log (after a restart)."""
        match = self._new_match()
        self.last_seq = {}
        for row in self.store.actions(self.id):
            match.state.play(self.game.parse_action(row.action))
            match.seq = row.version
            if row.client_seq is not None:
                self.last_seq[row.seat] = (row.client_seq, row.version)
        if self.rt is not None:
            self._make_host()
            self.update_pause()

    def _persist(self, seat: int, action: Action) -> None:
        """Host listener: every accepted action (a seat's, a bot's, a timer's) is
        committed to the log before the host returns, so before any ack."""
        assert self.match is not None
        client_seq = None
        if self._pending is not None and self._pending[0] == seat:
            client_seq = self._pending[1]
        self.store.append(self.id, self.match.seq, seat, str(action), client_seq)

    def act(self, seat: int, client_seq: int | None, text: str, seen: int | None = None) -> dict[str, Any]:
        """Apply ``seat``'s action; the reply frame (``ack`` or ``error``) for that seat.

        ``seen`` is the version of the state the client chose the action on: in
        a simultaneous game an action that was overtaken (``seen`` older than
        now) and is no longer legal is an ``error`` with code ``lost_race``
        rather than ``illegal`` (SP-13). The caller holds :attr:`lock`. Other
        seats and spectators get the new state through :meth:`broadcast_state`.
        """
        if self.match is None:
            return _error("not_started", "the game has not started", client_seq)
        if client_seq is not None:
            last = self.last_seq.get(seat)
            if last is not None and client_seq <= last[0]:
                # a resend (R2, R3): answer with the original result, apply nothing
                return {"type": "ack", "seq": client_seq, "version": last[1] if client_seq == last[0] else None,
                        "dup": True}
        try:
            action = self.game.parse_action(text)
        except CardtableError as exc:
            return _error("bad_action", str(exc), client_seq)
        named = getattr(action, "seat", None)
        if isinstance(named, int) and named != seat:  # Spit actions name a seat: it must be the token's (P7)
            return _error("illegal", "that action belongs to another seat", client_seq)
        if self.rt is not None:
            return self._act_realtime(seat, client_seq, action, seen)
        self._pending = (seat, client_seq)
        before = self.match.seq
        try:
            version = self.match.submit(seat, action)
        except IllegalActionError as exc:
            if self.match.seq != before:  # a timer expiry was accepted first
                self.after_change()
            return _error("illegal", str(exc), client_seq)
        except Exception:
            # the log could not be written: rebuild from what is committed
            self._pending = None
            self._replay()
            self.after_change()
            return _error("server", "the action could not be saved; try again", client_seq)
        finally:
            self._pending = None
        if client_seq is not None:
            self.last_seq[seat] = (client_seq, version)
        return {"type": "ack", "seq": client_seq, "version": version}

    def _act_realtime(self, seat: int, client_seq: int | None, action: Action, seen: int | None) -> dict[str, Any]:
        """A seat's action in a simultaneous game: it arrives now, after everything due
        before it (a bot's play, a timer), and is applied if it is still legal then."""
        assert self.match is not None and self.rt is not None
        state = self.match.state
        if isinstance(self.match.clock, PausableClock) and self.match.clock.paused:
            return _error("paused", "the game waits until every player is back", client_seq)
        if action not in state.legal_actions(seat):
            reason = getattr(state, "illegal_reason", None)  # the engine's words, when it has them
            why = (reason(action) if reason is not None else None) or "not legal now"
            if seen is not None and seen < self.version:  # the table moved on after the client looked
                return _error("lost_race", f"{action}: {why}", client_seq, version=self.version)
            return _error("illegal", f"{action}: {why}", client_seq)
        self._pending = (seat, client_seq)
        self._accepted = []
        try:
            self.rt.submit(action)
            arrivals = self.rt.advance()
        except Exception:
            self._pending = None
            self._replay()
            self.after_change()
            return _error("server", "the action could not be saved; try again", client_seq)
        finally:
            self._pending = None
        mine = next((a for a in arrivals if a.source == "player" and a.action is action), None)
        if any(a.accepted for a in arrivals):
            self.after_change()
        if mine is None:  # held back by the one-hand interval (SP-10): applied when due
            self._wake.set()
            return {"type": "ack", "seq": client_seq, "version": None, "queued": True}
        if not mine.accepted:  # another arrival got there first (SP-13)
            return _error("lost_race", mine.reason or "too late", client_seq, version=self.version)
        version = self._accepted[[a for a in arrivals if a.accepted].index(mine)]
        if client_seq is not None:
            self.last_seq[seat] = (client_seq, version)
        return {"type": "ack", "seq": client_seq, "version": version}

    async def _run_realtime(self) -> None:
        """Feed due bot moves and timers into the real-time host, on the server's clock."""
        while True:
            async with self.lock:
                if self.rt is None or self.match is None or self.match.is_over:
                    return
                self._wake.clear()
                due = self.rt.next_due()
                wait = 1.0 if due is None else max(0.0, min(1.0, due - self.match.clock.now()))
            if wait > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), timeout=wait)
            async with self.lock:
                if self.rt is None or self.match is None:
                    return
                self._accepted = []
                try:
                    arrivals = self.rt.advance()
                except Exception:
                    self._replay()
                    arrivals = []
                if any(a.accepted for a in arrivals):
                    self.after_change()

    def after_change(self) -> None:
        """Fan the new state out and let the bots move."""
        if self.match is not None and self.match.is_over and self.row.status != "over":
            self.row.status = "over"
            self.store.set_status(self.id, "over")
            self.broadcast_table()
        self.broadcast_state()
        self.kick_bots()

    def arm_timer(self) -> None:
        """TR-V2 ``time_limit``: the host's clock posts ``time-up`` into this table's
        actor when the time runs out, even if nobody acts (after a restart the
        time counts again from the restart: downtime is not charged)."""
        limit = getattr(self.game.options, "time_limit", None)
        m = self.match
        if limit is None or m is None or m.is_over or getattr(m.state, "time_up", True):
            return
        if self._timer_task is not None and not self._timer_task.done():
            return
        with contextlib.suppress(RuntimeError):  # no running loop: timers are polled on each action
            self._timer_task = asyncio.get_running_loop().create_task(self._timer(m.started + limit))

    async def _timer(self, due: float) -> None:
        assert self.match is not None
        await asyncio.sleep(max(0.0, due - self.match.clock.now()) + 0.01)
        async with self.lock:
            before = self.match.seq
            try:
                self.match.poll_timers()
            except Exception:
                self._replay()
            if self.match.seq != before:
                self.after_change()

    def update_pause(self) -> None:
        """A real-time game waits for every person at the table (R9, S2).

        While a person's seat has no connection (they dropped, or the server
        restarted) the game's clock stands still: bots and timers wait and
        actions are refused with ``paused``. When everyone is back it goes on
        after :attr:`countdown` seconds, where it stopped. A person away longer
        than :attr:`hold` (:data:`MAX_WAIT` without a hold) is no longer waited for. No-op for turn-based games
        and when :attr:`countdown` is ``None``."""
        m = self.match
        if self.rt is None or self.countdown is None or m is None or not isinstance(m.clock, PausableClock):
            return
        clock, before, now = m.clock, self.pause, time.monotonic()
        wait = self.hold if self.hold is not None else MAX_WAIT
        missing = [] if m.is_over else [
            s.seat for s in self.row.seats
            if s.kind == "human" and s.seat not in self.players and now - self.away.get(s.seat, now) < wait
        ]
        if missing:
            clock.pause()
            self._resume_at = None
            self.pause = {"waiting": missing}
        elif clock.paused and not m.is_over:
            if self._resume_at is None:
                self._resume_at = now + self.countdown
                self._later(self.countdown + 0.01, self.update_pause)
            if now < self._resume_at:
                self.pause = {"waiting": []}
            else:
                clock.resume()
                self._resume_at = self.pause = None
        else:
            clock.resume()
            self._resume_at = self.pause = None
        if self.pause != before:
            self.broadcast_table()
            if self.pause is None:
                self.kick_bots()

    def pause_info(self) -> dict[str, Any] | None:
        """Whom a paused real-time game waits for, and the seconds left of the countdown."""
        if self.pause is None:
            return None
        left = None if self._resume_at is None else round(max(0.0, self._resume_at - time.monotonic()), 1)
        return {**self.pause, "countdown": left}

    def kick_bots(self) -> None:
        if self.rt is not None:
            self._wake.set()
            if (self._rt_task is None or self._rt_task.done()) and self.match is not None and not self.match.is_over:
                with contextlib.suppress(RuntimeError):  # no running loop: the host advances on each action
                    self._rt_task = asyncio.get_running_loop().create_task(self._run_realtime())
            return
        if self._bot_task is not None and not self._bot_task.done():
            return
        if self.mover() is None:
            return
        with contextlib.suppress(RuntimeError):  # no running loop: nothing drives bots
            self._bot_task = asyncio.get_running_loop().create_task(self._run_bots())

    async def _run_bots(self) -> None:
        while True:
            await asyncio.sleep(self.bot_delay)
            async with self.lock:
                if not self.step_bot():
                    return

    def mover(self) -> tuple[Bot, random.Random] | None:
        """The bot that moves for the seat to move: its own bot, or a stand-in for a
        person who has been away longer than :attr:`hold` (R5); ``None`` otherwise."""
        m = self.match
        if m is None or m.is_over:
            return None
        seat = m.to_move()
        if seat in m.bots:
            return m.bots[seat], m.rngs[seat]
        if seat < 0 or self.hold is None or seat in self.players:
            return None
        since = self.away.get(seat)
        if since is None or time.monotonic() - since < self.hold:
            return None
        if seat not in self._standins:
            bot = adapt(make_bot(self.row.game, stand_in(self.row.game)))
            self._standins[seat] = (bot, derive(self.row.bot_seed, "stand-in", seat))
        return self._standins[seat]

    def away_since_start(self) -> None:
        """Every human seat not connected now is away from now (at start and after a restart)."""
        now = time.monotonic()
        for s in self.row.seats:
            if s.kind == "human" and s.seat not in self.players:
                self.away.setdefault(s.seat, now)
        self._hold_check()

    def _hold_check(self) -> None:
        wait = self.hold if self.hold is not None else (MAX_WAIT if self.rt is not None else None)
        if wait is not None:
            self._later(wait + 0.05, self._hold_over)

    def _later(self, delay: float, callback: Callable[[], None]) -> None:
        """``callback`` in ``delay`` seconds on the running loop (none: nothing; tests drive by hand)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self._handles = [h for h in self._handles if h.when() > loop.time()]  # forget the ones that ran
        self._handles.append(loop.call_later(delay, callback))

    def _hold_over(self) -> None:
        self.update_pause()
        self.kick_bots()

    def step_bot(self) -> bool:
        """One bot move through the host, if a bot (or a stand-in) is to move (lock held)."""
        m = self.match
        found = self.mover()
        if m is None or found is None:
            return False
        seat = m.to_move()
        bot, rng = found
        action = bot.act(m.state.view(seat), rng)
        reply = self.act(seat, None, str(action))
        if reply["type"] != "ack":
            return False
        self.after_change()
        return True

    def chat(self, seat: int, text: str) -> dict[str, Any] | None:
        """A seat's chat line to everyone at the table (P10: control characters and runs
        of spaces removed, cut to :data:`MAX_CHAT`; clients show it as text, never HTML).
        ``None``, or an ``error`` frame for the sender."""
        line = clean_name(text, "", MAX_CHAT)
        if not line:
            return _error("bad_message", "chat.text is empty")
        name = self.row.seats[seat].name
        self.store.add_chat(self.id, seat, name, line)
        entry = {"seat": seat, "name": name, "text": line}
        self.chat_log.append(entry)
        frame = Outgoing({"type": "chat", "messages": [entry]})
        for conn in [*self.players.values(), *self.spectators]:
            conn.push(frame)
        return None

    def hint(self, seat: int) -> dict[str, Any]:
        """The advice of the game's hint bot (:data:`~cardtable.bots.roles.HINT_BOTS`) to
        ``seat``, worked out from that seat's view alone: a ``hint`` frame, or an ``error``."""
        m = self.match
        view = m.state.view(seat) if m is not None and not m.is_over else None
        if view is None or not view.legal_actions:
            return _error("no_hint", "you have nothing to play now")
        name = pick_bot(self.row.game, HINT_BOTS)
        bot = self._hint_bots.get(seat)
        if bot is None:
            bot = self._hint_bots[seat] = adapt(make_bot(self.row.game, name))
            attach = getattr(bot, "attach", None)
            if attach is not None:
                attach(self.game)
        action = bot.act(view, derive(self.row.bot_seed, "hint", seat, self.version))
        return {"type": "hint", "version": self.version, "action": str(action), "bot": name}

    # -------------------------------------------------------- what is sent
    def view_json(self, seat: int | None, lang: str) -> dict[str, Any]:
        """The only source of game data in any frame: ``state.view(seat)``."""
        assert self.match is not None
        view = self.match.state.view(seat)
        data = view_json(view)  # == view.to_json(), faster
        if lang != "en":
            for event, out in zip(view.events, data["events"], strict=True):
                out["text"] = event_text(self.row.game, event, view, lang)
        return data

    def state_frame(self, seat: int | None, lang: str) -> dict[str, Any]:
        return {"type": "state", "version": self.version, "view": self.view_json(seat, lang)}

    def events_since(self, seat: int | None, since: int, lang: str) -> list[dict[str, Any]]:
        """The events of versions ``since + 1`` to now as ``seat`` saw them, rebuilt
        by replaying the game from its start (views only leave this function)."""
        assert self.match is not None
        history = self.match.state.history
        if since >= len(history) or len(history) - since > MAX_RESUME_EVENTS:
            return []
        state = self.game.new_state(seed=self.row.seed)
        out: list[dict[str, Any]] = []
        for number, action in enumerate(history, 1):
            state.play(action)
            if number > since:
                view = state.view(seat)
                for event in view.events:
                    data = jsonable(event)
                    if lang != "en":
                        data["text"] = event_text(self.row.game, event, view, lang)
                    data["version"] = number
                    out.append(data)
        return out

    def broadcast_state(self) -> None:
        if self.match is None:
            return
        n, v = self.num_players, self.version
        # the seat served first turns with each version, so no seat sees every Spit change first
        for seat, conn in sorted(self.players.items(), key=lambda item: (item[0] - v) % n):
            conn.push(self.state_frame(seat, conn.lang), latest="state")
        by_lang: dict[str, Outgoing] = {}
        for conn in self.spectators:
            if conn.lang not in by_lang:  # one spectator projection and text per version and language (LD6)
                by_lang[conn.lang] = Outgoing(self.state_frame(None, conn.lang))
            conn.push(by_lang[conn.lang], latest="state")

    def broadcast_table(self) -> None:
        self.touched = time.monotonic()
        frame = Outgoing({"type": "table", "table": self.public()})
        for conn in [*self.players.values(), *self.spectators]:
            conn.push(frame, latest="table")

    # ----------------------------------------------------------- sockets
    def attach(self, conn: Connection, seat: int | None, since: int | None) -> None:
        """A connection that said hello: the welcome, missed events, the state."""
        self.touched = time.monotonic()
        conn.seat = seat
        if seat is None:
            conn.pace = SPECTATOR_PACE
            self.spectators.add(conn)
        else:
            old = self.players.get(seat)
            if old is not None and old is not conn:
                old.close_soon(CLOSE_REPLACED, "replaced by a newer connection")
            self.players[seat] = conn
            if self.away.pop(seat, None) is not None:
                self._standins.pop(seat, None)
            self.update_pause()
        welcome: dict[str, Any] = {"type": "welcome", "seat": seat, "version": self.version, "table": self.public()}
        if seat is not None:  # the seat's last action seq: a new tab goes on from there (idempotency, R2)
            welcome["seq"] = self.last_seq.get(seat, (0, 0))[0]
        conn.push(welcome)
        if self.chat_log:
            conn.push({"type": "chat", "messages": list(self.chat_log)})
        if self.match is not None:
            if since is not None and since < self.version:
                events = self.events_since(seat, since, conn.lang)
                if events:
                    conn.push({"type": "events", "since": since, "version": self.version, "events": events})
            conn.push(self.state_frame(seat, conn.lang), latest="state")
        self.broadcast_table()

    def detach(self, conn: Connection) -> None:
        self.touched = time.monotonic()
        if conn.seat is not None and self.players.get(conn.seat) is conn:
            del self.players[conn.seat]
            self.away[conn.seat] = time.monotonic()
            self._hold_check()
            self.update_pause()
            self.broadcast_table()
        elif conn in self.spectators:
            self.spectators.discard(conn)
            self.broadcast_table()

    def close_all(self, code: int = CLOSE_RESTART) -> None:
        for conn in [*self.players.values(), *self.spectators]:
            conn.close_soon(code, "server restart")


def _error(code: str, message: str, seq: int | None = None, version: int | None = None) -> dict[str, Any]:
    """An ``error`` frame; ``version``: the state the client should look at now (after ``lost_race``)."""
    # a message may quote the client's text: keep it valid UTF-8 and short
    message = message.encode("utf-8", "replace").decode("utf-8")[:300]
    frame: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if seq is not None:
        frame["seq"] = seq
    if version is not None:
        frame["version"] = version
    return frame


class Hub:
    """Every live table: games in progress (replayed) and open tables younger than
    :attr:`keep` are loaded from the store at start; any other one is loaded again
    when someone asks for it. :meth:`sweep` lets go of tables nobody is at (LD8)."""

    def __init__(
        self,
        store: Store,
        *,
        bot_delay: float = 0.0,
        max_tables: int = 10_000,
        hold: float | None = 60.0,
        keep: float = 600.0,
        countdown: float | None = None,
    ) -> None:
        self.store = store
        self.hold = hold
        self.countdown = countdown
        self.keep = keep
        self.bot_delay = bot_delay
        self.max_tables = max_tables
        self.tables: dict[str, Table] = {}
        self.broken: dict[str, str] = {}
        stale = time.time() - keep  # an open table older than that waits for its link, not in the lobby
        for row in store.tables(("open", "playing")):
            if isinstance(row, BadRow):
                self._mark_broken(row.table_id, str(row))
            elif row.status == "playing" or row.created >= stale:
                self._load(row)

    def _load(self, row: TableRow) -> Table | None:
        try:
            check_row(row)
            table = Table(row, self.store, bot_delay=self.bot_delay, hold=self.hold, countdown=self.countdown)
            dumps(table.public())  # what the lobby and the socket will send of it must be sendable
        except Exception as exc:  # a row this version cannot load, replay or show (S10): serve the rest
            self._mark_broken(row.id, f"{row.game} {exc}")
            return None
        self.tables[row.id] = table
        return table

    def _mark_broken(self, table_id: str, why: str) -> None:
        """Leave a table out of memory and the lobby from now on (one line in the log)."""
        self.broken[table_id] = why
        print(f"cardtable serve: table {table_id} not loaded: {why}", file=sys.stderr)

    def resume_bots(self) -> None:
        """After a restart, let bots that are to move go on (needs a running loop)."""
        for table in self.tables.values():
            table.resume()

    def find(self, table_id: Any) -> Table | None:
        """The table ``table_id``, loaded from the store if it is not in memory; ``None`` if none."""
        if not isinstance(table_id, str) or not 0 < len(table_id) <= 64:
            return None
        table = self.tables.get(table_id)
        if table is None and table_id not in self.broken:
            try:
                row = self.store.table(table_id)
            except BadRow as exc:
                self._mark_broken(table_id, str(exc))
                return None
            if row is not None:
                table = self._load(row)
                if table is not None:
                    table.resume()
        return table

    def get(self, table_id: Any) -> Table:
        table = self.find(table_id)
        if table is None:
            raise LobbyError(404, "no_table", "no such table")
        return table

    def sweep(self, now: float | None = None) -> list[str]:
        """Drop from memory the tables nobody has been at for :attr:`keep` seconds
        that are open or over (the store keeps them; :meth:`find` loads them again).
        A game in progress stays: its bots and timers are running."""
        now = time.monotonic() if now is None else now
        gone = [
            tid for tid, t in self.tables.items()
            if t.row.status in ("open", "over") and t.idle_since(now) >= self.keep
        ]
        for tid in gone:
            self.tables.pop(tid).release()
        return gone

    def create(self, game: Any, preset: Any = None, options: Any = None) -> tuple[Table, str]:
        """A new open table; returns it and its host token (to add bots and start)."""
        if len(self.tables) >= self.max_tables:
            self.sweep()
            if len(self.tables) >= self.max_tables:
                raise LobbyError(503, "full", "too many tables")
        if not isinstance(game, str) or (preset is not None and not isinstance(preset, str)):
            raise LobbyError(400, "bad_request", "game and preset are strings")
        options = {} if options is None else options
        if not isinstance(options, dict) or len(options) > 32:
            raise LobbyError(400, "bad_request", "options is an object")
        try:
            loaded = load(game, preset, **options)
            dumps(loaded.changed_options())  # finite numbers only: the lobby shows them as JSON
        except (ConfigError, TypeError) as exc:
            raise LobbyError(400, "bad_options", str(exc)) from None
        except ValueError:
            raise LobbyError(400, "bad_options", "option values are finite numbers, texts or lists") from None
        host = new_token()
        row = TableRow(
            id=secrets.token_urlsafe(8),
            game=loaded.name,
            preset=loaded.preset,
            options=loaded.changed_options(),
            seed=None,
            bot_seed=secrets.randbits(63),
            host_hash=token_hash(host),
            status="open",
            created=time.time(),
            seats=[SeatRow(s, "open", "") for s in range(loaded.num_players)],
        )
        self.store.create_table(row)
        table = Table(row, self.store, bot_delay=self.bot_delay, hold=self.hold, countdown=self.countdown)
        self.tables[row.id] = table
        return table, host

    def listing(self) -> list[dict[str, Any]]:
        """The lobby: the last 100 open or playing tables. A table whose summary cannot be
        sent (whatever its row holds) is left out and marked broken; the rest is listed."""
        out = []
        for t in [t for t in self.tables.values() if t.row.status in ("open", "playing")]:
            try:
                entry = t.public()
                dumps(entry)
            except Exception as exc:
                self.tables.pop(t.id).release()
                self._mark_broken(t.id, f"{type(exc).__name__}: {exc}")
                continue
            out.append(entry)
        return out[-100:]

    def close_all(self) -> None:
        for table in self.tables.values():
            table.close_all()
