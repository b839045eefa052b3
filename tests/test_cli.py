"""The ``cardtable`` command: play to the end by typing, rules, replay, one-line errors."""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
from pathlib import Path

import pexpect
import pytest

import cardtable
from cardtable.bots import make_bot
from cardtable.cli.main import main
from cardtable.cli.textplay import play_text
from cardtable.host import Match

from .walk import walked


def answer(prompt: str) -> str:
    """What a patient human types at each Trash prompt."""
    if prompt.startswith("[s]tock or [d]iscard"):
        return "d"
    if prompt.startswith("Place"):
        return re.search(r"\((\d+)", prompt).group(1)
    if prompt.startswith("Displace"):
        return ""  # Enter: the preselected displace
    return ""  # Enter: draw from the stock


def test_tr_play_a_whole_match_by_typing_in_process():
    game = cardtable.load("trash")
    match = Match(game, seed=12, bots={1: make_bot("trash", "sensible")}, bot_seed=1)
    out: list[str] = []
    prompts: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        return answer(prompt)

    assert play_text(match, 0, color=False, ask=ask, say=out.append) == 0
    assert match.is_over and len(prompts) > 20
    text = "\n".join(out)
    assert "You win!" in text or "Seat 1 wins." in text
    assert "✗" not in text  # every typed answer was accepted


def test_bad_typing_gets_a_message_and_keeps_the_game():
    game = cardtable.load("trash")
    match = Match(game, seed=3, bots={1: make_bot("trash", "random")}, bot_seed=1)
    replies = iter(["wild 99", "xyzzy", "discard", "?", "q"])
    out: list[str] = []
    play_text(match, 0, color=False, ask=lambda p: next(replies), say=out.append)
    errors = [line for line in out if line.startswith("✗")]
    assert len(errors) == 3 and all("\n" not in e for e in errors)
    assert match.state.history == []  # nothing was lost or played


@pytest.mark.skipif(shutil.which("cardtable") is None and not Path(sys.executable).with_name("cardtable").exists(),
                    reason="the cardtable command is not installed")
def test_installed_command_in_a_pseudo_terminal_plays_to_the_end(tmp_path):
    exe = shutil.which("cardtable") or str(Path(sys.executable).with_name("cardtable"))
    save = tmp_path / "game.json"
    argv = ["play", "trash", "--plain", "--bots", "1", "--seed", "5", "--pace", "0", "--save", str(save)]
    child = pexpect.spawn(exe, argv, encoding="utf-8", timeout=20, env={**os.environ, "NO_COLOR": "1"},
                          dimensions=(50, 120))
    prompts = [r"\[s\]tock or \[d\]iscard[^\n]*\? ", r"Place [^\n]*\? ", r"Displace [^\n]*\] ",
               r"Press Enter to draw from the stock: ", r"(You win!|Seat \d wins\.)"]
    moves = 0
    while True:
        index = child.expect(prompts)
        if index == 4:
            break
        child.sendline(answer(child.after))
        moves += 1
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and moves > 20
    record = json.loads(save.read_text())
    assert record["game"] == "trash" and record["result"]["reason"] == "target_size"


def test_rules_lists_options_and_presets(capsys):
    assert main(["rules", "garbage", "--no-color"]) == 0
    out = capsys.readouterr().out
    for word in ("wild_mode", "loser_free_draws", "d2_kings", "TR-26", "sensible"):
        assert word in out


def test_rules_names_no_missing_file_and_shows_tuples_as_typed(capsys):
    """no "Rules:" line naming a file a user does not have; a tuple option reads as -o takes it."""
    assert main(["rules", "trex", "--no-color"]) == 0
    out = capsys.readouterr().out
    assert ".md" not in out.splitlines()[1]  # no file a user of the package does not have
    assert "(default (" not in out and "; )" not in out
    assert "trex_payouts = 200,150,100,50   (default 200,150,100,50; numbers separated by commas)" in out
    assert cardtable.load("trex", trex_payouts="200,150,100,50").options.trex_payouts == (200, 150, 100, 50)


def test_replay_shows_a_seat_view(tmp_path, capsys):
    state = cardtable.load("trash").new_state(seed=4)
    for _ in range(30):
        state.play(state.legal_actions()[0])
    from cardtable.records import record_of

    path = tmp_path / "r.json"
    record_of(state).save(path)
    assert main(["replay", str(path), "--seat", "1", "--no-color"]) == 0
    out = capsys.readouterr().out
    assert "as seat 1 saw it" in out and "you " in out


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "poker"],
        ["play", "trash", "-o", "wild_mode=queens"],
        ["play", "trash", "-o", "nonsense"],
        ["play", "trash", "--bots", "9"],
        ["play", "trash", "--bots", "2", "-o", "players=4"],
        ["play", "trash", "--seat", "5"],
        ["rules", "trash", "--preset", "nope"],
        ["replay", "/no/such/file.json"],
    ],
)
def test_bad_input_is_one_line_and_exit_2(argv, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("cardtable: ") and err.count("\n") == 1 and "Traceback" not in err


def test_bad_record_is_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    head = '{"format": "cardtable-record", "version": 1, "game": "trash", "seed": 1, "actions": []'
    for text in ("{not json", '{"format": "cardtable-record", "version": 99}', '{"format": "x"}',
                 '{"format": "cardtable-record", "version": 1, "game": "trash", "seed": 1, "actions": ["wild 3"]}',
                 # a malformed "result" is a clear refusal, not a traceback
                 *(head + f', "result": {r}}}' for r in ('"seat 1"', "5", '{"winners": 5}', '{"winners": ["x"]}',
                                                         '{"returns": [true]}', '{"reason": 3}', '{"won": [0]}'))):
        bad.write_text(text)
        assert main(["replay", str(bad)]) == 2
        err = capsys.readouterr().err
        assert err.startswith("cardtable: ") and err.count("\n") == 1


def test_plain_replay_ends_with_the_result_in_words(tmp_path, capsys):
    import random

    from cardtable.records import record_of

    state = walked(cardtable.load("trash").new_state(seed=1), random.Random(1))
    path = tmp_path / "done.json"
    record_of(state).save(path)
    assert main(["replay", str(path), "--seat", "1", "--no-color"]) == 0
    last = capsys.readouterr().out.rstrip().splitlines()[-1]
    assert last == "Result: you win (target size); returns: 0, 1"
    assert "{" not in last


def test_replay_shows_the_result_its_moves_give_not_the_one_the_file_claims(tmp_path, capsys):
    """A record's moves decide its result: an unfinished game is "not over" whatever its
    "result" says, and a claimed result that differs is pointed out beside the real one."""
    import json
    import random

    from cardtable.records import record_of

    state = walked(cardtable.load("trash").new_state(seed=1), random.Random(1))
    data = record_of(state).to_json()
    data["result"] = {"returns": [1, 0], "winners": [0], "reason": "target_size"}  # seat 1 won
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(data))
    assert main(["replay", str(forged), "--no-color"]) == 0
    lines = capsys.readouterr().out.rstrip().splitlines()
    assert lines[-2] == "Result: seat 1 wins (target size); returns: 0, 1"
    assert lines[-1].startswith("Note: the record's own result is not what its moves give: seat 0 wins")
    data["actions"] = []  # no move played, a winner claimed
    forged.write_text(json.dumps(data))
    assert main(["replay", str(forged), "--no-color"]) == 0
    lines = capsys.readouterr().out.rstrip().splitlines()
    assert lines[-2] == "The game is not over." and lines[-1].startswith("Note: the record's own result")


@pytest.mark.parametrize("bots", ["99", "0", "-1"])
def test_bots_out_of_range_names_the_bots_not_the_player_count(bots, capsys):
    assert main(["play", "trash", "--bots", bots, "--plain"]) == 2
    err = capsys.readouterr().err
    assert err == f"cardtable: --bots {bots}: Trash is played by 2 to 52 players, so --bots is 1 to 51\n"


def test_every_optional_module_maps_to_an_extra_of_pyproject():
    import tomllib

    from cardtable.cli.main import EXTRA_OF_MODULE

    extras = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]
    for module, extra in EXTRA_OF_MODULE.items():
        assert extra in extras, f"{module}: no extra {extra}"
        wanted = {"bidi": "python-bidi", "arabic_reshaper": "arabic-reshaper", "pyspiel": "open-spiel",
                  "stable_baselines3": "stable-baselines3", "sb3_contrib": "sb3-contrib",
                  "psycopg_pool": "psycopg-pool", "argon2": "argon2-cffi"}.get(module, module)
        assert any(re.match(rf"{re.escape(wanted)}\b", req) for req in extras[extra]), f"{module} not in [{extra}]"


def test_a_missing_extra_is_one_line_naming_it(monkeypatch, capsys):
    import cardtable.cli.main as cli

    def games(args):
        raise ModuleNotFoundError("No module named 'starlette'", name="starlette")

    monkeypatch.setattr(cli, "cmd_games", games)
    assert main(["games"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["cardtable games needs the web extra (starlette is missing): pip install 'cardtable[web]'"]

    def broken(args):
        raise ModuleNotFoundError("No module named 'cardtable.nothing'", name="cardtable.nothing")

    monkeypatch.setattr(cli, "cmd_games", broken)
    with pytest.raises(ModuleNotFoundError):  # a module of the package itself missing is a bug, not an extra
        main(["games"])


def test_verify_on_a_locally_saved_game_says_it_is_not_a_fair_deal_record(tmp_path, capsys):
    """a game saved by `cardtable play` has no commitments: not "FAILED"."""
    state = cardtable.load("trash").new_state(seed=4)
    state.play("stock")
    from cardtable.records import record_of

    path = tmp_path / "local.json"
    record_of(state).save(path)
    assert main(["verify", str(path)]) == 1
    err = capsys.readouterr().err
    assert "not a fair-deal record" in err and "FAILED" not in err


def test_no_rule_ids_in_what_a_player_reads(tmp_path, capsys):
    """The replay's result line of a Spit game said "(SP-19)"; a rejected move's reason carries ids."""
    from cardtable.bots import make_bot as bot
    from cardtable.host.clock import VirtualClock
    from cardtable.host.realtime import RealtimeHost
    from cardtable.records import record_of
    from cardtable.tui.session import without_rule_ids

    state = cardtable.load("spit").new_state(seed=3)
    RealtimeHost(state, VirtualClock(), bots={0: bot("spit", "hard"), 1: bot("spit", "easy")}, seed=1).run()
    assert re.fullmatch(r"SP-\d+", state.outcome().reason)
    path = tmp_path / "spit.json"
    record_of(state).save(path)
    assert main(["replay", str(path), "--seat", "0", "--no-color"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last.startswith("Result: you win") and "SP-" not in last and "()" not in last
    for message, plain in [("play actions are rejected in phase stalled (SP-14, SP-18)",
                            "play actions are rejected in phase stalled"),
                           ("TR-7: a card taken from the discard pile must be placed",
                            "a card taken from the discard pile must be placed"),
                           ("option complex_groups needs complex_mode=true (TX-V1)",
                            "option complex_groups needs complex_mode=true"),
                           ("the wild goes back [TR-12a]", "the wild goes back")]:
        assert without_rule_ids(message) == plain


def test_s7_the_server_and_the_command_start_without_the_pairing_library():
    """S7 (a restart comes back quickly): networkx, a quarter of a second of CPU to import, is
    imported by the first Swiss pairing, not by ``cardtable`` or ``cardtable serve``'s modules
    (every start would pay for it, with or without a tournament)."""
    import subprocess

    code = ("import sys, cardtable.cli.main, cardtable.server.cli, cardtable.server.app, "
            "cardtable.server.players.routes, cardtable.tournaments.swiss; print('networkx' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def test_the_plain_loop_says_it_is_in_english_when_another_language_is_asked(monkeypatch, capsys):
    """``--lang`` is the app's: the plain loop (asked for, or for piped input) speaks English, and a
    person who asked for Spanish is told so on standard error rather than left to wonder."""
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # no moves: the game stops at the first prompt
    main(["play", "trash", "--plain", "--lang", "es", "--no-color", "--seed", "3"])
    err = capsys.readouterr().err
    assert "--lang es is the app's language; the plain text loop is in English" in err
    main(["play", "trash", "--plain", "--no-color", "--seed", "3"])
    assert "plain text loop is in English" not in capsys.readouterr().err
