"""A turn-based match under the host's authority.

:class:`Match` owns the state. Seats are humans (who :meth:`submit`) or bots
(run by :meth:`run_bots`). Every accepted action gets the next sequence number.
Timer expiries come from an injectable clock: for Trash's ``time_limit`` the
host plays ``time-up`` once the time has run out (TR-V2), so the engine never
reads a clock and a record replays exactly.

With a :class:`~cardtable.host.pacing.Pacing`, a bot's move is released a drawn
delay after the bot was asked, whatever it held or how long it thought
(:meth:`prepare_bot` gives the move and its release time, for a host with its own
timers; :meth:`run_bot` waits for it).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from ..bots.base import Bot, Budget, PlainBot, adapt, attach
from ..core.cards import Card
from ..core.chance import derive, fresh_seed
from ..core.errors import IllegalActionError
from ..core.game import Action, Game, PlayerView, State
from ..core.registry import load
from ..core.seats import SIMULTANEOUS, TERMINAL
from ..records.fairness import FairDeal
from ..records.record import Record, record_of
from .clock import Clock, SystemClock
from .pacing import Pacing

Listener = Callable[[int, Action], None]


@dataclass(frozen=True)
class BotMove:
    """A bot's move, decided but not yet released: submit it at ``release_at`` (clock time)."""

    seat: int
    action: Action
    asked: float
    release_at: float


class Match:
    """One game: the state, its seats, its clock and the order of accepted actions."""

    def __init__(
        self,
        game: Game,
        *,
        seed: int | None = None,
        deck: Sequence[Card | str | int] | None = None,
        bots: Mapping[int, Bot | PlainBot] | None = None,
        clock: Clock | None = None,
        bot_seed: int | None = None,
        budgets: Mapping[int, Budget] | None = None,
        pacing: Pacing | None = None,
        sleep: Callable[[float], None] | None = None,
        fair: FairDeal | None = None,
    ) -> None:
        self.game = game
        self.seed, self.deck, self.fair = seed, deck, fair  # ``fair``: every deal from its seeds
        self.state: State = self.new_state()
        self.bots = {seat: adapt(bot) for seat, bot in (bots or {}).items()}
        self.budgets = dict(budgets or {})
        for seat, bot in self.bots.items():
            if not 0 <= seat < game.num_players:
                raise ValueError(f"no seat {seat} for a bot in a {game.num_players}-player game")
            attach(bot, game)  # search bots learn the table's public rules (its options)
        self.clock = clock or SystemClock()
        self.started = self.clock.now()
        self.seq = 0
        base = fresh_seed() if bot_seed is None else bot_seed
        self.rngs = {seat: derive(base, "bot", seat) for seat in self.bots}
        self.pacing = pacing
        self.pace_rngs = {seat: derive(base, "pace", seat) for seat in range(game.num_players)}
        advance = getattr(self.clock, "advance", None)
        self.sleep: Callable[[float], None] = sleep or advance or time.sleep
        self.listeners: list[Listener] = []
        self._final: Record | None = None  # a finished fair game's record

    def add_bot(self, seat: int, bot: Bot | PlainBot, bot_seed: int) -> None:
        """Let ``bot`` play ``seat`` from now on (a person left the game)."""
        if not 0 <= seat < self.game.num_players:
            raise ValueError(f"no seat {seat} in a {self.game.num_players}-player game")
        adapted = adapt(bot)
        attach(adapted, self.game)
        self.bots[seat] = adapted
        self.rngs[seat] = derive(bot_seed, "bot", seat)

    @classmethod
    def from_record(
        cls,
        record: Record,
        *,
        bots: Mapping[int, Bot | PlainBot] | None = None,
        clock: Clock | None = None,
        bot_seed: int | None = None,
    ) -> Match:
        """The match of ``record``, every action replayed and checked, ready to go on.
        A ``time_limit`` starts again from the resumption."""
        game = load(record.game, record.preset, **record.options)
        deck = list(record.deck) if record.deck is not None else None
        match = cls(game, seed=record.seed, deck=deck, bots=bots, clock=clock, bot_seed=bot_seed)
        match.state = record.replay()
        match.seq = len(record.actions)
        return match

    # ---------------------------------------------------------------- state
    def new_state(self) -> State:
        """The game's first state as this match deals it (a replay starts here): from the
        fair protocol's seeds, else from the seed or the stacked deck."""
        if self.fair is not None:
            return self.fair.new_state(self.game)
        return self.game.new_state(seed=self.seed, deck=self.deck)

    @property
    def is_over(self) -> bool:
        return self.state.current_player() == TERMINAL

    def view(self, seat: int | None) -> PlayerView:
        return self.state.view(seat)

    def to_move(self) -> int:
        return self.state.current_player()

    def human_to_move(self) -> bool:
        player = self.to_move()
        return player >= 0 and player not in self.bots

    def record(self) -> Record:
        """The game's record so far; a fair game's carries its fairness block (its server seed
        and deals only once the game is over)."""
        if self.fair is not None:
            if not self.is_over:
                return self.fair.record(self.state)
            if self._final is None:  # its deals come from a whole replay: once
                self._final = self.fair.record(self.state)
            return self._final
        return record_of(self.state)

    # -------------------------------------------------------------- actions
    def poll_timers(self) -> None:
        """Feed due timer expiries into the game as actions."""
        limit = self.game.time_limit
        if limit is None or self.is_over or self.state.time_up:
            return
        if self.clock.now() - self.started >= limit:
            self._accept(-1, self.game.parse_action("time-up"))

    def submit(self, seat: int, action: Action | str) -> int:
        """A seat's action: checked against the state now; returns its sequence number.

        Raises :class:`IllegalActionError` when it is not ``seat``'s turn or
        the action is not legal; nothing changes then.
        """
        self.poll_timers()
        if isinstance(action, str):
            action = self.game.parse_action(action)
        player = self.to_move()
        if player == TERMINAL:
            raise IllegalActionError("the game is over")
        if player != SIMULTANEOUS and player != seat:
            raise IllegalActionError(f"it is seat {player}'s turn, not seat {seat}'s")
        if action not in self.state.legal_actions(seat):
            legal = ", ".join(str(a) for a in self.state.legal_actions(seat))
            raise IllegalActionError(f"{action} is not legal now; legal: {legal}")
        return self._accept(seat, action)

    def _accept(self, seat: int, action: Action) -> int:
        self.state.play(action)
        self.seq += 1
        for listener in self.listeners:
            listener(seat, action)
        return self.seq

    def prepare_bot(self) -> BotMove | None:
        """If a bot is to move, its move and when to release it (now without a pacing)."""
        self.poll_timers()
        seat = self.to_move()
        bot = self.bots.get(seat)
        if bot is None:
            return None
        asked = self.clock.now()
        action = bot.act(self.state.view(seat), self.rngs[seat], self.budgets.get(seat))
        now = self.clock.now()
        release = now if self.pacing is None else now + self.pacing.wait(asked, now, self.pace_rngs[seat])
        return BotMove(seat, action, asked, release)

    def run_bot(self) -> Action | None:
        """If a bot is to move, let it act once (released as the pacing says); returns its action."""
        move = self.prepare_bot()
        if move is None:
            return None
        left = move.release_at - self.clock.now()
        if left > 0:
            self.sleep(left)
        self.submit(move.seat, move.action)
        return move.action

    def run_bots(self, limit: int = 1_000_000) -> int:
        """Let bots act until a human is to move or the game is over; returns how many acted."""
        count = 0
        while count < limit and self.run_bot() is not None:
            count += 1
        return count


def play_out(game: Game, bots: Sequence[Bot | PlainBot], seed: int, bot_seed: int = 0) -> State:
    """A whole game between ``bots`` (one per seat), seeded: for simulations and tests."""
    match = Match(game, seed=seed, bots=dict(enumerate(bots)), bot_seed=bot_seed)
    match.run_bots()
    return match.state


__all__ = ["BotMove", "Match", "play_out"]
