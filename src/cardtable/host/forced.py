"""Questions with one answer: a person's client answers them by itself and says so.

The engine keeps asking every seat the same questions, so that being asked leaks
nothing (a Trex seat that may not force a redeal is asked "show or keep" like one
that may, TX-13; one with nothing to double is asked about doubling, TX-15). When a
seat's view offers exactly one legal action, asking the person is empty: the client
(the terminal app, the page) answers with that action and writes the line of
:data:`ANSWERED_KEY` in its log.

A few single actions stay a key press because they are the player's own pace, not a
question (:data:`PACE`): drawing from the stock in Trash is the turn itself, and a race
(``SIMULTANEOUS``, Spit) is never answered for anyone: the press is the game.

The answer is given only when the seat is on screen, after the same pause a person
would see, so a hot-seat neighbour cannot tell a forced answer from a quick one.

>>> import cardtable
>>> state = cardtable.load("trex").new_state(seed=2)
>>> [str(a) for a in state.legal_actions()], str(forced_action("trex", state.view(state.current_player())))
(['keep'], 'keep')
"""

from __future__ import annotations

from ..core.game import Action, PlayerView
from ..i18n import translate

ANSWERED_KEY = "forced.answered"
"""The catalog key of the log line (``i18n/<lang>/play.json``, the strings every client shares;
``{action}`` is the answer in words)."""

PACE: dict[str, frozenset[str]] = {"trash": frozenset({"stock"})}
"""Per game, the single actions (their text form) that stay a key press."""


def forced_action(game: str, view: PlayerView) -> Action | None:
    """The one answer the seat of ``view`` may give now, if it has exactly one and it is a
    question (not in :data:`PACE`); ``None`` when the person must choose (or may not act)."""
    if view.seat is None or view.current_player < 0 or len(view.legal_actions) != 1:
        return None  # a spectator; a race (everyone may act at once: the press is the point)
    action = view.legal_actions[0]
    if str(action) in PACE.get(game, frozenset()):
        return None
    return action


def answered_line(action_text: str, lang: str = "en") -> str:
    """The log line "only one answer: keep your hand — given for you" in ``lang``."""
    return translate(ANSWERED_KEY, lang, action=action_text)
