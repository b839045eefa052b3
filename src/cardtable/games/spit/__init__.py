"""Spit (Speed, Slam): docs/rules/spit.md, in real time without a clock.

>>> import cardtable
>>> state = cardtable.load("speed").new_state(seed=1)
>>> state.current_player() == cardtable.core.SIMULTANEOUS, len(state.all_cards())
(True, 52)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from ...core.cards import Card
from ...core.chance import DealSource
from ...core.game import Game
from ...core.options import Options
from ...core.registry import register
from .actions import NUM_ACTIONS, SpitAction, action_from_index, parse_action
from .options import OPTIONS, PRESET_DOCS, PRESETS
from .state import Phase, SpitState, adjacent, layout_sizes
from .view import SpitView


class SpitGame(Game):
    """Spit with resolved options (see :mod:`cardtable.games.spit.options`)."""

    name: ClassVar[str] = "spit"
    title: ClassVar[str] = "Spit"
    aliases: ClassVar[tuple[str, ...]] = ("speed", "slam")
    realtime: ClassVar[bool] = True
    OPTIONS = OPTIONS
    PRESETS = PRESETS
    PRESET_DOCS = PRESET_DOCS

    def __init__(self, options: Options) -> None:
        super().__init__(options)
        options.only_with(OPTIONS, ("points_limit", "points_round_mode"), options.scoring == "points",
                          "scoring=points (SP-V1)")

    @property
    def num_players(self) -> int:
        return 2

    def new_state(self, seed: int | None = None, deck: Sequence[Card | str | int] | None = None,
                  deals: DealSource | None = None) -> SpitState:
        return SpitState(self, seed, deck, deals)

    def parse_action(self, text: str) -> SpitAction:
        return parse_action(text)

    @property
    def num_distinct_actions(self) -> int:
        return NUM_ACTIONS

    def action_from_index(self, index: int) -> SpitAction:
        return action_from_index(index)


register(SpitGame)  # a call, not a decorator: mypyc compiles only undecorated classes

__all__ = ["Phase", "SpitAction", "SpitGame", "SpitState", "SpitView", "adjacent", "layout_sizes"]
