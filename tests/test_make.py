"""The Makefile and the builds: `make play` reaches a game at once
and never fails for want of a C compiler; the compiled build is skipped with a clear word; the
`cardtable` command of a checkout runs the compiled build whenever a fresh one was built."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cardtable.cli.builds import compiled_build

ROOT = Path(__file__).resolve().parents[1]
VENV = Path(sys.prefix)
COMPILER = re.compile(r"^(cc|c89|c99|gcc|clang|tcc|icc|c\+\+|g\+\+|clang\+\+)(-[\d.]+)?$"
                      r"|-(gcc|cc|clang|g\+\+)(-[\d.]+)?$")
"""Names of C (and C++) compilers, as Debian installs them (gcc-12, x86_64-linux-gnu-gcc, c99-gcc …)."""


def path_without_compilers(folder: Path) -> str:
    """A PATH of one folder holding a link to every program of this PATH except the compilers."""
    folder.mkdir()
    for d in os.environ.get("PATH", "").split(os.pathsep):
        if not os.path.isdir(d):
            continue
        for name in sorted(os.listdir(d)):
            full = os.path.join(d, name)
            if COMPILER.search(name) or os.path.lexists(folder / name):
                continue
            if os.path.isfile(full) and os.access(full, os.X_OK):
                (folder / name).symlink_to(full)
    return str(folder)


def checkout_copy(dest: Path) -> Path:
    """What `make` reads of a clone: the Makefile, setup.py, pyproject.toml and the sources."""
    dest.mkdir()
    for name in ("Makefile", "setup.py", "pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, dest / name)
    shutil.copytree(ROOT / "src", dest / "src", ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd"))
    return dest


@pytest.mark.skipif(not (VENV / "bin" / "cardtable").exists() or shutil.which("make") is None,
                    reason="needs make and the virtualenv's cardtable command (make setup)")
def test_make_play_reaches_a_game_without_a_c_compiler(tmp_path: Path) -> None:
    copy = checkout_copy(tmp_path / "clone")
    env = {k: v for k, v in os.environ.items() if k not in ("CC", "PYTHONPATH", "CARDTABLE_EXPECT_BUILD")}
    env["PATH"] = path_without_compilers(tmp_path / "bin")
    assert shutil.which("cc", path=env["PATH"]) is None and shutil.which("gcc", path=env["PATH"]) is None
    assert shutil.which("make", path=env["PATH"]) and shutil.which("python3", path=env["PATH"])
    env["PYTHONPATH"] = str(copy / "src")  # the virtualenv's command runs the copy's sources
    make = ["make", "--no-print-directory", "-C", str(copy), f"VENV={VENV}",
            "-o", f"{VENV}/.installed", "-o", f"{VENV}/.installed-play"]  # the virtualenv is there already

    built = subprocess.run([*make, "compiled"], env=env, capture_output=True, text=True, timeout=120)
    assert built.returncode == 0, built.stdout + built.stderr
    assert "the compiled build is skipped (no C compiler" in built.stdout
    assert not (copy / "build" / "compiled").exists()

    start = time.monotonic()
    played = subprocess.run([*make, "play", "PLAY=trash --bots 1 --plain --no-color --seed 3"], env=env,
                            input="q\n", capture_output=True, text=True, timeout=120)
    assert played.returncode == 0, played.stdout + played.stderr
    assert "playing on the pure-Python build" in played.stdout
    assert "Trash — you are seat 0" in played.stdout and "Goodbye." in played.stdout
    assert time.monotonic() - start < 90  # no compiled build was waited for

    version = subprocess.run([str(VENV / "bin" / "cardtable"), "--version"], env=env, capture_output=True,
                             text=True, timeout=60)
    assert "(pure Python)" in version.stdout


def fake_checkout(tmp_path: Path) -> Path:
    """A checkout whose build/compiled holds a copy of the package that calls itself compiled (what
    `cardtable --version` prints comes from the package that was imported)."""
    root = tmp_path / "checkout"
    root.mkdir()
    shutil.copy2(ROOT / "pyproject.toml", root / "pyproject.toml")
    ignore = shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", "web")
    shutil.copytree(ROOT / "src" / "cardtable", root / "src" / "cardtable", ignore=ignore)
    compiled = root / "build" / "compiled" / "cardtable"
    shutil.copytree(ROOT / "src" / "cardtable", compiled, ignore=ignore)
    build = compiled / "core" / "build.py"
    build.write_text(re.sub(r"COMPILED: Final = .*", "COMPILED: Final = True", build.read_text()))
    future = time.time() + 60  # the build is newer than every source
    (root / "build" / "compiled" / ".built").touch()
    os.utime(root / "build" / "compiled" / ".built", (future, future))
    return root


def run_command(root: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """`cardtable ARGS` as the installed command runs it (``main()`` with no argv) from ``root``'s src."""
    code = (f"import sys; sys.path.insert(0, {str(root / 'src')!r}); "
            "from cardtable.cli.main import main; sys.exit(main())")
    base = {k: v for k, v in os.environ.items()
            if k not in ("PYTHONPATH", "CARDTABLE_EXPECT_BUILD", "CARDTABLE_PURE")}
    return subprocess.run([sys.executable, "-c", code, *args], env={**base, **env}, cwd=root,
                          capture_output=True, text=True, timeout=60)


def test_the_checkout_command_runs_the_compiled_build_when_one_was_built(tmp_path: Path) -> None:
    root = fake_checkout(tmp_path)
    assert "(compiled with mypyc)" in run_command(root, "--version").stdout
    # an explicit choice of build is kept: PYTHONPATH (make test, a developer), a test run, CARDTABLE_PURE
    assert "(pure Python)" in run_command(root, "--version", CARDTABLE_PURE="1").stdout
    assert "(pure Python)" in run_command(root, "--version", CARDTABLE_EXPECT_BUILD="pure").stdout
    assert "(pure Python)" in run_command(root, "--version", PYTHONPATH=str(tmp_path)).stdout
    # a source edited after the build: the pure build runs, and says why
    later = time.time() + 120
    os.utime(root / "src" / "cardtable" / "games" / "trash" / "state.py", (later, later))
    stale = run_command(root, "--version")
    assert "(pure Python)" in stale.stdout and "build/compiled is older than src/cardtable" in stale.stderr


def test_an_installed_package_or_a_compiled_one_never_switches(tmp_path: Path) -> None:
    root = fake_checkout(tmp_path)
    package = root / "src" / "cardtable"
    assert compiled_build(package, {})[0] == root / "build" / "compiled"
    assert compiled_build(package, {}, compiled=True) == (None, "")
    site = tmp_path / "site-packages" / "cardtable"  # an installed package has no checkout around it
    site.mkdir(parents=True)
    assert compiled_build(site, {}) == (None, "")
    (root / "build" / "compiled" / ".built").unlink()  # `make compiled` skipped: nothing to run
    assert compiled_build(package, {}) == (None, "")
