"""Trash bots. They read only the seat's :class:`TrashView`.

* ``sensible``: takes a placeable discard, always displaces a wild (TR-12: never
  worse), and puts a wild on the face-down slot whose number is scarcest (the
  most copies already face-up or discarded).
* ``stock``: always draws from the stock (the baseline of the simulations' studies), but
  otherwise plays like ``sensible``.
* ``search``: determinized search (PIMC) over worlds sampled from the view
  (:func:`cardtable.bots.worlds.sample_trash`): every candidate action is played
  out to the end of the hand in the same sampled worlds with a fast rollout
  policy (take a placeable discard, displace, random wild slot) and the action
  that wins the hand most often is chosen. Used for wild placement and the
  stock-or-discard choice; displacing is always taken (TR-12).

* ``casual``: as ``sensible`` but wilds on a random slot; ``forgetful``: as ``casual``
  but it overlooks a placeable discard three times in ten.

Levels (``easy`` … ``expert``) are configurations of these, see :data:`LEVELS`
and docs/bots.md for their measured strength.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from ..core.game import Action, PlayerView
from ..games.trash import Phase, TrashGame, TrashState
from ..games.trash.actions import A_DISCARD, A_DISPLACE, A_STOCK, A_WILD, TrashAction
from ..games.trash.view import TrashView
from .base import Bot, Budget, RandomBot, register_bot
from .worlds import sample_trash, trash_game_for


def _visible_numbers(view: TrashView) -> Counter[int]:
    seen: Counter[int] = Counter()
    for layout in view.layouts:
        for card in layout:
            if card is not None and not card.is_joker:
                seen[int(card.rank)] += 1
    for card in view.discard:
        if not card.is_joker:
            seen[int(card.rank)] += 1
    return seen


def wild_slot(view: TrashView, legal: tuple[Action, ...]) -> Action:
    """The wild placement on the slot whose number is hardest to come by."""
    seen = _visible_numbers(view)
    slots = [a for a in legal if isinstance(a, TrashAction) and a.kind == "wild"]
    return max(slots, key=lambda a: (seen[a.slot], a.slot))


class SensibleTrashBot:
    name = "sensible"
    take_discard = True
    take_rate = 1.0
    random_wild = False

    def act(self, view: PlayerView, rng: random.Random, budget: Budget | None = None) -> Action:
        assert isinstance(view, TrashView)
        legal = view.legal_actions
        if A_DISPLACE in legal:
            return A_DISPLACE
        if A_STOCK in legal:
            top = view.top_discard
            wanted = top is not None and view.seat is not None and view.placeable(top, view.seat)
            take = self.take_discard and A_DISCARD in legal and wanted
            if take and self.take_rate < 1.0:
                take = rng.random() < self.take_rate
            return A_DISCARD if take else A_STOCK
        if self.random_wild:
            return legal[rng.randrange(len(legal))]
        return wild_slot(view, legal)


class StockTrashBot(SensibleTrashBot):
    name = "stock"
    take_discard = False


class CasualTrashBot(SensibleTrashBot):
    """Takes placeable discards and displaces, but puts wilds on a random slot."""

    name = "casual"
    random_wild = True


class ForgetfulTrashBot(CasualTrashBot):
    """Like ``casual``, but overlooks a placeable discard three times in ten."""

    name = "forgetful"
    take_rate = 0.7


def rollout_hand(state: TrashState, seat: int, rng: random.Random, limit: int = 4000) -> float:
    """Play ``state`` on to the end of the current hand with the fast policy;
    1.0 if ``seat`` won the hand, else 0.0. Mutates ``state``."""
    return _finish_hand(state, seat, rng, state.hands_played, state.hands_won[seat], limit)


def action_value(state: TrashState, action: Action, seat: int, rng: random.Random, limit: int = 4000) -> float:
    """1.0 if ``seat`` wins the hand in which ``action`` is played (on a copy of ``state``, the
    hand then played out with the fast policy), else 0.0.

    The hand is the one in progress *before* the action: an action that completes a
    layout is judged by the hand it ends (won or lost at once), not by the next one."""
    trial = state.clone()
    start = trial.hands_played
    won = trial.hands_won[seat]
    trial.apply(action)
    return _finish_hand(trial, seat, rng, start, won, limit)


def _finish_hand(state: TrashState, seat: int, rng: random.Random, start: int, won: int, limit: int) -> float:
    """Play ``state`` on with the fast policy until hand number ``start`` (counted by
    ``hands_played``) is over; 1.0 if ``seat`` won it (``hands_won[seat]`` was ``won`` before)."""
    draw, place, over = Phase.DRAW, Phase.PLACE_WILD, Phase.OVER
    for _ in range(limit):
        phase = state.phase
        if phase is over or state.hands_played != start:
            break
        if phase is draw:
            discard = state.discard
            take = discard and state.placeable(state.turn, discard[-1])
            state.apply(A_DISCARD if take else A_STOCK)
        elif phase is place:
            down = state.down[state.turn]
            slots = [k for k in range(1, len(down)) if down[k] != -1]
            state.apply(A_WILD[slots[rng.randrange(len(slots))]])
        else:
            state.apply(A_DISPLACE)
    return float(state.hands_won[seat] - won)


class SearchTrashBot(SensibleTrashBot):
    """PIMC over sampled worlds (see the module docstring).

    ``iterations`` is the default number of sampled worlds per decision; each
    world plays out every candidate action once (common random numbers).
    ``search_draw`` also searches the stock-or-discard choice.
    """

    name = "search"
    searches = True
    """Its thinking time depends on its cards: see ``PimcTrexBot.searches``."""

    def __init__(self, iterations: int = 48, search_draw: bool = False) -> None:
        self.iterations = iterations
        self.search_draw = search_draw
        self.game: TrashGame | None = None

    def attach(self, game: Any) -> None:
        """The rules of the game this bot is seated at; without them its worlds follow the rules
        the view implies (:func:`~.worlds.trash_game_for`), which cannot tell every option."""
        self.game = game if isinstance(game, TrashGame) else None

    def act(self, view: PlayerView, rng: random.Random, budget: Budget | None = None) -> Action:
        assert isinstance(view, TrashView)
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        if A_DISPLACE in legal:
            return A_DISPLACE
        if A_STOCK in legal and not self.search_draw:
            return super().act(view, rng)
        seat = view.seat
        assert seat is not None
        game = self.game or trash_game_for(view)
        limit = (budget or Budget()).limit(self.iterations)
        deadline = limit.deadline()
        totals = [0.0] * len(legal)
        done = 0
        while limit.more(done, deadline):
            world = sample_trash(view, rng, game)
            for i, action in enumerate(legal):
                totals[i] += action_value(world, action, seat, rng)
            done += 1
        fallback = super().act(view, rng)
        best = max(totals)
        # ties go to the heuristic choice, then to the first action
        if totals[legal.index(fallback)] == best:
            return fallback
        return legal[totals.index(best)]


LEVELS: dict[str, tuple[str, Callable[[], Bot]]] = {
    "easy": ("uniformly random legal actions", RandomBot),
    "medium": ("takes a placeable discard 7 times in 10, wilds on a random slot", ForgetfulTrashBot),
    "hard": ("takes placeable discards, wilds on the scarcest slot (sensible)", SensibleTrashBot),
    "expert": ("PIMC search over 48 sampled worlds for draws and wild placement", SearchTrashBot),
}
"""Trash levels: (description, factory). Strength measured in docs/bots.md."""

register_bot("trash", "sensible", SensibleTrashBot, "takes placeable discards, wilds on the scarcest slot")
register_bot("trash", "stock", StockTrashBot, "always draws from the stock")
register_bot("trash", "casual", CasualTrashBot, "takes placeable discards, wilds on a random slot")
register_bot("trash", "forgetful", ForgetfulTrashBot, "takes a placeable discard 7 times in 10, random wilds")
register_bot("trash", "search", SearchTrashBot, "PIMC search over sampled worlds for wild placement")
register_bot("trash", "search-all", lambda: SearchTrashBot(search_draw=True), "PIMC search for draws and wilds")
for _level, (_doc, _factory) in LEVELS.items():
    register_bot("trash", _level, _factory, _doc)
