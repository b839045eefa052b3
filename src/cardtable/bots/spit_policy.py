"""Spit decision policies on top of the reaction-time bots of :mod:`cardtable.bots.spit`.

A :class:`PolicySpitBot` reacts with the same human-like timing model as a
:class:`~cardtable.bots.spit.SpitBot` of its level (reaction time, scanning
cost, misses, the one-hand limit, slap speed and accuracy); what changes is
*which* move it makes when it sees several, scored from its view:

* **Uncover first.** A play from a pile with face-down cards beneath turns up a
  new card (+4); a FILL of an empty space always does (+3, SP-9).
* **Chain.** After a play the spit pile shows the played card: every other
  face-up top of ours adjacent to it (SP-2) is a follow-up we can make at once (+1 each).
* **Do not feed.** Every face-up top of the opponent adjacent to the new top is
  a play we hand over (−1 each).
* **The pile we will not take.** With equal scores, play onto the larger spit
  pile: at the end of the round the first slap takes the smaller one (SP-20),
  so cards on the larger pile are cards we keep out of our own.
* **Slap** the smaller pile (as the level's accuracy allows); a **lone spitter**
  (SP-16) binds itself to the larger pile, so the smaller one stays small.

Levels for ``spit`` (registered here, replacing the plain reaction-time bots of
the same names; ``beginner`` stays as it is):

==========  =====================================================
easy        ``SpitBot("easy")``: random choice among its moves
medium      ``SpitBot("medium")``: uncovering plays, then fills
hard        ``PolicySpitBot("hard")``: the scored policy above
expert      ``PolicySpitBot("expert")``: the scored policy above
==========  =====================================================
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..core.game import Action, PlayerView
from ..core.seats import next_seat
from ..games.spit.actions import CHOOSE, FILL, PLAY, SpitAction
from ..games.spit.view import SpitView
from .base import Budget, register_bot
from .spit import SpitBot, SpitLevel


def adjacent(a: int, b: int) -> bool:
    """SP-2: ranks next to each other in the cycle A-2-…-K-A (card ids)."""
    d = (a % 13 - b % 13) % 13
    return d in (1, 12)


class PolicySpitBot(SpitBot):
    """A reaction-time Spit bot that chooses its moves with the scored policy (module docstring)."""

    def __init__(self, level: str | SpitLevel = "expert") -> None:
        super().__init__(level)
        self.name = f"policy-{self.level.name}"

    def react(self, view: PlayerView, now: float, rng: random.Random):  # type: ignore[no-untyped-def]
        assert isinstance(view, SpitView)
        choose = [a for a in view.legal_actions if isinstance(a, SpitAction) and a.kind == CHOOSE]
        if choose and self.intent is None:
            sizes = view.spit_sizes
            pick = max(choose, key=lambda a: (sizes[a.target], a.target == view.seat))
            return self._intend(pick, now + self._reaction(view, rng))
        return super().react(view, now, rng)

    def act(self, view: PlayerView, rng: random.Random, budget: Budget | None = None) -> Action:
        return super().act(view, rng)

    def _choose(self, moves: list[SpitAction], view: SpitView, rng: random.Random) -> SpitAction:
        seat = view.seat or 0
        other = next_seat(seat, 2)
        down = view.face_down[seat]
        mine = [pile[-1].id for pile in view.stock[seat] if pile]
        theirs = [pile[-1].id for pile in view.stock[other] if pile]
        sizes = view.spit_sizes

        def score(a: SpitAction) -> tuple[float, float]:
            if a.kind == FILL:
                return (3.0, 0.0)
            if a.kind != PLAY:
                return (-9.0, 0.0)
            s = 4.0 if down[a.pile - 1] > 0 else 0.0
            c = a.card
            s += sum(1 for t in mine if t != c and adjacent(t, c))
            s -= sum(1 for t in theirs if adjacent(t, c))
            return (s, sizes[a.target])

        best = max(score(a) for a in moves)
        choices = [a for a in moves if score(a) == best]
        return choices[rng.randrange(len(choices))]


def _plain(level: str) -> Callable[[], SpitBot]:
    return lambda: SpitBot(level)


def _policy(level: str) -> Callable[[], SpitBot]:
    return lambda: PolicySpitBot(level)


SPIT_LEVELS: dict[str, tuple[str, Callable[[], SpitBot]]] = {
    "easy": ("reaction-time bot, level easy: random choice among its moves", _plain("easy")),
    "medium": ("reaction-time bot, level medium: uncovering plays, then fills", _plain("medium")),
    "hard": ("level hard reactions with the scored move policy", _policy("hard")),
    "expert": ("level expert reactions with the scored move policy", _policy("expert")),
}

for _name in ("beginner", "easy", "medium", "hard", "expert"):
    register_bot("spit", f"policy-{_name}", _policy(_name), f"level {_name} reactions with the scored move policy")
    register_bot("spit", f"reaction-{_name}", _plain(_name), f"the plain reaction-time bot of level {_name}")
for _level, (_doc, _factory) in SPIT_LEVELS.items():
    register_bot("spit", _level, _factory, _doc)
