"""Sparring partners: Trex players of other styles, written apart from the product levels.

They exist to measure the levels against play we did not tune them against: ``expert``'s
search models its opponents as the ``strong`` policy, and these players are not that
policy. Each reads only ``view.to_json()`` (the JSON a browser gets), keeps its own memory
of the cards played across its views, and answers with the text of a legal action. They
share no code with :mod:`cardtable.bots.trex_strong` or :mod:`cardtable.bots.trex_expert`.

* ``spar-counter``: a classic Trix card counter (``style="counter"``): contract order by hand
  shape, ducking and protecting, penalty cards unloaded first, the jack of its longest suit
  opened in Trex.
* ``spar-bold``: an aggressive player (``style="bold"``): doubles freely, never asks for a
  redeal, clears its high cards early (wins a trick it must take with its highest card,
  leads its high cards of suits without penalty cards), opens jacks at once in Trex.

Registered as bots of game ``trex`` (``make_bot("trex", "spar-counter")``), so the arena
and tests can seat them; they are not difficulty levels and no menu offers them.
"""

from .counter import SparringTrexBot
from .pro import ProTrexBot
from .search import SearchPartnerTrexBot

__all__ = ["ProTrexBot", "SearchPartnerTrexBot", "SparringTrexBot"]
