"""Small statistics for simulation summaries: estimates with 95% confidence intervals (the
intervals themselves are :mod:`cardtable.stats`'s).

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

from ..stats import Z95, mean_interval, t975, wilson

__all__ = ["Z95", "Estimate", "mean_ci", "proportion", "t975", "wilson", "win_share"]

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
    xs = list(values)
    mean, low, high = mean_interval(xs)
    return Estimate(mean, low, high, len(xs))
