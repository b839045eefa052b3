"""Spit bots move within human limits: detection, Hick's-law choice and Fitts' movement (SP-10).

Seeded draws of each level's timing model, checked against the published figures the levels
are built on (docs/bots.md, "Spit: human timing") and against each other (the ladder)."""

from __future__ import annotations

import math
import random
import statistics

from cardtable.bots.spit import LEVEL_ORDER, LEVELS, MIN_REACTION, SpitBot
from tests.spit.util import piles, position


def simple_position():
    return position(piles("4H"), piles("6D"), "2C", "2D", s0="5S", s1="KS")


def move_times(level: str, n: int = 1500, seed: int = 0) -> list[float]:
    st = simple_position()
    rng = random.Random(seed)
    return [SpitBot(level).react(st.view(0), 0.0, rng)[1] for _ in range(n)]


def slap_times(level: str, n: int = 1500, seed: int = 0) -> list[float]:
    st = position(piles("4H"), piles("6D", "KD"), "2C", "2D", s0="5S", s1="9D TS")
    st.play("0 play 1 4H S0")
    rng = random.Random(seed)
    return [SpitBot(level).react(st.view(1), 0.0, rng)[1] for _ in range(n)]


def quantile(xs: list[float], q: float) -> float:
    return sorted(xs)[int(q * (len(xs) - 1))]


def test_sp10_detection_of_the_top_level_is_woods_simple_reaction_time():
    rng = random.Random(1)
    draws = [LEVELS["expert"].detection(rng) for _ in range(4000)]
    assert 0.22 < statistics.median(draws) < 0.24  # Woods et al. 2015: about 230 ms
    assert min(draws) >= MIN_REACTION == 0.15


def test_sp10_choice_time_follows_hicks_law():
    for name in ("beginner", "expert"):
        lv = LEVELS[name]
        rng = random.Random(2)
        xs, ys = [], []
        for n in (1, 2, 4, 8, 10):
            for _ in range(400):
                xs.append(math.log2(n + 1))
                ys.append(lv.choice(n, rng))
        mx, my = statistics.fmean(xs), statistics.fmean(ys)
        slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum((x - mx) ** 2 for x in xs)
        assert abs(slope - lv.hick) < 0.05 * lv.hick  # seconds a bit, as the level says


def test_sp10_top_level_is_fast_but_human():
    moves = move_times("expert")
    slaps = slap_times("expert")
    # detection + choice + movement: no move under 0.4 s, a median a practised player reaches
    assert quantile(moves, 0.0) > 0.4 and 0.55 < statistics.median(moves) < 0.8
    assert quantile(moves, 0.05) > 0.45  # nobody practised moves that fast one time in twenty
    assert quantile(slaps, 0.0) > 0.3 and statistics.median(slaps) > 0.45  # none under 0.2 s


def test_sp10_levels_strictly_ordered_in_every_timing():
    medians = [statistics.median(move_times(n)) for n in LEVEL_ORDER]
    slaps = [statistics.median(slap_times(n)) for n in LEVEL_ORDER]
    assert medians == sorted(medians, reverse=True) and len(set(medians)) == len(medians)
    assert slaps == sorted(slaps, reverse=True) and len(set(slaps)) == len(slaps)
    for field in ("detect", "hick", "move_base", "move_slope", "homing", "miss_rate"):
        values = [getattr(LEVELS[n], field) for n in LEVEL_ORDER]
        assert values == sorted(values, reverse=True) and len(set(values)) == len(values), field


def test_sp10_the_timing_is_reproducible_from_the_seed():
    assert move_times("hard", 50, seed=9) == move_times("hard", 50, seed=9)
    assert move_times("hard", 50, seed=9) != move_times("hard", 50, seed=10)
