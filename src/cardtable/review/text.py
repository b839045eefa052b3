"""A review as lines of text in the user's language (the terminal and ``cardtable review``)."""

from __future__ import annotations

from ..core.cards import Card
from ..i18n import translate
from . import Decision, Review


def _cost(review: Review, loss: float, lang: str) -> str:
    """A cost in the review's unit, said as what the move played cost ("12.5 points"): Trex
    points, or a Trash hand's win chance in percentage points (a sum of several decisions' costs
    can pass 100, which a chance cannot)."""
    if review.unit == "win chance":
        return translate("review.unit.chance", lang, value=str(round(100 * loss)))
    tenths = round(loss, 1)
    return translate("review.unit.points", lang, value=f"{tenths:.1f}" if tenths else "0")


def _count(key: str, n: int, lang: str) -> str:
    """``n`` with its noun in ``lang`` ("1 world", "32 worlds"): the catalog's ``KEY.one`` for 1,
    ``KEY.other`` for any other number (Arabic words ``other`` so that it fits every number)."""
    return translate(f"{key}.{'one' if n == 1 else 'other'}", lang, n=n)


def _action(review: Review, text: str, lang: str) -> str:
    """An action in words ("draw from the stock", "10♠", "King of Hearts"), not its engine text."""
    kind, _, arg = text.partition(" ")
    if review.game == "trash":
        return translate(f"tui.trash.action.{kind}", lang, n=arg)
    if kind == "contract":
        return translate(f"tui.trex.contract.{arg}", lang)
    if kind == "double":
        return translate("tui.trex.action.double", lang, c=Card.parse(arg).unicode())
    if kind in ("done", "redeal", "keep"):
        return translate(f"tui.trex.action.{kind}", lang)
    return Card.parse(text).unicode()  # a card played: its face


def decision_line(review: Review, d: Decision, lang: str) -> str:
    """One decision: what was played, the best move from the seat's view and its cost."""
    where = translate("review.where.trex" if review.game == "trex" else "review.where.trash", lang,
                      step=d.step, deal=d.deal)
    if d.loss <= 0:
        judged = translate("review.best_played", lang)
    else:
        judged = translate("review.best", lang, best=_action(review, d.best, lang),
                           cost=_cost(review, d.loss, lang))
    line = translate("review.line", lang, where=where, played=_action(review, d.played, lang), judged=judged)
    if d.hindsight and d.hindsight_loss <= 0:
        line += " " + translate("review.hindsight_same", lang)
    elif d.hindsight:
        line += " " + translate("review.hindsight", lang, best=_action(review, d.hindsight_best, lang),
                                cost=_cost(review, d.hindsight_loss, lang))
    return line


def review_lines(review: Review, lang: str = "en", costliest: int = 5) -> list[str]:
    """The summary: the costliest decisions, then (Trex) every contract choice with its value."""
    out = [translate("review.title", lang, seat=review.seat,
                     decisions=_count("review.decisions", len(review.decisions), lang),
                     cost=_cost(review, review.total_loss, lang),
                     worlds=_count("review.worlds", review.worlds, lang))]
    # "none cost a point" only when none did: ``costliest=0`` lists none of them, and the
    # second line is then the list's heading (the replay's review pane takes line 0 and lines 2 on)
    costly = review.costliest(len(review.decisions))
    out.append(translate("review.costliest", lang) if costly else translate("review.none_costly", lang))
    out += ["  " + decision_line(review, d, lang) for d in costly[:max(0, costliest)]]
    choices = review.contract_choices()
    if choices:
        out.append(translate("review.contracts", lang))
        for d in choices:
            values = ", ".join(f"{_action(review, a, lang)} {v:+.1f}"
                               for a, v in sorted(d.values.items(), key=lambda kv: -kv[1]))
            out.append("  " + translate("review.contract_line", lang, deal=d.deal,
                                        played=_action(review, d.played, lang), values=values))
    return out
