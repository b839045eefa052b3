"""Seats are indices ``0..n-1``; ``next_seat`` is the next player in the game's direction.

Special values of :meth:`State.current_player` are negative so they never
collide with a seat. They are named values that still compare (and encode in
JSON) as ints:

>>> TERMINAL == -3, str(TERMINAL), repr(SIMULTANEOUS)
(True, 'TERMINAL', 'SIMULTANEOUS')
"""

from __future__ import annotations

from typing import Final


class Special(int):
    """A value of :meth:`State.current_player` that is not a seat: an int that prints by name.

    Not an ``Enum``, so every encoder that turns enums into names (views, the server) still
    writes the number. This module stays interpreted in the compiled build (setup.py).
    """

    __slots__ = ()

    def __str__(self) -> str:
        return _NAMES.get(int(self), int.__repr__(self))

    def __repr__(self) -> str:
        return str(self)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


_NAMES: Final = {-1: "CHANCE", -2: "SIMULTANEOUS", -3: "TERMINAL"}

CHANCE: Final = Special(-1)
"""A chance event is pending (engines here shuffle internally, so rarely seen)."""
SIMULTANEOUS: Final = Special(-2)
"""Every seat may act now (Spit)."""
TERMINAL: Final = Special(-3)
"""The game is over."""


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
