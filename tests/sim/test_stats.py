"""Confidence intervals on known cases: closed forms (0 of n: upper bound
z²/(n + z²)), R's ``prop.test(x, n, correct = FALSE)`` and ``t.test``."""

import math

import pytest

from cardtable.sim.stats import mean_ci, proportion, t975, wilson


@pytest.mark.parametrize(
    ("k", "n", "low", "high"),
    [
        (50, 100, 0.403832, 0.596168),
        (0, 10, 0.0, 0.277533),  # z² / (10 + z²)
        (10, 10, 0.722467, 1.0),  # 10 / (10 + z²)
        (1, 3, 0.061492, 0.792340),
        (520, 1000, 0.489018, 0.550829),
    ],
)
def test_wilson_known_cases(k, n, low, high):
    lo, hi = wilson(k, n)
    assert lo == pytest.approx(low, abs=1e-6)
    assert hi == pytest.approx(high, abs=1e-6)


def test_proportion_contains_its_mean_and_narrows_with_n():
    small, large = proportion(30, 100), proportion(3000, 10000)
    assert small.low < 0.3 < small.high
    assert large.high - large.low < small.high - small.low


def test_mean_ci_known_case():
    est = mean_ci([1, 2, 3, 4, 5])  # sd = sqrt(2.5), t(4) = 2.7764
    half = 2.776445 * math.sqrt(2.5) / math.sqrt(5)
    assert est.mean == 3
    assert est.low == pytest.approx(3 - half, abs=1e-4)
    assert est.high == pytest.approx(3 + half, abs=1e-4)


def test_mean_ci_large_sample_uses_normal_limit():
    values = [0, 1] * 5000  # mean 0.5, sd ~0.5
    est = mean_ci(values)
    assert est.half_width == pytest.approx(1.96 * 0.5000250 / 100, rel=1e-3)


def test_t_quantiles():
    assert t975(1) == pytest.approx(12.7062, abs=1e-4)
    assert t975(30) == pytest.approx(2.0423, abs=1e-4)
    assert t975(60) == pytest.approx(2.0003, abs=1e-3)
    assert t975(120) == pytest.approx(1.9799, abs=1e-3)


def test_degenerate_samples():
    assert mean_ci([]).n == 0
    assert math.isinf(mean_ci([4]).high)
    assert wilson(0, 0) == (0.0, 1.0)
