"""Duplicate scoring: every table plays the same deals, and each hand is compared across tables.

A *board* is one hand of one deal at one table: the cards one seat held (``hand``: the seat the
deal gave them to; in Trex the ``i``-th card of a shuffle goes to seat ``i div 13`` at every table)
and what its player scored with them. The boards of one deal and hand, one per table, are
compared: a player earns **1 matchpoint for every other player outscored with the same cards,
½ for every tie** (Trickster Cards' rule). The top of a board is the number of other tables. A
player's total is the sum of their matchpoints, shown as a percentage of the sum of their tops
(50 % is average, whatever the luck of the cards).

Seating (:func:`duplicate_seating`): the field is split into tables of four in order; in round
``r`` the players of table ``t`` turn ``r × (t + 1)`` seats. So the players who hold the same
cards at two tables differ from round to round (tables 0 and 1 differ by ``r`` seats), and a bot
that fills a table is compared like anyone.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Board:
    """One hand of one deal at one table: ``deal`` (round, shuffle), ``hand`` (the seat the
    cards were dealt to), the ``table``, the ``player`` who held them and their ``score``."""

    deal: tuple[int, int]
    hand: int
    table: str
    player: str
    score: float


@dataclass
class DuplicateScore:
    """Matchpoints per player and per board."""

    matchpoints: dict[str, float] = field(default_factory=dict)
    tops: dict[str, float] = field(default_factory=dict)
    boards: dict[tuple[tuple[int, int], int, str], float] = field(default_factory=dict)
    """(deal, hand, table) -> the matchpoints of that board."""

    def percentage(self, player: str) -> float:
        """The player's matchpoints as a percentage of their tops (50 with no board compared yet)."""
        top = self.tops.get(player, 0.0)
        return 50.0 if top == 0 else 100.0 * self.matchpoints.get(player, 0.0) / top

    def ranking(self, players: Sequence[str]) -> list[tuple[int, str, float]]:
        """(place, player, percentage), best first; equal percentages share a place; ``players``'
        order breaks nothing (equal stays equal) but orders the equal ones."""
        order = {p: i for i, p in enumerate(players)}
        ranked = sorted(players, key=lambda p: (-round(self.percentage(p), 9), order[p]))
        out: list[tuple[int, str, float]] = []
        for i, p in enumerate(ranked):
            pct = self.percentage(p)
            place = out[-1][0] if out and round(out[-1][2], 9) == round(pct, 9) else i + 1
            out.append((place, p, pct))
        return out


def matchpoints(boards: Iterable[Board], *, higher_better: bool = True) -> DuplicateScore:
    """The matchpoints of ``boards``: each compared with the boards of the same deal and hand at the
    other tables. ``higher_better``: a higher score is better (Trex's ``reverse_scores`` turns that
    round). A deal and hand held at one table only scores nothing (there is nobody to compare with)."""
    groups: dict[tuple[tuple[int, int], int], list[Board]] = {}
    for b in boards:
        groups.setdefault((b.deal, b.hand), []).append(b)
    out = DuplicateScore()
    for (deal, hand), group in groups.items():
        tables = [b.table for b in group]
        if len(set(tables)) != len(tables):
            raise ValueError(f"deal {deal} hand {hand} is scored twice at one table")
        if len(group) < 2:
            continue
        for b in group:
            mp = 0.0
            for other in group:
                if other is b:
                    continue
                if other.score == b.score:
                    mp += 0.5
                elif (b.score > other.score) == higher_better:
                    mp += 1.0
            out.boards[(deal, hand, b.table)] = mp
            out.matchpoints[b.player] = out.matchpoints.get(b.player, 0.0) + mp
            out.tops[b.player] = out.tops.get(b.player, 0.0) + len(group) - 1
    return out


def duplicate_seating(players: Sequence[str], round_number: int, seats: int = 4) -> list[list[str]]:
    """The tables of round ``round_number`` (0 first): each a list of ``seats`` players by seat.
    ``players`` fills whole tables (bots make up a short one before this is called)."""
    if len(set(players)) != len(players):
        raise ValueError("a player is entered twice")
    if not players or len(players) % seats:
        raise ValueError(f"a duplicate field is whole tables of {seats}: fill it with bots first")
    tables = []
    for t in range(len(players) // seats):
        group = players[t * seats:(t + 1) * seats]
        turn = round_number * (t + 1)
        tables.append([group[(s + turn) % seats] for s in range(seats)])
    return tables
