"""Spit metrics and driver (docs/rules/spit.md).

Spit has no turns (``current_player()`` is ``SIMULTANEOUS``), so a match is
driven by the real-time host (``host.factory.realtime_host``) in virtual
time, the way ``bench/spit.py`` does. The bots are the reaction-time levels registered for
``spit`` (``beginner`` … ``expert``), so ``--bots fast,slow`` compares levels.

Columns: ``rounds``, ``virtual_seconds`` (game length on the virtual clock),
``rejected`` (plays that lost a race, SP-13), ``spits`` (re-spits after a
blocked position, SP-16; mutual-request spits are not counted).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from ...bots.spit import LEVELS
from ...core.errors import CardtableError
from ...core.game import Action, Game, State
from ...games.spit.state import SpitState
from ...host.clock import VirtualClock
from ...host.factory import realtime_host
from ...host.realtime import Arrival, RealtimeBot
from ..stats import Estimate, mean_ci, win_share
from .base import GameMetrics, Recorder

if TYPE_CHECKING:
    from ...bots.base import Bot
    from ..report import ReportContext, Section
    from ..results import Run

VIRTUAL_LIMIT = 36_000.0
"""Virtual seconds after which a game counts as stuck (an error, not a result)."""


class SpitRecorder:
    def __init__(self, state: State) -> None:
        self.rejected = 0
        self.spits = 0
        self.seconds = 0.0

    def step(self, state: State, action: Action) -> None:
        if str(action) == "timer spit":  # a re-spit in a blocked position (SP-16)
            self.spits += 1

    def finish(self, state: State) -> dict[str, Any]:
        rounds = cast(SpitState, state).rounds()
        return {"rounds": rounds, "virtual_seconds": self.seconds, "rejected": self.rejected, "spits": self.spits}


def play(state: State, bots: Sequence[Bot], bot_seed: int, recorder: Recorder) -> State:
    """One game in virtual time under the real-time host."""
    clock = VirtualClock()

    def on_arrival(arrival: Arrival) -> None:
        if arrival.accepted:
            recorder.step(state, arrival.action)
        elif isinstance(recorder, SpitRecorder):
            recorder.rejected += 1

    realtime_bots = cast("Sequence[RealtimeBot]", bots)  # Spit's bots react in real time
    host = realtime_host(state.game, state, clock, bots=dict(enumerate(realtime_bots)), seed=bot_seed,
                         on_arrival=on_arrival)
    if host.run(clock, until=VIRTUAL_LIMIT) is None:
        raise CardtableError(f"spit: a game was still running after {VIRTUAL_LIMIT:.0f} virtual seconds")
    if isinstance(recorder, SpitRecorder):
        recorder.seconds = float(clock.now())
    return state


def check(game: Game) -> str | None:
    if game.options.get("max_rounds") is None and game.options.get("scoring") != "points":
        return "spit: set -o max_rounds=N (SP-26) so that every simulated game ends"
    return None


def summary(rows: Sequence[Mapping[str, Any]]) -> list[tuple[str, Estimate]]:
    return [
        ("rounds per game", mean_ci(r["rounds"] for r in rows)),
        ("virtual minutes per game", mean_ci(r["virtual_seconds"] / 60 for r in rows)),
        ("plays rejected per game (lost races)", mean_ci(r["rejected"] for r in rows)),
    ]


def report(runs: Sequence[Run], ctx: ReportContext) -> list[Section]:
    from ..report import Section, cell, para, table
    from ..stats import proportion

    rows_out = []
    for run in runs:
        for b in sorted(set(run.spec.bots)):
            wins = sum(win_share(r, s) for r in run.rows for s in range(2) if r["lineup"][s] == b)
            seen = sum(1 for r in run.rows for s in range(2) if r["lineup"][s] == b)
            rows_out.append([run.label, len(run.rows), b, cell(proportion(wins, seen), True),
                             cell(mean_ci(r["rounds"] for r in run.rows)),
                             cell(mean_ci(r["virtual_seconds"] / 60 for r in run.rows))])
    html = para("Bots are reaction-time levels; games run in virtual time under the real-time host.")
    html += table(["run", "games", "bot", "win rate", "rounds per game", "virtual minutes"], rows_out)
    html += _gap_section(runs, ctx)
    html += ctx.hist("spit_rounds", "Spit: rounds per game", "rounds",
                     {run.label: [float(r["rounds"]) for r in run.rows] for run in runs}, bins=30)
    return [Section("levels and game length", html)]


def _gap_section(runs: Sequence[Run], ctx: ReportContext) -> str:
    """The faster bot's win rate against the gap between the two levels' mean reaction times."""
    from ..report import cell, para, table
    from ..stats import proportion

    levels = LEVELS
    points = []
    for run in runs:
        names = sorted(set(run.spec.bots))
        if len(names) != 2 or not all(n in levels for n in names):
            continue
        fast, slow = sorted(names, key=lambda n: levels[n].reaction_mean)
        gap = levels[slow].reaction_mean - levels[fast].reaction_mean
        wins = sum(win_share(r, q) for r in run.rows for q in range(2) if r["lineup"][q] == fast)
        seen = sum(1 for r in run.rows for q in range(2) if r["lineup"][q] == fast)
        points.append((gap, f"{fast} vs {slow}", proportion(wins, seen)))
    if not points:
        return ""
    points.sort(key=lambda p: p[0])
    html = para("The faster level's win rate against the gap between the two levels' mean reaction times "
                "(each run is one pairing of levels).")
    html += table(["pairing", "reaction-time gap (s)", "faster level wins"],
                  [[label, f"{gap:.2f}", cell(est, True)] for gap, label, est in points])
    html += ctx.bars("spit_gap", "Spit: the faster level's win rate by reaction-time gap",
                     [f"{label} (+{gap:.2f} s)" for gap, label, _ in points],
                     [("faster level wins", [est for _, _, est in points])])
    return html


METRICS = GameMetrics(game="spit", recorder=SpitRecorder, summary=summary, report=report, play=play, check=check)
