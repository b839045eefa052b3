"""Trex PIMC with a pluggable rollout policy and a pluggable source of worlds.

:class:`PimcTrexBot` is the determinized search of :mod:`cardtable.bots.trex_search` (common
random numbers across the candidates, exact endgames in the last tricks, the contract's mean
compared with the random-hand baseline) with two hooks:

* ``policy``: the policy that finishes every world, for every seat (``strong_policy`` by
  default, run by the compiled :func:`~cardtable.bots.trex_search.rollout_deal`; any other
  ``policy(state) -> action`` by :func:`rollout_with`; a policy per seat by
  :func:`rollout_seats`, which :meth:`PimcTrexBot.rollout` overrides may use);
* :meth:`PimcTrexBot.draw`: where each world comes from (a uniform deal by default; the
  inference expert of :mod:`cardtable.bots.trex_infer` draws worlds in proportion to how well
  they explain what the other seats played).

:class:`SearchTrexBot` (``search``) is it without either: worlds dealt uniformly from the view,
finished by the strong policy.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from ..core.game import Action, PlayerView
from ..games.trex.actions import TR
from ..games.trex.state import Phase
from ..games.trex.view import TrexView
from .base import Budget
from .trex_endgame import Endgame, solvable
from .trex_expert import ExpertTrexBot, above_baseline
from .trex_search import DEFAULT_SECONDS, ENDGAME_TRICKS, candidate, rollout_deal
from .worlds import TrexDealer, trex_dealer

Policy = Callable[[Any], Any]


def rollout_with(st: Any, seat: int, policy: Policy) -> float:
    """:func:`~cardtable.bots.trex_search.rollout_deal` with ``policy`` at every seat."""
    return rollout_seats(st, seat, (policy, policy, policy, policy))


def rollout_seats(st: Any, seat: int, policies: Sequence[Policy]) -> float:
    """:func:`~cardtable.bots.trex_search.rollout_deal` with ``policies[q]`` playing for seat ``q``."""
    o = st.game.options
    seats = (seat, (seat + 2) % 4) if o.partnership else (seat,)
    if st.phase in (Phase.TRICK, Phase.TREX) and not st.tiebreak:
        st.stop_at_deal_end = True
        while not st.deal_ended:
            st.apply(policies[st.to_move](st))
        score = 0
        for q in seats:
            score += st.deal_scores[q]
            if st.contract == TR:
                score += o.trex_payouts[st.finishing.index(q)]
        return float(score)
    start = sum(st.totals[q] for q in seats)
    deal = st.deal_index
    tiebreak = st.tiebreak
    while st.deal_index == deal and st.to_move >= 0 and st.tiebreak == tiebreak:
        st.apply(policies[st.to_move](st))
    if st.deal_index != deal or st.to_move < 0:
        delta = sum(st.totals[q] for q in seats) - start
        return float(-delta if o.reverse_scores else delta)
    return float(sum(st.deal_scores[q] for q in seats))


class PimcTrexBot(ExpertTrexBot):
    """Determinized search over worlds from :meth:`draw`, finished by ``policy``."""

    name = "pimc"
    default_iterations: int | None = None
    """Iterations a decision when neither the bot nor the budget sets a limit (``None``: the
    bot's ``seconds``); tests set it to play whole games quickly."""

    def __init__(self, policy: Policy | None = None, iterations: int | None = None, game: Any = None,
                 seconds: float = DEFAULT_SECONDS, endgame: int = ENDGAME_TRICKS) -> None:
        super().__init__(game)
        self.policy = policy
        self.iterations = iterations
        self.seconds = seconds
        self.endgame = endgame
        self.last_iterations = 0
        self.last_worlds = 0

    def draw(self, view: TrexView, dealer: TrexDealer, rng: random.Random) -> Any:
        """One world to search (a uniform deal consistent with the view and the memory)."""
        return dealer.deal(rng)

    def prepare(self, view: TrexView, dealer: TrexDealer) -> None:
        """Called once a decision, before the first :meth:`draw`."""

    def rollout(self, st: Any, seat: int) -> float:
        if self.policy is None:
            return rollout_deal(st, seat)
        return rollout_with(st, seat, self.policy)

    def act(self, view: PlayerView, rng: random.Random, budget: Budget | None = None) -> Action:
        forced = self.observe(view)
        if forced is not None:
            return forced
        assert isinstance(view, TrexView)
        legal = view.legal_actions
        seat = view.seat
        assert seat is not None
        dealer = trex_dealer(view, self.game, self.memory)
        limit = budget or Budget()
        if limit.iterations is None and limit.seconds is None:
            iterations = self.iterations or self.default_iterations
            limit = Budget(iterations=iterations) if iterations else Budget(seconds=self.seconds)
        deadline = limit.deadline()
        self.prepare(view, dealer)
        k = len(legal)
        totals = [0.0] * k
        done = worlds = 0
        start = time.perf_counter()
        while limit.more(done, deadline):
            now = time.perf_counter()
            if deadline is not None and worlds and now + (now - start) / worlds > deadline:
                break  # one more world would overrun the time budget
            world = self.draw(view, dealer, rng)
            if solvable(world, self.endgame):
                exact = Endgame(world, seat).values(world)
                for i in range(k):
                    totals[i] += exact[legal[i].arg]  # type: ignore[attr-defined]
            else:
                values = []
                for i in range(k):
                    if worlds and deadline is not None and time.perf_counter() > deadline:
                        break  # out of time mid-world: drop it, keep the worlds every candidate saw
                    values.append(self.rollout(candidate(world, legal[i]), seat))
                if len(values) < k:
                    break
                for i in range(k):
                    totals[i] += values[i]
            done += k
            worlds += 1
        self.last_iterations = done
        self.last_worlds = worlds
        means = above_baseline([t / max(worlds, 1) for t in totals], legal)
        best = max(range(k), key=lambda i: (means[i], -i))
        return legal[best]


class SearchTrexBot(PimcTrexBot):
    """PIMC over worlds dealt uniformly from the view, the strong policy as rollout policy and
    exact endgames (memory and seating as the rule-based bots'). ``Budget()`` or no budget
    means ``seconds`` of thinking (``iterations``, if given, instead)."""

    name = "search"

    def __init__(self, iterations: int | None = None, game: Any = None, seconds: float = DEFAULT_SECONDS,
                 endgame: int = ENDGAME_TRICKS) -> None:
        super().__init__(None, iterations, game, seconds, endgame)


__all__ = ["PimcTrexBot", "Policy", "SearchTrexBot", "rollout_seats", "rollout_with"]
