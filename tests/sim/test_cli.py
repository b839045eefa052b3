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
        (["simulate", "trash", "--games", "5", "--bots", "sensible,,"], "--bots sensible,,: a bot name is empty"),
        (["simulate", "trash", "--games", "5", "--bots", ",random"], "a bot name is empty"),
        (["simulate", "trash", "--games", "5", "--bots", " , "], "at least one bot name"),
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


def _snapshot(root):
    return {p.relative_to(root): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _cut_first_part(run_dir):
    part = sorted(run_dir.glob("part-*.parquet"))[0]
    part.write_bytes(part.read_bytes()[:100])


DAMAGES = {
    "csv-garbage-line": ("csv", lambda d: (d / "results.csv").open("a").write("garbage,,,\n"),
                         "results.csv, line 22: 4 fields, not"),
    "csv-bad-match": ("csv", lambda d: (d / "results.csv").write_text(
        (d / "results.csv").read_text().replace("\n3,", "\nthree,", 1)),
        "results.csv, line 5: match 'three' is not a whole number"),
    "csv-run-json": ("csv", lambda d: (d / "run.json").write_text('{"x":'), "run.json: not valid JSON"),
    "parquet-run-json": ("parquet", lambda d: (d / "run.json").write_text('{"x":'), "run.json: not valid JSON"),
    "run-json-without-spec": ("parquet", lambda d: (d / "run.json").write_text('{"x": 1}'),
                              "run.json: not the run.json"),
    "parquet-cut-part": ("parquet", _cut_first_part,
                         "part-000000000-000010-00001.parquet: not a readable Parquet part"),
    "schema-json": ("parquet", lambda d: (d / "schema.json").write_text("[1"), "schema.json: not valid JSON"),
    "timings-line": ("parquet", lambda d: (d / "timings.jsonl").write_text("{oops\n"),
                     "timings.jsonl, line 1: not valid JSON"),
}


@pytest.mark.parametrize(
    ("command", "case"),
    [("report", case) for case in DAMAGES]
    + [("simulate", case) for case in DAMAGES if case != "timings-line"],  # simulate only appends timings
)
def test_a_damaged_run_file_is_one_line_naming_it_and_nothing_is_lost(capsys, tmp_path, command, case):
    fmt, damage, says = DAMAGES[case]
    out = tmp_path / "runs"
    argv = ["simulate", "trash", "--bots", "sensible,random", "--out", str(out), "-q", "--format", fmt, "--chunk", "10"]
    assert run(capsys, *argv, "--games", "20")[0] == 0
    run_dir = next(out.iterdir())
    damage(run_dir)
    before = _snapshot(out)
    if command == "report":
        code, _, err = run(capsys, "report", str(out), "--out", str(tmp_path / "report"))
    else:
        code, _, err = run(capsys, *argv, "--games", "25")  # a resume
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    assert says in err and str(run_dir) in err
    assert _snapshot(out) == before


def test_report_reads_a_run_cut_off_mid_line_without_changing_it(capsys, tmp_path):
    out = tmp_path / "runs"
    argv = ["simulate", "trash", "--bots", "sensible,random", "--out", str(out), "-q", "--format", "csv"]
    assert run(capsys, *argv, "--games", "12")[0] == 0
    results = next(out.iterdir()) / "results.csv"
    with results.open("a") as fh:
        fh.write("12,4711,")  # an interrupted write: the resume drops this line, the report skips it
    before = _snapshot(out)
    code, _, err = run(capsys, "report", str(out), "--out", str(tmp_path / "report"))
    assert code == 0, err
    assert _snapshot(out) == before
    assert run(capsys, *argv, "--games", "13")[0] == 0
    assert results.read_text().count("\n") == 14 and results.read_text().endswith("\n")


def test_a_turn_based_bot_cannot_be_simulated_at_spit(capsys, tmp_path):
    code, _, err = run(capsys, "simulate", "spit", "--bots", "random,medium", "-o", "max_rounds=3", "--games", "2",
                       "--out", str(tmp_path), "-q")
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    assert "real time: the bot 'random' cannot play it" in err
    assert list(tmp_path.iterdir()) == []  # refused before a run directory is made
