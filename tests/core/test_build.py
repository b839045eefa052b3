"""The compiled build and the pure build run the same suite; `make test` says which
build each run expects (CARDTABLE_EXPECT_BUILD), and these tests prove it is the one imported."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

import cardtable
from cardtable.core import COMPILED, build_name

EXPECTED = os.environ.get("CARDTABLE_EXPECT_BUILD")
ROOT = Path(__file__).resolve().parents[2]
INTERPRETED = {"cardtable.core.options", "cardtable.core.seats", "cardtable.core.view"}  # setup.py says why


SEARCH_MODULES = ["cardtable.bots.trex_strong", "cardtable.bots.trex_search", "cardtable.bots.trex_endgame",
                  "cardtable.bots.trex_learned"]
"""The Trex search's inner loop, compiled with the engine (setup.py's COMPILED_MODULES)."""


def engine_modules() -> list[str]:
    """Every module of core and games, by name, from the source tree, and the search's."""
    src = ROOT / "src"
    names = []
    for package in ("core", "games"):
        for path in sorted((src / "cardtable" / package).rglob("*.py")):
            parts = path.relative_to(src).with_suffix("").parts
            names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names + SEARCH_MODULES


def is_view_module(name: str) -> bool:
    return name in INTERPRETED or name.endswith(".view")


@pytest.mark.skipif(EXPECTED is None, reason="make test sets CARDTABLE_EXPECT_BUILD for each run")
def test_the_build_make_test_asked_for_is_imported() -> None:
    assert EXPECTED in ("pure", "compiled")
    compiled = EXPECTED == "compiled"
    assert COMPILED is compiled
    for name in engine_modules():
        module = importlib.import_module(name)
        file = module.__file__ or ""
        if compiled and not is_view_module(name):
            assert file.endswith((".so", ".pyd")), f"{name} is not compiled: {file}"
        else:
            assert file.endswith(".py"), f"{name} should be interpreted: {file}"


def test_compiled_flag_matches_the_engine_modules() -> None:
    from cardtable.games.trash import state

    assert COMPILED is (not (state.__file__ or "").endswith(".py"))
    assert build_name() == ("compiled with mypyc" if COMPILED else "pure Python")


def test_version_says_which_build_runs() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "cardtable.cli.main", "--version"], capture_output=True, text=True, check=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    ).stdout
    assert out.strip() == f"cardtable {cardtable.__version__} ({build_name()})"
