"""Golden playthroughs: every game and preset has one, and it still plays the same.

After an intended rule change: ``python -m cardtable.records.golden tests/golden``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import cardtable  # noqa: F401  (registers the games)
from cardtable.records.golden import golden_files, playthrough

FOLDER = Path(__file__).parent / "golden"


@pytest.mark.parametrize(("name", "preset"), golden_files())
def test_golden_playthrough(name, preset):
    path = FOLDER / f"{name}-{preset}.txt"
    assert path.exists(), f"no golden playthrough for {name}/{preset}: run python -m cardtable.records.golden"
    assert playthrough(name, preset) == path.read_text(encoding="utf-8"), (
        f"{path.name} changed: if the rule change is intended, regenerate and note it in CHANGELOG.md"
    )
