"""Trex options and presets (docs/rules/trex.md §2.11 and §2.8)."""

from __future__ import annotations

from typing import Any

from ...core.errors import ParseError
from ...core.options import Option
from .actions import CX, NEGATIVES, contract_code, parse_contract


def parse_groups(text: str) -> tuple[int, ...]:
    """``complex_groups`` text as contract masks: groups separated by ``,``, ``/``
    or spaces, contracts inside a group joined by ``+`` (``"QN+DI, KH, TK"``).
    Raises :class:`ValueError` unless the groups partition {KH, QN, DI, TK}."""
    groups = [g for g in text.replace("/", ",").replace(" ", ",").split(",") if g]
    masks: list[int] = []
    seen = 0
    for g in groups:
        try:
            mask = parse_contract(g)
        except ParseError:
            raise ValueError(f"{g!r} is not a group of KH, QN, DI, TK joined by +") from None
        if mask & seen or mask & ~CX:
            raise ValueError(f"{g!r} repeats a contract or names TR")
        seen |= mask
        masks.append(mask)
    if seen != CX:
        missing = [contract_code(m) for m in NEGATIVES if not seen & m]
        raise ValueError(f"the groups must cover KH, QN, DI and TK; missing {', '.join(missing)}")
    return tuple(masks)


def _check_groups(value: Any) -> str | None:
    try:
        parse_groups(value)
    except ValueError as exc:
        return str(exc)
    return None


def _check_payouts(value: Any) -> str | None:
    if len(value) != 4 or not all(isinstance(x, int) and not isinstance(x, bool) for x in value):
        return f"{value!r} must hold 4 whole-number payouts (1st, 2nd, 3rd, 4th)"
    return None


OPTIONS: tuple[Option, ...] = (
    Option("first_dealer", int, 0, "TX-6", "The seat that deals the first deal.", minimum=0, maximum=3),
    Option(
        "dealer", str, "holder", "TX-7",
        "holder: the kingdom holder deals every deal of the kingdom; rotating: the deal passes to the right "
        "after every deal (D3).",
        choices=("holder", "rotating"),
    ),
    Option(
        "first_leader", str, "holder", "TX-20",
        "Who leads the first trick and starts Trex: the kingdom holder, or the eldest hand (right of the dealer).",
        choices=("holder", "eldest"),
    ),
    Option(
        "redeal_requests", object, True, "TX-13",
        "Hands that may force a redeal: true (K♥ and twos triggers), false, trex_only (twos, TX-V3) or kh_only.",
        choices=(True, False, "trex_only", "kh_only"),
    ),
    Option(
        "redeal_timing", str, "before_choice", "TX-13",
        "before_choice: requests before the announcement, while the protected contract is unplayed in the "
        "kingdom; after_announcement: after it, for the announced contract only.",
        choices=("before_choice", "after_announcement"),
    ),
    Option(
        "doubling", object, True, "TX-15",
        "Doubling of K♥ (King of Hearts) and queens (Queens): true, false or queens_only (TX-V4).",
        choices=(True, False, "queens_only"),
    ),
    Option(
        "doubled_self_capture", str, "single", "TX-16",
        "A doubler who captures their own doubled card: single (−v), forced_bonus (−2v and +v to the "
        "trick's leader if another seat led it) or quadruple (−4v; breaks the zero sum).",
        choices=("single", "forced_bonus", "quadruple"),
    ),
    Option(
        "hearts_lead_rule", str, "broken", "TX-23",
        "Leading hearts in King of Hearts: broken (after a heart has been played, or hearts only), "
        "only_if_no_choice (hearts only) or free.",
        choices=("broken", "only_if_no_choice", "free"),
    ),
    Option("end_early", bool, True, "TX-25", "Stop a trick contract once every scoring unit is captured."),
    Option(
        "trex_payouts", tuple, (200, 150, 100, 50), "TX-35",
        "Trex payouts for 1st, 2nd, 3rd and 4th place; inverted preset (150, 100, 50, -50).",
        check=_check_payouts,
    ),
    Option(
        "accept_unchecked_plays", bool, False, "TX-37",
        "Accept revokes and illegal leads in trick contracts (recording a physical game); the offender then "
        "takes every unit not yet captured and the deal stops.",
    ),
    Option(
        "deals", int, 20, "TX-V10",
        "The game ends after this many deals (redeals and the tie-break deal not counted): 5 is one "
        "kingdom; 20 (or more) is the whole game.",
        minimum=1, maximum=20,
    ),
    Option("tiebreak", bool, True, "TX-40", "Break a tie for the best total by Trex firsts, then an extra Trex deal."),
    Option(
        "complex_mode", bool, False, "TX-V1",
        "Complex: each kingdom is one deal per complex group (all four negatives at once by default) plus Trex.",
    ),
    Option(
        "complex_groups", str, "KH+QN+DI+TK", "TX-V1",
        "With complex_mode, the combined negative deals: groups separated by commas, contracts joined by + "
        "(e.g. QN+DI,KH,TK).",
        check=_check_groups,
    ),
    Option("partnership", bool, False, "TX-V2", "Partners sit opposite (seats 0, 2 and 1, 3); team scores."),
    Option(
        "partnership_expose_twos", bool, True, "TX-V2",
        "In partnership Trex, every 2 becomes public once every player has had one turn.",
    ),
    Option("open_hands", bool, False, "TX-V6", "All hands are public for the whole game."),
    Option("reverse_scores", bool, False, "TX-V7", "Negate every score; the lowest total wins."),
    Option("swap_diamonds_tricks", bool, False, "TX-V8", "−15 per diamond and −10 per trick."),
    Option(
        "forced_penalty_discard", bool, False, "TX-V9",
        "A player who cannot follow suit and holds a scoring card of the contract must discard one.",
    ),
)

PRESETS: dict[str, dict[str, Any]] = {
    "standard": {},
    "seed": {"dealer": "rotating", "first_leader": "eldest", "redeal_timing": "before_choice"},
    "complex": {"complex_mode": True},
    "partnership": {"partnership": True},
    "inverted": {"trex_payouts": (150, 100, 50, -50)},
    "open": {"open_hands": True},
}

PRESET_DOCS: dict[str, str] = {
    "standard": "The default rules: the holder deals and leads, doubling on, broken hearts, 20 deals.",
    "seed": "As the original Trex text has it: the deal rotates every hand and the player after the dealer leads.",
    "complex": "Each kingdom is one Complex deal (all four penalty contracts at once) and a Trex deal; 8 deals.",
    "partnership": "Partners sit opposite and share a team score; the twos are shown in Trex.",
    "inverted": "Trex pays 150/100/50/−50, so the scores do not add up to zero.",
    "open": "Every hand is face up for the whole game.",
}

ZERO_SUM_PRESETS: tuple[str, ...] = ("standard", "seed", "complex", "partnership", "open")
"""Presets under which every kingdom and the whole game sum to 0 (§2.7)."""
