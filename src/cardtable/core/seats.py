"""Seats are indices ``0..n-1``; ``next_seat`` is the next player in the game's direction.

Special values of :meth:`State.current_player` are negative so they never
collide with a seat. They are named values that still compare (and encode in
JSON) as ints:

>>> TERMINAL == -3, str(TERMINAL), repr(SIMULTANEOUS)
(True, 'TERMINAL', 'SIMULTANEOUS')
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final


class Special(IntEnum):
    """The values of :meth:`State.current_player` that are not a seat."""

    CHANCE = -1
    """A chance event is pending (engines here shuffle internally, so rarely seen)."""
    SIMULTANEOUS = -2
    """Every seat may act now (Spit)."""
    TERMINAL = -3
    """The game is over."""

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return self.name

    def __format__(self, spec: str) -> str:
        return format(self.name, spec)


CHANCE: Final = Special.CHANCE
SIMULTANEOUS: Final = Special.SIMULTANEOUS
TERMINAL: Final = Special.TERMINAL


def next_seat(seat: int, n: int) -> int:
    """The next player after ``seat`` in the direction of play.

    >>> next_seat(3, 4)
    0
    """
    return (seat + 1) % n


def prev_seat(seat: int, n: int) -> int:
    """The player before ``seat`` in the direction of play.

    >>> prev_seat(0, 4)
    3
    """
    return (seat - 1) % n


def seats_from(start: int, n: int) -> tuple[int, ...]:
    """All seats in order of play, beginning with ``start``.

    >>> seats_from(2, 4)
    (2, 3, 0, 1)
    """
    return tuple((start + i) % n for i in range(n))
