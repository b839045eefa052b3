"""Which Spit action a key or a click asks for, worked out from the seat's view alone.

Both terminal front ends use this: the Textual table (:mod:`cardtable.tui.games.spit`) and the
plain text screen (:mod:`cardtable.cli.spit_play`). Each maps its own keys to the four inputs
below; the selection (a chosen stock pile, a pending pile choice) and the notes live here.
Plain Python, no Textual.

- :meth:`SpitControls.pile` (a number 1–5, or a click on a stock pile): with no pile chosen,
  choose it (again: unchoose); with one chosen, move its card to that space (fill or stack).
  A face-down top (auto_flip off) is turned up.
- :meth:`SpitControls.spit_pile` (left/right, or a click on a spit pile): pick the pile of a
  lone spitter (SP-16) after :meth:`choose`, slap it in the slap race, or play the chosen card
  (or any card of the seat's that fits) onto it.
- :meth:`SpitControls.spit`: ask for a spit (SP-17), or withdraw the request.
- :meth:`SpitControls.choose`: the next left/right picks the lone spitter's pile.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..games.spit.actions import CHOOSE, FILL, FLIP, PLAY, SLAP, SPIT, STACK, UNSPIT, SpitAction
from ..games.spit.view import SpitView


@dataclass(frozen=True)
class Note:
    """A short note for the player: a key of the ``tui`` catalog (``tr(note.key, lang, **note.values)``)."""

    key: str
    values: dict[str, object] = field(default_factory=dict)


def find(legal: list[SpitAction], kind: str, pile: int | None = None,
         target: int | None = None) -> SpitAction | None:
    """The first legal action of ``kind`` (from ``pile``, onto ``target`` when given)."""
    for a in legal:
        if a.kind == kind and (pile is None or a.pile == pile) and (target is None or a.target == target):
            return a
    return None


def legal_of(view: SpitView) -> list[SpitAction]:
    """The seat's legal actions (none for a spectator)."""
    if view.seat is None:
        return []
    return [a for a in view.legal_actions if isinstance(a, SpitAction)]


class SpitControls:
    """The selection of the seat on screen and the action each input asks for."""

    def __init__(self) -> None:
        self.selected: int | None = None  # a stock pile 1–5 of the seat on screen
        self.choosing = False  # the next left/right picks a lone spitter's pile (SP-16)
        self.note: Note | None = None  # what the last input could not do

    def seen(self, view: SpitView) -> None:
        """A new view is on screen: drop a choice it has made stale (the chosen card is gone,
        the play phase is over)."""
        seat = view.seat if view.seat is not None else 0
        if self.selected is not None and not view.stock[seat][self.selected - 1] \
                and find(legal_of(view), FLIP, pile=self.selected) is None:
            self.selected = None
        if view.phase != "play":
            self.selected = None
        if self.choosing and view.phase not in ("play", "spit_pending"):
            self.choosing = False

    def cancel(self) -> bool:
        """Drop the chosen pile and a pending pile choice; True if there was one."""
        had = self.selected is not None or self.choosing
        self.selected, self.choosing = None, False
        return had

    def _say(self, key: str, **values: object) -> None:
        self.note = Note(key, values)

    def pile(self, view: SpitView, n: int) -> SpitAction | None:
        """Stock pile ``n`` (1–5) was chosen."""
        self.note = None
        legal = legal_of(view)
        flip = find(legal, FLIP, pile=n)
        if flip is not None:
            return flip
        seat = view.seat if view.seat is not None else 0
        if self.selected is None or self.selected == n:
            if self.selected == n:
                self.selected = None
            elif view.stock[seat][n - 1]:
                self.selected = n
            else:
                self._say("spit.note.empty", n=n)
            return None
        src, self.selected = self.selected, None
        move = find(legal, FILL, pile=src, target=n) or find(legal, STACK, pile=src, target=n)
        if move is None and view.stock[seat][n - 1]:
            self.selected = n  # the other pile instead
        return move

    def spit_pile(self, view: SpitView, k: int) -> SpitAction | None:
        """Spit pile ``k`` (0 or 1) was chosen: pick it, slap it or play onto it."""
        self.note = None
        legal = legal_of(view)
        if self.choosing:
            self.choosing = False
            action = find(legal, CHOOSE, target=k)
            if action is None:
                self._say("spit.note.no_choose")
            return action
        slap = find(legal, SLAP, target=k)
        if slap is not None:
            return slap
        if self.selected is not None:
            pile, self.selected = self.selected, None
            action = find(legal, PLAY, pile=pile, target=k)
            if action is None:
                self._say("spit.note.no_fit", k=k)
            return action
        action = find(legal, PLAY, target=k)
        if action is None:
            self._say("spit.note.nothing", k=k)
        return action

    def spit(self, view: SpitView) -> SpitAction | None:
        """Ask for a spit, or withdraw the request."""
        self.note = None
        legal = legal_of(view)
        action = find(legal, SPIT) or find(legal, UNSPIT)
        if action is None:
            self._say("spit.note.no_spit")
        return action

    def choose(self, view: SpitView) -> None:
        """The next left/right picks the lone spitter's pile (when the seat may choose one)."""
        self.note = None
        if find(legal_of(view), CHOOSE) is None:
            self._say("spit.note.no_choose")
        else:
            self.choosing = True
