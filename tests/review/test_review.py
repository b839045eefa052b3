"""Post-game review (docs/review.md): judged from the seat's views, costly moves found."""

from __future__ import annotations

import itertools
import json
import re
from functools import cache

import pytest

import cardtable
from cardtable.bots import make_bot
from cardtable.cli.main import main
from cardtable.core.errors import ConfigError
from cardtable.host.match import play_out
from cardtable.records.record import Record, record_of, replay_views
from cardtable.review import review, review_views
from cardtable.review.text import review_lines

from .positions import trash_discard_wins_the_hand, trex_king_of_hearts_falls


@cache
def trex_record(seed: int = 5) -> Record:
    """Seat 0 plays at random, the others with the rule-based bot: seat 0 makes mistakes."""
    bots = [make_bot("trex", "random")] + [make_bot("trex", "hard") for _ in range(3)]
    return record_of(play_out(cardtable.load("trex"), bots, seed=seed))


@cache
def trash_record() -> Record:
    game = cardtable.load("trash", max_hands=3)
    return record_of(play_out(game, [make_bot("trash", "random"), make_bot("trash", "hard")], seed=11))


def test_review_random_seat_loses_more_than_rule_based_seat_trex():
    rec = trex_record()
    random_seat = review(rec, 0, worlds=6, hindsight=False)
    hard_seat = review(rec, 1, worlds=6, hindsight=False)
    assert random_seat.decisions and hard_seat.decisions
    assert random_seat.total_loss > 1.5 * hard_seat.total_loss
    worst = random_seat.costliest(5)
    assert worst and all(a.loss >= b.loss for a, b in itertools.pairwise(worst))
    assert all(d.loss >= 1.0 for d in worst)


def test_review_is_judged_from_the_views_alone_and_is_reproducible():
    # §0.3: review_views reads nothing but what the seat saw; review() without hindsight is it.
    rec = trash_record()
    views = [v for _, v in replay_views(rec, 0)]
    game = rec.new_state().game
    from_views = review_views(game, views, rec.actions, worlds=8, seed=3)
    assert from_views == review(rec, 0, worlds=8, hindsight=False, seed=3)
    assert from_views == review_views(game, views, rec.actions, worlds=8, seed=3)
    assert all(not d.hindsight for d in from_views.decisions)


def test_review_every_decision_has_a_choice_and_values_of_every_legal_action():
    rec = trash_record()
    rev = review(rec, 0, worlds=4)
    assert rev.unit == "win chance" and rev.decisions
    for d in rev.decisions:
        assert len(d.values) >= 2 and d.played in d.values and d.best in d.values
        gap = d.values[d.best] - d.values[d.played]
        assert gap >= 0 and (d.loss == 0 or d.loss == pytest.approx(gap))  # counted only when clear
        assert set(d.hindsight) == set(d.values) and d.hindsight_loss >= 0
        assert d.kind in ("draw", "wild", "displace")


def test_review_trex_contract_choices_with_values_of_each_contract_left():
    rev = review(trex_record(), 1, worlds=4, hindsight=False)
    choices = rev.contract_choices()
    assert choices, "seat 1 holds a kingdom and chooses its contracts"
    first = choices[0]
    assert len(first.values) == 5 and all(a.startswith("contract ") for a in first.values)
    assert all(len(b.values) < len(a.values) for a, b in itertools.pairwise(choices))


def test_review_text_and_json_in_every_language():
    rev = review(trex_record(), 0, worlds=4)
    for lang in ("en", "es", "pt"):
        lines = review_lines(rev, lang)
        assert len(lines) >= 3 and not any("review." in line for line in lines)
    assert "King of Hearts" in "\n".join(review_lines(review(trex_record(), 1, worlds=4), "en"))
    data = json.loads(json.dumps(rev.to_json()))
    assert data["seat"] == 0 and len(data["decisions"]) == len(rev.decisions)


def test_review_bad_input_is_a_clear_error(tmp_path, capsys):
    with pytest.raises(ConfigError, match="not a seat"):
        review(trash_record(), 2)
    spit = cardtable.load("spit").new_state(seed=1)
    with pytest.raises(ConfigError, match="no review for spit"):
        review(record_of(spit), 0)
    path = tmp_path / "g.json"
    trash_record().save(path)
    assert main(["review", str(path), "--seat", "7"]) == 2
    assert "not a seat" in capsys.readouterr().err
    assert main(["review", str(tmp_path / "missing.json")]) == 2
    assert main(["review", str(path), "--seat", "0", "--worlds", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["game"] == "trash" and out["worlds"] == 2


# ------------------------------------------------ a move that ends a hand or deal
@pytest.mark.parametrize("options", [{}, {"max_hands": 1}], ids=["mid-match", "match-ending"])
def test_review_tr11_taking_the_discard_that_wins_the_hand_is_not_costly(options):
    """the move that completes the layout is judged by the hand it wins (a
    certain win), not by the next hand or the end of the match."""
    state = trash_discard_wins_the_hand(**options)
    state.play("discard")
    assert state.hands_won == [1, 0]
    rev = review(record_of(state), 0, worlds=16)
    (d,) = rev.decisions
    assert d.played == "discard" and d.best == "discard" and d.loss == 0
    assert d.values["discard"] == 1.0 and d.values["stock"] < 1.0
    assert d.hindsight["discard"] == 1.0 and d.hindsight_loss == 0
    assert not rev.costliest()


def test_review_tx25_the_card_that_ends_the_deal_is_judged_by_this_deal():
    """taking K♥ with A♠ ends the deal at −75 for seat 3; the review charges
    it to that deal (before, both cards were valued by the next deal and looked alike)."""
    state, deck = trex_king_of_hearts_falls()
    state.play("AS")
    rev = review(record_of(state, deck=deck), 3, worlds=4)
    d = rev.decisions[-1]
    assert d.played == "AS" and d.best == "5S"
    assert d.values == {"AS": -75.0, "5S": 0.0} and d.loss == 75.0
    assert d.hindsight == {"AS": -75.0, "5S": 0.0} and d.hindsight_loss == 75.0
    assert rev.costliest()[0] == d


def test_review_speaks_in_words_not_engine_codes():
    """Trash moves as the table says them, Trex cards as faces, contracts by name."""
    trash = "\n".join(review_lines(review(trash_record(), 0, worlds=4), "en"))
    assert re.search(r"played (decline: discard the card|draw from the stock|take the top discard|"
                     r"put the wild on slot \d+|displace the wild)", trash)
    assert not re.search(r"(played|best) (stock|discard|wild \d+|displace|decline)(;| \()", trash)
    trex = "\n".join(review_lines(review(trex_record(), 0, worlds=4), "en"))
    assert re.search(r"played (10|[2-9JQKA])[♠♥♦♣]", trex)
    assert not re.search(r"\b(played|best) ([2-9TJQKA][SHDC]|contract [A-Z]{2}|double [2-9TJQKA][SHDC])\b", trex)


def test_review_costs_are_said_as_costs_in_percentage_points_not_as_negative_chances():
    """A cost reads as what the move played cost, never as a negative number, and a
    Trash hand's win chance is counted in percentage points: the summary adds several decisions'
    costs, which can pass 100 (a "−175% chance to win the hand" said nothing)."""
    state, deck = trex_king_of_hearts_falls()
    state.play("AS")
    trex = review_lines(review(record_of(state, deck=deck), 3, worlds=4), "en")
    assert "the moves played cost 75.0 points in all" in trex[0]
    assert any("best 5♠ (the move played cost 75.0 points)" in line for line in trex)
    rev = review(trash_record(), 0, worlds=4)
    assert rev.total_loss > 0, "the random seat's moves cost something"
    trash = review_lines(rev, "en")
    assert f"cost {round(100 * rev.total_loss)} percentage points of win chance in all" in trash[0]
    for lang in ("en", "es", "pt", "ar"):
        text = "\n".join(review_lines(rev, lang))
        assert "%" not in text and not re.search(r"[-−]\d", text), text
