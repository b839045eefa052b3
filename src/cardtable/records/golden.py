"""Golden playthroughs: a seeded game printed step by step, one file per game
and preset (``tests/golden/<game>-<preset>.txt``), checked by the test suite.

Regenerate them all after an intended rule change (and say so under *Rule
changes* in CHANGELOG.md)::

    python -m cardtable.records.golden tests/golden
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from ..core.game import State
from ..core.registry import game_class, game_names, load
from ..core.seats import SIMULTANEOUS

SEED = 20261130
MAX_STEPS = 5000


def random_action(state: State, rng: random.Random):  # type: ignore[no-untyped-def]
    """A uniformly random legal action (of any seat when play is simultaneous)."""
    legal = state.legal_actions()
    return legal[rng.randrange(len(legal))]


def playthrough(game_name: str, preset: str, seed: int = SEED, max_steps: int = MAX_STEPS) -> str:
    """The text of a seeded random game of ``game_name`` under ``preset``."""
    game = load(game_name, preset)
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    lines = [
        f"# golden playthrough: {game_name}, preset {preset}, seed {seed}",
        "# regenerate with: python -m cardtable.records.golden tests/golden",
        "",
        "initial state:",
        *("  " + line for line in str(state).splitlines()),
    ]
    for step in range(1, max_steps + 1):
        if state.is_terminal():
            break
        player = state.current_player()
        legal = state.legal_actions()
        action = random_action(state, rng)
        who = "all" if player == SIMULTANEOUS else f"seat {player}"
        lines.append(f"{step}. {who}: {action}   (legal: {' | '.join(str(a) for a in legal)})")
        state.apply(action)
        lines.extend(f"     - {e.text}" for e in state.view(None).events)
    outcome = state.outcome()
    lines += ["", "final state:", *("  " + line for line in str(state).splitlines())]
    lines.append(f"outcome: {outcome}" if outcome else f"stopped after {max_steps} steps")
    return "\n".join(lines) + "\n"


def golden_files() -> list[tuple[str, str]]:
    """Every (game, preset) pair that needs a golden file."""
    return [(name, preset) for name in game_names() for preset in game_class(name).PRESETS]


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    folder = Path(args[0] if args else "tests/golden")
    folder.mkdir(parents=True, exist_ok=True)
    for name, preset in golden_files():
        path = folder / f"{name}-{preset}.txt"
        path.write_text(playthrough(name, preset), encoding="utf-8")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
