"""The arena: bots play duplicate deals against each other, with statistics and ratings.

>>> from cardtable.arena import run_arena
>>> result = run_arena("trash", ["sensible", "stock"], deals=2, seed=1, options={"max_hands": 1})
>>> result.games, sorted(s.name for s in result.stats)
(4, ['sensible', 'stock'])
"""

from .run import ArenaResult, BotStats, GameResult, run_arena
from .stats import mean_ci, plackett_luce, rate_ci, wilson

__all__ = ["ArenaResult", "BotStats", "GameResult", "mean_ci", "plackett_luce", "rate_ci", "run_arena", "wilson"]
