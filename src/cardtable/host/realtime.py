"""The authority for real-time games (Spit): SP-13, docs/architecture.md "The game protocol".

The engine has no clock. :class:`RealtimeHost` owns one (an injectable
:class:`~cardtable.host.clock.Clock`) and is the only thing that feeds actions
into the state:

* **Ordering.** Every action is queued with its arrival time and applied in
  time order; each processed action gets a sequence number (:class:`Arrival`).
  The first applied wins a race; the loser is rejected by the engine without
  penalty (the state is unchanged) and recorded as rejected.
* **Ties.** Actions with identical timestamps are ordered by an explicit
  ``order`` given by a test, then by the state's ``tie_rank(action)`` if it has
  one (Spit: the player who emptied their stock wins a slap tie, SP-20; timers
  go after players), then by a seeded RNG.
* **Timers.** After every applied action the host reads ``state.timers()``
  (``(action, seconds)`` pairs, e.g. Spit's ``timer spit`` after ``spit_delay``)
  and feeds each timer action in when it expires, unless the state moved on.
* **One hand.** An option ``min_action_interval_ms`` (SP-10) delays a seat's
  action that moves a card (``state.one_handed(action)``) until that long after the
  previous one it applied; the seat's delayed actions keep their arrival order. A spit
  request, its withdrawal, a choice or a slap is not delayed.
* **Bots.** A :class:`RealtimeBot` is asked to ``react`` to its seat's view
  after every change; it answers with an action and the time it will arrive
  (its reaction time), or a time to look again. The host keeps one intent per
  bot, replaces it when the bot changes its mind, and sends it when it is due.

The same host runs live on :class:`~cardtable.host.clock.SystemClock` (call
:meth:`RealtimeHost.advance` in the UI loop, waiting at most
:meth:`RealtimeHost.next_due`) and in virtual time with
:class:`~cardtable.host.clock.VirtualClock` (:meth:`RealtimeHost.run`), which is
how simulations and tests run it.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple, Protocol

from ..core.chance import derive
from ..core.errors import CardtableError, IllegalActionError
from ..core.game import Action, Outcome, PlayerView, State
from .clock import Clock, VirtualClock

Intent = tuple[Action | None, float]
"""What a bot means to do: ``(action, when)``, or ``(None, when)`` to look again then."""


class RealtimeBot(Protocol):
    """A bot for real-time play. It sees only its seat's view."""

    name: str

    def react(self, view: PlayerView, now: float, rng: random.Random) -> Intent | None:
        """The bot's intent after a change it sees in ``view`` at time ``now``;
        ``None`` when it means to do nothing until the next change."""
        ...

    def sent(self, action: Action, when: float) -> None:
        """Its intended ``action`` left its hand at ``when`` (it may be rejected)."""
        ...

    def sticky(self, action: Action) -> bool:
        """True if an intent to do ``action`` stands, without asking again, for as
        long as it stays legal (a noticed play is carried out; the host then skips
        building a view for this bot). It depends on the action alone: the host
        asks once per intent."""
        ...


class Arrival(NamedTuple):
    """One processed action: ``seq`` numbers arrivals in the order they were
    processed; ``move`` is its index in ``state.history`` if it was applied.
    An immutable record (a named tuple: one is made per processed action)."""

    seq: int
    time: float
    action: Action
    source: str  # "player", "bot" or "timer"
    seat: int | None
    accepted: bool
    move: int | None
    reason: str | None


# Queue entries are plain tuples ``(time, count, kind, seat, action, version, order)``: ``count``
# numbers pushes (unique, so the heap never compares further), ``kind`` is one of these small ints,
# ``version`` ties a bot intent or a timer to the moment it was scheduled (a later one supersedes
# it) and ``order`` is a test's explicit order among identical timestamps.
_ACTION = 0  # a player's action
_BOT = 1  # a bot's intent, not yet sent
_SENT = 2  # a bot's action in flight: it arrives whatever the bot thinks next
_WAKE = 3  # a bot asked to look again
_TIMER = 4  # a timer of the state
_SOURCE = ("player", "bot", "bot", "bot", "timer")
_Entry = tuple[float, int, int, int | None, Action | None, int, float]
_INF = float("inf")
_new_arrival = tuple.__new__  # Arrival(...) without the named tuple's Python-level __new__


class RealtimeHost:
    """Drive ``state`` in real or virtual time. See the module docstring."""

    def __init__(
        self,
        state: State,
        clock: Clock,
        *,
        bots: Mapping[int, RealtimeBot] | None = None,
        seed: int = 0,
        on_arrival: Callable[[Arrival], None] | None = None,
    ) -> None:
        self.state = state
        self.clock = clock
        self.bots = dict(bots or {})
        self.log: list[Arrival] = []
        self.on_arrival = on_arrival
        self._heap: list[_Entry] = []
        self._count = 0
        self._seed = seed
        self._ties = derive(seed, "host", "ties")
        self._bot_rng = {s: derive(seed, "host", "bot", s) for s in self.bots}
        self._intent: dict[int, tuple[Intent, int, bool]] = {}  # seat -> (intent, version, sticky)
        self._timers: dict[int, int] = {}  # timer action index -> version
        self._version = 0
        opts: Any = state.game.options
        interval = opts.get("min_action_interval_ms", 0) if isinstance(opts, Mapping) else 0
        self.min_interval = (interval or 0) / 1000.0
        self._last_applied: dict[int, float] = {}
        # The engine's real-time hooks (State declares them; Spit gives its own), looked up once.
        # ``illegal_reason(action)`` is None exactly when ``play(action)`` would apply it.
        self._timers_of: Callable[[], Any] | None = state.timers
        self._tie_rank: Callable[[Action], int] | None = state.tie_rank
        self._illegal: Callable[[Action], str | None] | None = state.illegal_reason
        self._one_handed: Callable[[Action], bool] = state.one_handed
        self._refresh(clock.now())

    # -------------------------------------------------------------- inputs
    def submit(self, action: Action | str, *, at: float | None = None, order: int | None = None) -> None:
        """An action from a player (or a test): it arrives ``at`` (default now).

        ``order`` fixes the order among actions with identical timestamps (tests)."""
        if isinstance(action, str):
            action = self.state.game.parse_action(action)
        seat = action.seat
        when = self.clock.now() if at is None else at
        self._push(when, _ACTION, seat, action, 0, order)

    def add_bot(self, seat: int, bot: RealtimeBot) -> None:
        """Let ``bot`` play ``seat`` from now on (a person left the game): it looks at the
        state as it is now. Queued actions and running timers are kept."""
        self.bots[seat] = bot
        self._bot_rng[seat] = derive(self._seed, "host", "bot", seat)
        if not self.state.is_terminal():
            self._react(seat, self.clock.now())

    def remove_bot(self, seat: int) -> None:
        """``seat`` is played by a person again (a stand-in's person came back): its bot's
        intent is dropped, so nothing it planned is sent."""
        self.bots.pop(seat, None)
        self._intent.pop(seat, None)

    # ---------------------------------------------------------- processing
    def next_due(self) -> float | None:
        """When the next queued action, bot move or timer is due (``None``: nothing queued)."""
        heap = self._heap
        current = self._current
        while heap and not current(heap[0]):
            heapq.heappop(heap)
        return heap[0][0] if heap else None

    def advance(self) -> list[Arrival]:
        """Process everything due up to the clock's now; return what was processed."""
        now = self.clock.now()
        done: list[Arrival] = []
        while not self.state.is_terminal():
            t = self.next_due()
            if t is None or t > now:
                break
            self._batch(t, done)
        return done

    def run(self, clock: VirtualClock | None = None, *, until: float = 36_000.0) -> Outcome | None:
        """Virtual time: jump from one due event to the next until the game ends,
        nothing is queued, or the next event is later than ``until``."""
        clock = clock or (self.clock if isinstance(self.clock, VirtualClock) else None)
        if clock is None:
            raise TypeError("run() needs a VirtualClock; use advance() with a live clock")
        done: list[Arrival] = []
        state = self.state
        heap = self._heap
        current = self._current
        intents = self._intent
        pop = heapq.heappop
        while not state.is_terminal():
            while heap:  # next_due(), inlined
                e = heap[0]
                if e[2] in (_BOT, _WAKE):  # _current(), inlined for bots
                    cur = intents.get(e[3])  # type: ignore[arg-type]
                    if cur is not None and cur[1] == e[5]:
                        break
                elif current(e):
                    break
                pop(heap)
            if not heap:
                break
            t = heap[0][0]
            if t > until:
                break
            if t > clock.now():
                clock.set(t)
            self._batch(t, done)
            done.clear()
        return state.outcome()

    def _batch(self, t: float, done: list[Arrival]) -> None:
        """Process the entries due at exactly ``t`` (the earliest queued time)."""
        batch: list[_Entry] = []
        heap = self._heap
        intents = self._intent
        while heap and heap[0][0] == t:
            e = heapq.heappop(heap)
            kind = e[2]
            if kind in (_BOT, _WAKE):  # _current(), inlined for bots
                cur = intents.get(e[3])  # type: ignore[arg-type]
                if cur is None or cur[1] != e[5]:
                    continue
            elif kind == _TIMER and not self._current(e):
                continue
            if kind == _WAKE:
                seat = e[3]
                assert seat is not None
                del self._intent[seat]
                self._react(seat, t)
                continue
            if kind == _BOT:
                seat, action = e[3], e[4]
                assert seat is not None and action is not None
                del self._intent[seat]
                self.bots[seat].sent(action, t)
                e = (e[0], e[1], _SENT, seat, action, e[5], e[6])  # in flight: it arrives whatever the bot thinks next
            if not batch and not (heap and heap[0][0] == t):  # the usual case: alone at t
                seat = e[3]
                if seat is None or not self.min_interval or kind == _TIMER:  # _one(), inlined
                    done.append(self._process(e, t))
                else:
                    self._one(e, t, done)
                return
            batch.append(e)
        if len(batch) > 1:  # identical timestamps (SP-13): explicit order, the engine's rank, the seeded RNG
            rank = self._tie_rank
            keys = {e[1]: self._ties.random() for e in batch}
            batch.sort(key=lambda e: (e[6], rank(e[4]) if rank and e[4] else 0, keys[e[1]]))
        for e in batch:
            if self.state.is_terminal():
                break
            self._one(e, t, done)

    def _one(self, e: _Entry, t: float, done: list[Arrival]) -> None:
        """Process one due entry at ``t``, unless SP-10's interval holds it back."""
        seat = e[3]
        if seat is not None and self.min_interval and e[2] != _TIMER and e[4] is not None and self._one_handed(e[4]):
            ready = self._last_applied.get(seat, -1e18) + self.min_interval
            if ready > t:  # SP-10: one hand, one card at a time; held back in the order they came
                self._push(ready, e[2], seat, e[4], 0, e[6] if e[6] != _INF else e[1])
                return
        done.append(self._process(e, t))

    # ------------------------------------------------------------ internals
    def _push(self, when: float, kind: int, seat: int | None, action: Action | None, version: int,
              order: float | None) -> None:
        self._count += 1
        heapq.heappush(self._heap, (when, self._count, kind, seat, action, version, _INF if order is None else order))

    def _current(self, e: _Entry) -> bool:
        kind = e[2]
        if kind in (_BOT, _WAKE):
            cur = self._intent.get(e[3])  # type: ignore[arg-type]
            return cur is not None and cur[1] == e[5]
        if kind == _TIMER:
            assert e[4] is not None
            return self._timers.get(e[4].index) == e[5]
        return True

    def _process(self, e: _Entry, t: float) -> Arrival:
        action = e[4]
        assert action is not None
        state = self.state
        kind, seat = e[2], e[3]
        source = _SOURCE[kind]
        check = self._illegal
        reason: str | None = None
        if check is not None:  # the state's own check, as its play() makes it, without raising
            why = check(action)
            if why is not None:
                reason = f"{action}: {why}"
        else:
            try:
                state.play(action)
            except CardtableError as exc:
                reason = str(exc) if isinstance(exc, IllegalActionError) else f"bad action: {exc}"
        if reason is not None:
            arrival = _new_arrival(Arrival, (len(self.log), t, action, source, seat, False, None, reason))
            self.log.append(arrival)
            if seat in self.bots:
                assert seat is not None
                self._react(seat, t)
            if self.on_arrival:
                self.on_arrival(arrival)
            return arrival
        if check is not None:
            state.apply(action)
        if kind == _TIMER:
            self._timers.pop(action.index, None)
        if seat is not None and self.min_interval and self._one_handed(action):
            self._last_applied[seat] = t
        arrival = _new_arrival(Arrival, (len(self.log), t, action, source, seat, True, len(state.history) - 1, None))
        self.log.append(arrival)
        self._refresh(t)
        if self.on_arrival:
            self.on_arrival(arrival)
        return arrival

    def _refresh(self, t: float) -> None:
        """After a change: (re)schedule the state's timers and let every bot react."""
        running = self._timers_of() if self._timers_of else ()
        if running or self._timers:
            now_running = {a.index: (a, d) for a, d in running}
            for idx in list(self._timers):
                if idx not in now_running:
                    del self._timers[idx]
            for idx, (a, delay) in now_running.items():
                if idx not in self._timers:
                    self._version += 1
                    self._timers[idx] = self._version
                    self._push(t + delay, _TIMER, None, a, self._version, None)
        state = self.state
        if state.is_terminal():
            return
        check = self._illegal
        intents = self._intent
        for seat in self.bots:
            cur = intents.get(seat)
            if cur is not None and cur[2]:  # a sticky intent stands while it is legal
                action = cur[0][0]
                assert action is not None  # only an action is sticky
                legal = check(action) is None if check else action in state.legal_actions(seat)
                if legal:
                    continue
            self._react(seat, t)

    def _react(self, seat: int, t: float) -> None:
        bot = self.bots[seat]
        intent = bot.react(self.state.view(seat), t, self._bot_rng[seat])
        intents = self._intent
        cur = intents.get(seat)
        if intent is None:
            if cur is not None:
                del intents[seat]
            return
        if cur is not None and cur[0] == intent:
            return
        self._version = version = self._version + 1
        action, when = intent
        if action is not None:
            sticky = bot.sticky(action)  # asked once per intent: it depends on the action alone
            kind = _BOT
        else:
            sticky = False
            kind = _WAKE
        intents[seat] = (intent, version, sticky)
        self._count = count = self._count + 1
        heapq.heappush(self._heap, (when if when > t else t, count, kind, seat, action, version, _INF))
