"""``cardtable report`` writes its page and figures."""

import re

from cardtable.cli.main import main
from cardtable.sim import SimSpec, simulate
from cardtable.sim.report import build_report
from cardtable.sim.results import load_runs


def make_runs(root, games=40):
    for players in (2, 3):
        simulate(SimSpec.build("trash", None, {"players": players}, ["sensible"], seed=1), games, root, progress=False)
    simulate(SimSpec.build("trash", None, {"wild_mode": "kings"}, ["sensible"], seed=1), games, root, progress=False)
    simulate(SimSpec.build("trash", None, {}, ["sensible", "random"], seed=1), games, root, progress=False,
             workers=2)


def test_report_writes_the_page_and_the_figures(tmp_path):
    make_runs(tmp_path)
    runs = load_runs(tmp_path)
    assert len(runs) == 4
    page = build_report(tmp_path)
    assert page == tmp_path / "report" / "report.html"
    text = page.read_text()
    for name in ("trash_first_player", "trash_turns_per_hand", "trash_turns_by_size",
                 "trash_variants_length", "trash_variants_fairness"):
        png = tmp_path / "report" / "figures" / f"{name}.png"
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert f'src="figures/{name}.png"' in text
    for heading in ("Runs", "Trash: first-player advantage", "Trash: hand lengths", "Trash: variants", "Trash: bots"):
        assert f"<h2>{heading}</h2>" in text
    assert "wild_mode=kings" in text
    assert len(re.findall(r"\[\d", text)) > 10  # confidence intervals are shown


def test_report_without_a_baseline_says_what_to_run(tmp_path, capsys):
    simulate(SimSpec.build("trash", None, {}, ["sensible", "random"], seed=1), 10, tmp_path, progress=False)
    assert main(["report", str(tmp_path), "--out", str(tmp_path / "r")]) == 0
    text = (tmp_path / "r" / "report.html").read_text()
    assert "--grid players" in text
    assert "report.html" in capsys.readouterr().out


def test_every_game_has_its_metrics_module():
    import importlib

    from cardtable.core.registry import game_names
    from cardtable.sim.metrics import METRICS, metrics_for

    assert set(METRICS) == set(game_names())
    for name in ("trex", "spit"):
        module = importlib.import_module(f"cardtable.sim.metrics.{name}")
        assert module.METRICS.game == name and module.METRICS.report is not None
        assert metrics_for(name) is module.METRICS
    spit = importlib.import_module("cardtable.sim.metrics.spit").METRICS
    assert spit.play is not None


def test_trex_recorder_sees_doublings_and_trex_places():
    """The Trex questions of the report: doubling outcomes (TX-15/16) and Trex finishing places (TX-35)."""
    import random

    import cardtable
    from cardtable.sim.metrics import metrics_for

    from ..walk import played

    state = cardtable.load("trex").new_state(seed=3)
    metrics = metrics_for("trex")
    recorder = metrics.recorder(state)
    for _, action in played(state, random.Random(3)):
        recorder.step(state, action)
    row = recorder.finish(state)
    assert len(row["trex_places"]) == 4  # one Trex deal per kingdom
    for holder, *order in row["trex_places"]:
        assert sorted(order) == [0, 1, 2, 3] and 0 <= holder < 4
    for card, doubler, capturer in row["doublings"]:
        assert 0 <= card < 52 and 0 <= doubler < 4 and -1 <= capturer < 4


def test_a_mixed_lineup_run_gets_win_rate_figures_by_bot_and_by_seat(tmp_path):
    simulate(SimSpec.build("trash", None, {}, ["sensible", "random"], seed=1), 12, tmp_path, progress=False)
    page = build_report(tmp_path).read_text()
    figures = sorted((tmp_path / "report" / "figures").glob("win_by_*.png"))
    names = [f.stem for f in figures]
    assert any(n.startswith("win_by_bot_") for n in names) and any(n.startswith("win_by_seat_") for n in names)
    assert "<h2>Win rates</h2>" in page
    for f in figures:
        assert f'src="figures/{f.name}"' in page


def test_report_figures_are_large_enough_to_read(tmp_path):
    import struct

    simulate(SimSpec.build("trash", None, {}, ["sensible", "random"], seed=1), 8, tmp_path, progress=False)
    build_report(tmp_path)
    for png in (tmp_path / "report" / "figures").glob("*.png"):
        width, height = struct.unpack(">II", png.read_bytes()[16:24])
        assert width >= 600 and height >= 300, (png.name, width, height)


def test_a_long_figure_title_is_wrapped_inside_the_figure(tmp_path):
    """A six-player line-up's label made the win-by-seat title wider than the figure (cut at both ends)."""
    from cardtable.sim.report import ReportContext
    from cardtable.sim.stats import proportion

    ctx = ReportContext(tmp_path)
    kept = []
    save = ctx.save

    def keep(fig, name):
        out = save(fig, name)
        kept.append(fig)
        return out

    ctx.save = keep
    label = "trash 6p: " + ",".join(["sensible"] * 6) + ": win rate by seat (2000 matches)"
    ctx.bars("wide", label, [f"seat {i}" for i in range(6)], [("wins", [proportion(300, 2000)] * 6)])
    ctx.lines("wide2", label, "x", "y", {"a": [(1.0, proportion(3, 10))]})
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    for fig in kept:
        renderer = FigureCanvasAgg(fig).get_renderer()  # the figure was closed once saved
        for title in [fig._suptitle, *(ax.title for ax in fig.axes)]:
            if title is not None and title.get_text():
                box = title.get_window_extent(renderer)
                assert fig.bbox.x0 <= box.x0 and box.x1 <= fig.bbox.x1, title.get_text()
                assert box.y1 <= fig.bbox.y1
                assert "".join(title.get_text().split()) == "".join(label.split())
