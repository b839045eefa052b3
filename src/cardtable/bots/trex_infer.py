"""Policy-based inference for the Trex search: worlds weighted by how well they explain the play.

``search`` deals its worlds uniformly among those consistent with what the seat knows (its
hand, the cards played, the voids shown). But the other seats did not play at random: a seat
that ducked with the 5♥ under the 9♥ probably holds no 8♥, one that discarded a small club
when void probably holds no K♥ (it would have unloaded it). :class:`PlayLog` keeps, from the
seat's own views only, every card played in the current trick deal and the state of the deal
when the seat first saw it; :meth:`PlayLog.likelihood` replays the deal in a world and scores
each other seat's plays under an opponent policy (the strong policy of ``hard``, the same
policy the rollouts play):

    P(play | world) = 1 - eps[seat]                 if the policy would have played it,
                      eps[seat] / (choices - 1)     otherwise,

with ``eps[seat]`` the rate at which that seat's plays differ from the policy's (a play with
one legal card says nothing). A searcher plays no policy's card much more than half the time, so
it is read by a learned model of how a searcher chooses (:mod:`cardtable.bots.trex_learned`),
which gives each legal card a chance instead:

    P(play | world) = (1 - mix[seat]) * chance(play) + mix[seat] / choices,

with ``mix[seat]`` :data:`FLOOR` for a seat whose plays the model predicts as well as it predicts
a searcher's, more for one it predicts worse.

The opponent model adapts to the table: at the end of every trick deal whose hands the seat can
work out from what it saw (every card played, the few unseen last ones placed by the voids),
:meth:`PlayLog.learn` replays it with the true hands and counts, per seat, how often each opponent
model (:data:`MODELS`: the strong policy, the card-sense policy of ``expert-rules``, the learned
model, whose likeliest card counts as its pick) agreed. Each seat is read by the model that has
predicted it best (the first of :data:`READING`, the learned model, until another is clearly
better), and ``eps`` is that model's miss rate, smoothed towards a prior. A seat that plays like
a policy is read closely by it, one that plays at random barely at all; the rollouts play each
other seat by its model's rollout policy. A seat read by the learned model (a searcher, whose
card no policy names much more than half the time) is played in each world's rollouts by a
mixture instead (:data:`MIXTURE`): the strong policy or the card sense by a coin of the world,
and a random legal card :data:`MIXTURE_NOISE` of the time, the same draws for every candidate.

:class:`InferTrexBot` (the ``expert`` level) is the PIMC search of
:class:`~cardtable.bots.trex_pimc.PimcTrexBot` whose worlds, dealt uniformly, are weighed by
how well they explain the play. Keeping one world of ``candidates`` dealt uniformly, in
proportion to its likelihood (sampling-importance-resampling), would keep a world of likelihood
``w`` with the chance ``w / (w + S)``, ``S`` the likelihood of the ``candidates - 1`` worlds it
competes with. The search gives every world it deals that chance as its weight, averaged over
rivals drawn from the worlds of the decision (:meth:`InferTrexBot.weigh`): the same tilt towards
the likely worlds, for one deal and one replay a world instead of ``candidates`` of each. The
Trex layout contract, the bidding phases and a deal whose views the seat missed use uniform
worlds. Nothing here reads a State the seat was not given: the log is built from views,
the worlds are the seat's own (``tests/bots/test_trex_infer.py``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from ..core.errors import ConfigError
from ..games.trex.actions import A_PLAY
from ..games.trex.view import TrexView
from .base import register_bot
from .trex_expert import policy as card_sense_policy
from .trex_learned import LearnedModel
from .trex_pimc import PimcTrexBot, Policy, rollout_seats
from .trex_search import DEFAULT_SECONDS, rollout_deal
from .trex_strong import strong_policy
from .worlds import TrexDealer, TrexMemory

PRIOR_EPS = 0.3
"""The prior rate at which a seat's play differs from the opponent policy's."""
PRIOR_WEIGHT = 12.0
"""How many observed decisions the prior counts for."""
EPS_RANGE = (0.05, 0.9)
LEARN_UNSEEN = 8
"""Learn from a finished deal only when at most this many of its cards went unseen."""
CANDIDATES = 4
"""How strongly the worlds are tilted towards those that explain the play: as much as keeping
one world of this many dealt uniformly, in proportion to its likelihood, would."""
RIVALS = 64
"""Draws of the worlds a world would compete with, to work out its weight (:meth:`InferTrexBot.weigh`)."""
FLOOR = 0.1
"""The least share of even odds mixed into a learned model's chance of a play."""
LEARNED_AGREEMENT = 0.64
"""How often a searcher plays the learned model's likeliest card (``bench/trex_learned.py``:
64.4% of 2,219 held-out decisions of ``spar-search``)."""
SWITCH_MARGIN = 0.1
"""How much lower the prior agreement of every model but the first is: another model reads a
seat only once the seat's plays have shown it agrees with that model clearly more often."""


def _default_policy(st: Any, voids: list[set[int]]) -> Any:
    return strong_policy(st, voids)


def _card_sense(st: Any, voids: list[set[int]]) -> Any:
    return card_sense_policy(st, smart=True, voids=voids)


def _card_sense_rollout(st: Any) -> Any:
    return card_sense_policy(st, smart=True)


def noisy(policy: Policy, draws: random.Random, share: float | None = None) -> Policy:
    """``policy``, but a random legal card ``share`` of the time (:data:`MIXTURE_NOISE` when
    ``None``), drawn from ``draws``."""
    def play(st: Any) -> Any:
        if draws.random() < (MIXTURE_NOISE if share is None else share):
            return draws.choice(st.legal_actions())
        return policy(st)
    return play


MODELS: tuple[tuple[str, Any, Policy], ...] = (
    ("strong", _default_policy, strong_policy),
    ("card-sense", _card_sense, _card_sense_rollout),
    ("searcher", LearnedModel(), strong_policy),
)
"""The opponent models a seat can be read with, each ``(name, policy given the voids shown,
rollout policy)``: the strong policy of ``hard``, the card-sense policy of ``expert-rules`` and
the learned model of a searcher (:mod:`cardtable.bots.trex_learned`; :class:`InferTrexBot` plays
a seat it reads by it with :data:`MIXTURE` in the rollouts, the strong policy here standing in for
the mixture elsewhere). :class:`PlayLog` keeps, per seat, how often each predicted its plays."""
READING = (2, 0, 1)
"""The models ``expert`` reads the other seats with, by their place in :data:`MODELS`: the learned
model of a searcher first (the prior), then the two policies."""
SEARCHER = 2
"""The learned model's place in :data:`MODELS`."""
MIXTURE: tuple[Policy, Policy] = (strong_policy, _card_sense_rollout)
"""The policies a seat read by the learned model plays in the rollouts, one of them in each world by
a coin: no one policy predicts a searcher, and a search whose rollouts play one policy values its
cards as if the other seats were sure to play that policy's cards."""
MIXTURE_NOISE = 0.1
"""The share of its plays in which a seat of the mixture plays a random legal card instead."""


class PlayLog:
    """The plays of the current trick deal as one seat saw them, and what it learnt of the table.

    Feed it every view of the seat (:meth:`observe`, with the seat's
    :class:`~cardtable.bots.worlds.TrexMemory` already updated by the same view)."""

    def __init__(self, policy: Any = None, models: Sequence[int] | None = None) -> None:
        # one model (``policy``) when given, else the models of MODELS numbered ``models``
        # (every one when ``None``), the first the prior; ``numbers`` are their places in MODELS
        self.numbers: list[int] | None = None
        if policy is not None:
            self.models: list[Any] = [policy]
        else:
            self.numbers = list(range(len(MODELS))) if models is None else list(models)
            self.models = [MODELS[i][1] for i in self.numbers]
        self.key: tuple[int, bool, int] | None = None
        self.seat = -1
        # the deal as the seat first saw it in the trick phase: that view, what the seat's memory
        # held then and the rules, from which the dealer's base state (no hands in it) is rebuilt
        # when needed (a compiled state does not pickle; a bot of the server's pool must)
        self.start: tuple[TrexView, TrexMemory, Any] | None = None
        self._base: Any = None
        self.known: list[list[int]] = []  # the cards known in each hand then
        self.unknown: list[int] = []  # the cards then hidden from the seat
        self.sizes: list[int] = []  # the hand sizes then
        self.plays: list[tuple[int, int]] = []  # (seat, card) since then, in order
        # before each play, per seat, the suits it had shown void in (as the policy reads them:
        # 13 * suit), shared between plays while unchanged
        self.voids: list[list[set[int]]] = []
        self.cannot: list[set[int]] = [set(), set(), set(), set()]
        self.seen: set[int] = set()
        self.broken = False
        self.agree = [[0.0, 0.0, 0.0, 0.0] for _ in self.models]  # per model, per seat
        self.decisions = [0.0, 0.0, 0.0, 0.0]
        # per seat, the model that reads it, its chance (None for a policy) and its eps: worked out
        # from the counts above once and kept until :meth:`learn` changes them (every world reads them)
        self._reading: tuple[list[Any], list[Any], list[float]] | None = None

    # ----------------------------------------------------------------- reading
    def agreement(self, m: int, q: int) -> float:
        """How often model ``m`` predicts seat ``q``'s plays (smoothed towards its prior:
        ``1 - PRIOR_EPS`` for the first model, ``SWITCH_MARGIN`` less for the others)."""
        prior = 1.0 - PRIOR_EPS - (SWITCH_MARGIN if m else 0.0)
        return (self.agree[m][q] + prior * PRIOR_WEIGHT) / (self.decisions[q] + PRIOR_WEIGHT)

    def model(self, q: int) -> int:
        """The model that reads seat ``q``: the one that has predicted its plays best."""
        return max(range(len(self.models)), key=lambda m: (self.agreement(m, q), -m))

    def eps(self, q: int) -> float:
        """How often seat ``q``'s plays differ from its model's (smoothed). For a model that
        gives each card a chance, the share of even odds mixed into it instead: :data:`FLOOR`
        while its likeliest card is played as often as a searcher's (:data:`LEARNED_AGREEMENT`),
        up to even odds alone as that falls to nothing."""
        m = self.model(q)
        agree = self.agreement(m, q)
        if hasattr(self.models[m], "chance"):
            return FLOOR + (1.0 - FLOOR) * max(0.0, 1.0 - agree / LEARNED_AGREEMENT)
        return min(max(1.0 - agree, EPS_RANGE[0]), EPS_RANGE[1])

    def reading(self) -> tuple[list[Any], list[Any], list[float]]:
        """Per seat, the model that reads it, that model's ``chance`` (``None`` for a policy) and
        its :meth:`eps`."""
        if self._reading is None:
            read = [self.models[self.model(q)] for q in range(4)]
            self._reading = (read, [getattr(m, "chance", None) for m in read], [self.eps(q) for q in range(4)])
        return self._reading

    @property
    def active(self) -> bool:
        """Is there anything to read (a trick deal followed from a known point, plays since)?"""
        return self.start is not None and not self.broken and any(q != self.seat for q, _ in self.plays)

    @property
    def base(self) -> Any:
        """The dealer's base state at the start of the log (``None`` before it starts)."""
        if self._base is None and self.start is not None:
            view, memory, game = self.start
            self._base = TrexDealer(view, game, memory).base
        return self._base

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_base"] = None  # rebuilt from ``start`` after unpickling
        state["_reading"] = None  # worked out again from the counts
        return state

    def observe(self, view: TrexView, game: Any, memory: TrexMemory) -> None:
        key = (view.deal_number, view.tiebreak, len(view.redeal_shown))
        if key != self.key:
            if self.start is not None and not self.broken:
                self.learn()
            self.key = key
            self.start = None
            self._base = None
            self.plays = []
            self.broken = False
        if view.phase != "trick" or view.seat is None or self.broken:
            return
        if self.start is None:
            self._start(view, game, memory)
            return
        for trick in (view.last_trick, view.trick):
            led = trick[0][1].id // 13 if trick else -1
            for q, card in trick:
                if card.id in self.seen:
                    continue
                self.seen.add(card.id)
                self.voids.append(self.cannot)
                self.plays.append((q, card.id))
                if card.id // 13 != led and 13 * led not in self.cannot[q]:
                    self.cannot = [set(v) for v in self.cannot]
                    self.cannot[q].add(13 * led)
        if sum(self.sizes) - sum(view.hand_sizes) != len(self.plays):
            self.broken = True  # a trick went by unseen: no reading this deal

    def _start(self, view: TrexView, game: Any, memory: TrexMemory) -> None:
        try:
            dealer = TrexDealer(view, game, memory)
        except ConfigError:
            self.broken = True
            return
        if dealer.gone:  # cards played that the seat never saw: it cannot replay the deal
            self.broken = True
            return
        self.seat = view.seat if view.seat is not None else -1
        snapshot = TrexMemory()
        snapshot.key = memory.key
        snapshot.played = set(memory.played)
        snapshot.cannot = [set(c) for c in memory.cannot]
        self.start = (view, snapshot, game)
        self._base = dealer.base
        self.known = [list(h) for h in dealer.known]
        self.known[self.seat] = [c.id for c in view.hand]
        self.unknown = list(dealer.unknown)
        self.sizes = list(view.hand_sizes)
        self.seen = set(dealer.played) | {c.id for _, c in view.trick}
        self.cannot = [{13 * s for s in range(4) if 13 * s in memory.cannot[q]} for q in range(4)]
        self.voids = []
        self.plays = []

    # --------------------------------------------------------------- replaying
    def start_hands(self, world: Any) -> list[list[int]]:
        """Each hand as it was when the log starts, in ``world`` (its hands now plus the cards
        played since)."""
        hands = [world.hand(q) for q in range(4)]
        for q, c in self.plays:
            hands[q].append(c)
        return hands

    def _replay(self, hands: list[list[int]], count: tuple[list[float], list[list[float]]] | None) -> float:
        """The log-likelihood of the other seats' plays with these starting hands, each seat
        read by its model; with ``count`` (decisions per seat, agreements per model and seat),
        count instead how often every model predicted each seat's plays."""
        st = self.base.with_hands(hands, (), self.base.seed)
        owner = st.owner
        st.stop_at_deal_end = True
        me = self.seat
        ll = 0.0
        read, chances, eps = self.reading()
        for i, (q, c) in enumerate(self.plays):
            if st.to_move != q or owner[c] != q:
                return -math.inf  # the world cannot have produced this play
            legal = st.legal_actions()
            if A_PLAY[c] not in legal:
                return -math.inf  # a seat that did not follow suit held none of it (TX-22)
            if q != me:
                n = len(legal)
                if n > 1:
                    if count is None:
                        chance = chances[q]
                        e = eps[q]
                        if chance is not None:
                            ll += math.log((1.0 - e) * chance(st, self.voids[i], legal, c) + e / n)
                        else:
                            hit = read[q](st, self.voids[i]).arg == c
                            ll += math.log(1.0 - e) if hit else math.log(e / (n - 1))
                    else:
                        count[0][q] += 1.0
                        for m, model in enumerate(self.models):
                            count[1][m][q] += 1.0 if model(st, self.voids[i]).arg == c else 0.0
            st.apply(A_PLAY[c])
        return ll

    def likelihood(self, world: Any) -> float:
        """The log-likelihood of the plays seen, in ``world`` (a world of the seat's own)."""
        return self._replay(self.start_hands(world), None)

    # ---------------------------------------------------------------- learning
    def learn(self) -> None:
        """At the end of a deal: replay it with the hands the seat can work out (every card it
        saw played; the few it did not see, placed at random where the voids allow, averaged
        over up to four such placements) and count how often each other seat played the
        policy's card."""
        played = [[c for q, c in self.plays if q == p] for p in range(4)]
        partial = [sorted(set(self.known[p]) | set(played[p])) for p in range(4)]
        left = [self.sizes[p] - len(partial[p]) for p in range(4)]
        rest = [c for c in self.unknown if c not in self.seen and all(c not in h for h in partial)]
        if sum(left) != len(rest) or min(left) < 0 or len(rest) > LEARN_UNSEEN:
            return
        rng = random.Random(len(self.plays))
        placements: list[list[list[int]]] = []
        for _ in range(200):
            rng.shuffle(rest)
            hands = [list(h) for h in partial]
            pos = 0
            for p in range(4):
                hands[p] += rest[pos:pos + left[p]]
                pos += left[p]
            if all(13 * (c // 13) not in self.cannot[p] for p in range(4) for c in hands[p][len(partial[p]):]):
                placements.append(hands)
                if len(placements) == 4:
                    break
        if not placements:
            return
        decisions = [0.0, 0.0, 0.0, 0.0]
        agree = [[0.0, 0.0, 0.0, 0.0] for _ in self.models]
        for hands in placements:
            if self._replay(hands, (decisions, agree)) == -math.inf:
                return
        for p in range(4):
            self.decisions[p] += decisions[p] / len(placements)
            for m in range(len(self.models)):
                self.agree[m][p] += agree[m][p] / len(placements)
        self._reading = None


class InferTrexBot(PimcTrexBot):
    """PIMC over worlds weighed by how well they explain the other seats' plays (module
    docstring). ``candidates=1`` is plain ``search``."""

    name = "infer"

    def __init__(self, iterations: int | None = None, game: Any = None, seconds: float = DEFAULT_SECONDS,
                 candidates: int = CANDIDATES, policy: Policy | None = None,
                 models: Sequence[int] = READING) -> None:
        super().__init__(policy, iterations, game, seconds)
        self.candidates = candidates
        self.log = PlayLog(models=models)
        self.last_weights: list[float] = []
        self.rollout_policies: list[Policy] | None = None
        self.mixed: list[int] = []
        """The seats the rollouts play by :data:`MIXTURE` in this decision."""
        self.world_seed = 0
        """The seed of the current world's mixture draws (its coins and random cards)."""

    def __getstate__(self) -> dict[str, Any]:
        state = super().__getstate__()
        state["last_weights"] = []  # the last decision's weights stay behind, like its values
        return state

    def prepare(self, view: TrexView, dealer: TrexDealer) -> None:
        """In a trick deal, the rollouts play each other seat by the model that reads it (the
        seat itself by the strong policy; ``None`` while every model is the strong policy), a
        seat read by the learned model by :data:`MIXTURE` (:attr:`mixed`)."""
        self.rollout_policies = None
        self.mixed = []
        numbers = self.log.numbers
        if self.policy is not None or view.phase != "trick" or numbers is None:
            return
        models = [numbers[self.log.model(q)] for q in range(4)]
        self.mixed = [q for q in range(4) if q != view.seat and models[q] == SEARCHER]
        policies = [strong_policy if q == view.seat else MODELS[models[q]][2] for q in range(4)]
        if any(policy is not strong_policy for policy in policies):
            self.rollout_policies = policies

    def draw(self, view: TrexView, dealer: TrexDealer, rng: random.Random) -> Any:
        if self.mixed:
            self.world_seed = rng.getrandbits(32)
        return super().draw(view, dealer, rng)

    def rollout(self, st: Any, seat: int) -> float:
        if self.mixed:
            return rollout_seats(st, seat, self.mixture(), self.stakes)
        if self.rollout_policies is not None:
            return rollout_seats(st, seat, self.rollout_policies, self.stakes)
        return rollout_deal(st, seat, self.stakes) if self.policy is None else super().rollout(st, seat)

    def mixture(self) -> list[Policy]:
        """The rollout policies of the current world: each seat of :attr:`mixed` plays the policy
        of :data:`MIXTURE` its coin names, with a random legal card :data:`MIXTURE_NOISE` of the
        time. The draws come from the world's seed afresh for each candidate, so every candidate
        meets the same coins and, while the play runs alike, the same random cards."""
        draws = random.Random(self.world_seed)
        policies = list(self.rollout_policies or (strong_policy,) * 4)
        for q in self.mixed:
            policies[q] = noisy(MIXTURE[draws.random() < 0.5], draws)
        return policies

    def observe(self, view: Any) -> Any:
        forced = super().observe(view)
        assert isinstance(view, TrexView)
        self.log.observe(view, self.game, self.memory)
        return forced

    def score(self, world: Any) -> float:
        """The log-likelihood of the plays seen, in ``world`` (0 while there is nothing to read)."""
        if self.candidates <= 1 or not self.log.active:
            return 0.0
        return self.log.likelihood(world)

    def weigh(self, scores: list[float]) -> list[float] | None:
        """Each world's weight: the chance it would be kept if it and ``candidates - 1`` others
        drawn from this decision's worlds were dealt and one kept in proportion to its likelihood,
        ``w / (w + S)`` (``w`` its likelihood, ``S`` the others'), averaged over :data:`RIVALS`
        draws of the others. ``None`` (equal weights) when there is nothing to read or no world
        explains the play."""
        self.last_weights = []
        if self.candidates <= 1 or not self.log.active:
            return None
        top = max(scores)
        if top == -math.inf:
            self.log.broken = True  # the log and the dealer disagree: read nothing more this deal
            return None
        likelihoods = [math.exp(x - top) for x in scores]
        n = len(likelihoods)
        pick = random.Random(n)
        rivals: list[float] = []
        for _ in range(RIVALS):  # the summed likelihood of candidates - 1 worlds drawn at random
            r = 0.0
            for _ in range(self.candidates - 1):
                r += likelihoods[pick.randrange(n)]
            rivals.append(r)
        weights: list[float] = []
        for w in likelihoods:  # the sum of w / (w + S) over the rivals: RIVALS times the chance
            chance = 0.0
            for r in rivals:
                if w + r > 0.0:
                    chance += 1.0 / (w + r)
            weights.append(w * chance)
        self.last_weights = weights
        return weights


register_bot("trex", "infer", InferTrexBot,
             "PIMC whose worlds are weighted by how well they explain the other seats' plays")

__all__ = ["CANDIDATES", "MIXTURE", "InferTrexBot", "PlayLog", "noisy"]
