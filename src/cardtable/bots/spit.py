"""Spit bots with a reaction-time model (DESIGN.md: "bots that have reaction-time models").

A :class:`SpitBot` watches its seat's view. When it sees a productive move (a
PLAY or a FILL) it needs a *reaction time* to notice it: a draw from a normal
distribution (``reaction_mean``, ``reaction_sd``), longer by ``scan_cost``
seconds for every pair of one of its face-up stock tops and a spit pile top it
has to compare (more to scan is slower), never below ``MIN_REACTION``. With
probability ``miss_rate`` it overlooks the move at first and notices it one
more mean reaction later. It moves one card at a time: after sending an action
it is busy for ``move_time`` seconds (the one-hand limit, SP-10). Once it has
noticed a move it carries it out unless the move stops being legal (lost race
or stale), and then it looks again from scratch. In the slap race it reacts
after ``slap_mean ± slap_sd`` seconds and hits the smaller pile with
probability ``slap_accuracy`` (the other one otherwise; in a one-pile round it
slaps the only pile, to avoid it). When it has no productive move it asks for a
spit (SP-17) after a reaction time, and a ``smart`` bot prefers flips (with
``auto_flip`` off), then plays that turn up a face-down card, then fills and
same-rank stacks that uncover a card, then the rest.

Levels (registered as bots ``beginner`` … ``expert`` for game ``spit``; their
measured strength is in docs/spit.md):

==========  =====  ====  =====  =====  =====  =====  ====  =====  =====
level       mean   sd    scan   miss   move   slap   sd    acc.   smart
==========  =====  ====  =====  =====  =====  =====  ====  =====  =====
beginner    1.60   0.50  0.060  0.25   0.60   1.20   0.40  0.60   no
easy        1.20   0.40  0.045  0.15   0.50   0.90   0.30  0.75   no
medium      0.90   0.30  0.030  0.08   0.40   0.70   0.20  0.85   yes
hard        0.65   0.20  0.020  0.04   0.30   0.50   0.15  0.95   yes
expert      0.45   0.12  0.012  0.01   0.25   0.35   0.10  1.00   yes
==========  =====  ====  =====  =====  =====  =====  ====  =====  =====

Times are in seconds.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from ..core.game import Action, PlayerView
from ..games.spit.actions import FILL, FLIP, PILES, PLAY, SLAP, SPIT, STACK, SpitAction
from ..games.spit.view import SpitView
from .base import register_bot

Intent = tuple[Action | None, float]
"""``(action, when)`` as :class:`cardtable.host.realtime.RealtimeBot` returns it."""

MIN_REACTION = 0.08
"""No one reacts faster than this (seconds)."""


@dataclass(frozen=True)
class SpitLevel:
    """The parameters of a bot level (see the module docstring)."""

    name: str
    reaction_mean: float
    reaction_sd: float
    scan_cost: float
    miss_rate: float
    move_time: float
    slap_mean: float
    slap_sd: float
    slap_accuracy: float
    smart: bool


LEVELS: dict[str, SpitLevel] = {
    lv.name: lv
    for lv in (
        SpitLevel("beginner", 1.60, 0.50, 0.060, 0.25, 0.60, 1.20, 0.40, 0.60, False),
        SpitLevel("easy", 1.20, 0.40, 0.045, 0.15, 0.50, 0.90, 0.30, 0.75, False),
        SpitLevel("medium", 0.90, 0.30, 0.030, 0.08, 0.40, 0.70, 0.20, 0.85, True),
        SpitLevel("hard", 0.65, 0.20, 0.020, 0.04, 0.30, 0.50, 0.15, 0.95, True),
        SpitLevel("expert", 0.45, 0.12, 0.012, 0.01, 0.25, 0.35, 0.10, 1.00, True),
    )
}
LEVEL_ORDER: tuple[str, ...] = tuple(LEVELS)
"""The levels from weakest to strongest."""


class SpitBot:
    """A real-time Spit bot (:class:`~cardtable.host.realtime.RealtimeBot`) of one level."""

    def __init__(self, level: str | SpitLevel = "medium") -> None:
        self.level = LEVELS[level] if isinstance(level, str) else level
        self.name = self.level.name
        self.intent: Intent | None = None
        self.busy_until = float("-inf")

    # ------------------------------------------------------------ RealtimeBot
    def sent(self, action: Action, when: float) -> None:
        self.intent = None
        self.busy_until = when + self.level.move_time

    def sticky(self, action: Action) -> bool:
        """A noticed play, fill or slap is carried out while it stays legal; a spit request is not."""
        return getattr(action, "kind", None) != SPIT

    def react(self, view: PlayerView, now: float, rng: random.Random) -> Intent | None:
        sv: SpitView = view  # type: ignore[assignment]  # a Spit seat's view
        lv = self.level
        legal: tuple[SpitAction, ...] = sv.legal_actions  # type: ignore[assignment]
        moves: list[SpitAction] = []
        slaps: list[SpitAction] = []
        spit: SpitAction | None = None
        for a in legal:
            k = a.kind
            if k in _MOVES or (k == STACK and self._uncovers(sv, a)):
                moves.append(a)
            elif k == SLAP:
                slaps.append(a)
            elif k == SPIT:
                spit = a
        keep = self.intent
        if keep is not None:
            act = keep[0]
            # a noticed move stands while legal; a spit request gives way to a move
            if act is not None and (act.kind != SPIT or not moves):  # type: ignore[attr-defined]
                for x in legal:
                    if x is act:
                        return keep
        self.intent = None
        phase = sv.phase
        if phase == "slap":
            if not slaps:
                return None
            if len(slaps) == 1:
                pick = slaps[0]
            else:
                sizes = sv.spit_sizes
                small = min(slaps, key=lambda a: (sizes[a.target], a.target != sv.seat))
                other = next(a for a in slaps if a is not small)
                pick = small if rng.random() < lv.slap_accuracy else other
            delay = max(MIN_REACTION, rng.gauss(lv.slap_mean, lv.slap_sd))
            return self._intend(pick, now + delay)
        if phase != "play":
            return None
        if not moves:
            if spit is None:
                return None
            return self._intend(spit, now + self._reaction(sv, rng))
        pick = self._choose(moves, sv, rng) if lv.smart else moves[rng.randrange(len(moves))]
        # _reaction, inlined
        tops = PILES - sv.stock[sv.seat or 0].count(())
        st = sv.spit_tops
        spits = (st[0] is not None) + (st[1] is not None)
        delay = rng.gauss(lv.reaction_mean + lv.scan_cost * tops * spits, lv.reaction_sd)
        if not delay > MIN_REACTION:
            delay = MIN_REACTION
        if rng.random() < lv.miss_rate:
            delay += lv.reaction_mean * (1.0 + rng.random())
        when = now + delay
        busy = self.busy_until
        intent = self.intent = (pick, when if when >= busy else busy)  # _intend, inlined
        return intent

    # -------------------------------------------------------------- Bot protocol
    def act(self, view: PlayerView, rng: random.Random) -> Action:
        """Turn-based use (generic drivers): the move it would make, ignoring time."""
        intent = self.react(view, 0.0, rng)
        self.intent = None
        if intent is not None and intent[0] is not None:
            return intent[0]
        if not view.legal_actions:
            raise ValueError("the bot has no legal action in this view")
        return view.legal_actions[0]

    # ------------------------------------------------------------------ helpers
    def _intend(self, action: SpitAction, when: float) -> Intent:
        self.intent = (action, max(when, self.busy_until))
        return self.intent

    def _reaction(self, view: SpitView, rng: random.Random) -> float:
        lv = self.level
        tops = PILES - view.stock[view.seat or 0].count(())
        st = view.spit_tops
        spits = (st[0] is not None) + (st[1] is not None)
        return max(MIN_REACTION, rng.gauss(lv.reaction_mean + lv.scan_cost * tops * spits, lv.reaction_sd))

    @staticmethod
    def _uncovers(view: SpitView, a: SpitAction) -> bool:
        """A same-rank stack that uncovers a face-down card (the only productive kind, SP-15)."""
        seat = view.seat or 0
        return len(view.stock[seat][a.pile - 1]) == 1 and view.face_down[seat][a.pile - 1] > 0

    def _choose(self, moves: list[SpitAction], view: SpitView, rng: random.Random) -> SpitAction:
        if not self.level.smart:
            return moves[rng.randrange(len(moves))]
        down = view.face_down[view.seat or 0]
        # flips first, then plays that uncover a face-down card (more beneath first), then fills and
        # stacks, then other plays: the score is (rank of the kind) * 128 - cards beneath (< 52)
        best = 1 << 30
        choices: list[SpitAction] = []
        for a in moves:
            d = down[a.pile - 1]
            k = a.kind
            score = ((0 if d else 256) if k == PLAY else 128 if k != FLIP else -128) - d
            if score < best:
                best, choices = score, [a]
            elif score == best:
                choices.append(a)
        return choices[rng.randrange(len(choices))]


_MOVES: Final = frozenset({PLAY, FILL, FLIP})
"""The kinds of productive move a bot looks for (with the stacks that uncover a card)."""


def _factory(level: str) -> Callable[[], SpitBot]:
    return lambda: SpitBot(level)


for _name in LEVEL_ORDER:
    register_bot("spit", _name, _factory(_name))
