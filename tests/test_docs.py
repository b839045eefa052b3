"""Every code block of README.md, CONTRIBUTING.md, docs/*.md and docs/rules/*.md works as written.

Python blocks run, each in a fresh namespace and a scratch folder. Shell blocks are checked
without running what is slow: every ``cardtable …`` command line parses with the real argument
parser (and its game, preset, options and seats load), every ``make`` target exists, and every
``bench/*.py`` script exists and knows the flags the line gives it (from its ``--help``), every
``python -m pytest`` line names test files that exist, and the lint tools it names are installed.
Leading ``NAME=value`` words (``PYTHONPATH=src``) set the command's environment and are skipped.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

import cardtable
from cardtable.cli.main import build_parser
from cardtable.core.options import parse_pairs
from cardtable.core.registry import game_class

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md")),
         *sorted((ROOT / "docs" / "rules").glob("*.md"))]
LINTERS = ("ruff", "mypy", "lint-imports")
FENCE = re.compile(r"^```(\w+)[^\n]*\n(.*?)^```", re.S | re.M)
SHELLS = ("sh", "bash", "shell", "console")


def blocks(kinds: tuple[str, ...]) -> list[tuple[str, str]]:
    out = []
    for page in PAGES:
        for i, match in enumerate(FENCE.finditer(page.read_text(encoding="utf-8"))):
            if match.group(1) in kinds:
                out.append((f"{page.relative_to(ROOT)}#{i}", match.group(2)))
    return out


PYTHON = blocks(("python",))
SHELL = blocks(SHELLS)


def test_the_docs_have_code_blocks_to_check():
    assert len(PYTHON) >= 4 and len(SHELL) >= 6


@pytest.mark.parametrize(("where", "code"), PYTHON, ids=[w for w, _ in PYTHON])
def test_python_block_runs(where, code, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    exec(compile(code, where, "exec"), {"__name__": "__docs__"})


def commands(code: str, variables: dict[str, str] | None = None) -> list[list[str]]:
    """The command lines of a shell block, each split into words: comments dropped, ``\\``
    continuations joined, ``&&`` and ``;`` split, ``for x in a b; do …`` run with its first value,
    ``$C``-style variables set earlier (in this block or in ``variables``) substituted."""
    text = code.replace("\\\n", " ")
    variables = dict(variables or {})
    out: list[list[str]] = []
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip() if not raw.lstrip().startswith("#") else ""
        loop = re.match(r"for (\w+) in (\S+)[^;]*;?(.*)", line)
        if loop:  # the loop's variable takes its first value; a body on the same line is checked too
            variables[loop.group(1)] = loop.group(2)
            line = loop.group(3)
        for part in re.split(r"&&|;", line):
            part = part.strip()
            if part in ("", "do", "done") or part.startswith("do "):
                part = part[3:].strip() if part.startswith("do ") else ""
            if not part:
                continue
            assign = re.fullmatch(r"(\w+)=(\S+)", part)
            if assign:
                variables[assign.group(1)] = assign.group(2)
                continue
            for name, value in variables.items():
                part = part.replace(f"${name}", value)
            out.append(shlex.split(part.replace("[", "").replace("]", "")))
    return out


@cache
def bench_help(script: str) -> str:
    done = subprocess.run([sys.executable, str(ROOT / script), "--help"], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return done.stdout


def make_targets() -> set[str]:
    """The Makefile's targets, ``$(NAME)`` targets expanded from its ``NAME := value`` lines."""
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    variables = dict(re.findall(r"^(\w+) *[:?]?= *(\S*) *$", text, re.M))

    def expand(word: str) -> str:
        for _ in range(10):  # variables defined by variables, a few levels deep
            word = re.sub(r"\$\((\w+)\)", lambda m: variables.get(m.group(1), ""), word)
        return word

    return {expand(t) for t in re.findall(r"^([\w$()./-]+):(?!=)", text, re.M)}


def check_pytest(where: str, words: list[str]) -> None:
    """``python -m pytest …``: every file or folder it names exists (``path::test`` by its path)."""
    for word in words:
        if not word.startswith("-") and ("/" in word or word.endswith(".py")):
            path = word.split("::")[0]
            assert (ROOT / path).exists(), f"{where}: pytest is given {path}, which does not exist"


def check_linter(where: str, program: str, rest: list[str]) -> None:
    tool = Path(sys.executable).parent / Path(program).name
    assert tool.exists(), f"{where}: {tool} is not installed"
    for word in rest:
        if not word.startswith("-") and word != "check":
            assert (ROOT / word).exists(), f"{where}: {program} is given {word}, which does not exist"


def check_cardtable(words: list[str]) -> None:
    try:
        args = build_parser().parse_args(words)
    except SystemExit as exc:  # argparse has printed why
        raise AssertionError(f"cardtable {' '.join(words)}: does not parse") from exc
    if args.command == "play" and not getattr(args, "resume", None):
        from cardtable.tui.seats import parse_seats

        name = game_class(args.game or "trash").name
        options = parse_pairs(args.option)
        if args.bots is not None:
            options.setdefault("players", str(args.bots + 1)) if name == "trash" else None
        if args.seats:
            seats = parse_seats(args.seats, name)
            if name == "trash":
                options.setdefault("players", str(len(seats)))
        cardtable.load(name, args.preset, **options)
    elif args.command == "rules":
        cardtable.load(args.game, args.preset)


@pytest.mark.parametrize(("where", "code"), SHELL, ids=[w for w, _ in SHELL])
def test_shell_block_commands_parse(where, code):
    page = where.split("#")[0]
    earlier: dict[str, str] = {}  # a page's blocks share its variables (C=.venv/bin/cardtable)
    for other, text in SHELL:
        if other.split("#")[0] == page and other != where:
            earlier.update(re.findall(r"^(\w+)=(\S+)\s*$", text, re.M))
    lines = commands(code, earlier)
    assert lines, f"{where}: no command"
    for words in lines:
        while len(words) > 1 and re.fullmatch(r"\w+=\S*", words[0]):  # PYTHONPATH=src python …
            words = words[1:]
        program, rest = words[0], words[1:]
        if program.endswith("cardtable"):
            check_cardtable(rest)
        elif program == "make":
            assert set(rest) <= make_targets(), f"{where}: make {rest}"
        elif program.endswith("python") or program.endswith("python3"):
            if rest[:2] == ["-m", "venv"]:
                continue
            if rest[:2] == ["-m", "pytest"]:
                check_pytest(where, rest[2:])
                continue
            script = rest[0]
            assert (ROOT / script).is_file(), f"{where}: no {script}"
            helptext = bench_help(script)
            for flag in (w.split("=")[0] for w in rest[1:] if w.startswith("--")):
                assert flag in helptext, f"{where}: {script} has no {flag}"
        elif program.endswith("pip"):
            continue
        elif Path(program).name in LINTERS:
            check_linter(where, program, rest)
        else:
            raise AssertionError(f"{where}: a command the docs test does not know: {' '.join(words)}")


def test_commands_splits_loops_variables_and_continuations():
    code = 'C=.venv/bin/cardtable\nfor pair in a,b c,d; do\n  $C simulate spit --bots $pair \\\n  --games 3\ndone\n'
    assert commands(code) == [[".venv/bin/cardtable", "simulate", "spit", "--bots", "a,b", "--games", "3"]]
    assert commands("make play  # comment\nx && y") == [["make", "play"], ["x"], ["y"]]


def test_make_targets_expand_variables():
    """``make build/compiled/.built`` is the Makefile's ``$(COMPILED_STAMP):`` target."""
    targets = make_targets()
    assert {"play", "test", "golden", "build/compiled/.built"} <= targets
    assert not any("$" in t for t in targets)


def test_page_links_stay_inside_the_repository():
    """A reader with only the repository can follow every relative link of the pages."""
    broken = []
    for page in PAGES:
        for target in re.findall(r"\]\(([^)\s]+)\)", page.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue
            path = (page.parent / target.split("#")[0]).resolve()
            if not path.exists() or ROOT.resolve() not in path.parents:
                broken.append(f"{page.relative_to(ROOT)}: {target}")
    assert not broken, "links to nothing or outside the repository: " + ", ".join(broken)
