"""Trash metrics (RULES.md §1): what a simulated match records.

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
from typing import Any

from ...core.game import Action, Game, State
from ..stats import Estimate, mean_ci, proportion
from .base import GameMetrics


class TrashRecorder:
    __slots__ = (
        "dc", "discard_takes", "hand_log", "hands_won", "hp", "loser_shrinks", "sizes", "starter",
        "total_turns", "turns", "voids",
    )

    def __init__(self, state: Any) -> None:
        self.hp = state.hands_played
        self.dc = state.deal_count
        self.sizes = list(state.sizes)
        self.starter = state.starter
        self.hands_won = list(state.hands_won)
        self.turns = 0
        self.total_turns = 0
        self.discard_takes = 0
        self.loser_shrinks = 0
        self.voids = 0
        self.hand_log: list[list[int]] = []

    def step(self, state: Any, action: Action) -> None:
        kind = action.kind  # type: ignore[attr-defined]
        if kind == "stock":
            self.turns += 1
        elif kind == "discard":
            self.turns += 1
            self.discard_takes += 1
        if state.deal_count != self.dc or state.hands_played != self.hp:
            self._new_deal(state)

    def _new_deal(self, state: Any) -> None:
        self.total_turns += self.turns
        if state.hands_played != self.hp:
            won = state.hands_won
            winner = next(s for s in range(len(won)) if won[s] != self.hands_won[s])
            self.hand_log.append([self.starter, winner, self.turns, *self.sizes])
            shrunk = sum(a - b for a, b in zip(self.sizes, state.sizes, strict=True))
            self.loser_shrinks += shrunk - 1
            self.hands_won = list(won)
        else:
            self.voids += state.deal_count - self.dc
        self.hp = state.hands_played
        self.dc = state.deal_count
        self.sizes = list(state.sizes)
        self.starter = state.starter
        self.turns = 0

    def finish(self, state: State) -> dict[str, Any]:
        s: Any = state
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


METRICS = GameMetrics(
    game="trash",
    recorder=TrashRecorder,
    pure_bots=frozenset({"sensible", "stock"}),
    summary=summary,
    grids={"variants": VARIANTS, "players": PLAYERS},
    check=check,
)
