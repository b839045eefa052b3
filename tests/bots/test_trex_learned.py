"""The learned model of how a searcher chooses its card: it reads only what the seat to move
knows (hidden information, H), gives every legal card a chance, and the reading scores a seat it
reads by that chance (TX-22: a world that cannot have produced a play still scores nothing)."""

from __future__ import annotations

import math
import random

import cardtable
from cardtable.bots.trex_infer import FLOOR, LEARNED_AGREEMENT, MODELS, PlayLog
from cardtable.bots.trex_learned import FEATURES, WEIGHTS, LearnedModel, features, probabilities
from cardtable.bots.trex_pimc import interchangeable
from cardtable.bots.trex_strong import strong_policy
from cardtable.bots.worlds import TrexDealer, TrexMemory
from cardtable.games.trex.actions import A_CONTRACT, A_PLAY, DI, KH, QN, TK
from cardtable.games.trex.state import Phase, TrexState

from .test_trex_infer import Watcher


def mid_deal(mask: int, seed: int, plays: int) -> tuple[TrexState, list[TrexMemory]]:
    """``plays`` random cards into a deal of ``mask``, and each seat's memory of its views."""
    game = cardtable.load("trex", redeal_requests=False, doubling=False)
    state = game.new_state(seed=seed)
    assert isinstance(state, TrexState)
    state.apply(A_CONTRACT[mask])
    memories = [TrexMemory() for _ in range(4)]
    rng = random.Random(seed)
    for _ in range(plays):
        if state.phase is not Phase.TRICK:
            break
        for q in range(4):
            memories[q].observe(state.view(q))
        state.apply(rng.choice(state.legal_actions()))
    for q in range(4):
        memories[q].observe(state.view(q))
    return state, memories


def test_every_weight_vector_has_one_weight_a_feature():
    assert len(WEIGHTS) == 4
    for row in WEIGHTS:
        assert len(row) == 3
        assert all(len(w) == len(FEATURES) for w in row)


def test_the_features_read_only_what_the_seat_to_move_knows_h():
    """Worlds dealt from the seat's view differ in every other hand: the features and chances of
    the seat's cards are the same in each (given the voids the seat saw shown)."""
    checked = 0
    for n, mask in enumerate((KH, QN, DI, TK)):
        for seed in range(6):
            state, memories = mid_deal(mask, 10 * n + seed, 9 + seed)
            if state.phase is not Phase.TRICK or len(state.legal_actions()) < 2:
                continue
            seat = state.to_move
            view = state.view(seat)
            memory = memories[seat]
            legal = state.legal_actions()
            voids = memory.cannot
            dealer = TrexDealer(view, state.game, memory)
            rng = random.Random(seed)
            truth = features(state, voids, legal)
            for _ in range(5):
                world = dealer.deal(rng)
                assert [world.hand(q) for q in range(4) if q != seat] != [state.hand(q) for q in range(4) if q != seat]
                assert features(world, voids, legal) == truth
                assert probabilities(world, voids, legal) == probabilities(state, voids, legal)
            chances = probabilities(state, voids, legal)
            assert abs(sum(chances) - 1.0) < 1e-9 and min(chances) > 0.0
            checked += 1
    assert checked >= 12


def test_a_seat_read_by_the_learned_model_scores_each_play_by_its_chance_mixed_with_even_odds():
    """The log-likelihood of a world, every other seat read by the learned model, is the sum over
    their plays with a choice of log((1 - FLOOR) * chance + FLOOR / choices)."""
    game = cardtable.load("trex", redeal_requests=False, doubling=False)
    state = game.new_state(seed=5)
    assert isinstance(state, TrexState)
    state.apply(A_CONTRACT[QN])
    w = Watcher(game, ["hard"] * 4)
    w.log = PlayLog(models=[2])
    for _ in range(400):
        if state.current_player() == 0 and len(w.log.plays) >= 14:
            break
        w.step(state)
    w.memory.observe(state.view(0))
    w.log.observe(state.view(0), game, w.memory)
    assert w.log.active and w.log.models == [MODELS[2][1]]
    # the log's plays, replayed from where the log starts with the true hands, scored by hand
    replay = w.log.base.with_hands(w.log.start_hands(state), (), w.log.base.seed)
    model = LearnedModel()
    expected = 0.0
    scored = 0
    for i, (q, c) in enumerate(w.log.plays):
        legal = replay.legal_actions()
        if q != 0 and len(legal) > 1:
            chance = model.chance(replay, w.log.voids[i], legal, c)
            mix = w.log.eps(q)
            assert mix == FLOOR  # the prior: the model predicts the seat as well as a searcher
            expected += math.log((1.0 - mix) * chance + mix / len(legal))
            scored += 1
        replay.apply(A_PLAY[c])
    assert scored >= 5
    assert math.isclose(w.log.likelihood(state.clone()), expected, rel_tol=1e-12)


def test_a_seat_the_learned_model_predicts_badly_is_read_with_more_even_odds_mixed_in():
    """Even odds take a share FLOOR of a learned reading while the model's likeliest card is played
    as often as a searcher's, more as that falls, and all of it at none: a seat that plays at random
    barely moves the weights."""
    log = PlayLog(models=[2])
    assert log.eps(1) == FLOOR
    log.decisions[1] = 1000.0
    log.agree[0][1] = 0.6 * LEARNED_AGREEMENT * 1000.0
    assert FLOOR < log.eps(1) < 0.6
    log.agree[0][1] = 0.0
    assert log.eps(1) > 0.98


def test_a_combined_contract_of_complex_mode_is_read_by_the_strong_policys_feature_alone_tx_v1():
    """The weights are fitted to the four trick contracts; in a Complex mode contract (TX-V1) the
    model names the strong policy's card, e² times as likely as any other card."""
    game = cardtable.load("trex", complex_mode=True, redeal_requests=False, doubling=False)
    state = game.new_state(seed=3)
    assert isinstance(state, TrexState)
    for _ in range(40):
        if state.phase is Phase.TRICK and len(state.legal_actions()) > 2:
            break
        state.apply(state.legal_actions()[0])
    assert state.phase is Phase.TRICK and state.contract not in (KH, QN, DI, TK)
    legal = state.legal_actions()
    voids: list[set[int]] = [set(), set(), set(), set()]
    chances = probabilities(state, voids, legal)
    strong = strong_policy(state, voids)
    for a, x in zip(legal, chances, strict=True):
        expected = math.exp(2.0) if a == strong else 1.0
        assert math.isclose(x * (math.exp(2.0) + len(legal) - 1), expected, rel_tol=1e-9)
    assert LearnedModel()(state, voids) == strong


def test_equal_before_marks_a_card_with_an_equal_card_of_the_seat_listed_before_it():
    """A searcher plays the first listed of its equal cards (the legal cards come in id order, and
    equal cards have equal values): the feature "equal-before" is 1 for a card exactly when the
    seat holds another card listed before it that the search counts as equal to it
    (:func:`~cardtable.bots.trex_pimc.interchangeable`: of one suit, scoring alike, neither doubled,
    nothing between them but the seat's own cards and cards gone)."""
    column = FEATURES.index("equal-before")
    marked = unmarked = doubled = 0
    game = cardtable.load("trex", redeal_requests=False)
    for n, mask in enumerate((KH, QN, DI, TK)):
        for seed in range(60):
            state = game.new_state(seed=100 * n + seed)
            assert isinstance(state, TrexState)
            state.apply(A_CONTRACT[mask])
            rng = random.Random(seed)
            for _ in range(4 + seed % 40):  # the doubling (at random), then random cards
                if state.phase not in (Phase.DOUBLE, Phase.TRICK):
                    break
                state.apply(rng.choice(state.legal_actions()))
            if state.phase is not Phase.TRICK or len(state.legal_actions()) < 2:
                continue
            doubled += any(d >= 0 for d in state.doubler)
            seat = state.to_move
            legal = state.legal_actions()
            assert [a.arg for a in legal] == sorted(a.arg for a in legal)
            hand = state.hand(seat)
            rows = features(state, [set(), set(), set(), set()], legal)
            for a, row in zip(legal, rows, strict=True):
                expected = any(b < a.arg and interchangeable(state, seat, b, a.arg) for b in hand)
                assert row[column] == (1.0 if expected else 0.0), (mask, seed, a)
                marked += expected
                unmarked += not expected
    assert marked >= 10 and unmarked >= 50 and doubled >= 5
