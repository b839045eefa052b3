"""Run a bench worker on the pure and the compiled build of cardtable (CONTRIBUTING.md, "Two builds").

The pure build is the source tree (``src``); the compiled one is ``build/compiled``
(``make setup`` makes it). Each worker is a fresh process that prints one JSON line.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BUILDS = {"pure": ROOT / "src", "compiled": ROOT / "build" / "compiled"}


def available() -> list[str]:
    return [name for name, path in BUILDS.items() if name == "pure" or (path / "cardtable").is_dir()]


def run_worker(script: Path, build: str, args: list[str]) -> dict[str, Any]:
    """``script --worker BUILD args`` on ``build`` (``peer``: no cardtable build); its JSON result."""
    env = {**os.environ, "PYTHONPATH": str(BUILDS.get(build, BUILDS["pure"]))}
    out = subprocess.run(
        [sys.executable, str(script), "--worker", build, *args], env=env, capture_output=True, text=True, check=True
    ).stdout
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return result
