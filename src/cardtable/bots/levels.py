"""Difficulty levels: ``easy``, ``medium``, ``hard`` and ``expert`` for each game.

Each level is a documented bot configuration, registered with
``register_bot(game, level, factory)``; docs/bots.md has their measured
strength. Trash's levels are declared in :mod:`cardtable.bots.trash`.

Trex:

==========  ============================================================================
easy        the expert policy without card counting, and a random legal move 40% of the time
medium      ``rules``: the simple rule-based bot of bots/trex.py
hard        ``strong``: rule-based with card counting, void tracking and per-contract play
            (bots/trex_strong.py); the former ``hard`` is ``expert-rules`` (bots/trex_expert.py)
expert      ``infer``: PIMC with the strong policy as rollout policy and first opponent model,
            exact endgames, 0.25 s a decision, its worlds weighed by how well they explain the
            other seats' plays, each seat read (and played in the rollouts) by the opponent
            model that has predicted it best, more or less closely by how well it has, a
            seat read as a searcher played by a mixture of the two policies with random
            cards (bots/trex_infer.py); contract order, doubling and redeals by simulation
==========  ============================================================================
"""

from __future__ import annotations

from collections.abc import Callable

from .base import Bot, make_bot, register_bot
from .trex_expert import ExpertTrexBot, NoisyTrexBot
from .trex_infer import InferTrexBot
from .trex_pimc import SearchTrexBot
from .trex_strong import StrongTrexBot

TREX_LEVELS: dict[str, tuple[str, Callable[[], Bot]]] = {
    "easy": ("expert policy without counting, 40% random moves", lambda: NoisyTrexBot(noise=0.4)),
    "medium": ("the simple rule-based bot (rules)", lambda: make_bot("trex", "rules")),
    "hard": ("rule-based with card counting and per-contract play (strong)", StrongTrexBot),
    "expert": ("PIMC search over the strong policy with exact endgames and worlds read from the play, "
               "playing to win the game, 0.25 s a decision (infer)", InferTrexBot),
}

register_bot("trex", "expert-rules", ExpertTrexBot, "rule-based with card sense: ducking, unloading, counting, voids")
register_bot("trex", "strong", StrongTrexBot, "rule-based with card counting, void tracking and per-contract play")
register_bot("trex", "noisy", NoisyTrexBot, "the expert policy with 35% random moves")
register_bot("trex", "search", SearchTrexBot,
             "PIMC over sampled worlds, the strong policy as rollout, exact endgames, playing to win")
for _level, (_doc, _factory) in TREX_LEVELS.items():
    register_bot("trex", _level, _factory, _doc)
