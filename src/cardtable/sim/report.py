"""``cardtable report DIR``: PNG figures (matplotlib, Agg) and one HTML page.

The page has an overview of every run (win rates per seat and bot with 95%
confidence intervals, lengths, speed), then each game's own sections from its
metrics module (``GameMetrics.report``). A game without a report hook gets the
overview only, so a new game shows up as soon as it has runs.
"""

from __future__ import annotations

import html
import math
import re
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.errors import ConfigError
from ..core.registry import game_class
from .metrics import metrics_for
from .results import Run, load_runs
from .stats import Estimate, mean_ci, proportion
from .summary import summarize


@dataclass
class Section:
    """One part of the page: a heading, HTML (figures already linked in it)."""

    title: str
    html: str
    figures: list[str] = field(default_factory=list)


@dataclass
class ReportContext:
    """Where figures go, and helpers to draw them alike."""

    out: Path
    figures: list[str] = field(default_factory=list)

    @property
    def fig_dir(self) -> Path:
        d = self.out / "figures"
        d.mkdir(parents=True, exist_ok=True)
        return d

    def save(self, fig: Any, name: str) -> str:
        """Save a matplotlib figure as ``figures/<name>.png``; return its ``<img>`` HTML."""
        import matplotlib.pyplot as plt

        path = self.fig_dir / f"{name}.png"
        fig.tight_layout()
        if fit_titles(fig):
            fig.tight_layout()
        fig.savefig(path, dpi=DPI)
        plt.close(fig)
        rel = f"figures/{name}.png"
        self.figures.append(rel)
        return f'<p><img src="{rel}" alt="{html.escape(name)}"></p>'

    # ------------------------------------------------------------- plots
    def lines(
        self, name: str, title: str, xlabel: str, ylabel: str,
        series: Mapping[str, Sequence[tuple[float, Estimate]]],
        refs: Mapping[str, float] | None = None, percent: bool = False,
    ) -> str:
        """Points with 95% error bars, one line per series; dashed reference levels."""
        plt = pyplot()
        fig, ax = plt.subplots(figsize=(6.4, 3.8))
        k = 100.0 if percent else 1.0
        for i, (label, pts) in enumerate(series.items()):
            pts = [p for p in pts if not math.isnan(p[1].mean)]
            if not pts:
                continue
            xs = [x for x, _ in pts]
            ys = [e.mean * k for _, e in pts]
            err = [[max(0.0, e.mean - e.low) * k for _, e in pts], [max(0.0, e.high - e.mean) * k for _, e in pts]]
            line = ax.errorbar(xs, ys, yerr=err, marker="o", ms=4, capsize=3, label=label, color=f"C{i}")
            if refs and label in refs:
                ax.axhline(refs[label] * k, ls="--", lw=0.8, color=line[0].get_color())
        ax.set_title(title, fontsize=10)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel + (" (%)" if percent else ""))
        ax.grid(alpha=0.3)
        if len(series) > 1:
            ax.legend(fontsize=8)
        return self.save(fig, name)

    def bars(
        self, name: str, title: str, labels: Sequence[str], panels: Sequence[tuple[str, Sequence[Estimate]]],
        refs: Sequence[float | None] | None = None,
    ) -> str:
        """Horizontal bars with 95% error bars; one panel per measure."""
        plt = pyplot()
        fig, axes = plt.subplots(1, len(panels), figsize=(3.6 * len(panels) + 2.0, max(2.6, 0.4 * len(labels) + 1.4)),
                                 sharey=True, squeeze=False)
        ys = list(range(len(labels)))
        for j, (ax, (xlabel, ests)) in enumerate(zip(axes[0], panels, strict=True)):
            means = [e.mean for e in ests]
            err = [[max(0.0, e.mean - e.low) for e in ests], [max(0.0, e.high - e.mean) for e in ests]]
            ax.barh(ys, means, xerr=err, capsize=2, color=f"C{j}", alpha=0.8)
            ax.set_xlabel(xlabel, fontsize=9)
            ax.grid(axis="x", alpha=0.3)
            if refs and refs[j] is not None:
                ax.axvline(refs[j], ls="--", lw=0.8, color="k")
        axes[0][0].set_yticks(ys)
        axes[0][0].set_yticklabels(labels, fontsize=8)
        axes[0][0].invert_yaxis()
        fig.suptitle(title, fontsize=10)
        return self.save(fig, name)

    def hist(self, name: str, title: str, xlabel: str, data: Mapping[str, Sequence[float]], bins: int = 40) -> str:
        """Normalised histograms (step lines), one per series."""
        plt = pyplot()
        fig, ax = plt.subplots(figsize=(6.4, 3.6))
        top = max((max(v) for v in data.values() if v), default=1)
        for i, (label, values) in enumerate(data.items()):
            if values:
                ax.hist(values, bins=bins, range=(0, top), density=True, histtype="step", lw=1.5,
                        label=label, color=f"C{i}")
        ax.set_title(title, fontsize=10)
        ax.set_xlabel(xlabel)
        ax.set_ylabel("share")
        ax.grid(alpha=0.3)
        if len(data) > 1:
            ax.legend(fontsize=8)
        return self.save(fig, name)


DPI = 130
"""Figures are saved large enough to read on a laptop screen without zooming."""


def fit_titles(fig: Any) -> bool:
    """Wrap the figure's title and its axes' titles onto more lines until each fits inside the
    figure (a long run label, such as a six-player line-up, was cut at both ends); True if one
    was wrapped."""
    import textwrap

    titles = [t for t in [getattr(fig, "_suptitle", None), *(ax.title for ax in fig.axes)]
              if t is not None and t.get_text()]
    wrapped = False
    renderer = fig.canvas.get_renderer()
    for title in titles:
        text = " ".join(title.get_text().split())
        width = len(text)
        for _ in range(40):  # each pass takes away a tenth of the line width
            box = title.get_window_extent(renderer)
            if (box.x0 >= fig.bbox.x0 and box.x1 <= fig.bbox.x1) or width < 10:
                break
            width = max(10, width * 9 // 10)
            title.set_text(textwrap.fill(text, width))
            wrapped = True
    return wrapped


def pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise ConfigError("the report needs matplotlib: pip install 'cardtable[sim]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def table(headers: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """An HTML table; cells are escaped (pass Estimates through :func:`cell`)."""
    head = "".join(f"<th>{html.escape(str(h))}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def cell(est: Estimate | None, percent: bool = False, digits: int = 3) -> str:
    if est is None or est.n == 0:
        return "–"
    return est.text(digits=digits, percent=percent)


def para(text: str) -> str:
    return f"<p>{html.escape(text)}</p>"


def _est(d: Mapping[str, Any]) -> Estimate:
    return Estimate(d["mean"], d["low"], d["high"], d["n"])


def win_rates(runs: Sequence[Run], ctx: ReportContext) -> Section:
    """Every run's win rates as figures: by seat, and by bot when the line-up is mixed."""
    parts = []
    for run in runs:
        s = summarize(run.spec, run.rows)
        if "seat_win_rate" not in s:
            continue
        slug = re.sub(r"[^a-z0-9]+", "_", f"{run.game} {run.label}".lower()).strip("_")
        seats = [_est(e) for e in s["seat_win_rate"]]
        fair = 1 / len(seats)
        parts.append(f"<h3>{html.escape(run.label)}</h3>")
        parts.append(ctx.bars(f"win_by_seat_{slug}", f"{run.label}: win rate by seat ({len(run.rows)} matches)",
                              [f"seat {i}" for i in range(len(seats))], [("win rate", seats)], refs=[fair]))
        bots = s.get("bot_win_rate", {})
        if bots:
            names = sorted(bots, key=lambda b: -_est(bots[b]).mean)
            parts.append(ctx.bars(f"win_by_bot_{slug}", f"{run.label}: win rate by bot, every seat",
                                  names, [("win rate", [_est(bots[b]) for b in names])], refs=[fair]))
    return Section("Win rates", para("Each bar is a win rate with its 95% confidence interval; the dashed line is "
                                     "an even share (one in the number of players).") + "".join(parts))


def overview(runs: Sequence[Run]) -> Section:
    rows = []
    for run in runs:
        s = summarize(run.spec, run.rows)
        seats = " / ".join(f"{_est(e).mean * 100:.1f}" for e in s["seat_win_rate"])
        seat0 = cell(_est(s["seat_win_rate"][0]), percent=True)
        bots = "; ".join(f"{b} {_est(e).text(percent=True)}" for b, e in s.get("bot_win_rate", {}).items())
        r1, r2 = run.rate(1), run.rate(2)
        rows.append([
            run.label, len(run.rows), seats, seat0, bots or "–", cell(_est(s["actions"]), digits=1),
            f"{r1:.0f}" if r1 else "–", f"{r2:.0f}" if r2 else "–",
        ])
    return Section(
        "Runs",
        para("Every run under the directory. Win rates in percent; [95% confidence interval] (Wilson for rates, "
             "Student t for means). With rotated seats (the default) every bot sits in every seat equally often.")
        + table(["run", "matches", "win % by seat", "seat 0 wins", "win % by bot", "actions per match",
                 "matches/s (1 worker)", "matches/s (2 workers)"], rows),
    )


def commands(runs: Sequence[Run], root: Path) -> Section:
    lines = "\n".join(html.escape(r.spec.command(len(r.rows), str(root))) for r in runs)
    return Section("Reproduce", para("Each run comes back from its command (the seeds derive from --seed and the "
                                     "match number, so worker count and interruptions do not matter):")
                   + f"<pre>{lines}\ncardtable report {html.escape(str(root))}</pre>")


def speed(runs: Sequence[Run]) -> Section | None:
    rows = []
    for run in runs:
        r1, r2 = run.rate(1), run.rate(2)
        if r1 and r2:
            rows.append([run.label, f"{r1:.0f}", f"{r2:.0f}", f"{r2 / r1:.2f}", f"{r2 / (2 * r1) * 100:.0f}%"])
    if not rows:
        return None
    return Section(
        "Speed",
        para("Matches per second of wall time, measured while the runs were produced (local backend). "
             "Scaling efficiency = rate(2 workers) / (2 × rate(1 worker)). bench/simulate.py measures both in one run.")
        + table(["run", "1 worker", "2 workers", "speed-up", "efficiency"], rows),
    )


CSS = """
body { font-family: system-ui, sans-serif; max-width: 1100px; margin: 2em auto; padding: 0 1em; color: #222; }
table { border-collapse: collapse; font-size: 0.85em; margin: 0.5em 0 1em; }
th, td { border: 1px solid #ccc; padding: 3px 7px; text-align: left; }
th { background: #f3f3f3; }
h2 { border-bottom: 1px solid #ddd; margin-top: 2em; }
img { max-width: 100%; }
.note { color: #555; font-size: 0.9em; }
pre { background: #f6f6f6; padding: 0.6em; overflow-x: auto; font-size: 0.85em; }
"""


def build_report(root: Path, out: Path | None = None) -> Path:
    """Write ``report.html`` and its figures for every run under ``root``; return the page."""
    if not root.is_dir():
        raise ConfigError(f"{root}: not a directory")
    runs = load_runs(root)
    if not runs:
        raise ConfigError(f"{root}: no simulation results (run cardtable simulate --out {root} first)")
    out = out or root / "report"
    out.mkdir(parents=True, exist_ok=True)
    ctx = ReportContext(out)
    sections = [overview(runs), win_rates(runs, ctx)]
    sp = speed(runs)
    if sp is not None:
        sections.append(sp)
    for game in sorted({r.game for r in runs}):
        hook = metrics_for(game).report
        if hook is not None:
            title = game_class(game).title
            for sec in hook([r for r in runs if r.game == game], ctx):
                sec.title = f"{title}: {sec.title}"
                sections.append(sec)
    sections.append(commands(runs, root))
    stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    body = "".join(f"<h2>{html.escape(s.title)}</h2>\n{s.html}\n" for s in sections)
    page = (
        "<!doctype html><html><head><meta charset='utf-8'><title>cardtable simulations</title>"
        f"<style>{CSS}</style></head><body><h1>cardtable simulations</h1>"
        f"<p class='note'>{len(runs)} runs, {sum(len(r.rows) for r in runs)} matches, from {html.escape(str(root))}; "
        f"written {stamp}.</p>{body}</body></html>\n"
    )
    path = out / "report.html"
    path.write_text(page, encoding="utf-8")
    return path


__all__ = ["ReportContext", "Section", "build_report", "cell", "mean_ci", "para", "proportion", "table"]
