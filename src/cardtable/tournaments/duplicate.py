"""Duplicate scoring: every table plays the same deals, and each hand is compared across tables.

A *board* is one hand of one deal at one table: the cards one seat held (``hand``: the seat the
deal gave them to; in Trex the ``i``-th card of a shuffle goes to seat ``i div 13`` at every table)
and what its player scored with them. The boards of one deal and hand, one per table, are
compared: a player earns **1 matchpoint for every other player outscored with the same cards,
½ for every tie** (Trickster Cards' rule). The top of a board is the number of other tables. A
player's total is the sum of their matchpoints, shown as a percentage of the sum of their tops
(50 % is average, whatever the luck of the cards).

Seating (:func:`duplicate_seating`): the first round splits the field into tables of four in
order (the seeding's); each later round is a movement chosen to change, as far as the field
allows, both who meets whom at a table and who is compared with whom on the same cards, and the
seat each player holds. A bot that fills a table is compared like anyone.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ..core.chance import derive


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
    if round_number < 0:
        raise ValueError("rounds are numbered from 0")
    order = _movement(len(players), round_number, seats)[round_number]
    return [[players[i] for i in order[t * seats:(t + 1) * seats]] for t in range(len(players) // seats)]


MOVEMENT_TRIES = 100
"""Seeded arrangements a round's movement is chosen among."""
MOVEMENT_WEIGHTS = (3, 2, 1)
"""What a round's movement avoids, most first: two players compared on the same cards again
(the same seat at two tables), two players at one table again, a player at the same seat again."""


@functools.lru_cache(maxsize=256)
def _movement(n: int, last_round: int, seats: int) -> tuple[tuple[int, ...], ...]:
    """Rounds 0 to ``last_round`` of a field of ``n``, each the order of player indices table by
    table and seat by seat: round 0 in order, each later round the seeded arrangement (of
    :data:`MOVEMENT_TRIES`, the first of the cheapest) that repeats the least of the earlier
    rounds by :data:`MOVEMENT_WEIGHTS`. Deterministic: the same field size gives the same rounds
    (each round is worked out once and kept with those before it)."""
    if last_round == 0:
        return (tuple(range(n)),)
    earlier = _movement(n, last_round - 1, seats)
    tables = n // seats
    compared: set[frozenset[int]] = set()
    met: set[frozenset[int]] = set()
    held: set[tuple[int, int]] = set()
    for order in earlier:
        for t in range(tables):
            at = order[t * seats:(t + 1) * seats]
            met.update(frozenset((a, b)) for i, a in enumerate(at) for b in at[i + 1:])
            held.update((p, s) for s, p in enumerate(at))
        for s in range(seats):
            same = order[s::seats]
            compared.update(frozenset((a, b)) for i, a in enumerate(same) for b in same[i + 1:])

    def cost(order: list[int]) -> int:
        again_compared = again_met = again_seat = 0
        for s in range(seats):
            same = order[s::seats]
            again_compared += sum(frozenset((a, b)) in compared for i, a in enumerate(same) for b in same[i + 1:])
        for t in range(tables):
            at = order[t * seats:(t + 1) * seats]
            again_met += sum(frozenset((a, b)) in met for i, a in enumerate(at) for b in at[i + 1:])
            again_seat += sum((p, s) in held for s, p in enumerate(at))
        w_compared, w_met, w_seat = MOVEMENT_WEIGHTS
        return w_compared * again_compared + w_met * again_met + w_seat * again_seat

    rng = derive(0, "duplicate movement", n, seats, last_round)
    best: tuple[int, list[int]] | None = None
    for _ in range(MOVEMENT_TRIES):
        arrangement = list(range(n))
        rng.shuffle(arrangement)
        c = cost(arrangement)
        if best is None or c < best[0]:
            best = (c, arrangement)
        if c == 0:
            break
    assert best is not None
    return (*earlier, tuple(best[1]))
