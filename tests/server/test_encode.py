"""The server's fast view encoder equals ``PlayerView.to_json`` (the definition)."""

from __future__ import annotations

import random

import cardtable
from cardtable.core.registry import game_names
from cardtable.server.encode import view_json

from ..walk import walk, walked


def test_view_json_equals_to_json_for_every_game_over_random_states():
    rng = random.Random(3)
    for name in game_names():
        for seed in range(20):
            game = cardtable.load(name)
            state = game.new_state(seed=seed)
            for _ in walk(state, rng, 200, checked=True):
                for seat in [None, *range(game.num_players)]:
                    view = state.view(seat)
                    assert view_json(view) == view.to_json()


def test_event_args_are_one_json_object_in_both_encoders():
    """An event's args (the pile, the spit pile, a contract's code) travel as an object."""
    state = cardtable.load("spit").new_state(seed=1)
    rng = random.Random(1)
    walked(state, rng, until=lambda s: any(e.kind == "play" for e in s.view(None).events), checked=True)
    view = state.view(None)
    play = next(e for e in view.events if e.kind == "play")
    fast, slow = view_json(view), view.to_json()
    assert fast == slow
    event = next(e for e in fast["events"] if e["kind"] == "play")
    assert event["args"] == {"pile": play.value, "spit": play.slot} and event["slot"] in (0, 1)
    assert all(e["args"] == {} for e in fast["events"] if e["kind"] in ("flip", "round"))
    trex = cardtable.load("trex").new_state(seed=2)
    walked(trex, rng, until=lambda s: any(e.kind == "contract" for e in s.view(0).events), checked=True)
    contract = next(e for e in view_json(trex.view(0))["events"] if e["kind"] == "contract")
    assert contract == next(e for e in trex.view(0).to_json()["events"] if e["kind"] == "contract")
    assert contract["args"]["contract"] in ("KH", "QN", "DI", "TK", "TR", "CX")
