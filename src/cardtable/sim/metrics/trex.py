"""Trex metrics (docs/rules/trex.md).

Reads what the Trex engine exports for it: ``TrexState.facts()`` at the end
(totals, Trex firsts, one ``(deal number, kingdom, holder, contract mask,
per-seat deltas)`` per official deal, whether a tie-break deal was played) and
``TrexState.last_events()`` after each action.

Columns: ``totals``, ``trex_firsts`` (per seat), ``deals`` (one
``[kingdom, holder, contract, d0, d1, d2, d3]`` per deal, in order),
``tiebreak`` (an extra deal was needed, TX-40), ``doublings`` (one ``[card,
doubler, capturer]`` per doubled card, capturer -1 if nobody took it, TX-15/16)
and ``trex_places`` (one ``[holder, first, second, third, fourth]`` per Trex
deal, TX-35).

Report: who wins by seat and by first kingdom holder; the order in which
holders choose contracts (TX-9) and what each contract is worth to the holder
by its place in that order; doubling outcomes; Trex finishing places by seat
relative to the holder; the spread of final totals.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from ...core.game import Action, State
from ...games.trex.actions import CODE
from ...games.trex.state import TrexState
from ..stats import Estimate, mean_ci, proportion, win_share
from .base import GameMetrics

if TYPE_CHECKING:
    from ..report import ReportContext, Section
    from ..results import Run

CONTRACTS: dict[int, str] = dict(CODE)
"""The contract masks and their codes (TX-10)."""


def contract_name(mask: int) -> str:
    """The code of a contract mask; Complex (TX-V1) masks combine codes with ``+``."""
    if mask in CONTRACTS:
        return CONTRACTS[mask]
    parts = [name for bit, name in CONTRACTS.items() if mask & bit]
    return "+".join(parts) if parts else str(mask)


class TrexRecorder:
    """Doublings and Trex places from the events of each action; the rest from the final state."""

    def __init__(self, state: State) -> None:
        self.doubled: dict[int, int] = {}  # card -> doubler, this deal
        self.captured: dict[int, int] = {}  # doubled card -> capturer, this deal
        self.doublings: list[list[int]] = []
        self.out: list[int] = []
        self.trex_places: list[list[int]] = []
        self.holder = -1

    def step(self, state: State, action: Action) -> None:
        for kind, seat, card, _value in cast(TrexState, state).last_events():
            if kind == "double":
                self.doubled[card] = seat
            elif kind == "capture":
                self.captured[card] = seat
            elif kind == "contract":
                self.holder = seat
            elif kind == "out":
                self.out.append(seat)
            elif kind == "deal_over":
                self._close_deal()

    def _close_deal(self) -> None:
        for card, doubler in self.doubled.items():
            self.doublings.append([card, doubler, self.captured.get(card, -1)])
        if len(self.out) == 4:
            self.trex_places.append([self.holder, *self.out])
        self.doubled, self.captured, self.out = {}, {}, []

    def finish(self, state: State) -> dict[str, Any]:
        s = cast(TrexState, state).facts()
        return {
            "totals": list(s.totals),
            "trex_firsts": list(s.trex_firsts),
            "deals": [[k, h, c, *d] for (_, k, h, c, d) in s.deals],
            "tiebreak": s.tiebreak,
            "doublings": self.doublings,
            "trex_places": self.trex_places,
        }


def summary(rows: Sequence[Mapping[str, Any]]) -> list[tuple[str, Estimate]]:
    holder_kh = [d[3 + d[1]] for r in rows for d in r["deals"]]
    return [
        ("holder's score per deal", mean_ci(holder_kh)),
        ("winning total", mean_ci(max(r["totals"]) for r in rows)),
        ("tie-break deals", proportion(sum(bool(r["tiebreak"]) for r in rows), len(rows))),
    ]


def report(runs: Sequence[Run], ctx: ReportContext) -> list[Section]:
    from ..report import Section, cell, para, table

    sections = []
    for run in runs:
        rows = run.rows
        n = len(rows)
        # contract choice order within kingdoms (TX-9)
        order: dict[str, list[int]] = {name: [0] * 5 for name in CONTRACTS.values()}
        value_holder: dict[str, list[float]] = {name: [] for name in CONTRACTS.values()}
        value_others: dict[str, list[float]] = {name: [] for name in CONTRACTS.values()}
        for r in rows:
            seen: dict[int, int] = {}
            for kingdom, holder, mask, *deltas in r["deals"]:
                pos = seen.get(kingdom, 0)
                seen[kingdom] = pos + 1
                name = contract_name(mask)
                if name in order and pos < 5:
                    order[name][pos] += 1
                    value_holder[name].append(deltas[holder])
                    value_others[name].extend(deltas[q] for q in range(len(deltas)) if q != holder)
        choice_rows = [[name, *(f"{100 * c / max(1, n * 4):.1f}%" for c in counts)] for name, counts in order.items()]
        value_rows = [[name, cell(mean_ci(value_holder[name]), digits=1), cell(mean_ci(value_others[name]), digits=1)]
                      for name in CONTRACTS.values()]
        labels = list(CONTRACTS.values())
        fig = ctx.bars(f"trex_contract_value_{run.spec.key}", f"Trex: deal score by contract ({run.label})", labels,
                       [("holder's score", [mean_ci(value_holder[x]) for x in labels]),
                        ("each other player's score", [mean_ci(value_others[x]) for x in labels])])
        first_holder = [r["deals"][0][1] for r in rows if r["deals"]]
        fh_wins = sum(win_share(r, h) for r, h in zip(rows, first_holder, strict=False))
        html = para(f"{run.label}: {n} games. A game is 4 kingdoms of 5 deals (TX-5); each holder picks the order "
                    "of the five contracts (TX-9).")
        html += table(["contract", "chosen 1st", "2nd", "3rd", "4th", "5th"], choice_rows)
        html += fig + table(["contract", "holder's score per deal", "others' score per deal"], value_rows)
        html += table(["first kingdom holder wins the game", "tie-break deal needed"],
                      [[cell(proportion(fh_wins, len(first_holder)), True),
                        cell(proportion(sum(bool(r["tiebreak"]) for r in rows), n), True)]])
        html += _order_and_doubling(rows, ctx, run)
        html += ctx.hist(f"trex_totals_{run.spec.key}", f"Trex: final totals ({run.label})", "total",
                         {"winner": [float(max(r["totals"])) for r in rows],
                          "all players": [float(t) for r in rows for t in r["totals"]]})
        sections.append(Section(f"contracts and scores ({run.label})", html))
    return sections


def _order_and_doubling(rows: Sequence[Mapping[str, Any]], ctx: ReportContext, run: Run) -> str:
    """The holder's score per contract by its place in the kingdom's order; doubling
    outcomes; Trex places by seat relative to the holder."""
    from ..report import cell, para, table

    by_pos: dict[str, list[list[float]]] = {name: [[] for _ in range(5)] for name in CONTRACTS.values()}
    for r in rows:
        seen: dict[int, int] = {}
        for kingdom, holder, mask, *deltas in r["deals"]:
            pos = seen.get(kingdom, 0)
            seen[kingdom] = pos + 1
            name = contract_name(mask)
            if name in by_pos and pos < 5:
                by_pos[name][pos].append(deltas[holder])
    html = para("The holder's score per deal for each contract, by the place it had in the kingdom's order.")
    html += table(["contract", "1st", "2nd", "3rd", "4th", "5th"],
                  [[name, *(cell(mean_ci(v), digits=1) if len(v) > 1 else "–" for v in cols)]
                   for name, cols in by_pos.items()])
    doublings = [d for r in rows for d in r.get("doublings", [])]
    if doublings:
        kinds = {"taken by another player": 0, "taken by the doubler": 0, "not taken": 0}
        for _card, doubler, capturer in doublings:
            key = "not taken" if capturer < 0 else "taken by the doubler" if capturer == doubler else (
                "taken by another player")
            kinds[key] += 1
        html += para(f"Doubled cards (TX-15/16): {len(doublings)} in {len(rows)} games.")
        html += table(list(kinds), [[cell(proportion(k, len(doublings)), True) for k in kinds.values()]])
    places = [p for r in rows for p in r.get("trex_places", [])]
    if places:
        counts = [[0] * 4 for _ in range(4)]  # [seat after the holder][place]
        for holder, *order in places:
            for place, seat in enumerate(order):
                counts[(seat - holder) % 4][place] += 1
        labels = ["holder", "holder + 1", "holder + 2", "holder + 3"]
        html += para(f"Trex finishing places (TX-35) by seat relative to the holder, over {len(places)} Trex deals "
                     "(the holder leads first).")
        html += table(["seat", "1st", "2nd", "3rd", "4th"],
                      [[labels[k], *(cell(proportion(c, len(places)), True) for c in counts[k])] for k in range(4)])
        html += ctx.bars(f"trex_places_{run.spec.key}", f"Trex: first places by seat ({run.label})", labels,
                         [("finishes first", [proportion(counts[k][0], len(places)) for k in range(4)])])
    return html


METRICS = GameMetrics(game="trex", recorder=TrexRecorder, summary=summary, report=report)
