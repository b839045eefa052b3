"""The project's one home for 95% intervals: Wilson intervals for rates, Student's t for means.

Standard library only, so the arena, the simulations, the benchmarks and the examples share these
without numpy or scipy.

>>> [round(x, 4) for x in wilson(50, 100)]
[0.4038, 0.5962]
>>> [round(x, 3) for x in wilson(16, 16)]
[0.806, 1.0]
"""

from __future__ import annotations

import math
from collections.abc import Sequence

Z95 = 1.959963984540054
"""The 97.5% quantile of the standard normal distribution."""

# 97.5% quantiles of Student's t for 1..30 degrees of freedom; beyond 30 a
# correction of the normal quantile is accurate to better than 1e-3.
_T975 = (
    12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281,
    2.2010, 2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860,
    2.0796, 2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423,
)


def t975(df: int) -> float:
    """The 97.5% quantile of Student's t with ``df`` degrees of freedom.

    >>> round(t975(4), 4), round(t975(1000), 3)
    (2.7764, 1.962)
    """
    if df < 1:
        return math.inf
    if df <= len(_T975):
        return _T975[df - 1]
    z = Z95  # Cornish-Fisher expansion of t in powers of 1/df
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)


def wilson(successes: float, n: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of the rate ``successes / n``.

    ``successes`` may be fractional (a shared win counts as its share) and ``n`` an effective
    number of observations; the interval stays within [0, 1] and is never a point for a finite
    ``n``. No observations: ``(0, 1)``.

    >>> wilson(0, 10)[0], round(wilson(0, 10)[1], 4)
    (0.0, 0.2775)
    """
    if n <= 0:
        return (0.0, 1.0)
    rate = successes / n
    denom = 1 + z * z / n
    centre = (rate + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(rate * (1 - rate), 0.0) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """``(mean, low, high)``: the mean and its Student-t 95% interval (for scores; for rates use
    :func:`wilson`). No values: NaNs; one value: an unbounded interval.

    >>> [round(x, 3) for x in mean_interval([1, 2, 3, 4, 5])]
    [3.0, 1.037, 4.963]
    """
    xs = [float(v) for v in values]
    n = len(xs)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = math.fsum(xs) / n
    if n == 1:
        return (mean, -math.inf, math.inf)
    var = math.fsum((x - mean) ** 2 for x in xs) / (n - 1)
    half = t975(n - 1) * math.sqrt(var / n)
    return (mean, mean - half, mean + half)
