"""Trex (Trix): docs/rules/trex.md.

>>> import cardtable
>>> game = cardtable.load("trix")
>>> game.name, game.num_players, game.num_deals
('trex', 4, 20)
>>> state = game.new_state(seed=1)
>>> state.current_player() in range(4)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from ...core.cards import Card
from ...core.chance import DealSource
from ...core.game import Game
from ...core.options import Options
from ...core.registry import register
from .actions import DI, KH, NUM_ACTIONS, QN, TK, TR, TrexAction, action_from_index, parse_action
from .contracts import TrickContract
from .options import OPTIONS, PRESET_DOCS, PRESETS, ZERO_SUM_PRESETS, parse_groups
from .state import Phase, TrexState
from .view import TrexView


class TrexGame(Game):
    """Trex with resolved options (see :mod:`cardtable.games.trex.options`)."""

    name: ClassVar[str] = "trex"
    title: ClassVar[str] = "Trex"
    aliases: ClassVar[tuple[str, ...]] = ("trix",)
    OPTIONS = OPTIONS
    PRESETS = PRESETS
    PRESET_DOCS = PRESET_DOCS

    def __init__(self, options: Options) -> None:
        super().__init__(options)
        o = options
        o.only_with(OPTIONS, ("complex_groups",), o.complex_mode, "complex_mode=true (TX-V1)")
        o.only_with(OPTIONS, ("partnership_expose_twos",), o.partnership, "partnership=true (TX-V2)")
        o.only_with(OPTIONS, ("doubled_self_capture",), o.doubling is not False, "doubling (TX-15, TX-16)")
        o.only_with(OPTIONS, ("redeal_timing",), o.redeal_requests is not False, "redeal_requests (TX-13)")
        negatives = parse_groups(o.complex_groups) if o.complex_mode else (KH, QN, DI, TK)
        self.kingdom_contracts: tuple[int, ...] = (*negatives, TR)
        """The contract masks of one kingdom (TX-10, TX-V1)."""
        self.deals_per_kingdom = len(self.kingdom_contracts)
        self.whole_game = 4 * self.deals_per_kingdom  # TX-5: 20; in Complex 4 × (groups + 1), 8 by default
        """The deals of the whole game: four kingdoms."""
        self.num_deals = min(o.deals, self.whole_game)  # TX-V10: the game may end sooner
        self.trick_contracts: dict[int, TrickContract] = {m: TrickContract(m, o) for m in negatives}
        self.option_values: dict[str, Any] = dict(o)
        """The option values as a plain dict, for the engine's per-deal reads (no attribute hook)."""

    @property
    def num_players(self) -> int:
        return 4

    def new_state(self, seed: int | None = None, deck: Sequence[Card | str | int] | None = None,
                  deals: DealSource | None = None) -> TrexState:
        return TrexState(self, seed, deck, deals)

    def parse_action(self, text: str) -> TrexAction:
        return parse_action(text)

    @property
    def num_distinct_actions(self) -> int:
        return NUM_ACTIONS

    def action_from_index(self, index: int) -> TrexAction:
        return action_from_index(index)


register(TrexGame)  # a call, not a decorator: mypyc compiles only undecorated classes

__all__ = ["ZERO_SUM_PRESETS", "Phase", "TrexAction", "TrexGame", "TrexState", "TrexView"]
