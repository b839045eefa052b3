"""``spar-search``: a search partner whose opponent model is not ``expert``'s.

PIMC (:class:`~cardtable.bots.trex_pimc.PimcTrexBot`: worlds dealt uniformly from the view,
exact endgames, the same time budget as ``expert``) whose rollouts play the card-sense policy of
``expert-rules`` (:func:`cardtable.bots.trex_expert.policy`, with counting) at every seat, where
``expert`` finishes its worlds with the strong policy of ``hard``. It spends its budget as plain
PIMC does, every legal card on every world (``expert`` plays one card of each class of equal
cards, :func:`~cardtable.bots.trex_pimc.equivalent`), and values a deal by its own score
(``expert`` by its chance of winning the game, :func:`~cardtable.bots.trex_pimc.stakes`). Its
``merge``, ``racing`` and ``for_the_win`` stay off whatever ``expert``'s are.
"""

from __future__ import annotations

from typing import Any

from ..base import register_bot
from ..trex_expert import policy
from ..trex_pimc import PimcTrexBot
from ..trex_search import DEFAULT_SECONDS


def card_sense(st: Any) -> Any:
    """The ``expert-rules`` policy with counting, as a rollout policy."""
    return policy(st, smart=True)


class SearchPartnerTrexBot(PimcTrexBot):
    """PIMC with the ``expert-rules`` policy as rollout and opponent model."""

    name = "spar-search"
    merge = False
    racing = False
    for_the_win = False
    """The partner searches as it did when measured: every legal card on every world, for its
    own score."""

    def __init__(self, iterations: int | None = None, game: Any = None, seconds: float = DEFAULT_SECONDS) -> None:
        super().__init__(card_sense, iterations, game, seconds)


register_bot("trex", "spar-search", SearchPartnerTrexBot,
             "sparring partner (not a level): PIMC whose rollouts play the expert-rules policy")

__all__ = ["SearchPartnerTrexBot", "card_sense"]
