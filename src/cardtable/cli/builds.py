"""The ``cardtable`` command of a checkout runs the compiled build when one was built.

``make compiled`` builds ``core``, ``games`` and the Trex search with mypyc into
``build/compiled`` beside the editable (pure-Python) install of ``src``. The
command, started without ``PYTHONPATH``, then runs itself again on that build,
as long as the build is newer than every file under ``src/cardtable`` (a stale
build would hide the edits since; the command says so and stays pure). The
bots of the compiled build search about three times as far in the same time.

A build is chosen explicitly, and never switched, when any of these is set:
``PYTHONPATH`` (``make test`` and the developer's own runs select a build that
way), ``CARDTABLE_EXPECT_BUILD`` (a test run) or ``CARDTABLE_PURE`` (a person's
choice of the pure build).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

from ..core.build import COMPILED

STAMP = Path("build") / "compiled" / ".built"
"""Written by ``make compiled`` once the compiled build imports as compiled."""


def checkout_root(package_dir: Path) -> Path | None:
    """The checkout ``package_dir`` (``…/src/cardtable``) belongs to, or ``None`` for an installed package."""
    root = package_dir.parent.parent
    if package_dir.parent.name == "src" and (root / "pyproject.toml").is_file():
        return root
    return None


def newest_source(package_dir: Path) -> float:
    """The latest modification time of any file of the package (sources, catalogs, page)."""
    newest = 0.0
    for folder, dirs, files in os.walk(package_dir):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for name in files:
            newest = max(newest, os.stat(os.path.join(folder, name)).st_mtime)
    return newest


def compiled_build(package_dir: Path, env: Mapping[str, str], compiled: bool = COMPILED) -> tuple[Path | None, str]:
    """The checkout's compiled build to run instead of this one, and a note for the person
    (empty when there is nothing to say)."""
    if compiled or any(env.get(k) for k in ("PYTHONPATH", "CARDTABLE_EXPECT_BUILD", "CARDTABLE_PURE")):
        return None, ""
    root = checkout_root(package_dir)
    if root is None or not (root / STAMP).is_file():
        return None, ""
    if (root / STAMP).stat().st_mtime < newest_source(package_dir):
        return None, ("cardtable: build/compiled is older than src/cardtable, so this runs the pure-Python "
                      "build (make compiled rebuilds it)")
    return root / STAMP.parent, ""


def run_compiled_build_if_built(argv: list[str]) -> None:
    """Run ``cardtable argv`` on the checkout's compiled build, if there is a fresh one: this
    process is replaced and the call does not return. Otherwise return (after a one-line
    note on stderr when the build is stale)."""
    package_dir = Path(__file__).resolve().parent.parent
    build, note = compiled_build(package_dir, os.environ)
    if note:
        print(note, file=sys.stderr)
    if build is None:
        return
    env = dict(os.environ, PYTHONPATH=str(build))
    sys.stdout.flush()
    sys.stderr.flush()
    # -P: the current directory does not go first on the path (a `cardtable` folder there would win)
    os.execve(sys.executable, [sys.executable, "-P", "-m", "cardtable.cli.main", *argv], env)
