"""Small statistics for simulation summaries: 95% confidence intervals.

Standard library only, so a summary needs neither numpy nor scipy.

>>> lo, hi = wilson(50, 100)
>>> round(lo, 4), round(hi, 4)
(0.4038, 0.5962)
>>> m = mean_ci([1, 2, 3, 4, 5])
>>> round(m.mean, 3), round(m.low, 3), round(m.high, 3)
(3.0, 1.037, 4.963)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

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


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion ``successes / n``.

    ``successes`` may be fractional (a shared win counts as a share).

    >>> wilson(0, 10)[0], round(wilson(0, 10)[1], 4)
    (0.0, 0.2775)
    """
    if n <= 0:
        return (0.0, 1.0)
    rate = successes / n
    denom = 1 + z * z / n
    centre = (rate + z * z / (2 * n)) / denom
    half = z * math.sqrt(rate * (1 - rate) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class Estimate:
    """A point estimate with its 95% confidence interval and sample size."""

    mean: float
    low: float
    high: float
    n: int

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    def text(self, digits: int = 3, percent: bool = False) -> str:
        """``0.512 [0.498, 0.526]`` (or in percent)."""
        k = 100.0 if percent else 1.0
        unit = "%" if percent else ""
        d = max(0, digits - 2) if percent else digits
        return f"{self.mean * k:.{d}f}{unit} [{self.low * k:.{d}f}, {self.high * k:.{d}f}]"

    def to_json(self) -> dict[str, float | int]:
        return {"mean": self.mean, "low": self.low, "high": self.high, "n": self.n}


def win_share(row: Mapping[str, Any], seat: int) -> float:
    """``seat``'s share of a match's win: 1, 1/k for a win shared by k seats, or 0.

    Uses the winners, not the returns (Trex returns are scores).

    >>> win_share({"winners": [0, 2]}, 2), win_share({"winners": [1]}, 0)
    (0.5, 0.0)
    """
    winners = row["winners"]
    return 1.0 / len(winners) if seat in winners else 0.0


def proportion(successes: float, n: int) -> Estimate:
    """A proportion with its Wilson 95% interval."""
    lo, hi = wilson(successes, n)
    return Estimate(successes / n if n else math.nan, lo, hi, n)


def mean_ci(values: Iterable[float]) -> Estimate:
    """The mean with its Student-t 95% interval."""
    xs = [float(v) for v in values]
    n = len(xs)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    m = math.fsum(xs) / n
    if n == 1:
        return Estimate(m, -math.inf, math.inf, 1)
    var = math.fsum((x - m) ** 2 for x in xs) / (n - 1)
    half = t975(n - 1) * math.sqrt(var / n)
    return Estimate(m, m - half, m + half, n)
