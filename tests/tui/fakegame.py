"""A tiny real-time game (``current_player()`` is SIMULTANEOUS, actions carry their seat),
shaped like Spit, to test the generic table before Spit is merged. Not registered."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from cardtable.core.game import Action, Event, Game, Outcome, PlayerView, State
from cardtable.core.options import Option, resolve
from cardtable.core.seats import SIMULTANEOUS, TERMINAL

GOAL = 8


@dataclass(frozen=True, slots=True)
class Tap(Action):
    seat: int

    @property
    def index(self) -> int:
        return self.seat

    def __str__(self) -> str:
        return f"tap {self.seat}"


@dataclass(frozen=True)
class RaceView(PlayerView):
    counts: tuple[int, ...]


class RaceState(State):
    def __init__(self, game: RaceGame) -> None:
        self.game = game
        self.history: list[Action] = []
        self.counts = [0, 0]
        self.events: list[Event] = []
        self.seq = 0

    def current_player(self) -> int:
        return TERMINAL if max(self.counts) >= GOAL else SIMULTANEOUS

    def legal_actions(self, seat: int | None = None) -> Sequence[Action]:
        if seat is None or self.current_player() == TERMINAL:
            return ()
        return (Tap(seat),)

    def play(self, action: Action | str) -> None:
        if isinstance(action, str):
            action = self.game.parse_action(action)
        assert isinstance(action, Tap) and action in self.legal_actions(action.seat)
        self.apply(action)

    def apply(self, action: Action) -> None:
        assert isinstance(action, Tap)
        self.seq += len(self.events)
        self.counts[action.seat] += 1
        self.history.append(action)
        self.events = [Event(self.seq, "tap", action.seat, text=f"seat {action.seat} taps")]

    def view(self, seat: int | None) -> RaceView:
        return RaceView("race", seat, 2, self.current_player(), tuple(self.legal_actions(seat)),
                        tuple(self.events), self.outcome(), tuple(self.counts))

    def outcome(self) -> Outcome | None:
        if self.current_player() != TERMINAL:
            return None
        winners = tuple(s for s in range(2) if self.counts[s] >= GOAL)
        return Outcome(tuple(1.0 if s in winners else 0.0 for s in range(2)), winners, "race")

    def clone(self) -> RaceState:
        other = RaceState(self.game)
        other.counts, other.history, other.events, other.seq = list(self.counts), list(self.history), [], self.seq
        return other


class RaceGame(Game):
    name: ClassVar[str] = "race"
    title: ClassVar[str] = "Race"
    OPTIONS: ClassVar[tuple[Option, ...]] = ()
    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {"standard": {}}

    @classmethod
    def make(cls) -> RaceGame:
        return cls(resolve(cls.name, cls.OPTIONS, cls.PRESETS, None, {}))

    @property
    def num_players(self) -> int:
        return 2

    def new_state(self, seed: int | None = None, deck: Sequence[Any] | None = None) -> RaceState:
        return RaceState(self)

    def parse_action(self, text: str) -> Action:
        return Tap(int(text.split()[1]))

    @property
    def num_distinct_actions(self) -> int:
        return 2

    def action_from_index(self, index: int) -> Action:
        return Tap(index)
