"""Build hook: ``cardtable.core``, ``cardtable.games`` and the Trex search's inner loop compiled with mypyc.

The compiled modules are built from the same Python source as the pure
package, which is always complete: with ``CARDTABLE_PURE=1``, without mypyc or
without a C compiler, the install is pure Python. ``cardtable --version`` says
which build runs. Everything else (metadata, packages, extras) is in
pyproject.toml.

``CARDTABLE_MYPYC_OPT`` sets mypyc's C optimisation level (0-3, default 3).
``python setup.py --why-pure`` prints why a build would be pure Python, or
nothing when it would compile (``make compiled`` asks it first; mypyc comes
with the build requirements, so only the compiler and ``CARDTABLE_PURE`` are
checked).
"""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig
from pathlib import Path


HERE = Path(__file__).parent
COMPILED_PACKAGES = ("src/cardtable/core", "src/cardtable/games")
COMPILED_MODULES = (
    # the Trex search's inner loop: its rollout policy, its rollouts, its endgame solver and the
    # learned model its reading scores every world with, which read and play the compiled
    # TrexState; the bot classes around them stay interpreted
    "src/cardtable/bots/trex_strong.py",
    "src/cardtable/bots/trex_search.py",
    "src/cardtable/bots/trex_endgame.py",
    "src/cardtable/bots/trex_learned.py",
)
INTERPRETED = {
    # Options is a collections.abc.Mapping read by attribute (__getattr__): mypyc cannot
    # compile either for a class with a non-native base; no hot path reads it.
    "src/cardtable/core/options.py",
    # Special (TERMINAL, SIMULTANEOUS) subclasses int, which a compiled class cannot.
    "src/cardtable/core/seats.py",
    # The views: PlayerView and each game's frozen view dataclass built on it. mypyc would
    # make them non-native classes, which it cannot build from a dataclass with a base;
    # Spit also fills its views directly (games/spit/state.py). The states that build them
    # are compiled.
    "src/cardtable/core/view.py",
    "src/cardtable/games/trash/view.py",
    "src/cardtable/games/trex/view.py",
    "src/cardtable/games/spit/view.py",
}


def compiled_sources() -> list[str]:
    """The modules mypyc compiles, relative to this file, sorted."""
    out = []
    for package in COMPILED_PACKAGES:
        for path in sorted((HERE / package).rglob("*.py")):
            rel = path.relative_to(HERE).as_posix()
            if rel not in INTERPRETED:
                out.append(rel)
    return sorted(out + list(COMPILED_MODULES))


def why_pure(check_mypyc: bool = True) -> str | None:
    """Why this install is pure Python, or ``None`` to compile."""
    if os.environ.get("CARDTABLE_PURE", "") not in ("", "0"):
        return "CARDTABLE_PURE is set"
    if check_mypyc:
        try:
            import mypyc.build  # noqa: F401
        except ImportError:
            return "mypyc is not installed"
    compiler = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    if shutil.which(compiler.split()[0]) is None:
        return f"no C compiler ({compiler.split()[0]}) on PATH"
    return None


def ext_modules() -> list[object]:
    reason = why_pure()
    if reason is not None:
        print(f"cardtable: installing pure Python ({reason})", file=sys.stderr)
        return []
    from mypyc.build import mypycify

    opt = os.environ.get("CARDTABLE_MYPYC_OPT", "3")
    print(f"cardtable: compiling core, games and the Trex search with mypyc (-O{opt})", file=sys.stderr)
    # only some modules are compiled, so not every [[tool.mypy.overrides]] pattern is used
    return list(mypycify(["--no-warn-unused-configs", *compiled_sources()], opt_level=opt))


if __name__ == "__main__" and sys.argv[1:] == ["--why-pure"]:
    print(why_pure(check_mypyc=False) or "")
else:
    from setuptools import setup  # here, so that --why-pure runs where setuptools is not installed

    setup(ext_modules=ext_modules())
