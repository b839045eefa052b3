"""Statistics for the arena: means with 95% intervals and Bradley–Terry ratings."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

Z95 = 1.959963984540054


def mean_ci(values: Sequence[float]) -> tuple[float, float, float]:
    """``(mean, low, high)``: the mean and its 95% normal-approximation interval.

    >>> [round(x, 3) for x in mean_ci([1.0, 0.0, 1.0, 0.0])]
    [0.5, -0.066, 1.066]
    """
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = sum(values) / n
    if n == 1:
        return (mean, math.nan, math.nan)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = Z95 * math.sqrt(var / n)
    return (mean, mean - half, mean + half)


def bradley_terry(
    names: Sequence[str], wins: Mapping[tuple[str, str], float], prior: float = 1.0, iterations: int = 500
) -> dict[str, float]:
    """Elo-scale ratings (mean 1500) fitted by the MM algorithm to pairwise results.

    ``wins[(a, b)]`` is how often ``a`` beat ``b`` (ties count half to each).
    ``prior`` adds that many virtual ties between every pair, so a bot that won
    everything still gets a finite rating.

    >>> r = bradley_terry(["a", "b"], {("a", "b"): 3.0, ("b", "a"): 1.0}, prior=0.0)
    >>> round(r["a"] - r["b"])
    191
    """
    strength = {n: 1.0 for n in names}
    pairs = [(a, b) for a in names for b in names if a != b]
    w = {p: wins.get(p, 0.0) + prior / 2 for p in pairs}
    for _ in range(iterations):
        new = {}
        for a in names:
            total = sum(w[(a, b)] for b in names if b != a)
            denom = sum((w[(a, b)] + w[(b, a)]) / (strength[a] + strength[b]) for b in names if b != a)
            new[a] = total / denom if denom > 0 else strength[a]
        geo = math.exp(sum(math.log(max(v, 1e-300)) for v in new.values()) / len(new))
        strength = {a: v / geo for a, v in new.items()}
    return {a: 1500 + 400 * math.log10(max(v, 1e-300)) for a, v in strength.items()}
