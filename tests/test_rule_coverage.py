"""The repository's own specification and the ids the code cites agree (docs/rules/index.md).

* Every rule id a game's page defines (``TR-…`` in docs/rules/trash.md, ``TX-…`` in trex.md,
  ``SP-…`` in spit.md) is named by a test of that game: ``TR-V7`` by a test function whose name
  contains ``trv7`` or ``tr_v7`` (``test_trv7_loser_reveal_…``), a letter after the number naming a
  clause (``test_sp18a_…``).
* Every rule id cited anywhere in src/, tests/, bench/, README.md or docs/ (in text, or in a test's
  name as above) is defined by its game's page, and every server requirement id (``P11``, ``R9``,
  ``LD6``, …) cited there is defined in docs/server-requirements.md. Server ids count from 1, so
  ``S0`` (a Spit pile) and ``P0`` are not read as ids; any other of P, A, H, R, S, C, F, I, T or ``LD``
  followed by a number is, so write such a word some other way when it is not an id.
* Every option and preset of a game is stated on its page.

Nothing here reads outside the repository, and nothing skips: a missing page fails.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import cardtable
from cardtable.core.registry import game_class

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules"
SERVER = ROOT / "docs" / "server-requirements.md"
GAMES = {"TR": "trash", "TX": "trex", "SP": "spit"}

RULE_ID = re.compile(r"(?<![\w-])(TR|TX|SP)-([AV]?\d+)(?![\w-])")
SERVER_ID = r"(?:LD|[PAHRSCFIT])[1-9]\d?"
SERVER_TEXT = re.compile(rf"(?<![\w./-])({SERVER_ID})(?![\w/-])")
# in a test's name, lower case between underscores; not the "a1" of a game rule's "tx_a1"
SERVER_NAME = re.compile(rf"(?<!tr)(?<!tx)(?<!sp)_({SERVER_ID.lower()})(?=_|$)")
RULE_NAME = re.compile(r"_(tr|tx|sp)_?([av]?\d+)[a-z]?(?=_|$)")
SCANNED = ("src", "tests", "bench", "docs", "README.md")
SUFFIXES = {".py", ".js", ".md", ".json", ".html", ".css", ".txt"}


def page(prefix: str) -> Path:
    return RULES / f"{GAMES[prefix]}.md"


def defined_rules(text: str) -> list[str]:
    """The rule ids a page defines: in bold at the start of a rule (``**TR-10 (…)**``) or in the
    first column of an ambiguity table (``| TR-A3 |``)."""
    bold = re.findall(r"\*\*((?:TR|TX|SP)-(?:V|A)?\d+)\b", text)
    rows = re.findall(r"^\| ((?:TR|TX|SP)-A\d+) \|", text, re.M)
    return bold + rows


def defined_server_ids() -> set[str]:
    return set(re.findall(rf"^\| ({SERVER_ID}) \|", SERVER.read_text(encoding="utf-8"), re.M))


def scanned_files() -> Iterator[Path]:
    """The files whose citations must be defined: the code, the tests, the benchmarks and the
    docs, except the rule pages that do the defining (they also name reserved numbers)."""
    for name in SCANNED:
        path = ROOT / name
        if path.is_file():
            yield path
            continue
        for file in sorted(path.rglob("*")):
            if file.suffix in SUFFIXES and file.is_file() and RULES not in file.parents \
                    and "__pycache__" not in file.parts:
                yield file


def cited() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """Rule ids and server ids cited, each with the files citing it."""
    rules: dict[str, set[str]] = {}
    server: dict[str, set[str]] = {}
    for file in scanned_files():
        text = file.read_text(encoding="utf-8", errors="replace")
        where = str(file.relative_to(ROOT))
        for game, rest in RULE_ID.findall(text):
            rules.setdefault(f"{game}-{rest}", set()).add(where)
        for sid in SERVER_TEXT.findall(text):
            server.setdefault(sid, set()).add(where)
        if file.suffix == ".py":
            for name in re.findall(r"def (test_\w+)", text):
                for game, rest in RULE_NAME.findall(name):
                    rules.setdefault(f"{game}-{rest}".upper(), set()).add(f"{where}::{name}")
                for sid in SERVER_NAME.findall(name):
                    server.setdefault(sid.upper(), set()).add(f"{where}::{name}")
    return rules, server


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


def described(text: str) -> str:
    return ", ".join(sorted(text))


@pytest.mark.parametrize("prefix", sorted(GAMES))
def test_every_rule_id_is_named_by_a_test(prefix):
    """A rule defined on docs/rules/<game>.md without a test that names it fails the suite."""
    assert page(prefix).is_file(), f"{page(prefix).relative_to(ROOT)} is missing"
    folder = ROOT / "tests" / GAMES[prefix]
    assert folder.is_dir(), f"tests/{GAMES[prefix]} is missing"
    ids = set(defined_rules(page(prefix).read_text(encoding="utf-8")))
    assert len(ids) >= 20, f"only {len(ids)} {prefix} rule ids found on {page(prefix).name}"
    names = function_names(folder)
    missing = sorted(r for r in ids if not any(re.search(pattern(r), n) for n in names))
    assert not missing, f"rule ids without a test naming them: {', '.join(missing)}"


def test_rule_pages_define_each_id_once_on_its_own_page():
    seen: dict[str, str] = {}
    for prefix in GAMES:
        for rule in defined_rules(page(prefix).read_text(encoding="utf-8")):
            assert rule.startswith(prefix + "-"), f"{rule} is defined on {page(prefix).name}"
            assert rule not in seen, f"{rule} is defined twice"
            seen[rule] = prefix


def test_every_cited_rule_id_is_defined():
    """An id that the code, a test, a benchmark or a doc cites and docs/rules/ does not define."""
    defined = {r for prefix in GAMES for r in defined_rules(page(prefix).read_text(encoding="utf-8"))}
    rules, _ = cited()
    assert len(rules) >= 100, f"only {len(rules)} rule ids cited: is the scan broken?"
    undefined = {r: files for r, files in rules.items() if r not in defined}
    assert not undefined, "rule ids cited but not defined in docs/rules/: " + "; ".join(
        f"{r} in {described(files)}" for r, files in sorted(undefined.items()))


def test_every_cited_server_id_is_defined():
    """A server requirement id (``P11``, ``R9``, ``LD6``…) cited but not in docs/server-requirements.md."""
    assert SERVER.is_file(), "docs/server-requirements.md is missing"
    defined = defined_server_ids()
    assert {"P11", "R9", "LD6", "H1", "S1", "C4", "A8", "F1", "I1"} <= defined
    _, server = cited()
    assert {"P11", "R9", "LD6"} <= set(server), "the scan finds no server citations: is it broken?"
    undefined = {s: files for s, files in server.items() if s not in defined}
    assert not undefined, "server ids cited but not defined in docs/server-requirements.md: " + "; ".join(
        f"{s} in {described(files)}" for s, files in sorted(undefined.items()))


def test_the_scan_reads_citations_as_the_code_writes_them():
    """The citation forms the scan must see, and the look-alikes it must leave alone."""
    found = ["-".join(m) for m in RULE_ID.findall("TX-16, TR-V7 and SP-A14 (SP-18a), XTR-1")]
    assert found == ["TX-16", "TR-V7", "SP-A14"]
    assert SERVER_TEXT.findall("(R9, S2) LD6: P11 on S0/S1, P0, bench/S7.py, A-1") == ["R9", "S2", "LD6", "P11"]
    rule_names = "test_trv7_reveal test_tx_a1_direction test_sp18a_empty test_trash_v0 test_tx2_ccw"
    assert [m for n in rule_names.split() for m in RULE_NAME.findall(n)] == [
        ("tr", "v7"), ("tx", "a1"), ("sp", "18"), ("tx", "2")]
    names = "test_p11_cap test_tx_a1_direction test_ld6_fanout test_s05_stack test_trash_a4_and_r9"
    assert [m for n in names.split() for m in SERVER_NAME.findall(n)] == ["p11", "ld6", "a4", "r9"]


@pytest.mark.parametrize("prefix", sorted(GAMES))
def test_every_option_and_preset_is_on_its_game_page(prefix):
    """The options and presets a game accepts are the ones its rules page states."""
    text = page(prefix).read_text(encoding="utf-8")
    game = game_class(GAMES[prefix])
    missing = [o.name for o in game.OPTIONS if f"`{o.name}`" not in text]
    missing += [f"preset {p}" for p in game.PRESETS if f"`{p}`" not in text]
    assert not missing, f"{page(prefix).name} does not state: {', '.join(missing)}"
    for option in game.OPTIONS:
        assert option.rule in defined_rules(text), f"option {option.name} cites {option.rule}, not on the page"
    assert cardtable.load(GAMES[prefix]).preset == "standard"


OUTSIDE = re.compile(r"shared[/]|\bRULES\.md|\bDESIGN\.md|server-tests\.md|[Ii]ssues?[ _]#?\d|test_[i]ssue_")


def test_nothing_points_outside_the_repository():
    """The README, the docs, the code and the tests cite the repository's own documents, not files
    beside the clone or issue numbers a reader of the repository cannot look up."""
    found = []
    for file in scanned_files():
        for number, line in enumerate(file.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if OUTSIDE.search(line):
                found.append(f"{file.relative_to(ROOT)}:{number}: {line.strip()[:80]}")
    assert not found, "references outside the repository:\n" + "\n".join(found)
