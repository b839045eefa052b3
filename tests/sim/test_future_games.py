"""The Trex and Spit metrics modules: the Trex recorder on what the engine exports, report
sections on synthetic rows."""

import random
from types import SimpleNamespace

from cardtable.games.trex.state import TrexFacts
from cardtable.sim.metrics import spit, trex
from cardtable.sim.report import ReportContext
from cardtable.sim.results import Run
from cardtable.sim.spec import SimSpec


def trex_rows(n=30):
    rng = random.Random(1)
    rows = []
    for m in range(n):
        deals = []
        for kingdom in range(4):
            for c in rng.sample([1, 2, 4, 8, 16], 5):
                deltas = [rng.choice([0, -15, -30, 50]) for _ in range(4)]
                deals.append([kingdom, kingdom, c, *deltas])
        totals = [sum(d[3 + s] for d in deals) for s in range(4)]
        best = max(totals)
        rows.append({"match": m, "lineup": ["random"] * 4, "winners": [s for s in range(4) if totals[s] == best],
                     "returns": totals, "reason": "best_total", "actions": 1000, "totals": totals,
                     "trex_firsts": [1, 1, 1, 1], "deals": deals, "tiebreak": False})
    return rows


def test_trex_recorder_reads_the_final_state():
    """The recorder reads ``TrexState.facts()``, the engine's export for metrics."""
    facts = TrexFacts(totals=(10, -5, 0, -5), trex_firsts=(2, 1, 1, 0), deals=((1, 0, 2, 16, (200, 150, 100, 50)),),
                      tiebreak=False)
    state = SimpleNamespace(facts=lambda: facts)
    out = trex.TrexRecorder(state).finish(state)
    assert out["deals"] == [[0, 2, 16, 200, 150, 100, 50]]
    assert out["totals"] == [10, -5, 0, -5] and out["tiebreak"] is False
    assert trex.contract_name(16) == "TR" and trex.contract_name(1 | 2 | 4 | 8) == "KH+QN+DI+TK"


def test_trex_summary_and_report_sections(tmp_path):
    rows = trex_rows()
    names = [name for name, _ in trex.summary(rows)]
    assert "holder's score per deal" in names
    spec = SimSpec("trex", "standard", (), ("random",) * 4)
    ctx = ReportContext(tmp_path)
    sections = trex.report([Run(spec, tmp_path, rows)], ctx)
    assert sections and "chosen 1st" in sections[0].html
    assert len(ctx.figures) == 2 and all((tmp_path / f).exists() for f in ctx.figures)


def test_spit_check_summary_and_report(tmp_path):
    game = SimpleNamespace(options={"max_rounds": None, "scoring": "standard"})
    assert "max_rounds" in spit.check(game)
    assert spit.check(SimpleNamespace(options={"max_rounds": 50, "scoring": "standard"})) is None
    rows = [{"match": m, "lineup": ["medium", "easy"] if m % 2 == 0 else ["easy", "medium"],
             "winners": [m % 2], "returns": [1.0, 0.0] if m % 2 == 0 else [0.0, 1.0], "reason": "SP-19",
             "actions": 200, "rounds": 3 + m % 4, "virtual_seconds": 120.0 + m, "rejected": m % 3, "spits": 2}
            for m in range(20)]
    assert next(n for n, _ in spit.summary(rows)) == "rounds per game"
    ctx = ReportContext(tmp_path)
    sections = spit.report([Run(SimSpec("spit", "standard", (("max_rounds", 50),), ("medium", "easy")),
                                tmp_path, rows)], ctx)
    assert "100.0%" in sections[0].html  # medium won every game in these rows
    assert ctx.figures == ["figures/spit_gap.png", "figures/spit_rounds.png"]  # win rate by reaction gap
    assert "reaction-time gap" in sections[0].html


def test_metrics_import_what_their_engines_export():
    """Metrics read what the engine exports (``facts()`` and the like), imported by name, so the layer
    checker sees each dependency: no module is looked up by a string, no state field by its name."""
    from pathlib import Path

    import cardtable.sim.metrics as metrics

    for path in Path(metrics.__file__).parent.glob("*.py"):
        text = path.read_text()
        assert "importlib" not in text and "getattr(" not in text, path.name
