"""``cardtable simulate`` / ``cardtable report`` from the command line."""

import pytest

from cardtable.cli.main import main


def run(capsys, *argv):
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["simulate", "chess", "--games", "5", "--bots", "random"], "unknown game"),
        (["simulate", "trash", "--games", "5", "--bots", "genius"], "no trash bot named 'genius'"),
        (["simulate", "trash", "--games", "0", "--bots", "random"], "--games"),
        (["simulate", "trash", "--games", "100000000000", "--bots", "random"], "from 1 to 1,000,000"),
        (["simulate", "trash", "--games", "many", "--bots", "random"], "not a whole number"),
        (["simulate", "trash", "--games", "5"], "--bots"),
        (["simulate", "trash", "--games", "5", "--bots", "random", "-o", "wild_mode=queens"], "wild_mode"),
        (["simulate", "trash", "--games", "5", "--bots", "random", "-o", "colour=red"], "no option 'colour'"),
        (["simulate", "trash", "--games", "5", "--bots", "random", "-o", "jokers"], "key=value"),
        (["simulate", "trash", "--games", "5", "--bots", "random,random", "-o", "players=3"], "3 seats"),
        (["simulate", "trash", "--games", "5", "--bots", "random", "--workers", "0"], "--workers"),
        (["simulate", "trash", "--games", "5", "--bots", "random", "--backend", "spark"], "invalid choice"),
        (["simulate", "trash", "--games", "5", "--bots", "random", "--address", "x:1"], "--backend ray"),
        (["simulate", "trash", "--games", "5", "--bots", "random", "--seed", "-1"], "negative"),
        (["simulate", "trash", "--games", "5", "--bots", "random", "--grid", "nope"], "no grid 'nope'"),
        (["simulate", "trash", "--games", "5", "--bots", "random", "-o", "time_limit=60"], "time_limit"),
        (["simulate", "trash", "--games", "5", "--bots", "random", "--preset", "d3"], "no preset"),
        (["report", "{missing}"], "not a directory"),
        (["simulate", "trash", "--games", "5", "--bots", "random", "--workers", "9" * 23], "from 1 to 4,096"),
    ],
)
def test_bad_arguments_get_one_line_and_exit_2(capsys, tmp_path, argv, says):
    argv = [a.replace("{missing}", str(tmp_path / "missing" / "dir")) for a in argv]
    code, _, err = run(capsys, *argv, *(["--out", str(tmp_path)] if argv[0] == "simulate" else []))
    assert code == 2
    assert err.count("\n") == 1, err
    assert says in err
    assert "Traceback" not in err


def test_report_of_an_empty_directory(capsys, tmp_path):
    code, _, err = run(capsys, "report", str(tmp_path))
    assert code == 2 and err.count("\n") == 1 and "no simulation results" in err


def test_simulate_prints_a_summary_and_resumes(capsys, tmp_path):
    argv = ["simulate", "trash", "--games", "20", "--bots", "sensible,random", "--out", str(tmp_path), "-q"]
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    assert "20 matches (20 new" in out
    assert "seat 0:" in out and "bot sensible:" in out and "hands per match" in out
    code, out, _ = run(capsys, *argv)
    assert code == 0 and "all stored" in out


def test_ray_backend_without_ray_is_one_line(capsys, tmp_path, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now fails
    code, _, err = run(capsys, "simulate", "trash", "--games", "5", "--bots", "random", "--backend", "ray",
                       "--out", str(tmp_path))
    assert code == 2 and err.count("\n") == 1 and "cardtable[ray]" in err


@pytest.mark.parametrize(
    ("options", "bots", "preset"),
    [({}, ["sensible", "random"], None), ({"players": "3", "jokers": "true"}, ["sensible"], None),
     ({}, ["sensible", "random", "stock"], "d2_kings")],
)
def test_the_reported_command_reproduces_the_run(capsys, tmp_path, options, bots, preset):
    from cardtable.sim import SimSpec

    spec = SimSpec.build("trash", preset, options, bots, seed=5)
    argv = spec.command(3, str(tmp_path)).split()[1:]
    code, _, err = run(capsys, *argv, "-q")
    assert code == 0, err
    assert (tmp_path / spec.dirname / "run.json").exists()


def test_simulate_help_is_current_and_the_bar_is_rich(capsys):
    import io

    import pytest

    from cardtable.cli.main import main
    from cardtable.sim.progress import Progress

    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    text = capsys.readouterr().out
    assert "engines are present" not in text and "trex" in text and "spit" in text
    stream = io.StringIO()
    bar = Progress(10, stream=stream)
    bar.update(4)
    bar.update(6)
    bar.close()
    assert "10/10" in stream.getvalue() and "[" not in stream.getvalue().split("10/10")[0][-3:]
    assert type(bar.bar).__module__ == "rich.progress"
