"""The leak oracle over rated tables with the clock ("P-leaks", H1, H2, H9; docs/play-online.md): a rated
table reveals nothing more than a casual one.

Each game is played twice from one seed, on a casual table and on a rated table with the per-move
clock, the same moves at both; now and then a person's clock runs out at the rated table and a
stand-in moves for them (the same move is then made at the casual table). Every seat and a
spectator receive exactly the same frames at both tables (table ids aside), plus the rated
table's ``clock`` frames, which carry nothing but seats and seconds: no card, no forbidden key.
The casual frames are themselves held to the oracle of tests/server/test_leaks.py (no hidden
card, no seed)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from cardtable.core.cards import Card
from cardtable.server import moveclock
from cardtable.server.commands import MoveTimeUp
from cardtable.server.hub import Hub
from cardtable.server.store import Store

from .test_leaks import FORBIDDEN_KEYS, Capture, cards_in, shown

CLOCK_KEYS = {"type", "rated", "clock", "turn", "banks", "timeouts"}


class Now:
    def __init__(self) -> None:
        self.t = 1000.0

    def monotonic(self) -> float:
        return self.t


def normal(text: str, ids: tuple[str, str]) -> Any:
    """A frame as compared: the rated table's id written as the casual one's, and the fair-deal
    commitments (random per table: the server's own seed) and whether the table is rated (the one
    thing its summary says more) left out."""
    frame = json.loads(text.replace(ids[1], ids[0]))
    table = frame.get("table")
    if isinstance(table, dict):
        table["fair"] = None
        table.pop("rated", None)
    return frame


def play_pair(hub: Hub, rng: random.Random, now: Now) -> tuple[int, int]:
    players = rng.choice((2, 2, 3, 4))
    options: dict[str, Any] = {"players": players, "wild_mode": rng.choice(("jacks", "kings", "all_faces")),
                               "jokers": rng.random() < 0.3, "target_size": rng.choice((0, 6, 8))}
    casual, _ = hub.create("trash", None, options)
    rated, _ = hub.create("trash", None, options, rated=True, clock={"move": 10, "bank": 20, "timeouts": 20})
    tables = (casual, rated)
    conns = {id(t): {s: Capture() for s in [*range(players), None]} for t in tables}
    for t in tables:
        for seat in range(players):
            t.sit(seat, f"P{seat}")
        for seat, conn in conns[id(t)].items():
            t.attach(conn, seat, None)
    seed = rng.randrange(2**32)
    for t in tables:
        t.start(seed)
    assert casual.match is not None and rated.match is not None
    state = casual.match.state
    seen = shown(state)
    seq = dict.fromkeys(range(players), 0)
    timeouts = 0
    for _ in range(3000):
        if casual.match.is_over:
            break
        seat = state.current_player()
        if rng.random() < 0.1 and rated.s.moves.timeouts.get(seat, 0) < 19:
            # the person's clock runs out at the rated table: a stand-in moves (never the 20th time,
            # which would make the seat a bot's: both tables keep the same people)
            now.t += 1000.0
            rated.actor.run_now(MoveTimeUp(seat, rated.match.seq))
            stand_in = rated.store.actions(rated.id)[-1]
            assert stand_in.seat == seat and stand_in.client_seq is None
            reply = casual.act(seat, None, stand_in.action)
            assert reply["type"] == "ack", reply
            casual.after_change()
            timeouts += 1
        else:
            seq[seat] += 1
            action = str(rng.choice(state.legal_actions(seat)))
            for t in tables:
                reply = t.act(seat, seq[seat], action)
                assert reply["type"] == "ack", reply
                conns[id(t)][seat].push(reply)
                t.after_change()
        seen |= shown(state)
    assert casual.match.is_over and rated.match.is_over
    assert sum(rated.s.moves.timeouts.values()) == timeouts
    frames = 0
    for who in [*range(players), None]:
        plain = conns[id(casual)][who].frames
        clocked = conns[id(rated)][who].frames
        extra = [f for f in clocked if f.startswith('{"type":"clock"')]
        assert [normal(f, (casual.id, rated.id)) for f in clocked if f not in extra] == \
            [normal(f, (casual.id, rated.id)) for f in plain], f"seat {who}: the rated table's frames differ"
        for text in plain:
            assert not FORBIDDEN_KEYS.search(text), text[:300]
            if text.startswith('{"type":"state"') and not json.loads(text)["view"]["outcome"]:
                assert json.loads(text)["view"]["seat"] == who  # H12
        for text in extra:
            frame = json.loads(text)
            assert set(frame) == CLOCK_KEYS and not cards_in(text) and not FORBIDDEN_KEYS.search(text), text
            assert frame["rated"] is True and frame["clock"] == rated.row.clock
        assert extra, "the rated table's pages were told its clock"
        frames += len(clocked)
    return timeouts, frames


@pytest.fixture
def now(monkeypatch: pytest.MonkeyPatch) -> Now:
    n = Now()
    monkeypatch.setattr(moveclock, "time", n)
    return n


def test_p_leaks_a_rated_table_with_the_clock_reveals_nothing_more_than_a_casual_one(now: Now):
    hub = Hub(Store(":memory:"))
    rng = random.Random(20261203)
    timeouts = frames = 0
    for _ in range(40):
        t, f = play_pair(hub, rng, now)
        timeouts += t
        frames += f
    assert timeouts > 100 and frames > 5000  # stand-ins moved often, and much was sent


def test_p_leaks_the_comparison_catches_a_rated_table_that_tells_more(now: Now, monkeypatch: pytest.MonkeyPatch):
    """Not vacuous: a clock frame that named the stock's top card, or a rated table whose state
    frames differed from the casual one's, fails it."""
    real = moveclock.frame

    def leaky(s: Any) -> dict[str, Any]:
        out = real(s)
        if s.match is not None and s.match.state.stock:
            out["turn"] = {"next": str(Card.from_id(s.match.state.stock[-1]))}
        return out

    monkeypatch.setattr(moveclock, "frame", leaky)
    with pytest.raises(AssertionError):
        play_pair(Hub(Store(":memory:")), random.Random(1), now)
