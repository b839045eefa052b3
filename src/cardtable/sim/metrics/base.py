"""What a game's metrics module provides (one module per game).

A :class:`GameMetrics` tells the simulator, for one game:

* ``recorder(state)``: a fresh :class:`Recorder` for a match. The runner calls
  ``step(state, action)`` after every applied action (keep it to a few
  attribute reads: it is on the hot path) and ``finish(state)`` once at the end;
  ``finish`` returns the match's game-specific columns. Values are ints,
  floats, strings, bools, or lists/dicts of those (stored as JSON text).
* ``pure_bots``: bots known to decide from the current view alone and to draw
  nothing from their random generator when they have a single legal action.
  The runner does not build a view for such a bot's forced moves (the result is
  identical, only faster). Bots not listed are always asked.
* ``summary(rows)``: extra lines of the command's summary (name, estimate).
* ``grids``: named lists of option sets for ``cardtable simulate --grid NAME``.
* ``report(runs, ctx)``: the game's sections of ``cardtable report``.
* ``play``: only for games that need a driver other than the turn-based loop
  (Spit runs in virtual time under the real-time host).
* ``check(game)``: a one-line reason why a loaded game cannot be simulated, or None.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from ...core.game import Action, Game, State

if TYPE_CHECKING:
    from ...bots.base import Bot
    from ..report import ReportContext, Section
    from ..results import Run
    from ..stats import Estimate


class Recorder(Protocol):
    def step(self, state: State, action: Action) -> None: ...

    def finish(self, state: State) -> dict[str, Any]: ...


class NullRecorder:
    """Records nothing beyond the runner's common columns."""

    def step(self, state: State, action: Action) -> None:
        pass

    def finish(self, state: State) -> dict[str, Any]:
        return {}


Driver = Callable[[State, "Sequence[Bot]", int, Recorder], State]
"""``play(state, bots, bot_seed, recorder) -> the finished state``."""


def _no_summary(rows: Sequence[Mapping[str, Any]]) -> list[tuple[str, Estimate]]:
    return []


def _no_check(game: Game) -> str | None:
    return None


@dataclass(frozen=True)
class GameMetrics:
    game: str
    recorder: Callable[[State], Recorder] = field(default=lambda state: NullRecorder())
    pure_bots: frozenset[str] = frozenset()
    summary: Callable[[Sequence[Mapping[str, Any]]], list[tuple[str, Estimate]]] = _no_summary
    grids: Mapping[str, Sequence[Mapping[str, Any]]] = field(default_factory=dict)
    report: Callable[[Sequence[Run], ReportContext], list[Section]] | None = None
    play: Driver | None = None
    check: Callable[[Game], str | None] = _no_check
