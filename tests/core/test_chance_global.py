"""F2: chance in cardtable comes from seeded generators and, in production, from ``secrets``.

cardtable has no ``Rng`` adapter object: its equivalent is ``cardtable.core.chance``, the one module
allowed to make generators (the import-linter contract in pyproject.toml forbids ``random`` and
``secrets`` in ``core`` and ``games`` elsewhere), seeded games (``derive``) and ``fresh_seed()``
from ``secrets``. These tests check that rule over the whole package, which the import contract
alone does not cover (the server, hosts and bots may import ``random`` for seeded generators).
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src" / "cardtable"
SEEDED = {"Random", "SystemRandom"}  # classes: a generator made from a seed, or the OS source


def global_random_uses(tree: ast.AST) -> list[str]:
    """The uses of the module-level generator in ``tree``: ``random.choice(…)``, ``from random
    import shuffle`` and the like (``random.Random`` and ``random.SystemRandom`` are allowed)."""
    names = {alias.asname or alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
             for alias in node.names if alias.name == "random"}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "random":
            found += [f"from random import {a.name}" for a in node.names if a.name not in SEEDED]
        elif (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in names
              and node.attr not in SEEDED):
            found.append(f"{node.value.id}.{node.attr} (line {node.lineno})")
    return found


def test_f2_no_module_uses_the_global_random_generator():
    offenders = {}
    for path in sorted(SRC.rglob("*.py")):
        where = path.relative_to(SRC).as_posix()
        uses = global_random_uses(ast.parse(path.read_text(encoding="utf-8")))
        if uses:
            offenders[where] = uses
    assert not offenders, f"the global random generator is used: {offenders}"


def test_f2_the_scan_catches_the_global_generator():
    assert global_random_uses(ast.parse("import random\nrandom.shuffle(deck)\n")) == ["random.shuffle (line 2)"]
    assert global_random_uses(ast.parse("import random as r\nx = r.random()\n")) == ["r.random (line 2)"]
    assert global_random_uses(ast.parse("from random import choice, Random\n")) == ["from random import choice"]
    assert global_random_uses(ast.parse("import random\nrng = random.Random(7)\n")) == []


def test_f2_engines_may_import_random_only_in_the_chance_module():
    config = tomllib.loads((SRC.parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    engine = next(c for c in contracts if c.get("source_modules") == ["cardtable.core", "cardtable.games"])
    assert {"random", "secrets"} <= set(engine["forbidden_modules"])
    assert {i.split(" -> ")[0] for i in engine.get("ignore_imports", [])} == {"cardtable.core.chance"}


def test_f2_production_seeds_come_from_secrets(monkeypatch: pytest.MonkeyPatch):
    """``fresh_seed()`` (a game without a seed) and a server table's fair-deal server seed are drawn
    from ``secrets``, the operating system's source, not from a generator a seed could predict."""
    import secrets

    import cardtable
    from cardtable.core import chance
    from cardtable.server.hub import Hub
    from cardtable.server.store import Store

    drawn: list[tuple[str, int]] = []
    real_bytes = secrets.token_bytes

    def randbits(k: int) -> int:
        drawn.append(("randbits", k))
        return 123456789

    def token_bytes(n: int | None = None) -> bytes:
        drawn.append(("token_bytes", n or 0))
        return real_bytes(n)

    monkeypatch.setattr(secrets, "randbits", randbits)
    monkeypatch.setattr(secrets, "token_bytes", token_bytes)
    assert chance.fresh_seed() == 123456789
    assert cardtable.load("trash").new_state().seed == 123456789
    drawn.clear()
    hub = Hub(Store(":memory:"))
    table, _ = hub.create("trash", None, {})
    for seat in range(2):
        table.sit(seat, f"P{seat}")
    table.start()
    assert table.match is not None
    assert ("token_bytes", chance.SEED_BYTES) in drawn, drawn  # the server's seed of the fair deal
