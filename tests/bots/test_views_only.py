"""Bots receive views, and a view has no path to the hidden cards."""

from __future__ import annotations

import gc
import random
import types

import cardtable
from cardtable.bots import make_bot
from cardtable.bots.base import adapt
from cardtable.core.game import State
from cardtable.host import play_out

GAMES = ["trash", "trex", "spit"]


def reachable(root: object) -> list[object]:
    """Every object reachable from ``root`` through references, stopping at
    classes, modules and functions (shared code, not data)."""
    seen: dict[int, object] = {}
    todo = [root]
    stop = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodType)
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, stop):
            continue
        seen[id(obj)] = obj
        todo.extend(gc.get_referents(obj))
    return list(seen.values())


def attributes(obj: object) -> list[str]:
    """The names of ``obj``'s data attributes: its ``__dict__``'s, or on the compiled build the
    ones mypyc lists for its class (``__mypyc_attrs__``)."""
    if hasattr(obj, "__dict__"):
        return list(vars(obj))
    names = {n for cls in type(obj).__mro__ for n in getattr(cls, "__mypyc_attrs__", ()) if n != "__dict__"}
    return sorted(n for n in names if hasattr(obj, n))


def test_a_view_holds_no_state_and_no_hidden_card_list():
    for name in GAMES:
        state = cardtable.load(name).new_state(seed=4)
        for _ in range(25):
            state.apply(state.legal_actions()[0])
        fields = [getattr(state, a) for a in attributes(state)]  # held, so that no id is reused
        hidden_lists = {id(x) for x in fields if isinstance(x, list)}
        for seat in range(state.game.num_players):
            objs = reachable(state.view(seat))
            assert not any(isinstance(o, State) for o in objs)
            assert not any(id(o) in hidden_lists for o in objs)
            assert not any(isinstance(o, int) and o == state.seed and o > 2**20 for o in objs)


def test_bots_get_only_views():
    seen: list[str] = []

    class Spy:
        name = "spy"

        def __init__(self, inner):
            self.inner = inner

        def act(self, view, rng, budget=None):
            seen.append(type(view).__name__)
            assert not any(isinstance(o, State) for o in reachable(view))
            return self.inner.act(view, rng, budget)

    game = cardtable.load("trash", max_hands=1)
    play_out(game, [Spy(make_bot("trash", "search")), Spy(make_bot("trash", "sensible"))], seed=2)
    assert seen and set(seen) == {"TrashView"}


def test_trex_search_bots_get_only_views():
    from cardtable.bots.trex_pimc import SearchTrexBot

    seen: list[str] = []

    class Spy:
        name = "spy"

        def __init__(self, inner):
            self.inner = adapt(inner)

        def act(self, view, rng, budget=None):
            seen.append(type(view).__name__)
            return self.inner.act(view, rng, budget)

    game = cardtable.load("trex", preset="complex")
    bots = [Spy(SearchTrexBot(iterations=4)), Spy(make_bot("trex", "hard")), Spy(make_bot("trex", "easy")),
            Spy(make_bot("trex", "rules"))]
    state = play_out(game, bots, seed=5)
    assert state.is_terminal() and set(seen) == {"TrexView"}


def test_every_trex_bot_gets_only_views():
    """Every registered Trex bot (the sparring partners and the reading ``expert`` included) is
    handed views only, and nothing it keeps between decisions reaches a State."""
    from cardtable.bots import Budget, bot_names

    names = bot_names("trex")
    game = cardtable.load("trex")
    for start in range(0, len(names), 4):
        table = [names[(start + k) % len(names)] for k in range(4)]
        bots = [adapt(make_bot("trex", n)) for n in table]
        state = game.new_state(seed=start)
        rng = random.Random(start)
        while state.deal_index < 2 and not state.is_terminal():
            q = state.current_player()
            view = state.view(q)
            assert type(view).__name__ == "TrexView"
            state.apply(bots[q].act(view, rng, Budget(iterations=4)))
        for name, bot in zip(table, bots, strict=True):
            kept = [o for o in reachable(bot) if isinstance(o, State)]
            # a search bot keeps states of its own (worlds it dealt), never the game's
            assert all(o is not state for o in kept), name
