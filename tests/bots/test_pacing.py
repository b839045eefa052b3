"""A bot's released move time tells nothing about its cards (host/pacing.py)."""

from __future__ import annotations

import math
import random

import pytest

import cardtable
from cardtable.bots import make_bot
from cardtable.core.chance import derive
from cardtable.core.errors import ConfigError
from cardtable.host.clock import VirtualClock
from cardtable.host.match import Match
from cardtable.host.pacing import Pacing, pacing_for


class Thinker:
    """A bot that thinks 40 ms per legal move on the clock (a forced move is instant)."""

    def __init__(self, clock: VirtualClock) -> None:
        self.inner = make_bot("trex", "hard")
        self.clock = clock
        self.name = "thinker"

    def act(self, view, rng, budget=None):
        self.clock.advance(0.04 * (len(view.legal_actions) - 1))
        return self.inner.act(view, rng)


def reply_times(pacing: Pacing | None, moves: int = 600, seed: int = 4):
    """(number of legal moves, seconds from being asked to the move's release) per bot move."""
    clock = VirtualClock()
    game = cardtable.load("trex")
    bots = {s: Thinker(clock) for s in range(4)}
    match = Match(game, seed=seed, bots=bots, clock=clock, bot_seed=7, pacing=pacing)
    out = []
    for _ in range(moves):
        seat = match.to_move()
        n = len(match.view(seat).legal_actions)
        asked = clock.now()
        match.run_bot()
        out.append((seat, n, clock.now() - asked))
    return out


def ks(a: list[float], b: list[float]) -> float:
    """The two-sample Kolmogorov-Smirnov statistic."""
    xs = sorted(set(a + b))
    sa, sb = sorted(a), sorted(b)

    def cdf(s: list[float], x: float) -> float:
        lo, hi = 0, len(s)
        while lo < hi:
            mid = (lo + hi) // 2
            if s[mid] <= x:
                lo = mid + 1
            else:
                hi = mid
        return lo / len(s)

    return max(abs(cdf(sa, x) - cdf(sb, x)) for x in xs)


def test_without_pacing_the_reply_time_gives_a_single_legal_move_away():
    rows = reply_times(None)
    single = [t for _, n, t in rows if n == 1]
    many = [t for _, n, t in rows if n > 1]
    assert single and many and max(single) < min(many)  # a perfect classifier: the leak is real


def test_released_time_is_independent_of_the_number_of_legal_moves():
    pacing = Pacing(floor=0.9, spread=0.6)
    rows = reply_times(pacing)
    single = [t for _, n, t in rows if n == 1]
    many = [t for _, n, t in rows if n > 1]
    assert len(single) > 50 and len(many) > 50
    # the same distribution: a KS test at the 5% level cannot tell the two groups apart
    crit = 1.36 * math.sqrt((len(single) + len(many)) / (len(single) * len(many)))
    assert ks(single, many) < crit
    # and exactly the pacing's own draws, in order, per seat: a function of its seed alone
    streams = {s: derive(7, "pace", s) for s in range(4)}
    expected = [pacing.delay(streams[seat]) for seat, _, _ in rows]
    assert [t for _, _, t in rows] == pytest.approx(expected)
    assert pacing.late == 0


def test_a_move_that_thinks_past_its_delay_is_released_late_and_counted():
    pacing = Pacing(floor=0.01, spread=0.0)
    rng = random.Random(0)
    assert pacing.wait(asked=0.0, now=0.5, rng=rng) == 0.0 and pacing.late == 1


def test_pacing_rejects_negative_delays_and_covers_the_bot_budget():
    with pytest.raises(ConfigError):
        Pacing(floor=-1.0)
    assert pacing_for(0.25).floor >= 0.7 and pacing_for(None).floor == 0.5
