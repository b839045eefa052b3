"""The per-move clock of rated play ("P-clock", docs/play-online.md), driven command by command with no event
loop and no sockets, on a clock the test moves: each move's time and the bank, a stand-in's move
when both run out, the bank once per deal, repeated timeouts as abandoning, the ``clock`` frame."""

from __future__ import annotations

from typing import Any

import pytest

from cardtable.server import moveclock
from cardtable.server.commands import Act, AddBot, Attach, MoveTimeUp, Sit, Start, StepBot
from cardtable.server.effects import Close, Effect, Schedule, Send
from cardtable.server.handle import handle
from cardtable.server.hub import Hub
from cardtable.server.lobby import LobbyError
from cardtable.server.protocol import CLOSE_LEFT
from cardtable.server.state import TableState
from cardtable.server.store import Store

CLOCK = {"move": 10.0, "bank": 20.0, "timeouts": 3}


class Now:
    """The monotonic clock the concern reads, moved by the test."""

    def __init__(self) -> None:
        self.t = 1000.0

    def monotonic(self) -> float:
        return self.t


@pytest.fixture
def now(monkeypatch: pytest.MonkeyPatch) -> Now:
    n = Now()
    monkeypatch.setattr(moveclock, "time", n)
    return n


def run(s: TableState, cmd: Any) -> tuple[Any, list[Effect]]:
    s.fx.take()
    reply = handle(s, cmd)
    return reply, s.fx.take()


def timers(fx: list[Effect]) -> list[Schedule]:
    return [e for e in fx if isinstance(e, Schedule) and isinstance(e.command, MoveTimeUp)]


def clock_frames(fx: list[Effect], to: str) -> list[dict[str, Any]]:
    return [e.frame.data for e in fx if isinstance(e, Send) and e.to == to and e.frame.data["type"] == "clock"]


def table(game: str = "trex", *, people: int = 1, rated: bool = True, clock: Any = CLOCK,
          options: dict[str, Any] | None = None) -> TableState:
    hub = Hub(Store(":memory:"))
    t, _ = hub.create(game, None, options or {}, rated=rated, clock=clock)
    s = t.s
    for seat in range(s.num_players):
        if seat < people:
            handle(s, Sit(seat, f"P{seat}"))
        else:
            handle(s, AddBot(seat, "random"))
    return s


def to_person(s: TableState, seat: int = 0) -> None:
    """Bots move until it is ``seat``'s move."""
    m = s.match
    assert m is not None
    for _ in range(200):
        if m.to_move() == seat:
            return
        run(s, StepBot())
    raise AssertionError("the person never came to move")


def test_p_clock_a_persons_move_gets_its_time_and_bank_and_a_bots_move_none(now: Now):
    s = table()
    s.fx.take()
    _, fx = run(s, Start(5))
    m = s.match
    assert m is not None
    if m.to_move() == 0:
        (timer,) = timers(fx)
        assert timer.command == MoveTimeUp(0, m.seq) and timer.delay == pytest.approx(30.05)
        assert timer.slot == moveclock.SLOT
    else:
        assert timers(fx) == []  # a bot's move is not timed
    to_person(s)
    assert s.moves.turn == (0, m.seq) and s.moves.banks == {0: 20.0}


def test_p_clock_a_move_longer_than_its_time_spends_the_bank(now: Now):
    s = table()
    run(s, Start(5))
    to_person(s)
    m = s.match
    assert m is not None
    now.t += 14.0  # four seconds over the move's ten
    run(s, Act(0, 1, str(m.state.legal_actions(0)[0])))
    assert s.moves.banks[0] == pytest.approx(16.0)
    to_person(s)
    _, fx = run(s, Attach("a", 0, None))
    (frame,) = clock_frames(fx, "a")
    assert frame["rated"] is True and frame["clock"] == CLOCK
    assert frame["turn"] == {"seat": 0, "move": 10.0, "bank": 16.0} and frame["banks"][0] == 16.0


def test_p_clock_when_time_runs_out_a_stand_in_moves_and_the_bank_is_spent(now: Now):
    s = table()
    run(s, Start(5))
    run(s, Attach("a", 0, None))  # the person is here (a stand-in of an away person stays)
    to_person(s)
    m = s.match
    assert m is not None
    version = m.seq
    _, fx = run(s, MoveTimeUp(0, version))
    assert m.seq == version  # too early: nothing moves, it looks again
    assert [t.command for t in fx if isinstance(t, Schedule)] == [MoveTimeUp(0, version)]
    now.t += 30.1
    run(s, MoveTimeUp(0, version))
    assert m.seq > version and s.moves.timeouts == {0: 1} and s.moves.banks[0] == 0.0
    assert s.row.seats[0].kind == "human" and 0 not in s.bots.standins  # the person plays on
    stale = run(s, MoveTimeUp(0, version))[1]  # a timer of a move already made does nothing
    assert timers(stale) == [] and s.moves.timeouts == {0: 1}


def test_p_clock_a_move_that_comes_after_its_time_and_bank_is_refused_and_the_stand_in_moves(now: Now):
    """A loaded machine may handle the timer's command late: a person's move that arrives after
    the move's seconds and the bank ran out is too late all the same (the clock is the server's)."""
    s = table()
    run(s, Start(5))
    run(s, Attach("a", 0, None))
    to_person(s)
    m = s.match
    assert m is not None
    version = m.seq
    late = str(m.state.legal_actions(0)[0])
    now.t += 29.9  # within the move's ten seconds and the bank's twenty: played
    kept = s.moves.started
    run(s, Act(0, 7, "nonsense"))  # a refused move does not restart the clock
    assert s.moves.started == kept
    now.t += 0.2  # past them, the timer's command not handled yet
    reply, _ = run(s, Act(0, 8, late))
    assert reply["type"] == "error" and reply["code"] == "time_up" and reply["seq"] == 8
    assert m.seq > version and s.moves.timeouts == {0: 1} and s.moves.banks[0] == 0.0
    stale = run(s, MoveTimeUp(0, version))[1]  # the timer, handled at last, does nothing
    assert timers(stale) == [] and s.moves.timeouts == {0: 1}


def test_p_clock_repeated_timeouts_count_as_abandoning(now: Now):
    s = table()
    run(s, Start(5))
    run(s, Attach("a", 0, None))
    m = s.match
    assert m is not None
    closes: list[Close] = []
    for n in range(1, 4):
        to_person(s)
        now.t += 31.0
        _, fx = run(s, MoveTimeUp(0, m.seq))
        closes += [e for e in fx if isinstance(e, Close)]
        assert s.moves.timeouts[0] == n
    assert s.row.seats[0].kind == "bot" and 0 in s.left and 0 in m.bots  # a stand-in plays it to the end
    assert [c.code for c in closes] == [CLOSE_LEFT] and closes[0].to == "a"


def test_p_clock_the_bank_is_given_again_each_deal(now: Now):
    s = table("trash", options={"target_size": 3})
    run(s, Start(11))
    m = s.match
    assert m is not None
    hand = m.state.view(None).hand_number
    to_person(s)
    now.t += 25.0
    run(s, Act(0, 1, str(m.state.legal_actions(0)[0])))
    assert s.moves.banks[0] == pytest.approx(5.0)
    seq = 2
    for _ in range(2000):  # play on (first legal moves) until the next hand is dealt
        if m.is_over or m.state.view(None).hand_number != hand:
            break
        if m.to_move() == 0:
            run(s, Act(0, seq, str(m.state.legal_actions(0)[0])))
            seq += 1
        else:
            run(s, StepBot())
    assert not m.is_over and s.moves.banks[0] == 20.0


def test_p_clock_settings_are_checked_and_spit_keeps_its_real_time_rules():
    hub = Hub(Store(":memory:"))
    t, _ = hub.create("trex", None, {}, rated=True)
    assert t.row.clock == moveclock.DEFAULT  # a rated table's clock unless another is chosen
    assert hub.create("trex", None, {}, rated=False)[0].row.clock is None  # casual: none unless asked
    spit, _ = hub.create("spit", None, {}, rated=True)
    assert spit.row.rated and spit.row.clock is None
    for bad in ({"move": 1}, {"bank": -1}, {"timeouts": 0}, {"move": "15"}, {"other": 1}, 15, {"move": True}):
        with pytest.raises(LobbyError) as refused:
            hub.create("trex", None, {}, rated=True, clock=bad)
        assert refused.value.code == "bad_clock"
    with pytest.raises(LobbyError, match="real-time"):
        hub.create("spit", None, {}, rated=True, clock={"move": 10})
    with pytest.raises(LobbyError) as refused:
        hub.create("trex", None, {}, rated=True, undo=True)
    assert refused.value.code == "undo_rated"
    with pytest.raises(LobbyError):
        hub.create("trex", None, {}, rated="yes")


def test_p_clock_a_casual_table_sends_no_clock_frame_and_a_rated_spit_table_says_it_is_rated(now: Now):
    s = table(rated=False, clock=None)
    run(s, Start(5))
    _, fx = run(s, Attach("a", 0, None))
    assert clock_frames(fx, "a") == [] and timers(fx) == []
    spit = table("spit", clock="default")
    run(spit, Start(5))
    _, fx = run(spit, Attach("b", 0, None))
    (frame,) = clock_frames(fx, "b")
    assert frame == {"type": "clock", "rated": True, "clock": None, "turn": None, "banks": None, "timeouts": None}


class Wall:
    """The store's clocks (the log stamps each stored action with ``time()``), moved with the test's."""

    def __init__(self, now: Now) -> None:
        self.now = now

    def time(self) -> float:
        return 1_700_000_000.0 + self.now.t

    def monotonic(self) -> float:
        return self.now.t


def test_p_clock_s2_a_restart_gives_back_neither_a_spent_bank_nor_a_timeout(now: Now, tmp_path: Any,
                                                                          monkeypatch: pytest.MonkeyPatch):
    """S2 for the clock of rated play: after a restart the banks and timeouts are rebuilt from the
    log (a person's move spent what it took over the move's seconds, a move a stand-in made at a
    person's seat was a timeout), and only the move being played gets its full time again."""
    from cardtable.server import store as store_module

    monkeypatch.setattr(store_module, "time", Wall(now))
    path = tmp_path / "s.sqlite3"
    hub = Hub(Store(path))
    t, _ = hub.create("trex", None, {}, rated=True, clock=CLOCK)
    t.sit(0, "P0")
    for seat in (1, 2, 3):
        t.now(AddBot(seat, "random"))
    t.start(5)

    def to_person() -> Any:
        m = t.match
        assert m is not None
        for _ in range(200):
            if m.to_move() == 0:
                return m
            t.now(StepBot())
        raise AssertionError("the person never came to move")

    m = to_person()
    now.t += 14.0  # four seconds of the bank
    assert t.act(0, 1, str(m.state.legal_actions(0)[0]))["type"] == "ack"
    to_person()
    deal = moveclock._deal(t.s)
    hub.close_all()

    hub = Hub(Store(path))  # a restart: the table replayed from its log
    t = hub.get(t.id)
    assert moveclock._deal(t.s) == deal
    assert t.s.moves.banks == {0: pytest.approx(16.0)} and t.s.moves.timeouts == {}
    m = to_person()
    t.now(Attach("a", 0, None))  # the person is back: their move is timed afresh from now
    assert t.s.moves.turn == (0, m.seq)
    now.t += 26.5  # the whole move and the bank left: a timeout
    t.now(MoveTimeUp(0, m.seq))
    assert t.s.moves.timeouts == {0: 1}
    to_person()
    hub.close_all()

    t = Hub(Store(path)).get(t.id)  # another restart: the timeout is still counted
    assert t.s.moves.timeouts == {0: 1} and t.s.moves.banks == {0: 0.0}
