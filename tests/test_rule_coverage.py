"""Every rule id that RULES.md defines is named by at least one test.

A rule id ``TR-V7`` is named by a test function whose name contains ``trv7`` or
``tr_v7`` (``test_trv7_loser_reveal_…``). TX-26…29 are one rule (RULES.md preamble).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT.parent / "shared" / "RULES.md"
GAMES = {"TR": "trash", "TX": "trex", "SP": "spit"}


def rule_ids(prefix: str) -> set[str]:
    text = RULES.read_text(encoding="utf-8")
    found = set(re.findall(rf"\*\*({prefix}-(?:V|A)?\d+)\b", text))
    found |= set(re.findall(rf"^\| ({prefix}-A\d+) \|", text, re.M))
    return found


def function_names(folder: Path) -> set[str]:
    names: set[str] = set()
    for path in folder.rglob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                names.add(node.name)
    return names


def pattern(rule: str) -> str:
    """``TR-V7`` is named as ``trv7`` or ``tr_v7``; ``SP-18`` also as ``sp18a`` (a clause of it)."""
    game, _, rest = rule.lower().partition("-")
    return rf"_{game}_?{rest}[a-z]?(_|$)"


@pytest.mark.parametrize("prefix", sorted(GAMES))
def test_every_rule_id_is_named_by_a_test(prefix):
    if not RULES.exists():
        pytest.skip("shared/RULES.md is not beside the checkout")
    folder = ROOT / "tests" / GAMES[prefix]
    if not folder.exists():
        pytest.skip(f"{GAMES[prefix]} is not built yet")
    ids = rule_ids(prefix)
    assert ids, f"no {prefix} rule ids found in RULES.md"
    names = function_names(folder)
    missing = sorted(r for r in ids if not any(re.search(pattern(r), n) for n in names))
    # TX-26…29 are one rule: a test naming any of them names all four
    if prefix == "TX" and any(re.search(r"_tx2[6-9](_|$)", n) for n in names):
        missing = [r for r in missing if r not in {"TX-26", "TX-27", "TX-28", "TX-29"}]
    assert not missing, f"rule ids without a test naming them: {', '.join(missing)}"
