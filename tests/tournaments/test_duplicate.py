"""Duplicate scoring by matchpoints and seating (docs/tournaments.md; ids T4, T5)."""

from __future__ import annotations

import pytest

from cardtable.tournaments import Board, duplicate_seating, matchpoints


def test_t4_matchpoints_of_a_hand_computed_duplicate_deal():
    """Three tables play one deal (round 0, shuffle 0). Hand 0 scored 30 at table x (Ana), 10 at
    y (Ben) and 10 at z (Cy); hand 1 scored −20 (Dee), −20 (Eve), −5 (Fay).

    Hand 0: Ana outscored both (2); Ben and Cy tie (½) and outscore nobody: ½ each.
    Hand 1: Fay outscored both (2); Dee and Eve ½ each. Every top is 2 (two other tables).
    So Ana 100 %, Ben 25 %, Fay 100 %, Dee 25 %."""
    d = (0, 0)
    boards = [Board(d, 0, "x", "Ana", 30), Board(d, 0, "y", "Ben", 10), Board(d, 0, "z", "Cy", 10),
              Board(d, 1, "x", "Dee", -20), Board(d, 1, "y", "Eve", -20), Board(d, 1, "z", "Fay", -5)]
    score = matchpoints(boards)
    assert score.matchpoints == {"Ana": 2.0, "Ben": 0.5, "Cy": 0.5, "Dee": 0.5, "Eve": 0.5, "Fay": 2.0}
    assert set(score.tops.values()) == {2.0}
    assert score.percentage("Ana") == 100.0 and score.percentage("Ben") == 25.0
    assert score.boards[(d, 0, "x")] == 2.0 and score.boards[(d, 1, "y")] == 0.5
    ranking = score.ranking(["Ana", "Ben", "Cy", "Dee", "Eve", "Fay"])
    assert ranking[:2] == [(1, "Ana", 100.0), (1, "Fay", 100.0)]
    assert ranking[2] == (3, "Ben", 25.0)


def test_t4_totals_over_two_deals_and_reversed_scores():
    """Two tables, two deals: Ana beats Ben on deal 1 and ties on deal 2: 1½ of 2 = 75 %. Under
    reversed scores (the lowest is best) the same numbers give Ana ½ of 2 = 25 %."""
    boards = [Board((0, 0), 2, "x", "Ana", 40), Board((0, 0), 2, "y", "Ben", 0),
              Board((0, 1), 3, "x", "Ana", 5), Board((0, 1), 3, "y", "Ben", 5)]
    assert matchpoints(boards).percentage("Ana") == 75.0
    assert matchpoints(boards).percentage("Ben") == 25.0
    assert matchpoints(boards, higher_better=False).percentage("Ana") == 25.0
    assert matchpoints([Board((0, 0), 0, "x", "Solo", 3)]).percentage("Solo") == 50.0  # nobody to compare with


def test_t4_a_hand_scored_twice_at_one_table_is_refused():
    with pytest.raises(ValueError, match="twice"):
        matchpoints([Board((0, 0), 0, "x", "A", 1), Board((0, 0), 0, "x", "B", 2)])


def _repeats(field: list[str], rounds: int) -> tuple[int, int]:
    """Pairs compared on the same cards again, and pairs at one table again, over ``rounds``."""
    import itertools

    compared: set[frozenset[str]] = set()
    met: set[frozenset[str]] = set()
    again = [0, 0]
    for r in range(rounds):
        tables = duplicate_seating(field, r)
        assert sorted(p for t in tables for p in t) == sorted(field)  # everyone once
        assert all(len(t) == 4 for t in tables)
        for seen, groups, k in ((compared, [[t[s] for t in tables] for s in range(4)], 0), (met, tables, 1)):
            for group in groups:
                for pair in map(frozenset, itertools.combinations(group, 2)):
                    again[k] += pair in seen
                    seen.add(pair)
    return again[0], again[1]


def test_t5_each_round_changes_who_is_compared_and_who_meets():
    """T5: the movement changes, as far as the field allows, who holds the same cards at other
    tables and who sits at one table. Eight players: nobody compared with the same player twice in
    four rounds. Twenty, five rounds: 52 pairs compared again and 33 met again, where turning each
    table's seats (the movement before) gave 76 and 120 (the same four at a table every round, and
    tables four apart comparing the same pairs every round). The seating is the same every time."""
    assert _repeats([f"p{i}" for i in range(8)], 4)[0] == 0
    field = [f"s{i:02}" for i in range(20)]
    compared, met = _repeats(field, 5)
    assert compared <= 52 and met <= 33, (compared, met)
    assert duplicate_seating(field, 3) == duplicate_seating(list(field), 3)
    assert duplicate_seating(field, 0)[0] == field[:4]  # the first round in the seeding's order
    with pytest.raises(ValueError, match="whole tables"):
        duplicate_seating(field[:6], 0)
