"""Trash (Garbage, Ten): docs/rules/trash.md.

>>> import cardtable
>>> state = cardtable.load("trash").new_state(seed=1)
>>> [str(a) for a in state.legal_actions()]
['stock']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from ...core.cards import Card
from ...core.chance import DealSource
from ...core.errors import ConfigError
from ...core.game import Game, Outcome
from ...core.options import Options
from ...core.registry import register
from .actions import NUM_ACTIONS, TrashAction, action_from_index, parse_action
from .options import OPTIONS, PRESET_DOCS, PRESETS
from .roles import role_table
from .state import START_SIZE, Phase, TrashState, deck_for, shared_outcome
from .view import TrashView


class TrashGame(Game):
    """Trash with resolved options (see :mod:`cardtable.games.trash.options`)."""

    name: ClassVar[str] = "trash"
    title: ClassVar[str] = "Trash"
    aliases: ClassVar[tuple[str, ...]] = ("garbage", "ten")
    OPTIONS = OPTIONS
    PRESETS = PRESETS
    PRESET_DOCS = PRESET_DOCS

    def __init__(self, options: Options) -> None:
        super().__init__(options)
        o = options
        if o.first_player >= o.players:
            raise ConfigError(f"option first_player: seat {o.first_player} does not exist with {o.players} players "
                              f"(seats 0 to {o.players - 1})")
        if o.loser_free_draws and o.players != 2:
            raise ConfigError("option loser_free_draws: TR-V8 is for two players only")
        o.only_with(OPTIONS, ("tiebreak_extra_hands",), o.max_hands is not None or o.time_limit is not None,
                    "max_hands or time_limit (TR-V2, TR-A10)")
        self.cards: tuple[int, ...] = tuple(deck_for(o.players, o.decks, o.jokers))
        if START_SIZE * o.players + 2 > len(self.cards):  # TR-2
            raise ConfigError(
                f"{len(self.cards)} cards are too few for {o.players} layouts of {START_SIZE} (TR-2): add decks"
            )
        self.role = role_table(o.wild_mode)
        # the rules the state reads during play, as plain attributes: an option lookup goes
        # through Options.__getattr__ (interpreted even in the compiled build)
        self.players: int = o.players
        self.first_player: int = o.first_player
        self.take_needs_playable: bool = o.discard_take_requires_playable
        self.has_time_limit: bool = o.time_limit is not None
        self.time_limit = o.time_limit
        self.stall_reshuffles: int = o.stall_reshuffles
        self.target_size: int = o.target_size
        self.max_hands: int = o.max_hands if o.max_hands is not None else -1  # -1: no limit
        self.tiebreak_extra_hands: bool = o.tiebreak_extra_hands
        self.rotate_first_player: bool = o.rotate_first_player
        self.loser_reveal: bool = o.loser_reveal
        self.loser_free_draws: int = o.loser_free_draws
        self.wild_mode: str = o.wild_mode
        # the outcome of each sole winner and reason, made once and shared by every match of this
        # game (an Outcome is immutable; making one runs the frozen dataclass's generated
        # __init__, interpreted even in the compiled build)
        self._sole_winner_outcomes: dict[tuple[int, str], Outcome] = {}

    def sole_winner_outcome(self, winner: int, reason: str) -> Outcome:
        """The outcome of a match that ``winner`` alone won, ended by ``reason``."""
        outcome = self._sole_winner_outcomes.get((winner, reason))
        if outcome is None:
            outcome = self._sole_winner_outcomes[(winner, reason)] = shared_outcome(self.players, (winner,), reason)
        return outcome

    @property
    def num_players(self) -> int:
        return self.players

    def new_state(self, seed: int | None = None, deck: Sequence[Card | str | int] | None = None,
                  deals: DealSource | None = None) -> TrashState:
        return TrashState(self, seed, deck, deals)

    def parse_action(self, text: str) -> TrashAction:
        return parse_action(text)

    @property
    def num_distinct_actions(self) -> int:
        return NUM_ACTIONS

    def action_from_index(self, index: int) -> TrashAction:
        return action_from_index(index)



register(TrashGame)  # a call, not a decorator: mypyc compiles only undecorated classes

__all__ = ["Phase", "TrashAction", "TrashGame", "TrashState", "TrashView"]
