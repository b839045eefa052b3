"""The per-change caches behind Spit views and legal actions (docs/spit.md, "Speed"): what they
give equals what a state with empty caches computes, at every step, under every option."""

from __future__ import annotations

import random

import pytest

import cardtable

from ..walk import walk

OPTIONS = [
    {},
    {"auto_flip": False},
    {"allow_same_rank_stacking": True},
    {"allow_mutual_spit": False},
    {"scoring": "points"},
]


@pytest.mark.parametrize("opts", OPTIONS)
def test_cached_views_equal_views_built_from_scratch(opts):
    game = cardtable.load("spit", max_rounds=4, **opts)
    for seed in range(3):
        st = game.new_state(seed=seed)
        for _ in walk(st, random.Random(seed), checked=True):
            fresh = st.clone()  # a clone starts with empty caches
            for seat in (0, 1, None):
                view = st.view(seat)
                assert view is st.view(seat)  # one view per change and seat
                assert view == fresh.view(seat)
                if seat is not None:
                    assert list(view.legal_actions) == list(fresh.legal_actions(seat))
            assert st.view(0).events == st.view(1).events == fresh.view(None).events
