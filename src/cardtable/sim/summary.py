"""The summary of a run: win rates per seat and per bot, lengths, and the
game's own figures, each with a 95% confidence interval (:mod:`.stats`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .metrics import metrics_for
from .spec import SimSpec
from .stats import Estimate, mean_ci, proportion, win_share


def summarize(spec: SimSpec, rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Estimates for a run's rows, as JSON-ready data (see :func:`summary_text`)."""
    n = len(rows)
    seats = spec.num_players
    out: dict[str, Any] = {"label": spec.label, "matches": n}
    if n == 0:
        return out
    out["seat_win_rate"] = [proportion(sum(win_share(r, s) for r in rows), n).to_json() for s in range(seats)]
    distinct = sorted(set(spec.bots))
    if len(distinct) > 1:
        bots: dict[str, Any] = {}
        for b in distinct:
            wins = sum(win_share(r, s) for r in rows for s in range(seats) if r["lineup"][s] == b)
            seen = sum(1 for r in rows for s in range(seats) if r["lineup"][s] == b)
            bots[b] = proportion(wins, seen).to_json()
        out["bot_win_rate"] = bots
    out["shared_wins"] = proportion(sum(len(r["winners"]) > 1 for r in rows), n).to_json()
    out["actions"] = mean_ci(r["actions"] for r in rows).to_json()
    reasons: dict[str, int] = {}
    for r in rows:
        reasons[r["reason"]] = reasons.get(r["reason"], 0) + 1
    out["reasons"] = reasons
    out["game"] = {name: est.to_json() for name, est in metrics_for(spec.game).summary(rows)}
    return out


def _est(data: Mapping[str, Any]) -> Estimate:
    return Estimate(data["mean"], data["low"], data["high"], data["n"])


def summary_text(summary: Mapping[str, Any], speed: str = "") -> str:
    """The summary as lines of text (what ``cardtable simulate`` prints)."""
    lines = [f"{summary['label']}: {summary['matches']} matches" + (f" ({speed})" if speed else "")]
    if not summary["matches"]:
        return lines[0]
    lines.append("  win rate (95% CI)")
    for s, est in enumerate(summary["seat_win_rate"]):
        lines.append(f"    seat {s}: {_est(est).text(percent=True, digits=3)}")
    for name, est in summary.get("bot_win_rate", {}).items():
        lines.append(f"    bot {name}: {_est(est).text(percent=True, digits=3)}")
    if summary["shared_wins"]["mean"]:
        lines.append(f"    shared wins: {_est(summary['shared_wins']).text(percent=True, digits=3)}")
    lines.append(f"  actions per match: {_est(summary['actions']).text(digits=1)}")
    for name, est in summary["game"].items():
        lines.append(f"  {name}: {_est(est).text(digits=3)}")
    ends = ", ".join(f"{k} {v}" for k, v in sorted(summary["reasons"].items()))
    lines.append(f"  endings: {ends}")
    return "\n".join(lines)
