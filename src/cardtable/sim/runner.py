"""Play simulated matches on the unchecked fast path.

:func:`play_match` is the turn-based driver: ``legal_actions`` + ``apply``
(no legality check, no host bookkeeping). A bot is asked through its seat's
view, exactly as :class:`cardtable.host.Match` asks it, with the same seeded
generators (``derive(bot_seed, "bot", seat)``), and each bot is first told the
game's rule options (``attach(game)``, as the host does), so a simulated match equals
``play_out(game, bots, seed, bot_seed)`` action for action. Two shortcuts keep
that equality: the ``random`` bot's choice is made from ``legal_actions``
directly (no view), and a bot the game's metrics list as *pure* is not asked
when it has a single legal action.

:func:`run_chunk` plays a list of match numbers of a :class:`SimSpec` and
returns their rows; it is what a worker process or a Ray task runs.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from ..bots.base import Bot, RandomBot, attach, make_bot
from ..core.chance import derive
from ..core.errors import CardtableError
from ..core.game import Game, State
from ..core.seats import SIMULTANEOUS, TERMINAL
from .metrics import metrics_for
from .metrics.base import Recorder
from .spec import SimSpec, match_seeds

MAX_ACTIONS = 5_000_000
"""A match longer than this is a bug (an engine loop), reported as an error."""


class SimulationError(CardtableError):
    """A match could not be simulated."""


def play_match(
    state: State,
    bots: Sequence[Bot],
    bot_seed: int,
    recorder: Recorder | None = None,
    pure: frozenset[str] = frozenset(),
) -> State:
    """Play a turn-based match from ``state`` to the end (``state`` is returned, finished).

    >>> import cardtable
    >>> from cardtable.bots import make_bot
    >>> from cardtable.host import play_out
    >>> game = cardtable.load("trash")
    >>> bots = [make_bot("trash", "sensible"), make_bot("trash", "random")]
    >>> fast = play_match(game.new_state(seed=3), bots, 9, pure=frozenset({"sensible"}))
    >>> fast.history == play_out(game, bots, seed=3, bot_seed=9).history
    True
    """
    game = state.game
    for bot in bots:
        attach(bot, game)  # the rule options a view does not carry, as the host's Match tells them
    rngs = [derive(bot_seed, "bot", s) for s in range(len(bots))]
    # 0: ask the bot; 1: the random bot's choice without a view; 2: pure bot (forced moves skipped)
    modes = [1 if type(b) is RandomBot else 2 if b.name in pure else 0 for b in bots]
    step = recorder.step if recorder is not None else None
    legal_actions = state.legal_actions
    apply = state.apply
    current = state.current_player
    count = 0
    while True:
        p = current()
        if p < 0:
            if p == TERMINAL:
                return state
            if p == SIMULTANEOUS:
                raise SimulationError(f"{game.name} is played in real time: its metrics module must give a driver")
            raise SimulationError(f"{game.name}: unexpected player {p}")
        legal = legal_actions()
        mode = modes[p]
        if mode == 1:
            action = legal[rngs[p].randrange(len(legal))]
        elif mode == 2 and len(legal) == 1:
            action = legal[0]
        else:
            action = bots[p].act(state.view(p), rngs[p])
        apply(action)
        if step is not None:
            step(state, action)
        count += 1
        if count > MAX_ACTIONS:
            raise SimulationError(f"{game.name}: a match passed {MAX_ACTIONS} actions")


_GAMES: dict[str, Game] = {}


def _game(spec: SimSpec) -> Game:
    key = spec.key
    game = _GAMES.get(key)
    if game is None:
        game = _GAMES[key] = spec.load()
    return game


def run_match(spec: SimSpec, match: int) -> dict[str, Any]:
    """Match number ``match`` of ``spec`` as one result row."""
    game = _game(spec)
    metrics = metrics_for(spec.game)
    lineup = spec.lineup(match)
    bots = [make_bot(spec.game, name) for name in lineup]
    for bot in bots:
        attach(bot, game)  # also for a game's own driver (Spit's real-time host)
    seed, bot_seed = match_seeds(spec.seed, match)
    state = game.new_state(seed=seed)
    recorder = metrics.recorder(state)
    if metrics.play is not None:
        state = metrics.play(state, bots, bot_seed, recorder)
    else:
        state = play_match(state, bots, bot_seed, recorder, metrics.pure_bots)
    outcome = state.outcome()
    assert outcome is not None
    row: dict[str, Any] = {
        "match": match,
        "game_seed": seed,
        "bot_seed": bot_seed,
        "lineup": list(lineup),
        "winners": list(outcome.winners),
        "returns": list(outcome.returns),
        "reason": outcome.reason,
        "actions": len(state.history),
    }
    row.update(recorder.finish(state))
    return row


def run_chunk(spec_json: dict[str, Any], matches: Sequence[int]) -> tuple[list[dict[str, Any]], float]:
    """Rows of the given match numbers, and the CPU seconds the worker spent on
    them (a worker's entry point)."""
    spec = SimSpec.from_json(spec_json)
    start = time.process_time()
    rows = [run_match(spec, m) for m in matches]
    return rows, time.process_time() - start


__all__ = ["SimulationError", "play_match", "run_chunk", "run_match"]
