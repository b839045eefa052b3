"""Tournaments without I/O: Swiss pairings and standings for the two-player games, duplicate
scoring by matchpoints for Trex (docs/tournaments.md).

Everything here is a function of its arguments: no clock, no global ``random``, no store. The
server's events (``cardtable.server.events``) keep the games and call these to pair a round, to
seed the field by rating, rank it and to compare the tables of a duplicate deal.
"""

from __future__ import annotations

from .duplicate import Board, DuplicateScore, duplicate_seating, matchpoints
from .seeding import seeded
from .swiss import BYE, Game, Pairing, Standing, pair_round, standings

__all__ = ["BYE", "Board", "DuplicateScore", "Game", "Pairing", "Standing", "duplicate_seating", "matchpoints",
           "pair_round", "seeded", "standings"]
