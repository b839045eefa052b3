"""Spit bots with a human reaction-time model (docs/spit.md, "Bots").

A :class:`SpitBot` watches its seat's view. When it sees a productive move (a
PLAY or a FILL) it answers after the time a person would need, in three parts:

* **Detection**, the simple visual reaction time: a lognormal draw of median
  ``detect`` seconds (shape ``detect_shape``), never under :data:`MIN_REACTION`.
  Woods et al. 2015 (Front. Hum. Neurosci. 9:131, n = 1,469, ages 18-65) measured
  a mean simple visual reaction time of about 230 ms; the top level sits there
  and the others above it.
* **Choice**, Hick's law (Hick 1952; Hyman 1953): ``hick`` seconds per bit,
  ``log2(n + 1)`` bits for ``n`` alternatives, where ``n`` is the number of pairs
  of one of its face-up stock tops and a spit pile top it has to compare. Hick
  measured about 150 ms a bit for untrained choices; practice lowers the slope,
  so the better levels have smaller ones. Drawn with a 15% spread.
* **Movement**, Fitts' law (Fitts 1954): ``move_base + move_slope * 3`` seconds
  for moving a card (an index of difficulty of about 3 bits: a card-sized target
  a few card widths away); a slap is a short ballistic hit of 1.5 bits. Mouse
  pointing has ``a`` about 0.1-0.2 s and ``b`` about 0.1-0.2 s a bit (MacKenzie
  1992); the levels span that range. Drawn with a 10% spread, never under 80%
  of its mean.

With probability ``miss_rate`` it overlooks the move at first and notices it
one more mean reaction later (attention lapses). It moves one card at a time:
the movement starts once the decision is made and the hand is free, and after a
move the hand needs ``homing`` seconds to come back (the one-hand limit, SP-10).
Once it has noticed a move it carries it out unless the move stops being legal
(lost race or stale), and then it looks again from scratch. In the slap race it
reacts after detection, a Hick choice among the piles it may slap and a slap's
movement, and hits the smaller pile with probability ``slap_accuracy`` (the
other one otherwise; in a one-pile round it slaps the only pile, to avoid it).
When it has no productive move it asks for a spit (SP-17) after a reaction
time, and a ``smart`` bot prefers flips (with ``auto_flip`` off), then plays
that turn up a face-down card, then fills and same-rank stacks that uncover a
card, then the rest.

Levels (registered as bots ``beginner`` … ``expert`` for game ``spit``; the
parameters with their sources and the measured timing are in docs/bots.md):

==========  ======  =====  =====  =====  =====  ======  =====  =====  =====
level       detect  shape  hick   base   slope  homing  miss   acc.   smart
==========  ======  =====  =====  =====  =====  ======  =====  =====  =====
beginner    0.35    0.25   0.26   0.26   0.17   0.30    0.25   0.60   no
easy        0.31    0.22   0.21   0.20   0.14   0.25    0.15   0.75   no
medium      0.28    0.20   0.17   0.16   0.12   0.20    0.08   0.85   yes
hard        0.25    0.18   0.13   0.12   0.09   0.15    0.04   0.95   yes
expert      0.23    0.16   0.09   0.08   0.06   0.12    0.02   1.00   yes
==========  ======  =====  =====  =====  =====  ======  =====  =====  =====

Times are in seconds (``hick`` and ``slope`` in seconds a bit).
"""

from __future__ import annotations

import math
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

MIN_REACTION = 0.15
"""No one detects a change faster than this (seconds): faster responses are anticipations."""

MOVE_BITS = 3.0
"""Fitts' index of difficulty of moving a card (bits)."""

SLAP_BITS = 1.5
"""Fitts' index of difficulty of slapping a pile (bits)."""

TYPICAL_PAIRS = 2
"""The pairs to compare in the simplest position (one stock top, two spit piles)."""


@dataclass(frozen=True)
class SpitLevel:
    """The parameters of a bot level (see the module docstring)."""

    name: str
    detect: float
    detect_shape: float
    hick: float
    move_base: float
    move_slope: float
    homing: float
    miss_rate: float
    slap_accuracy: float
    smart: bool

    # -------------------------------------------------------------- draws
    def detection(self, rng: random.Random) -> float:
        """A simple reaction time: lognormal around ``detect``, never under MIN_REACTION."""
        t = self.detect * math.exp(self.detect_shape * rng.gauss(0.0, 1.0))
        return t if t > MIN_REACTION else MIN_REACTION

    def choice(self, alternatives: int, rng: random.Random) -> float:
        """Hick's law for ``alternatives`` options, with a 15% spread (never negative)."""
        t = self.hick * math.log2(alternatives + 1) * (1.0 + 0.15 * rng.gauss(0.0, 1.0))
        return t if t > 0.0 else 0.0

    def movement(self, bits: float, rng: random.Random) -> float:
        """Fitts' law for a movement of ``bits``, 10% spread, never under 80% of its mean."""
        mean = self.move_base + self.move_slope * bits
        t = mean * (1.0 + 0.1 * rng.gauss(0.0, 1.0))
        return t if t > 0.8 * mean else 0.8 * mean

    def decision(self, alternatives: int, rng: random.Random) -> float:
        """Detection and choice: the time until the bot knows its move."""
        return self.detection(rng) + self.choice(alternatives, rng)

    # ------------------------------------------ summaries (docs, sim reports)
    @property
    def reaction_mean(self) -> float:
        """The mean time of a move in the simplest position: detection, choice, movement."""
        detect = self.detect * math.exp(self.detect_shape**2 / 2)
        return detect + self.hick * math.log2(TYPICAL_PAIRS + 1) + self.move_base + self.move_slope * MOVE_BITS

    @property
    def reaction_sd(self) -> float:
        """Its standard deviation (the three parts independent)."""
        detect = self.detect * math.exp(self.detect_shape**2 / 2) * math.sqrt(math.exp(self.detect_shape**2) - 1)
        choice = 0.15 * self.hick * math.log2(TYPICAL_PAIRS + 1)
        move = 0.1 * (self.move_base + self.move_slope * MOVE_BITS)
        return math.sqrt(detect**2 + choice**2 + move**2)

    @property
    def scan_cost(self) -> float:
        """The mean extra choice time of one more pair to compare, between 2 and 10 pairs."""
        return self.hick * (math.log2(11) - math.log2(3)) / 8

    @property
    def move_time(self) -> float:
        """The least time between two moves of this bot's one hand after the first is sent."""
        return self.homing

    @property
    def slap_mean(self) -> float:
        """The mean time of a slap between two piles."""
        detect = self.detect * math.exp(self.detect_shape**2 / 2)
        return detect + self.hick * math.log2(3) + self.move_base + self.move_slope * SLAP_BITS


LEVELS: dict[str, SpitLevel] = {
    lv.name: lv
    for lv in (
        SpitLevel("beginner", 0.35, 0.25, 0.26, 0.26, 0.17, 0.30, 0.25, 0.60, False),
        SpitLevel("easy", 0.31, 0.22, 0.21, 0.20, 0.14, 0.25, 0.15, 0.75, False),
        SpitLevel("medium", 0.28, 0.20, 0.17, 0.16, 0.12, 0.20, 0.08, 0.85, True),
        SpitLevel("hard", 0.25, 0.18, 0.13, 0.12, 0.09, 0.15, 0.04, 0.95, True),
        SpitLevel("expert", 0.23, 0.16, 0.09, 0.08, 0.06, 0.12, 0.02, 1.00, True),
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
        self.busy_until = when + self.level.homing

    def sticky(self, action: Action) -> bool:
        """A noticed play, fill or slap is carried out while it stays legal; a spit request is not."""
        return not (isinstance(action, SpitAction) and action.kind == SPIT)

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
            ready = max(now + lv.decision(len(slaps), rng), self.busy_until)
            return self._intend(pick, ready + lv.movement(SLAP_BITS, rng))
        if phase != "play":
            return None
        if not moves:
            if spit is None:
                return None
            return self._intend(spit, now + self._reaction(sv, rng))
        pick = self._choose(moves, sv, rng) if lv.smart else moves[rng.randrange(len(moves))]
        ready = now + self._decision(sv, rng)
        if rng.random() < lv.miss_rate:
            ready += lv.reaction_mean * (1.0 + rng.random())
        busy = self.busy_until
        intent = self.intent = (pick, (ready if ready >= busy else busy) + lv.movement(MOVE_BITS, rng))
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

    def _decision(self, view: SpitView, rng: random.Random) -> float:
        """Detection and a Hick choice among the pairs of stock tops and spit tops to compare."""
        tops = PILES - view.stock[view.seat or 0].count(())
        st = view.spit_tops
        spits = (st[0] is not None) + (st[1] is not None)
        return self.level.decision(max(tops * spits, 1), rng)

    def _reaction(self, view: SpitView, rng: random.Random) -> float:
        """A decision and a movement: a move that does not wait for the hand (spit, choose)."""
        return self._decision(view, rng) + self.level.movement(MOVE_BITS, rng)

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
