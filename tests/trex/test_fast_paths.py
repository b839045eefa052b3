"""The inlined hot paths of the Trex engine (docs/trex.md, "Speed") answer as the per-phase
methods they shortcut: in a trick, ``legal_actions`` equals ``_lawful`` under every lead and
discard rule."""

from __future__ import annotations

import random

import pytest

import cardtable
from cardtable.games.trex import Phase

RULES = [
    {},
    {"hearts_lead_rule": "free"},
    {"hearts_lead_rule": "only_if_no_choice"},
    {"forced_penalty_discard": True},
    {"preset": "complex"},
]


@pytest.mark.parametrize("opts", RULES)
def test_trick_legal_actions_equal_lawful(opts):
    game = cardtable.load("trex", **opts)
    for seed in range(3):
        st = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal():
            legal = st.legal_actions()
            if st.phase is Phase.TRICK:
                assert list(legal) == st._lawful()
            st.apply(legal[rng.randrange(len(legal))])
