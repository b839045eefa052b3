"""The package as others install it: the wheel, installed without extras into a fresh
virtualenv (no network: ``--no-index``, no dependencies), gives a ``cardtable`` command whose every
subcommand works or says in one line which extra to install; ``--version`` always works."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@cache
def base_install(folder: Path) -> Path:
    """Build the pure wheel from a copy of the sources (the checkout stays clean) and install it
    alone into a new virtualenv; the virtualenv's ``bin``."""
    src = folder / "src-copy"
    src.mkdir(parents=True)
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, src / name)
    shutil.copytree(ROOT / "src", src / "src", ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd"))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # the test run's own sources stay out
    env.update(CARDTABLE_PURE="1", PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
    pip = [sys.executable, "-m", "pip"]
    subprocess.run([*pip, "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", str(folder / "dist"), str(src)],
                   env=env, check=True, capture_output=True, timeout=180)
    (wheel,) = (folder / "dist").glob("cardtable-*.whl")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder / "venv")], env=env, check=True,
                   timeout=120)
    python = folder / "venv" / "bin" / "python"
    subprocess.run([*pip, "--python", str(python), "install", "-q", "--no-deps", "--no-index", str(wheel)],
                   env=env, check=True, capture_output=True, timeout=180)
    return folder / "venv" / "bin"


@pytest.fixture(scope="module")
def bin_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return base_install(tmp_path_factory.mktemp("wheel"))


def run(bin_dir: Path, *args: str, stdin: str = "", cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "CARDTABLE_EXPECT_BUILD")}
    env.update(NO_COLOR="1", LANG="C.UTF-8", PYTHONIOENCODING="utf-8")
    done = subprocess.run([str(bin_dir / "cardtable"), *args], input=stdin, capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=120)
    assert "Traceback" not in done.stdout + done.stderr, done.stderr
    return done


def one_line_naming_the_extra(done: subprocess.CompletedProcess[str], extra: str) -> None:
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1, done.stderr
    assert f"pip install 'cardtable[{extra}]'" in lines[0]


def test_the_base_install_is_the_wheel_alone(bin_dir: Path) -> None:
    python = bin_dir / "python"
    where = subprocess.run([str(python), "-c", "import cardtable, importlib.util as u; print(cardtable.__file__); "
                            "print([m for m in ('textual', 'rich', 'starlette') if u.find_spec(m)])"],
                           capture_output=True, text=True, check=True, timeout=60, env={"PATH": os.environ["PATH"]})
    file, extras = where.stdout.splitlines()
    assert "site-packages" in file and str(ROOT) not in file and extras == "[]"


def test_version_and_every_subcommand_help_work_without_extras(bin_dir: Path) -> None:
    version = run(bin_dir, "--version")
    assert version.returncode == 0 and re.fullmatch(r"cardtable \S+ \(pure Python\)\n", version.stdout)
    listing = run(bin_dir, "no-such-command")  # argparse lists every subcommand
    assert listing.returncode == 2 and "choose from" in listing.stderr
    names = re.findall(r"'([a-z-]+)'", listing.stderr.split("choose from", 1)[1])
    everything = {"play", "rules", "replay", "games", "simulate", "report", "arena", "serve", "review", "verify"}
    assert everything <= set(names)
    for name in names:
        assert run(bin_dir, name, "--help").returncode == 0, name


def test_base_install_plays_and_names_the_extra_of_the_rest(bin_dir: Path, tmp_path: Path) -> None:
    assert "Trex" in run(bin_dir, "games").stdout
    assert "Options" in run(bin_dir, "rules", "trex").stdout
    played = run(bin_dir, "play", "trash", "--bots", "1", "--seed", "2", "--save", str(tmp_path / "g.json"),
                 stdin="\nq\n")
    assert played.returncode == 0 and "Trash" in played.stdout and (tmp_path / "g.json").exists()
    assert run(bin_dir, "replay", str(tmp_path / "g.json")).returncode == 0
    assert run(bin_dir, "review", str(tmp_path / "g.json"), "--worlds", "2").returncode == 0
    simulated = run(bin_dir, "simulate", "trash", "--games", "4", "--bots", "sensible,stock", "--workers", "1",
                    "--out", str(tmp_path / "runs"))
    assert simulated.returncode == 0 and "results:" in simulated.stdout
    assert "pip install 'cardtable[sim]'" in simulated.stderr  # no progress bar without rich, and it says so
    one_line_naming_the_extra(run(bin_dir, "serve", "--port", "0"), "web")
    one_line_naming_the_extra(run(bin_dir, "report", str(tmp_path / "runs")), "sim")
    one_line_naming_the_extra(run(bin_dir, "arena", "trash", "--bots", "sensible,stock", "--games", "1"), "arena")
    one_line_naming_the_extra(run(bin_dir, "replay", str(tmp_path / "g.json"), "--tui"), "tui")
