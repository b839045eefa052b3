"""cardtable.sim: simulations, statistics, reports.

``cardtable simulate`` plays seeded matches in parallel (local processes or
Ray) on the engines' unchecked fast path and stores them in resumable chunks;
``cardtable report`` turns the results into plots and an HTML page. Each game
plugs in with one metrics module (:mod:`cardtable.sim.metrics`).
"""

from .simulate import RunResult, simulate
from .spec import SimSpec, match_seeds
from .stats import Estimate, mean_ci, proportion, wilson

__all__ = ["Estimate", "RunResult", "SimSpec", "match_seeds", "mean_ci", "proportion", "simulate", "wilson"]
