"""Trash options and presets (docs/rules/trash.md §1.7 and §1.4)."""

from __future__ import annotations

from typing import Any, Final

from ...core.options import Option

MAX_DECKS: Final = 26
"""The most decks a game may shuffle together: up to 26, the card count of a game (52 or 54 a deck)
names its decks and Jokers alone, as a seat's view must read them (bots.worlds); 27 decks of 52
are as many cards as 26 of 54."""
MAX_PLAYERS: Final = 2 * MAX_DECKS
"""The largest table (TR-1): 52 players, the most that TR-2's ``ceil(players / 2)`` decks serve
within :data:`MAX_DECKS`."""

OPTIONS: tuple[Option, ...] = (
    Option("players", int, 2, "TR-1", f"Number of players, 2 to {MAX_PLAYERS}.", minimum=2, maximum=MAX_PLAYERS),
    Option(
        "decks", int, None, "TR-2",
        "52-card decks shuffled together; none means ceil(players / 2).",
        nullable=True, minimum=1, maximum=MAX_DECKS,
    ),
    Option(
        "wild_mode", str, "jacks", "TR-3",
        "Which ranks are wild: jacks (Q, K stop), kings (J, Q stop) or all_faces (no stop cards).",
        choices=("jacks", "kings", "all_faces"),
    ),
    Option("jokers", bool, False, "TR-V5", "Add 2 Jokers per deck; Jokers are always wild."),
    Option(
        "first_player", int, 0, "TR-6", "The seat that starts hand 1: 0 to players - 1.",
        minimum=0, maximum=MAX_PLAYERS - 1,
    ),
    Option(
        "discard_take_requires_playable", bool, True, "TR-7",
        "The top discard may be taken only when it is placeable; off, an unplayable take is a pass.",
    ),
    Option(
        "target_size", int, 0, "TR-22",
        "The match ends when a hand winner's layout shrinks to this size (short game TR-V1: e.g. 6).",
        minimum=0, maximum=9,
    ),
    Option("max_hands", int, None, "TR-V2", "End the match after this many hands.", nullable=True, minimum=1),
    Option(
        "time_limit", float, None, "TR-V2",
        "End the match when this many seconds have passed and the current hand has finished.",
        nullable=True, minimum=0.001, maximum=24 * 3600.0,
    ),
    Option(
        "tiebreak_extra_hands", bool, False, "TR-A10",
        "Under max_hands/time_limit, play whole extra hands until the smallest layout is not shared.",
    ),
    Option(
        "rotate_first_player", bool, False, "TR-V3",
        "Hand h is started by seat (first_player + h - 1) mod players instead of the last winner.",
    ),
    Option(
        "loser_reveal", bool, False, "TR-V7",
        "At a hand's end each loser turns up their face-down cards; all correct shrinks their layout.",
    ),
    Option(
        "loser_free_draws", int, 0, "TR-V8",
        "Two players only: the loser takes up to this many extra turns (3 when on); implies loser_reveal.",
        minimum=0, maximum=3,
    ),
    Option(
        "stall_reshuffles", int, 3, "TR-26",
        "Void the hand at this many consecutive stock rebuilds with no layout change.", minimum=1,
    ),
)

PRESETS: dict[str, dict[str, Any]] = {
    "standard": {},
    "seed": {},
    "d2_kings": {"players": 2, "decks": 1, "wild_mode": "kings", "jokers": False},
}

PRESET_DOCS: dict[str, str] = {
    "standard": "The default rules: Jacks wild, one deck per two players, a match to layout size 0.",
    "seed": "The rules exactly as the original Trash text has them: the same as standard.",
    "d2_kings": "Two players, one deck, Kings wild; Jacks and Queens cannot be placed.",
}
