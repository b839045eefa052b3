"""Seeding an event's field by rating (docs/tournaments.md; id T11)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardtable.tournaments import pair_round, seeded, standings


def test_t11_rated_first_by_rating_then_unrated_registration_order_breaking_ties():
    """Hand-made: Eve (1900) leads; Ben and Dee share 1500 and keep their registration order;
    Ana and Cy have no rating (Cy's ``None`` is no rating either) and come last, in registration
    order."""
    entrants = ["Ana", "Ben", "Cy", "Dee", "Eve"]
    ratings = {"Ben": 1500.0, "Cy": None, "Dee": 1500.0, "Eve": 1900.0}
    assert seeded(entrants, ratings) == ["Eve", "Ben", "Dee", "Ana", "Cy"]
    assert seeded(entrants, {}) == entrants  # nobody rated: registration order
    assert seeded(["Ana", "Ben"], {"Ana": -3.5, "Ben": 0.0}) == ["Ben", "Ana"]  # a negative rating still counts


def test_t11_a_player_entered_twice_is_refused():
    with pytest.raises(ValueError, match="twice"):
        seeded(["Ana", "Ana"], {})


def test_t11_the_first_swiss_round_pairs_the_top_half_of_the_seeded_field_against_the_bottom_half():
    """The seeding is the Swiss standings' last tie-break: with no game played the field ranks in
    seeded order, and round 1 pairs the top half against the bottom half (1 v 3, 2 v 4)."""
    field = seeded(["Ana", "Ben", "Cy", "Dee"], {"Dee": 2000.0, "Cy": 1000.0})
    assert field == ["Dee", "Cy", "Ana", "Ben"]
    ranked = [s.player for s in standings(field, [])]
    assert ranked == field
    pairs = {frozenset(p) for p in pair_round(ranked, [], 1).games}
    assert pairs == {frozenset(("Dee", "Ana")), frozenset(("Cy", "Ben"))}


@given(st.lists(st.tuples(st.integers(0, 30), st.one_of(st.none(), st.integers(-5, 5).map(float))),
                unique_by=lambda x: x[0], max_size=20))
def test_t11_property_seeding_is_a_permutation_ordered_by_rating_then_registration(entries):
    names = [f"p{n}" for n, _ in entries]
    ratings = {f"p{n}": r for n, r in entries}
    out = seeded(names, ratings)
    assert sorted(out) == sorted(names)
    order = {p: i for i, p in enumerate(names)}
    for a, b in itertools.pairwise(out):
        ra, rb = ratings[a], ratings[b]
        if ra is None:
            assert rb is None and order[a] < order[b]  # unrated only after rated, in registration order
        elif rb is not None:
            assert ra > rb or (ra == rb and order[a] < order[b])
