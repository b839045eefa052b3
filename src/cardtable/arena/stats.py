"""Statistics for the arena: Wilson intervals for rates, means with 95% intervals, and
Plackett–Luce ratings of multiplayer tables (openskill, the ``arena`` extra)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..core.errors import ConfigError
from ..stats import Z95, mean_interval, wilson

__all__ = ["Z95", "mean_ci", "plackett_luce", "ranks_of", "rate_ci", "wilson"]

def rate_ci(units: Sequence[float], weight: float = 1.0) -> tuple[float, float, float]:
    """``(rate, low, high)`` of a rate measured as the mean of per-deal rates ``units``: the
    Wilson interval with the effective number of observations of that mean (Kish's design
    effect: ``rate (1 - rate) / variance of the mean``), kept between the number of deals
    and ``weight`` observations a deal (the seat-games behind each per-deal rate).

    >>> r, lo, hi = rate_ci([0.25, 0.5, 0.25, 0.0] * 25, weight=4)
    >>> round(r, 2), 0 < lo < r < hi < 1
    (0.25, True)
    """
    n = len(units)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    rate = sum(units) / n
    most = n * max(weight, 1.0)
    var = sum((u - rate) ** 2 for u in units) / (n - 1) if n > 1 else 0.0
    eff = most if var <= 0 else min(max(rate * (1 - rate) * n / var, n), most)
    lo, hi = wilson(rate * eff, eff)
    return (rate, lo, hi)


def mean_ci(values: Sequence[float]) -> tuple[float, float, float]:
    """``(mean, low, high)``: the mean and its 95% interval (:func:`cardtable.stats.mean_interval`);
    one value has no interval (NaNs: the table says "n/a").

    >>> [round(x, 3) for x in mean_ci([1.0, 0.0, 1.0, 0.0])]
    [0.5, -0.419, 1.419]
    """
    mean, low, high = mean_interval(values)
    return (mean, math.nan, math.nan) if len(values) == 1 else (mean, low, high)


def plackett_luce(
    names: Sequence[str], games: Sequence[tuple[Sequence[str], Sequence[int]]]
) -> dict[str, tuple[float, float]]:
    """``{name: (mu, sigma)}``: openskill's Plackett–Luce ratings fitted game by game.

    Each game is ``(bot per seat, rank per seat)``, rank 1 best, equal ranks for ties.
    A bot seated several times at one table (``expert`` against three ``strong``) is one
    rating: every seat is rated as a player of that rating and the bot's mean moves by
    the sum of its seats' changes, its sigma by the product of their shrinkages.

    >>> r = plackett_luce(["a", "b"], [(("a", "b"), (1, 2))] * 20)
    >>> r["a"][0] > 25 > r["b"][0]
    True
    """
    try:
        from openskill.models import PlackettLuce
    except ImportError as e:  # pragma: no cover - the arena extra is part of dev
        raise ConfigError("arena ratings need openskill: pip install 'cardtable[arena]'") from e
    model = PlackettLuce()
    state: dict[str, tuple[float, float]] = {n: (model.mu, model.sigma) for n in names}
    for seats, ranks in games:
        teams = [[model.rating(mu=state[b][0], sigma=state[b][1])] for b in seats]
        new = model.rate(teams, ranks=list(ranks))
        moved: dict[str, tuple[float, float]] = {}
        for b, team in zip(seats, new, strict=True):
            mu0, sigma0 = state[b]
            dmu, shrink = moved.get(b, (0.0, 1.0))
            moved[b] = (dmu + team[0].mu - mu0, shrink * team[0].sigma / sigma0)
        for b, (dmu, shrink) in moved.items():
            mu0, sigma0 = state[b]
            state[b] = (mu0 + dmu, max(sigma0 * shrink, 1e-3))
    return state


def ranks_of(keys: Sequence[tuple[int, float]]) -> list[int]:
    """Ranks (1 best) from per-seat sort keys, best highest; equal keys share a rank.

    >>> ranks_of([(1, 5.0), (0, 7.0), (0, 7.0), (0, -1.0)])
    [1, 2, 2, 4]
    """
    return [1 + sum(1 for other in keys if other > k) for k in keys]

