"""The inlined hot paths of the Trex engine (docs/trex.md, "Speed") answer as the per-phase
methods they shortcut: in a trick, ``legal_actions`` equals ``_lawful`` under every lead and
discard rule."""

from __future__ import annotations

import random

import pytest

import cardtable
from cardtable.games.trex import Phase

from ..walk import walk

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
        for _ in walk(st, random.Random(seed)):
            if st.phase is Phase.TRICK:
                assert list(st.legal_actions()) == st._lawful()
