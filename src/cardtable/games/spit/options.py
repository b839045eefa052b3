"""Spit options and presets (docs/rules/spit.md §3.9)."""

from __future__ import annotations

from typing import Any

from ...core.options import Option

OPTIONS: tuple[Option, ...] = (
    Option(
        "auto_flip", bool, True, "SP-8",
        "Turn up a stock pile's face-down top at once; off, FLIP is an explicit action.",
    ),
    Option(
        "min_action_interval_ms", int, 0, "SP-10",
        "The least time between two actions of one seat (the one-hand limit); enforced by the host.",
        minimum=0, maximum=10_000,
    ),
    Option(
        "spit_delay", float, 1.0, "SP-16",
        "Seconds between a blocked position and the re-spit; the host feeds 'timer spit' (0 headless).",
        minimum=0.0, maximum=60.0,
    ),
    Option(
        "allow_mutual_spit", bool, True, "SP-17",
        "Both players pressing 'spit' while not blocked re-spits at once.",
    ),
    Option(
        "slap_timeout", float, 5.0, "SP-20",
        "Seconds for the slap race before the host feeds 'timer slap'.",
        minimum=0.0, maximum=600.0,
    ),
    Option(
        "max_rounds", int, None, "SP-26",
        "Stop after this many rounds; fewer cards (points: the lower score) wins, ties draw.",
        nullable=True, minimum=1,
    ),
    Option(
        "scoring", str, "standard", "SP-V1",
        "standard: the first player with no cards wins (SP-25); points: the 100-point variant (SP-V1).",
        choices=("standard", "points"),
    ),
    Option(
        "points_limit", int, 100, "SP-V1",
        "With scoring=points, the game ends after a round in which a score reaches this.",
        minimum=1, maximum=100_000,
    ),
    Option(
        "points_round_mode", str, "fresh_deal", "SP-V1",
        "With scoring=points: fresh_deal (a full deal each round, no slap) or carry_over (SP-20/SP-21).",
        choices=("fresh_deal", "carry_over"),
    ),
    Option(
        "allow_same_rank_stacking", bool, False, "SP-12",
        "W-SPIT extension: move a stock top onto another of one's stock piles showing the same rank.",
    ),
)

PRESETS: dict[str, dict[str, Any]] = {
    "standard": {},
    "seed": {},
    "points": {"scoring": "points"},
}

PRESET_DOCS: dict[str, str] = {
    "standard": "The default rules: slap and collect, the first player with no cards wins.",
    "seed": "The rules exactly as the original Spit text has them: the same as standard.",
    "points": "Points: a fresh deal each round, 1 point per card left; 100 ends the game, the lowest score wins.",
}
