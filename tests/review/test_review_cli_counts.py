"""``cardtable review``: --top is at least 1, "none cost a point" only when true, numbers agree
with their nouns in every language, and --help names every language."""

from __future__ import annotations

from functools import cache

import pytest

import cardtable
from cardtable.bots import make_bot
from cardtable.cli.main import main
from cardtable.host.match import play_out
from cardtable.i18n import LANGUAGES
from cardtable.records.record import Record, record_of
from cardtable.review import Review, review
from cardtable.review.text import review_lines


@cache
def trash_record() -> Record:
    game = cardtable.load("trash", max_hands=3)
    return record_of(play_out(game, [make_bot("trash", "random"), make_bot("trash", "hard")], seed=11))


@cache
def one_world() -> Review:
    rev = review(trash_record(), 0, worlds=1, hindsight=False)
    assert rev.costliest(1), "the random seat's moves cost something"
    return rev


@pytest.mark.parametrize("top", ["0", "-1"])
def test_review_cli_refuses_top_below_1(top, tmp_path, capsys):
    path = tmp_path / "g.json"
    trash_record().save(path)
    assert main(["review", str(path), "--worlds", "1", f"--top={top}"]) == 2
    assert capsys.readouterr().err == "cardtable: --top must be at least 1\n"


def test_review_lines_listing_none_do_not_say_no_decision_cost_a_point():
    lines = review_lines(one_world(), "en", costliest=0)
    assert lines[1:] == ["The costliest decisions:"]  # listed: none (Trash has no contract choices)
    assert review_lines(one_world(), "en", costliest=1)[1:2] == ["The costliest decisions:"]


@pytest.mark.parametrize("lang, one, wrong", [
    ("en", "1 world per decision", "1 worlds"),
    ("es", "1 mundo por decisión", "1 mundos"),
    ("pt", "1 mundo por decisão", "1 mundos"),
    ("ar", "احتمال واحد لكل قرار", "1 احتمال"),
])
def test_review_title_says_one_world_in_the_singular(lang, one, wrong):
    title = review_lines(one_world(), lang)[0]
    assert one in title and wrong not in title
    assert "review." not in title


def test_review_title_counts_decisions_and_worlds_in_the_plural():
    rev = review(trash_record(), 0, worlds=2, hindsight=False)
    title = review_lines(rev, "en")[0]
    assert f": {len(rev.decisions)} decisions with a choice;" in title and "(2 worlds per decision" in title
    assert "(2 mundos por decisión" in review_lines(rev, "es")[0]


def test_review_help_names_every_language(capsys):
    with pytest.raises(SystemExit):
        main(["review", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    lang_help = help_text.split("--lang LANG", 2)[-1]
    assert all(f" {lang}" in lang_help.split("(default")[0] for lang in LANGUAGES)


def test_review_says_when_the_records_own_result_is_not_what_its_moves_give(tmp_path, capsys):
    import json

    path = tmp_path / "g.json"
    trash_record().save(path)
    argv = ["review", str(path), "--worlds", "1", "--no-hindsight"]
    assert main(argv) == 0
    assert "Note:" not in capsys.readouterr().out  # the record's result is the one its moves give
    data = json.loads(path.read_text())
    winner = data["result"]["winners"][0]
    data["result"] = {"returns": [float(s != winner) for s in range(2)], "winners": [1 - winner], "reason": "forged"}
    path.write_text(json.dumps(data))
    assert main(argv) == 0
    out = capsys.readouterr().out.rstrip().splitlines()
    assert out[-1] == ("Note: the record's own result is not what its moves give: "
                       f"{'you win' if winner == 1 else 'seat 1 wins'} (forged); returns: "
                       f"{'1, 0' if winner == 1 else '0, 1'}")
    assert main(["replay", str(path), "--no-color", "--seat", "0"]) == 0
    assert capsys.readouterr().out.rstrip().splitlines()[-1] == out[-1]  # the note replay prints
    assert main([*argv, "--json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["seat"] == 0 and captured.err == out[-1] + "\n"  # stdout stays JSON


@pytest.mark.parametrize("command", ["review", "replay"])
@pytest.mark.parametrize("lang", ["xx", ""])
def test_review_and_replay_refuse_an_unknown_language_alike(command, lang, tmp_path, capsys):
    path = tmp_path / "g.json"
    trash_record().save(path)
    assert main([command, str(path), "--lang", lang]) == 2
    err = capsys.readouterr().err
    assert err == f"cardtable: --lang {lang!r}: languages are {', '.join(LANGUAGES)}\n"
