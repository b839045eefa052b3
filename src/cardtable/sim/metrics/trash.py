"""Trash metrics (docs/rules/trash.md): what a simulated match records.

Columns (besides the runner's common ones):

``hands``          hands won in the match (void deals excluded)
``void_deals``     deals voided by TR-26
``turns``          turns taken (a turn starts with ``stock`` or ``discard``)
``discard_takes``  turns that took the top discard (TR-7b)
``loser_shrinks``  layouts shrunk without winning the hand (TR-V7/TR-V8)
``hands_won``      per seat
``final_sizes``    per seat
``hand_log``       one entry per won hand: ``[starter, winner, turns, size_0, …, size_n-1]``
                   with the layout sizes at the deal of that hand; turns are the
                   turns of the deal that was won (void deals before it not counted).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from ...core.game import Action, Game, State
from ...games.trash.state import TrashFacts, TrashState
from ..stats import Estimate, mean_ci, proportion, win_share
from .base import GameMetrics

if TYPE_CHECKING:
    from ..report import ReportContext, Section
    from ..results import Run


class TrashRecorder:
    """Reads ``TrashState.facts()`` after every action."""

    __slots__ = (
        "dc", "discard_takes", "hand_log", "hands_won", "hp", "loser_shrinks", "sizes", "starter",
        "total_turns", "turns", "voids",
    )

    def __init__(self, state: State) -> None:
        facts = cast(TrashState, state).facts()
        self.hp = facts.hands_played
        self.dc = facts.deal_count
        self.sizes = facts.sizes
        self.starter = facts.starter
        self.hands_won = facts.hands_won
        self.turns = 0
        self.total_turns = 0
        self.discard_takes = 0
        self.loser_shrinks = 0
        self.voids = 0
        self.hand_log: list[list[int]] = []

    def step(self, state: State, action: Action) -> None:
        kind = action.kind  # type: ignore[attr-defined]
        if kind == "stock":
            self.turns += 1
        elif kind == "discard":
            self.turns += 1
            self.discard_takes += 1
        facts = cast(TrashState, state).facts()
        if facts.deal_count != self.dc or facts.hands_played != self.hp:
            self._new_deal(facts)

    def _new_deal(self, facts: TrashFacts) -> None:
        self.total_turns += self.turns
        if facts.hands_played != self.hp:
            won = facts.hands_won
            winner = next(s for s in range(len(won)) if won[s] != self.hands_won[s])
            self.hand_log.append([self.starter, winner, self.turns, *self.sizes])
            shrunk = sum(a - b for a, b in zip(self.sizes, facts.sizes, strict=True))
            self.loser_shrinks += shrunk - 1
            self.hands_won = won
        else:
            self.voids += facts.deal_count - self.dc
        self.hp = facts.hands_played
        self.dc = facts.deal_count
        self.sizes = facts.sizes
        self.starter = facts.starter
        self.turns = 0

    def finish(self, state: State) -> dict[str, Any]:
        s = cast(TrashState, state).facts()
        return {
            "hands": s.hands_played,
            "void_deals": self.voids,
            "turns": self.total_turns + self.turns,
            "discard_takes": self.discard_takes,
            "loser_shrinks": self.loser_shrinks,
            "hands_won": list(s.hands_won),
            "final_sizes": list(s.sizes),
            "hand_log": self.hand_log,
        }


def summary(rows: Sequence[Mapping[str, Any]]) -> list[tuple[str, Estimate]]:
    hands = [r["hands"] for r in rows]
    per_hand = [t for r in rows for t in (h[2] for h in r["hand_log"])]
    first = [h for r in rows for h in r["hand_log"][:1]]
    n = len(rows[0]["hands_won"]) if rows else 2
    return [
        ("hands per match", mean_ci(hands)),
        ("turns per hand", mean_ci(per_hand)),
        ("void deals per match", mean_ci(r["void_deals"] for r in rows)),
        (f"starter wins hand 1 (no advantage: {1 / n:.3f})", proportion(sum(h[0] == h[1] for h in first), len(first))),
    ]


def check(game: Game) -> str | None:
    if game.options.time_limit is not None:
        return "option time_limit: a simulation has no clock (TR-V2); use max_hands"
    return None


VARIANTS: tuple[dict[str, Any], ...] = (
    {},
    {"wild_mode": "kings"},
    {"wild_mode": "all_faces"},
    {"jokers": True},
    {"loser_reveal": True},
    {"loser_free_draws": 3},
    {"rotate_first_player": True},
    {"discard_take_requires_playable": False},
    {"target_size": 6},
)
"""One rule switch at a time against the defaults (two players)."""

PLAYERS: tuple[dict[str, Any], ...] = tuple({"players": n} for n in (2, 3, 4, 6))


# ------------------------------------------------------------------ report
def _hands(run: Run) -> list[list[int]]:
    return [h for r in run.rows for h in r["hand_log"]]


def _starter_wins(hands: Sequence[Sequence[int]]) -> Estimate:
    return proportion(sum(h[0] == h[1] for h in hands), len(hands))


def _baseline_bot(runs: Sequence[Run]) -> str | None:
    bots = [r.same_bots for r in runs if r.same_bots is not None and not r.changed]
    if not bots:
        return None
    return "sensible" if "sensible" in bots else max(set(bots), key=bots.count)


def _variant_name(run: Run) -> str:
    if not run.changed:
        return "standard (defaults)"
    return " ".join(f"{k}={'true' if v is True else 'false' if v is False else v}" for k, v in run.changed.items())


def report(runs: Sequence[Run], ctx: ReportContext) -> list[Section]:
    """First-player advantage, hand lengths, variants and bots (docs/rules/trash.md)."""
    from ..report import Section, cell, para, table

    sections: list[Section] = []
    bot = _baseline_bot(runs)
    base = sorted((r for r in runs if bot and not r.changed and r.same_bots == bot), key=lambda r: r.players)
    how = ("cardtable simulate trash --grid players --bots sensible --games N --out DIR")
    if base:
        # --- first-player advantage
        series: dict[str, list[tuple[float, Estimate]]] = {}
        refs: dict[str, float] = {}
        rows = []
        for run in base:
            hands = _hands(run)
            n = run.players
            label = f"{n} players"
            pts = []
            for size in range(10, 0, -1):
                eq = [h for h in hands if all(x == size for x in h[3:])]
                if len(eq) >= 30:
                    pts.append((float(size), _starter_wins(eq)))
            series[label], refs[label] = pts, 1 / n
            first = [r["hand_log"][0] for r in run.rows if r["hand_log"]]
            smaller = [h for h in hands if h[3 + h[0]] < min(x for s, x in enumerate(h[3:]) if s != h[0])]
            larger = [h for h in hands if h[3 + h[0]] > min(x for s, x in enumerate(h[3:]) if s != h[0])]
            seat0 = proportion(sum(win_share(r, 0) for r in run.rows), len(run.rows))
            rows.append([n, len(run.rows), f"{100 / n:.1f}%", cell(seat0, True), cell(_starter_wins(first), True),
                         cell(_starter_wins(smaller), True), cell(_starter_wins(larger), True)])
        html = para(
            f"Bot in every seat: {bot}. Seat 0 starts hand 1; after that the hand winner starts (TR-21) and "
            "has just shrunk, so later starters usually hold the smaller layout. The figure therefore conditions "
            "on hands where every layout has the same size L: the share of those hands won by the player who "
            "starts, against 1/n (dashed)."
        )
        html += ctx.lines("trash_first_player", "Trash: the starter's share of hands with equal layouts",
                          "layout size L (all players)", "starter wins the hand", series, refs, percent=True)
        html += table(["players", "matches", "no advantage", "seat 0 wins the match", "starter wins hand 1",
                       "starter wins, own layout smaller", "starter wins, own layout larger"], rows)
        sections.append(Section("first-player advantage", html))

        # --- hand lengths
        hist = {f"{r.players} players": [float(h[2]) for h in _hands(r)] for r in base}
        by_size: dict[str, list[tuple[float, Estimate]]] = {}
        rows = []
        for run in base:
            hands = _hands(run)
            pts = []
            for size in range(10, 0, -1):
                sel = [h[2] for h in hands if min(h[3:]) == size]
                if len(sel) >= 30:
                    pts.append((float(size), mean_ci(sel)))
            by_size[f"{run.players} players"] = pts
            rows.append([run.players, cell(mean_ci(r["hands"] for r in run.rows)), cell(mean_ci(h[2] for h in hands)),
                         cell(mean_ci(r["turns"] for r in run.rows), digits=1),
                         cell(mean_ci(r["void_deals"] for r in run.rows))])
        html = para("A turn is one player's go (it starts with a draw or a discard take, and may place a whole "
                    "chain of cards). Turns per hand count every player's turns in the deal that was won.")
        html += ctx.hist("trash_turns_per_hand", "Trash: turns per hand", "turns in the hand", hist)
        html += ctx.lines("trash_turns_by_size", "Trash: turns per hand by the smallest layout at the deal",
                          "smallest layout size at the deal", "mean turns per hand", by_size)
        html += table(["players", "hands per match", "turns per hand", "turns per match", "void deals per match"], rows)
        sections.append(Section("hand lengths", html))
    else:
        sections.append(Section("first-player advantage and hand lengths",
                                para(f"No run with default options and one bot in every seat; try: {how}")))

    # --- variants (two players, the baseline bot)
    var = [r for r in runs if bot and r.players == 2 and r.same_bots == bot]
    var.sort(key=lambda r: (bool(r.changed), _variant_name(r)))
    if len(var) > 1:
        labels = [_variant_name(r) for r in var]
        hands_e = [mean_ci(r["hands"] for r in run.rows) for run in var]
        turns_e = [mean_ci(h[2] for h in _hands(run)) for run in var]
        seat0_e = [proportion(sum(win_share(r, 0) for r in run.rows), len(run.rows)) for run in var]
        first_e = [_starter_wins([r["hand_log"][0] for r in run.rows if r["hand_log"]]) for run in var]
        start_e = [_starter_wins(_hands(run)) for run in var]
        html = para(f"Two players, {bot} bots, one rule switch at a time against the defaults "
                    "(cardtable simulate trash --grid variants). Bars: mean with 95% confidence interval. "
                    "Seat 0 starts hand 1 with every layout at 10, so 'seat 0 wins hand 1' is the cleanest "
                    "measure of the first player's edge; later starters are the last winner (TR-21) except "
                    "under rotate_first_player.")
        html += ctx.bars("trash_variants_length", "Trash variants: match and hand length", labels,
                         [("hands per match", hands_e), ("turns per hand", turns_e)])
        html += ctx.bars("trash_variants_fairness", "Trash variants: first-player advantage", labels,
                         [("seat 0 wins the match", seat0_e), ("seat 0 wins hand 1", first_e)], refs=[0.5, 0.5])
        rows = []
        for run, lab, he, te, se, fe, st in zip(var, labels, hands_e, turns_e, seat0_e, first_e, start_e, strict=True):
            turns = sum(r["turns"] for r in run.rows)
            rows.append([lab, len(run.rows), cell(he), cell(te), cell(se, True), cell(fe, True), cell(st, True),
                         cell(mean_ci(r["loser_shrinks"] for r in run.rows)),
                         cell(mean_ci(r["void_deals"] for r in run.rows)),
                         f"{100 * sum(r['discard_takes'] for r in run.rows) / max(1, turns):.1f}%"])
        html += table(["variant", "matches", "hands per match", "turns per hand", "seat 0 wins", "seat 0 wins hand 1",
                       "starter wins a hand (any)",
                       "loser shrinks per match", "void deals per match", "turns taking the discard"], rows)
        sections.append(Section("variants", html))

    # --- bots against each other
    mixed = [r for r in runs if r.same_bots is None]
    if mixed:
        rows = []
        for run in mixed:
            n = len(run.rows)
            for b in sorted(set(run.spec.bots)):
                seats = range(run.players)
                wins = sum(win_share(r, s) for r in run.rows for s in seats if r["lineup"][s] == b)
                seen = sum(1 for r in run.rows for s in seats if r["lineup"][s] == b)
                rows.append([run.label, n, b, cell(proportion(wins, seen), True)])
        sections.append(Section("bots", para("Mixed line-ups; seats rotate between matches unless --fixed-seats.")
                                + table(["run", "matches", "bot", "win rate"], rows)))
    return sections


METRICS = GameMetrics(
    game="trash",
    recorder=TrashRecorder,
    pure_bots=frozenset({"sensible", "stock"}),
    summary=summary,
    grids={"variants": VARIANTS, "players": PLAYERS},
    report=report,
    check=check,
)
