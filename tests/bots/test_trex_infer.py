"""Policy-based inference for the Trex search: the play log is built from the
seat's views only, a world that contradicts a play gets no weight, the worlds that explain the
play best weigh most, and the opponent model adapts to how each seat plays (TX-22, TX-24)."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator

import pytest

import cardtable
from cardtable.bots import Budget, make_bot
from cardtable.bots.base import adapt
from cardtable.bots.trex_infer import PRIOR_EPS, READING, InferTrexBot, PlayLog
from cardtable.bots.worlds import TrexDealer, TrexMemory
from cardtable.games.trex.actions import A_CONTRACT, QN, TK
from cardtable.games.trex.state import TrexState


class Watcher:
    """Seat 0's memory and play log, fed with seat 0's views only; every seat plays ``names[q]``."""

    def __init__(self, game: object, names: list[str]) -> None:
        self.game = game
        self.memory = TrexMemory()
        self.log = PlayLog()
        self.bots = [adapt(make_bot("trex", n)) for n in names]
        for b in self.bots:
            attach = getattr(b, "attach", None)
            if attach is not None:
                attach(game)
        self.rngs = [random.Random(q) for q in range(4)]

    def step(self, state: TrexState) -> None:
        q = state.current_player()
        view = state.view(q)
        if q == 0:
            self.memory.observe(view)
            self.log.observe(view, self.game, self.memory)
        state.apply(self.bots[q].act(view, self.rngs[q], Budget(iterations=4)))


def trick_deal(mask: int, names: list[str], seed: int) -> tuple[TrexState, Watcher]:
    game = cardtable.load("trex", redeal_requests=False, doubling=False)
    state = game.new_state(seed=seed)
    assert isinstance(state, TrexState)
    state.apply(A_CONTRACT[mask])
    return state, Watcher(game, names)


def play_until(state: TrexState, w: Watcher, plays: int) -> None:
    """Play until seat 0 is to move with at least ``plays`` cards in its log."""
    for _ in range(400):
        if state.current_player() == 0 and len(w.log.plays) >= plays:
            w.memory.observe(state.view(0))
            w.log.observe(state.view(0), w.game, w.memory)
            return
        w.step(state)
    raise AssertionError("the deal ended first")


def void_seat(w: Watcher) -> tuple[int, int] | None:
    """A seat other than 0 that showed out of a suit in the log, and the suit."""
    for q in (1, 2, 3):
        for s in range(4):
            if 13 * s in w.log.cannot[q]:
                return q, s
    return None


def test_a_world_dealing_a_seat_a_card_of_a_suit_it_showed_out_of_gets_zero_weight_tx22():
    for seed in range(40):
        state, w = trick_deal(TK, ["hard"] * 4, seed)
        try:
            play_until(state, w, 20)
        except AssertionError:
            continue
        found = void_seat(w)
        if found is None:
            continue
        q, s = found
        view = state.view(0)
        loose = TrexDealer(view, w.game, None)  # no memory: it may deal q a card of suit s
        rng = random.Random(seed)
        for _ in range(300):
            world = loose.deal(rng)
            if any(c // 13 == s for c in world.hand(q)):
                assert w.log.likelihood(world) == -math.inf
                break
        else:
            continue
        strict = TrexDealer(view, w.game, w.memory).deal(rng)  # what the search draws
        assert w.log.likelihood(strict) > -math.inf
        return
    raise AssertionError("no seed showed a void")


def test_the_true_hands_explain_the_play_of_policy_players_best():
    """Three ``hard`` seats play the very policy the log reads them with: the real deal scores
    at least as high as every world drawn uniformly, and higher than most."""
    state, w = trick_deal(QN, ["hard"] * 4, seed=3)
    play_until(state, w, 16)
    truth = w.log.likelihood(state.clone())
    dealer = TrexDealer(state.view(0), w.game, w.memory)
    rng = random.Random(1)
    others = [w.log.likelihood(dealer.deal(rng)) for _ in range(60)]
    assert all(x <= truth + 1e-9 for x in others)
    assert sum(1 for x in others if x < truth - 1e-9) > len(others) // 2


def test_weighing_every_world_tilts_them_as_keeping_one_of_four_by_its_likelihood_would():
    """The search weighs each world dealt by the chance it would be kept among ``candidates``
    in proportion to its likelihood. Who holds each hidden card, over the weighed worlds, is
    what sampling-importance-resampling gives (one world kept of four, by likelihood), and
    clearly not what uniform worlds give."""
    state, w = trick_deal(QN, ["hard"] * 4, seed=7)
    play_until(state, w, 24)
    dealer = TrexDealer(state.view(0), w.game, w.memory)
    bot = InferTrexBot(game=w.game)
    bot.log = w.log
    rng = random.Random(1)
    cells = [(c, q) for c in dealer.unknown for q in (1, 2, 3)]

    def held(world: TrexState) -> set[tuple[int, int]]:
        return {(c, q) for q in (1, 2, 3) for c in world.hand(q)}

    kept = dict.fromkeys(cells, 0.0)
    draws = 1000
    for _ in range(draws):
        four = [dealer.deal(rng) for _ in range(bot.candidates)]
        lls = [w.log.likelihood(x) for x in four]
        top = max(lls)
        x = rng.random() * sum(math.exp(ll - top) for ll in lls)
        chosen = four[-1]
        for ll, world in zip(lls, four, strict=True):
            x -= math.exp(ll - top)
            if x < 0:
                chosen = world
                break
        for cell in held(chosen):
            kept[cell] += 1.0 / draws
    worlds = [dealer.deal(rng) for _ in range(2000)]
    weights = bot.weigh([bot.score(x) for x in worlds])
    assert weights is not None
    weighed = dict.fromkeys(cells, 0.0)
    uniform = dict.fromkeys(cells, 0.0)
    total = sum(weights)
    for weight, world in zip(weights, worlds, strict=True):
        for cell in held(world):
            weighed[cell] += weight / total
            uniform[cell] += 1.0 / len(worlds)
    assert max(abs(kept[c] - weighed[c]) for c in cells) < 0.08
    assert max(abs(kept[c] - uniform[c]) for c in cells) > 0.16


def test_the_log_reads_views_only_and_keeps_no_state_of_the_game():
    state, w = trick_deal(TK, ["hard"] * 4, seed=5)
    play_until(state, w, 12)
    assert w.log.base is not state
    assert w.log.base.owner == [-1] * 52  # the log's own deal holds no hidden card
    assert [c for _, c in w.log.plays] == [a.arg for a in state.history[-len(w.log.plays):]]


def test_the_opponent_model_adapts_to_how_each_seat_plays():
    """After whole deals, ``hard`` seats (the policy itself) are read more closely than the prior,
    ``random`` seats far less."""
    game = cardtable.load("trex", redeal_requests=False)
    names = ["hard", "hard", "random", "random"]
    w = Watcher(game, names)
    state = game.new_state(seed=8)
    assert isinstance(state, TrexState)
    for _ in range(4000):
        if state.deal_index >= 6 or state.is_terminal():
            break
        w.step(state)
    assert w.log.decisions[1] > 10 and w.log.decisions[2] > 10
    assert w.log.eps(1) < PRIOR_EPS < w.log.eps(2)


def expert_moves(others: str, iterations: int) -> Iterator[tuple[InferTrexBot, TrexState, int]]:
    """An ``expert`` at seat 0 of a seeded game against three ``others``: after each legal move
    (at most 400), the bot, the state and the seat that moved."""
    game = cardtable.load("trex")
    bot = InferTrexBot(game=game)
    state = game.new_state(seed=2)
    assert isinstance(state, TrexState)
    opponents = [adapt(make_bot("trex", others)) for _ in range(3)]
    rng = random.Random(0)
    for _ in range(400):
        q = state.current_player()
        view = state.view(q)
        action = bot.act(view, rng, Budget(iterations=iterations)) if q == 0 else opponents[q - 1].act(view, rng)
        assert action in state.legal_actions()
        state.apply(action)
        yield bot, state, q


def test_infer_bot_draws_weighted_worlds_and_plays_legally():
    weighted = False
    for bot, state, q in expert_moves("spar-pro", 12):
        weighted = weighted or (q == 0 and bot.log.active and len(bot.last_weights) == bot.last_worlds > 1)
        if state.deal_index >= 2:
            break
    assert weighted


def test_the_reading_expert_pickles_mid_deal_for_the_bot_pool():
    """The server's bot pool pickles a bot with each decision: the log keeps the view it started
    from, not a State (a compiled state does not unpickle), and reads the same after the trip."""
    import pickle

    state, w = trick_deal(TK, ["hard"] * 4, seed=5)
    play_until(state, w, 12)
    world = TrexDealer(state.view(0), w.game, w.memory).deal(random.Random(3))
    before = w.log.likelihood(world)
    log = pickle.loads(pickle.dumps(w.log))
    assert log._base is None and log.plays == w.log.plays
    assert log.likelihood(world) == before


def test_the_expert_leaves_its_last_decisions_values_behind_when_pickled_for_the_bot_pool():
    """A pooled bot travels with each decision: its memory and reading go, the last decision's
    values and weights (one for each of hundreds of worlds) stay behind."""
    import pickle

    for bot, _, q in expert_moves("hard", 300):
        if q == 0 and bot.last_weights and bot.last_worlds > 50:
            break
    else:
        raise AssertionError("no weighed decision")
    trip = pickle.loads(pickle.dumps(bot))
    assert bot.last_race is not None and trip.last_race is None and trip.last_weights == []
    assert trip.log.plays == bot.log.plays and trip.memory.played == bot.memory.played


def test_each_seat_is_read_and_rolled_out_by_the_model_that_predicts_it_best():
    """The opponent model adapts to the table (issue item: expert reads its opponents): seats that
    play the card-sense policy of ``expert-rules`` are read, and played in the rollouts, by that
    policy; ``hard`` seats by the strong policy; the searching seat itself stays strong."""
    from cardtable.bots.trex_infer import MODELS
    from cardtable.games.trex.actions import KH

    game = cardtable.load("trex", redeal_requests=False)
    w = Watcher(game, ["hard", "expert-rules", "hard", "expert-rules"])
    w.log = PlayLog(models=READING)
    state = game.new_state(seed=8)
    assert isinstance(state, TrexState)
    for _ in range(6000):
        if state.deal_index >= 6 or state.is_terminal():
            break
        w.step(state)
    assert min(w.log.decisions[1:]) > 10
    # READING puts the learned model first: strong is the second model read, card-sense the third
    assert [w.log.model(q) for q in (1, 2, 3)] == [2, 1, 2]
    assert w.log.agreement(2, 1) > w.log.agreement(1, 1) and w.log.agreement(1, 2) > w.log.agreement(2, 2)

    trick, _ = trick_deal(KH, ["hard"] * 4, seed=3)
    while trick.current_player() != 0:
        trick.apply(trick.legal_actions()[0])
    bot = InferTrexBot(game=trick.game)
    bot.observe(trick.view(0))
    bot.log.agree, bot.log.decisions = w.log.agree, w.log.decisions
    bot.prepare(trick.view(0), TrexDealer(trick.view(0), trick.game, bot.memory))
    assert bot.rollout_policies == [MODELS[0][2], MODELS[1][2], MODELS[0][2], MODELS[1][2]]
    assert bot.mixed == []  # no seat is read by the learned model: no mixture
    rng = random.Random(0)
    assert bot.act(trick.view(0), rng, Budget(iterations=8)) in trick.legal_actions()


def test_seats_read_as_searchers_are_rolled_out_by_a_mixture_drawn_alike_for_every_candidate(
        monkeypatch: pytest.MonkeyPatch):
    """A seat read by the learned model (a searcher: no policy predicts it) plays in each world's
    rollouts the strong policy or the card sense by a coin of the world, and a random legal card
    MIXTURE_NOISE of the time (TX-24: every card legal). Every candidate of a world meets the same
    draws, so two rollouts of one position in one world play alike, and the seat's own plays stay
    the strong policy's."""
    from cardtable.bots import trex_infer
    from cardtable.bots.trex_infer import MIXTURE, SEARCHER
    from cardtable.bots.trex_strong import strong_policy
    from cardtable.games.trex.actions import KH

    trick, _ = trick_deal(KH, ["hard"] * 4, seed=3)
    while trick.current_player() != 0:
        trick.apply(trick.legal_actions()[0])
    bot = InferTrexBot(game=trick.game)
    bot.observe(trick.view(0))
    dealer = TrexDealer(trick.view(0), trick.game, bot.memory)
    bot.prepare(trick.view(0), dealer)
    assert [READING[bot.log.model(q)] for q in (1, 2, 3)] == [SEARCHER] * 3  # the prior: the learned model
    assert bot.mixed == [1, 2, 3]

    def plays(world: TrexState) -> list[int]:
        st = world.clone()
        policies = bot.mixture()
        out = []
        while not st.deal_ended and len(out) < 60:
            action = policies[st.to_move](st)
            assert action in st.legal_actions()
            if st.to_move == 0:
                assert action == strong_policy(st)
            out.append(action.arg)
            st.apply(action)
        return out

    rng = random.Random(5)
    coins: set[tuple[bool, ...]] = set()
    for _ in range(12):
        world = bot.draw(trick.view(0), dealer, rng)
        world.stop_at_deal_end = True
        assert plays(world) == plays(world)  # the same draws for every candidate of the world
        draws = random.Random(bot.world_seed)  # the world's coins, one per mixed seat, drawn first
        coins.add(tuple(draws.random() < 0.5 for _ in bot.mixed))
    assert len(coins) > 1  # the coins differ between worlds

    world = bot.draw(trick.view(0), dealer, rng)
    st = world.clone()
    for _ in range(60):  # a seat of the mixture to move with at least three legal cards
        if st.to_move in bot.mixed and len(st.legal_actions()) >= 3:
            break
        st.apply(strong_policy(st))
    else:
        raise AssertionError("no choice of three cards for a mixed seat")
    q = st.to_move
    named = {p(st) for p in MIXTURE}

    def cards(noise: float) -> set[object]:
        monkeypatch.setattr(trex_infer, "MIXTURE_NOISE", noise)
        out = set()
        for seed in range(40):
            bot.world_seed = seed
            out.add(bot.mixture()[q](st))
        return out

    assert cards(0.0) <= named
    random_cards = cards(1.0)
    assert random_cards <= set(st.legal_actions()) and len(random_cards - named) >= 1 and len(random_cards) >= 3
