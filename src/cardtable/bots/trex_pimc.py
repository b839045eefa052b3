"""Trex PIMC with a pluggable rollout policy and a pluggable source of worlds.

:class:`PimcTrexBot` is the determinized search of :mod:`cardtable.bots.trex_search` (common
random numbers across the candidates, exact endgames in the last tricks, the contract's mean
compared with the random-hand baseline) with two hooks:

* ``policy``: the policy that finishes every world, for every seat (``strong_policy`` by
  default, run by the compiled :func:`~cardtable.bots.trex_search.rollout_deal`; any other
  ``policy(state) -> action`` by :func:`rollout_with`; a policy per seat by
  :func:`rollout_seats`, which :meth:`PimcTrexBot.rollout` overrides may use);
* :meth:`PimcTrexBot.draw`, :meth:`PimcTrexBot.score` and :meth:`PimcTrexBot.weigh`: where
  each world comes from and what it weighs (a uniform deal, every world alike, by default; the
  inference expert of :mod:`cardtable.bots.trex_infer` weighs its worlds by how well they
  explain what the other seats played).

:class:`SearchTrexBot` (``search``) is it without either: worlds dealt uniformly from the view,
finished by the strong policy.

In trick play the search plays one card of each class of equal cards (:func:`equivalent`), and
in the play phases it values a deal's scores by what they do to the seat's chance of winning the
game (:func:`stakes`).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from ..core.game import Action, PlayerView
from ..games.trex.state import STRENGTH, SUIT, Phase
from ..games.trex.view import TrexView
from .base import Budget
from .trex_endgame import Endgame, solvable
from .trex_expert import ExpertTrexBot, above_baseline
from .trex_search import DEFAULT_SECONDS, ENDGAME_TRICKS, candidate, deal_value, own_weights, rollout_deal
from .worlds import TrexDealer, trex_dealer

Policy = Callable[[Any], Any]

RACE_MIN = 16
"""Worlds every candidate sees before any leaves the race."""
RACE_EVERY = 4
"""Worlds between two looks at the race."""
RACE_Z = 2.5
"""Standard errors by which a candidate must trail the leader to leave the race."""
RACE_TIES = 32
"""Worlds in which a candidate must score exactly as the leader does to leave as its equal."""
SPREAD = 84.0
"""The standard deviation of the difference between two players' scores in one deal, in points
(four ``hard`` players, 60 games of the standard preset): how fast a gap between totals moves."""


def stakes(view: TrexView, reverse: bool = False) -> tuple[float, float, float, float] | None:
    """What a point of each seat's score for this deal is worth to ``view.seat`` when it plays
    to win the game (TX-39, the highest total) rather than for points: its own points count 1,
    each other seat's −w, the weights summing to 1 and going to the rivals that stand between
    it and first place. ``None`` outside the play phases, in partnership and in the tie-break
    deal, where the search values its own score.

    The chance of finishing above rival ``j`` is taken as Φ(z) with z = (my total − j's total) /
    (:data:`SPREAD` × √deals left, this one included), the totals counting this deal's scores so
    far; the weights are the derivative of the log of the product of those chances with respect
    to each rival's total, φ(z)/Φ(z) normalised. Early in a game the gaps are small against
    what is left to play and the weights are about ⅓ each, so in a trick contract (whose scores
    add up to a constant) the value orders the plays as the seat's own score does. Late in a
    game the weight goes to the rival who leads, or when the seat leads, to the closest one: a
    K♥ that has to go somewhere goes to the player it keeps from winning. Totals and deal scores
    are public (the seat's view); under TX-V7 the totals are negated, so they are turned back."""
    seat = view.seat
    if seat is None or view.partnership or view.tiebreak or view.phase not in ("trick", "trex"):
        return None
    sign = -1 if reverse else 1
    x = [sign * t + d for t, d in zip(view.totals, view.deal_scores_now, strict=True)]
    scale = SPREAD * math.sqrt(max(1, view.num_deals - view.deal_number + 1))
    hazard = [0.0] * 4
    for j in range(4):
        if j != seat:
            z = max(-30.0, min(30.0, (x[seat] - x[j]) / scale))
            cdf = 0.5 * math.erfc(-z / math.sqrt(2.0))
            hazard[j] = math.exp(-0.5 * z * z) / math.sqrt(2.0 * math.pi) / cdf
    total = sum(hazard)
    return tuple(1.0 if q == seat else -hazard[q] / total for q in range(4))  # type: ignore[return-value]


def rollout_with(st: Any, seat: int, policy: Policy, weights: tuple[float, ...] | None = None) -> float:
    """:func:`~cardtable.bots.trex_search.rollout_deal` with ``policy`` at every seat."""
    return rollout_seats(st, seat, (policy, policy, policy, policy), weights)


def rollout_seats(st: Any, seat: int, policies: Sequence[Policy], weights: tuple[float, ...] | None = None) -> float:
    """:func:`~cardtable.bots.trex_search.rollout_deal` with ``policies[q]`` playing for seat
    ``q``; in the play phases ``weights`` (:func:`stakes`) value the deal's scores."""
    o = st.game.options
    if st.phase in (Phase.TRICK, Phase.TREX) and not st.tiebreak:
        st.stop_at_deal_end = True
        while not st.deal_ended:
            st.apply(policies[st.to_move](st))
        return deal_value(st, own_weights(seat, o.partnership) if weights is None else weights)
    seats = (seat, (seat + 2) % 4) if o.partnership else (seat,)
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
    searches = True
    """Its thinking time depends on its cards (a forced move is answered at once): a server
    never lets it think where that time shows (``cardtable.server.botpool.searches``)."""
    default_iterations: int | None = None
    """Iterations a decision when neither the bot nor the budget sets a limit (``None``: the
    bot's ``seconds``); tests set it to play whole games quickly."""
    merge = True
    """Search one card of each class of equal cards (:func:`equivalent`)."""
    racing = False
    """Drop clearly worse candidates as the worlds come in (:class:`Race`). Off: in whole games
    against three ``spar-search`` the racing ``expert`` did not play better than the plain one
    (docs/trex-strength.md), so every class of cards sees every world."""
    for_the_win = True
    """In the play phases, value a deal's scores by what they do to the seat's chance of
    winning the game (:func:`stakes`), not by its own score alone."""

    def __init__(self, policy: Policy | None = None, iterations: int | None = None, game: Any = None,
                 seconds: float = DEFAULT_SECONDS, endgame: int = ENDGAME_TRICKS) -> None:
        super().__init__(game)
        self.policy = policy
        self.iterations = iterations
        self.seconds = seconds
        self.endgame = endgame
        self.last_iterations = 0
        self.last_worlds = 0
        self.last_race: Race | None = None
        """The last decision's candidates and their values in every world they saw."""
        self.stakes: tuple[float, ...] | None = None
        """The weights the current decision values a deal's scores by (:func:`stakes`)."""

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["last_race"] = None  # the last decision's values stay behind: the bot pool's trips stay small
        return state

    def draw(self, view: TrexView, dealer: TrexDealer, rng: random.Random) -> Any:
        """One world to search (a uniform deal consistent with the view and the memory)."""
        return dealer.deal(rng)

    def prepare(self, view: TrexView, dealer: TrexDealer) -> None:
        """Called once a decision, before the first :meth:`draw`."""

    def score(self, world: Any) -> float:
        """A number for each world drawn, before it is searched, that :meth:`weigh` turns into
        the weights of the worlds; here 0 (every world weighs the same)."""
        return 0.0

    def weigh(self, scores: list[float]) -> list[float] | None:
        """The weight of each world searched, from their :meth:`score`; ``None``: equal weights."""
        return None

    def rollout(self, st: Any, seat: int) -> float:
        if self.policy is None:
            return rollout_deal(st, seat, self.stakes)
        return rollout_with(st, seat, self.policy, self.stakes)

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
        self.stakes = stakes(view, bool(dealer.game.options.reverse_scores)) if self.for_the_win else None
        self.prepare(view, dealer)
        offsets = above_baseline([0.0] * len(legal), legal)
        race: Race | None = None
        scores: list[float] = []
        done = worlds = 0
        start = time.perf_counter()
        while limit.more(done, deadline):
            now = time.perf_counter()
            if deadline is not None and worlds and now + (now - start) / worlds > deadline:
                break  # one more world would overrun the time budget
            world = self.draw(view, dealer, rng)
            if race is None:
                groups = equivalent(world, legal, seat) if self.merge else [[i] for i in range(len(legal))]
                race = Race([legal[g[0]] for g in groups], [offsets[g[0]] for g in groups], self.racing)
                if len(race.alive) == 1:
                    break  # one class of cards: nothing to search, nor a world to weigh
            score = self.score(world)
            alive = race.alive
            if solvable(world, self.endgame):
                exact = Endgame(world, seat, self.stakes).values(world)
                values = [exact[race.actions[i].arg] for i in alive]  # type: ignore[attr-defined]
            else:
                values = []
                for i in alive:
                    if worlds and deadline is not None and time.perf_counter() > deadline:
                        break  # out of time mid-world: drop it, keep the worlds every candidate saw
                    values.append(self.rollout(candidate(world, race.actions[i]), seat))
                if len(values) < len(alive):
                    break
            done += len(alive)
            worlds += 1
            race.add(values)
            scores.append(score)
            if len(race.alive) == 1:
                break
        if race is not None and worlds:
            weights = self.weigh(scores)
            if weights is not None:
                race.weigh(weights)
        self.last_iterations = done
        self.last_worlds = worlds
        self.last_race = race
        if race is None:
            return legal[0]
        return race.best()


def interchangeable(world: Any, seat: int, b: int, c: int) -> bool:
    """Are cards ``b`` and ``c`` of ``seat``'s hand equal in the trick contract of ``world``: of
    one suit, scoring alike (the same penalty, neither doubled), and every card ranked between
    them in that hand or gone in an earlier trick? Whoever holds the rest, whichever of the two
    is played wins or loses the same tricks. A card is equal to itself."""
    if b == c:
        return True
    tc = world.trick_contract
    doubler = world.doubler
    if tc is None or SUIT[b] != SUIT[c] or tc.unit[b] != tc.unit[c] or doubler[b] >= 0 or doubler[c] >= 0:
        return False
    low, high = sorted((STRENGTH[b], STRENGTH[c]))
    owner, trick = world.owner, world.trick
    first = 13 * SUIT[c]
    for d in range(first, first + 13):
        if low < STRENGTH[d] < high and owner[d] != seat and (owner[d] >= 0 or d in trick):
            return False
    return True


def equivalent(world: Any, legal: Sequence[Action], seat: int) -> list[list[int]]:
    """The legal plays grouped into classes of equal cards (:func:`interchangeable`), as lists
    of indices into ``legal`` (ascending; the search plays the first of each class). Everything
    used is the seat's own knowledge (its hand, the cards played, the contract), the same in
    every world. Outside trick play, every action is a class of its own."""
    classes = [[i] for i in range(len(legal))]
    if world.phase is not Phase.TRICK or world.tiebreak or world.trick_contract is None or world.unchecked:
        return classes
    cards = [a.arg for a in legal]  # type: ignore[attr-defined]
    order = sorted(range(len(legal)), key=lambda i: (SUIT[cards[i]], STRENGTH[cards[i]]))
    merged: list[list[int]] = []
    for i in order:
        if merged and interchangeable(world, seat, cards[merged[-1][-1]], cards[i]):
            merged[-1].append(i)
        else:
            merged.append([i])
    return sorted((sorted(g) for g in merged), key=lambda g: g[0])


class Race:
    """Candidates compared on common worlds, the clearly worse ones dropped as the worlds come
    in, so that the budget goes to the candidates still in doubt (a race, as in racing
    algorithms for model selection). Each world gives a value to every candidate still in the
    race; a candidate leaves once its mean difference from the leader, over the worlds both
    saw, is below zero by more than :data:`RACE_Z` standard errors (checked from
    :data:`RACE_MIN` worlds on), or once it has tied the leader in every one of
    :data:`RACE_TIES` worlds. The candidates still in have seen every world, so the winner is
    the best mean over all of them. ``racing=False`` keeps every candidate to the end.

    A card can trail by a few points in every world seen and still be the better one, because
    of a world not yet seen where it saves the K♥ or a queen. So the differences are compared
    together with two imagined worlds, one in which the candidate beats the leader by the whole
    spread of the values seen in this decision and one in which it loses by as much: a small,
    steady gap counts only after many worlds, a blunder (the card that takes the K♥ in every
    world) at the first look."""

    def __init__(self, actions: Sequence[Action], offsets: Sequence[float], racing: bool = True) -> None:
        self.actions = list(actions)
        self.offsets = list(offsets)
        self.racing = racing
        self.alive = list(range(len(self.actions)))
        self.values: list[list[float]] = [[] for _ in self.actions]
        self.weights: list[float] | None = None
        """The weight of each world, in the order they came (:meth:`weigh`); ``None``: equal."""
        self.low = math.inf
        self.high = -math.inf

    def add(self, values: Sequence[float]) -> None:
        """One world's values, one for each candidate in :attr:`alive`, in that order."""
        for i, v in zip(self.alive, values, strict=True):
            self.values[i].append(v)
        self.low = min(self.low, *values)
        self.high = max(self.high, *values)
        n = len(self.values[self.alive[0]])  # every candidate still in has seen every world
        if self.racing and n >= RACE_MIN and n % RACE_EVERY == 0 and len(self.alive) > 1:
            self._drop(n)

    def weigh(self, weights: Sequence[float]) -> None:
        """Weigh the worlds seen (one weight each, in the order they came) in every mean from
        now on; the race itself, while it runs, counts every world alike."""
        self.weights = list(weights)

    def mean(self, i: int) -> float:
        """Candidate ``i``'s mean value over the worlds it saw (weighted once :meth:`weigh` has
        been called), with its contract's offset."""
        values = self.values[i]
        if self.weights is not None:
            weights = self.weights[:len(values)]
            total = sum(weights)
            if total > 0.0:
                return sum(w * v for w, v in zip(weights, values, strict=True)) / total + self.offsets[i]
        return sum(values) / len(values) + self.offsets[i]

    def _drop(self, n: int) -> None:
        lead = max(self.alive, key=lambda i: (self.mean(i), -i))
        spread = self.high - self.low
        keep = []
        for i in self.alive:
            if i == lead:
                keep.append(i)
                continue
            diffs = [a - b for a, b in zip(self.values[i], self.values[lead], strict=True)]
            if n >= RACE_TIES and not any(diffs) and self.offsets[i] == self.offsets[lead]:
                continue  # the same value as the leader's in every world: its equal
            diffs += [spread, -spread]  # the two imagined worlds
            m = len(diffs)
            raw = sum(diffs) / m
            var = sum((x - raw) ** 2 for x in diffs) / (m - 1)
            if raw + self.offsets[i] - self.offsets[lead] + RACE_Z * math.sqrt(var / m) < 0.0:
                continue
            keep.append(i)
        self.alive = keep

    def best(self) -> Action:
        """The candidate still in with the best mean (the first listed on equal means)."""
        if not self.values[self.alive[0]]:
            return self.actions[self.alive[0]]
        return self.actions[max(self.alive, key=lambda i: (self.mean(i), -i))]


class SearchTrexBot(PimcTrexBot):
    """PIMC over worlds dealt uniformly from the view, the strong policy as rollout policy and
    exact endgames (memory and seating as the rule-based bots'). ``Budget()`` or no budget
    means ``seconds`` of thinking (``iterations``, if given, instead)."""

    name = "search"

    def __init__(self, iterations: int | None = None, game: Any = None, seconds: float = DEFAULT_SECONDS,
                 endgame: int = ENDGAME_TRICKS) -> None:
        super().__init__(None, iterations, game, seconds, endgame)


__all__ = ["SPREAD", "PimcTrexBot", "Policy", "SearchTrexBot", "equivalent", "interchangeable", "rollout_seats",
           "rollout_with", "stakes"]
