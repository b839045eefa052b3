"""A record's result in words, and the note when the result a record states is not the one
its moves give (``cardtable replay`` and ``cardtable review`` print the same note)."""

from __future__ import annotations

import re
from typing import Any

from ..core.game import State

_RULE_ID = r"(?:TR|TX|SP)-[AV]?\d+[a-z]?"
_RULE_REFS = re.compile(rf"\s*[(\[](?:{_RULE_ID}|§[\d.]+)(?:\s*(?:,|/|;|…|and)\s*(?:{_RULE_ID}|§[\d.]+))*[)\]]"
                        rf"|\b{_RULE_ID}(?:/{_RULE_ID})*:\s*|\s*\b{_RULE_ID}\b")


def without_rule_ids(message: str) -> str:
    """A message for a player: the engine's rule ids (``(SP-14, SP-18)``, ``TR-7: ``) taken out,
    since a player has no rule book to look them up in.

    >>> without_rule_ids("play actions are rejected in phase stalled (SP-14, SP-18)")
    'play actions are rejected in phase stalled'
    >>> without_rule_ids("TX-37: you must follow suit")
    'you must follow suit'
    """
    return _RULE_REFS.sub("", message).strip()


def played_result(state: State | None) -> dict[str, Any] | None:
    """The result the moves give: ``state``'s outcome as a record writes it (``None``: not over)."""
    outcome = None if state is None else state.outcome()
    if outcome is None:
        return None
    return {"returns": list(outcome.returns), "winners": list(outcome.winners), "reason": outcome.reason}


def result_line(result: dict[str, Any], seat: int | None) -> str:
    """A record's result in words: "Result: seat 1 wins (target_size); returns: 0, 1".

    >>> result_line({"winners": [1], "returns": [0, 1], "reason": "target_size"}, 0)
    'Result: seat 1 wins (target size); returns: 0, 1'
    """
    winners = [int(w) for w in result.get("winners", ())]
    names = ["you" if w == seat else f"seat {w}" for w in winners]
    if not names:
        head = "no winner"
    elif len(names) == 1:
        head = f"{names[0]} {'win' if names[0] == 'you' else 'wins'}"
    else:
        head = f"{' and '.join(names)} share the win"
    reason = without_rule_ids(str(result.get("reason") or "")).replace("_", " ")  # "SP-19" says nothing to a player
    returns = ", ".join(f"{float(r):g}" for r in result.get("returns", ()))
    return f"Result: {head}" + (f" ({reason})" if reason else "") + (f"; returns: {returns}" if returns else "")


def result_note(stated: dict[str, Any] | None, played: dict[str, Any] | None, seat: int | None) -> str | None:
    """The note when a record's own result (``stated``) is not what its moves give (``played``);
    ``None`` when the record states none or states that one: the moves decide, not the file.

    >>> result_note({"winners": [0], "returns": [1, 0], "reason": "x"}, None, None)
    "Note: the record's own result is not what its moves give: seat 0 wins (x); returns: 1, 0"
    """
    if stated is None or stated == played:
        return None
    return "Note: the record's own result is not what its moves give: " + result_line(stated, seat).removeprefix(
        "Result: ")
