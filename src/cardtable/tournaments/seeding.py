"""Seeding: the order of an event's field before its first round.

Entrants are seeded by their rating in the event's game, best first; entrants with equal ratings
keep the order they were given in (their registration), and entrants without a rating (never
rated in that game, or a bot or guest) come after every rated one, in that order too. The Swiss
pairing and standings take this order as the seeding (their last tie-break), and duplicate tables
are filled in it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def seeded(entrants: Sequence[str], ratings: Mapping[str, float | None]) -> list[str]:
    """``entrants`` (in registration order) seeded by ``ratings`` (an entrant missing there, or
    ``None``, is unrated): rated ones by rating, best first, then unrated ones; registration order
    breaks every tie.

    >>> seeded(["Ana", "Ben", "Cy", "Dee"], {"Ben": 1500.0, "Cy": 1800.0, "Dee": 1500.0})
    ['Cy', 'Ben', 'Dee', 'Ana']
    """
    if len(set(entrants)) != len(entrants):
        raise ValueError("a player is entered twice")
    order = {p: i for i, p in enumerate(entrants)}

    def key(p: str) -> tuple[int, float, int]:
        rating = ratings.get(p)
        return (1, 0.0, order[p]) if rating is None else (0, -rating, order[p])

    return sorted(entrants, key=key)
