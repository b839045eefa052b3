"""What a game declares about itself, so that no client works it out from a state: ``realtime``
is true exactly for the games whose first state has every seat acting at once (SP-13: Spit is
played by both players at the same time)."""

from __future__ import annotations

import pytest

from cardtable.core.registry import game_class, game_names, load
from cardtable.core.seats import SIMULTANEOUS


@pytest.mark.parametrize("name", game_names())
def test_sp13_realtime_is_declared_by_the_game(name: str):
    game = load(name)
    assert game_class(name).realtime is game.realtime
    assert game.realtime == (game.new_state(seed=1).current_player() == SIMULTANEOUS)


def test_sp13_only_spit_is_realtime():
    assert [n for n in game_names() if game_class(n).realtime] == ["spit"]
