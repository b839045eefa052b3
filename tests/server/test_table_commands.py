"""A table driven command by command, with no event loop and no sockets: what each command
changes and which effects (:mod:`cardtable.server.effects`) it leaves, in order.

These run in milliseconds: seating (A4, A8), undo refusals, the real-time pause and hold (R5, R9,
S2), lost races (C1, SP-13), a bot that answers a position the table has left, and a write that
fails and heals (S3)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from cardtable.server.commands import (
    Act,
    AddBot,
    Attach,
    BotMoved,
    Detach,
    Free,
    Heal,
    HoldOver,
    Leave,
    Sit,
    Start,
    StepBot,
    Undo,
)
from cardtable.server.effects import Close, Drop, Effect, Persist, Schedule, Send, Think
from cardtable.server.handle import handle
from cardtable.server.hub import Hub
from cardtable.server.lobby import LobbyError
from cardtable.server.ports import LogError
from cardtable.server.protocol import CLOSE_BAD_TOKEN, CLOSE_FREED, CLOSE_LEFT, CLOSE_REPLACED
from cardtable.server.state import TableState
from cardtable.server.store import Store, token_hash
from cardtable.server.tables import Table


def new(game: str = "trash", *, undo: bool = False, countdown: float | None = None, hold: float | None = 60.0,
        options: dict[str, Any] | None = None) -> tuple[Table, TableState]:
    hub = Hub(Store(":memory:"), countdown=countdown, hold=hold)
    table, _ = hub.create(game, None, options or {}, undo=undo)
    return table, table.s


def run(s: TableState, cmd: Any) -> tuple[Any, list[Effect]]:
    """``cmd`` applied to ``s``: its answer and its effects."""
    s.fx.take()
    reply = handle(s, cmd)
    return reply, s.fx.take()


def of(kind: type, effects: list[Effect]) -> list[Any]:
    return [e for e in effects if isinstance(e, kind)]


def frames(effects: list[Effect], to: str) -> list[dict[str, Any]]:
    return [e.frame.data for e in of(Send, effects) if e.to == to]


# ------------------------------------------------------------------ seating
def test_a8_sitting_stores_the_seat_with_its_token_digest_and_tells_whoever_watches():
    table, s = new()
    run(s, Attach("w", None, None))
    reply, fx = run(s, Sit(0, "Ana"))
    writes = of(Persist, fx)
    assert [w.op for w in writes] == ["set_seat", "set_fair"]
    seat_row = writes[0].args[1]
    assert seat_row.kind == "human" and seat_row.token_hash != reply["token"]  # a digest, never the token
    assert table.seat_for_token(reply["token"]) == 0
    assert [f["type"] for f in frames(fx, "w")] == ["table"]


def test_a4_a_taken_seat_is_refused_before_anything_changes():
    _, s = new()
    run(s, Sit(0, "Ana"))
    with pytest.raises(LobbyError) as refused:
        run(s, Sit(0, "Ben"))
    assert refused.value.code == "taken" and s.fx.take() == [] and s.row.seats[0].name == "Ana"


def test_a4_freeing_or_leaving_a_seat_closes_its_socket_and_a_stand_in_plays_on():
    _, s = new()
    token = run(s, Sit(0, "Ana"))[0]["token"]
    run(s, Attach("a", 0, None))
    _, fx = run(s, Free(0))
    assert of(Close, fx) == [Close("a", CLOSE_FREED, "the host opened this seat")] and 0 not in s.players
    token = run(s, Sit(0, "Ana"))[0]["token"]
    run(s, AddBot(1, "random"))
    run(s, Start(7))
    run(s, Attach("a2", 0, None))
    _, fx = run(s, Leave(token))
    assert [c.code for c in of(Close, fx)] == [CLOSE_LEFT]
    assert s.row.seats[0].kind == "bot" and s.match is not None and 0 in s.match.bots


def test_a_newer_socket_for_a_seat_replaces_the_older_one():
    _, s = new()
    run(s, Sit(0, "Ana"))
    run(s, Attach("old", 0, None))
    _, fx = run(s, Attach("new", 0, None))
    assert of(Close, fx)[0] == Close("old", CLOSE_REPLACED, "replaced by a newer connection")
    assert s.players[0] == "new"


def test_h12_a4_a_socket_whose_token_no_longer_holds_its_seat_is_closed_and_sent_nothing():
    """An attach carries the digest of the token its socket said hello with (a node that does not
    own the table, or a socket following its table to a new owner, found the seat earlier): if the
    seat's token is another now, the socket is closed as an unknown token and the seat's holder
    keeps it; the same digest as the seat's is welcomed."""
    _, s = new()
    old = run(s, Sit(0, "Ana"))[0]["token"]
    run(s, Leave(old))
    now = run(s, Sit(0, "Ben"))[0]["token"]
    run(s, Attach("ben", 0, None, "en", token_hash(now)))
    _, fx = run(s, Attach("ana", 0, None, "en", token_hash(old)))
    assert of(Close, fx) == [Close("ana", CLOSE_BAD_TOKEN, "unknown seat token")]
    assert frames(fx, "ana") == [] and s.players[0] == "ben"
    _, fx = run(s, Attach("ben2", 0, None, "en", token_hash(now)))
    assert [f["type"] for f in frames(fx, "ben2")][:1] == ["welcome"] and s.players[0] == "ben2"


# ------------------------------------------------------------------ undo
def _undo_table(*, people: int = 1) -> TableState:
    _, s = new(undo=True)
    run(s, Sit(0, "Ana"))
    if people > 1:
        run(s, Sit(1, "Ben"))
    else:
        run(s, AddBot(1, "random"))
    run(s, Start(3))
    run(s, Attach("a", 0, None))
    return s


def test_undo_is_refused_with_a_reason_and_nothing_is_written():
    s = _undo_table()
    reply, fx = run(s, Undo(0, "a"))
    assert reply["code"] == "undo_nothing" and not of(Persist, fx) and frames(fx, "a")[0]["code"] == "undo_nothing"
    _, s2 = new()
    run(s2, Sit(0, "Ana"))
    run(s2, AddBot(1, "random"))
    run(s2, Start(3))
    assert run(s2, Undo(0))[0]["code"] == "undo_off"
    s3 = _undo_table(people=2)
    assert run(s3, Undo(0))[0]["code"] == "undo_people"


def test_an_undo_stores_the_take_back_fenced_and_drops_a_state_not_yet_sent():
    s = _undo_table()
    m = s.match
    assert m is not None
    while m.to_move() != 0:  # the bot moves first when it is its turn
        run(s, StepBot())
    seq = 1
    while not s.flow.points:  # a move chosen among two or more
        action = str(m.state.legal_actions(0)[0])
        assert run(s, Act(0, seq, action, conn="a"))[0]["type"] == "ack"
        seq += 1
        while m.to_move() == 1:
            run(s, StepBot())
    version = s.version
    reply, fx = run(s, Undo(0, "a"))
    assert reply is None
    undo = of(Persist, fx)[0]
    assert undo.op == "undo" and undo.fenced and s.version < version
    assert of(Drop, fx)[0] == Drop("a", "state")
    told = frames(fx, "a")
    assert told[0]["type"] == "undo" and "move" in told[0]  # the seat's own move, named to it only


# ------------------------------------------------------------------ pause and hold
def _spit(countdown: float = 3.0, hold: float | None = 60.0) -> TableState:
    _, s = new("spit", countdown=countdown, hold=hold, options={"spit_delay": 0.0})
    run(s, Sit(0, "Ana"))
    run(s, Sit(1, "Ben"))
    run(s, Attach("a", 0, None))
    run(s, Attach("b", 1, None))
    run(s, Start(11))
    return s


def test_r9_spit_waits_for_a_person_who_dropped_and_refuses_plays_meanwhile():
    s = _spit()
    assert s.presence.pause == {"waiting": []}  # the start's countdown
    s.presence.resume_at = time.monotonic() - 1  # the countdown ran out
    run(s, HoldOver())
    assert s.presence.pause is None
    _, fx = run(s, Detach("b"))
    assert s.presence.pause == {"waiting": [1]}
    assert any(isinstance(e.command, HoldOver) for e in of(Schedule, fx))  # look again when the hold runs out
    assert s.match is not None
    action = str(s.match.state.legal_actions(0)[0])
    assert run(s, Act(0, 1, action, conn="a"))[0]["code"] == "paused"


def test_r5_r9_after_the_hold_a_stand_in_plays_the_away_seat_and_the_game_goes_on():
    s = _spit(countdown=0.0)
    run(s, Detach("b"))
    s.presence.away[1] = time.monotonic() - 120  # away longer than the hold
    run(s, HoldOver())
    assert 1 in s.bots.realtime_standins and s.presence.pause in (None, {"waiting": []})


def test_r1_sp7_a_spit_table_loaded_from_the_log_keeps_the_timer_its_state_runs():
    """Loaded again (a restart, a take-over in a cluster), the real-time host is made over the
    replayed state, so a timer that runs in that state (the re-spit after a stall) is due: a game
    in which nobody can move but the timer goes on."""
    table, s = new("spit", countdown=0.0)
    table.now(Sit(0, "Ana"))
    table.now(Sit(1, "Ben"))
    table.now(Attach("a", 0, None))
    table.now(Attach("b", 1, None))
    table.now(Start(3))  # through the actor: every change is stored
    m = s.match
    assert m is not None and s.rt is not None
    seqs = {0: 0, 1: 0}
    for _ in range(400):  # bounded: people's plays until a timer runs
        if m.state.timers():
            break
        seat, action = next((a.seat, str(a)) for a in m.state.legal_actions() if a.seat is not None
                            and "unspit" not in str(a))
        seqs[seat] += 1
        table.now(Act(seat, seqs[seat], action, conn="ab"[seat]))
    running = m.state.timers()
    assert running and s.rt.next_due() is not None
    again = Hub(table.store).tables[s.id].s  # the table as another process loads it from the log
    assert again.match is not None and again.rt is not None
    assert again.match.state.timers() == running
    assert again.rt.next_due() is not None  # the timer is scheduled, not forgotten


def test_c11_timers_due_at_once_are_kept_on_the_servers_event_loop():
    """Two commands scheduled with no delay (a bot's move released at once, a timer due now) on
    the loop ``cardtable serve`` runs (uvloop, whose handle of a call with no delay has no
    ``when()``): both run, and the table keeps working."""
    uvloop = pytest.importorskip("uvloop")
    from cardtable.server.commands import Fan

    table, _ = new()
    ran: list[str] = []
    table.actor.post = lambda cmd: ran.append(type(cmd).__name__)  # type: ignore[method-assign]

    async def twice() -> None:
        table.actor._schedule(Schedule(0.0, Fan()))
        table.actor._schedule(Schedule(0.0, Fan()))
        for _ in range(100):  # bounded: the loop runs the due calls within a few turns
            if len(ran) == 2:
                return
            await asyncio.sleep(0)

    loop = uvloop.new_event_loop()
    try:
        loop.run_until_complete(twice())
    finally:
        loop.close()
    assert ran == ["Fan", "Fan"]


# ------------------------------------------------------------------ races
def test_c1_sp13_an_action_overtaken_by_another_is_a_lost_race():
    s = _spit(countdown=0.0)
    s.presence.resume_at = time.monotonic() - 1
    run(s, HoldOver())
    m = s.match
    assert m is not None and s.rt is not None
    seen = s.version
    play = next(str(a) for a in m.state.legal_actions(0) if "spit" not in str(a))
    first, _ = run(s, Act(0, 1, play, seen, conn="a"))
    assert first["type"] == "ack"
    again, _ = run(s, Act(0, 2, play, seen, conn="a"))  # chosen on the same old version
    assert again["type"] == "error" and again["code"] == "lost_race" and again["version"] == s.version


# ------------------------------------------------------------------ bots
def _bot_first() -> TableState:
    _, s = new()
    run(s, AddBot(0, "random"))
    run(s, Sit(1, "Ben"))
    run(s, Attach("b", 1, None))
    run(s, Start(5))
    return s


def test_a_bot_that_answers_a_position_the_table_has_left_is_asked_again():
    s = _bot_first()
    m = s.match
    assert m is not None
    for seq in range(1, 100):  # the person plays until the bot is to move
        if m.to_move() == 0:
            break
        run(s, Act(1, seq, str(m.state.legal_actions(1)[0]), conn="b"))
    _, fx = run(s, Heal())
    think = of(Think, fx)[0]
    assert think.seat == 0 and think.key == (s.version, 0)
    s.bots.thinking = think.key  # what the actor records when it asks
    s.flow.undos += 1  # the table moved on meanwhile (an undo brought it back to the same version)
    action = m.state.legal_actions(0)[0]
    _, fx = run(s, BotMoved(0, think.key, action, think.bot, think.rng, think.asked))
    assert not of(Persist, fx) and s.version == think.key[0]  # dropped
    assert of(Think, fx)[0].key == (s.version, 1)  # asked again about the position now
    s.bots.thinking = (s.version, 1)
    _, fx = run(s, BotMoved(0, (s.version, 1), action, think.bot, think.rng, think.asked))
    appended = of(Persist, fx)[0]
    assert appended.op == "append" and appended.fenced and s.version == think.key[0] + 1


# ------------------------------------------------------------------ a failed write
class FailingLog(Store):
    def __init__(self) -> None:
        super().__init__(":memory:")
        self.full = False

    def append(self, *args: Any, **kwargs: Any) -> None:
        if self.full:
            raise LogError("database or disk is full")
        super().append(*args, **kwargs)


def test_s3_a_write_that_fails_is_not_acknowledged_and_the_table_heals():
    log = FailingLog()
    hub = Hub(log)
    table, _ = hub.create("trash", None, {})
    table.sit(0, "Ana")
    table.add_bot(1, "random")
    table.start(9)
    s = table.s
    m = s.match
    assert m is not None
    while m.to_move() != 0:
        table.step_bot()
    before = table.version
    log.full = True
    reply = table.act(0, 1, str(m.state.legal_actions(0)[0]))
    assert reply["type"] == "error" and reply["code"] == "server"
    assert table.version == before and len(log.actions(table.id)) == before  # nothing acknowledged, nothing kept
    assert s.clock.failures == 1
    log.full = False
    table.now(Heal())
    assert table.act(0, 2, str(table.match.state.legal_actions(0)[0]))["type"] == "ack"  # type: ignore[union-attr]
    assert table.version == before + 1 and s.clock.failures == 0


def test_r1_commands_waiting_at_a_table_that_is_let_go_are_told_so_and_it_takes_no_more():
    """A table let go while commands wait in its mailbox (another node took it over, or it left
    memory): every waiting asker hears ``TableLetGo`` (a ``TableMoving``: a request answers
    ``503 moved``, a socket closes with its advice, and the page reconnects and resyncs wherever the
    table is now) rather than waiting forever or seeing the
    actor's cancellation, and a later command is refused the same way."""
    from cardtable.server.commands import Show
    from cardtable.server.ports import TableLetGo

    table, _ = new()
    table.actor.runner.inline = False  # a log on the network: commands queue for the actor's task

    async def main() -> None:
        waiting = [asyncio.ensure_future(table.actor.ask(Show())) for _ in range(2)]
        await asyncio.sleep(0)  # both are in the mailbox; the actor's task has not run yet
        assert table.actor.pending() == 2
        table.actor.close()
        for asked in waiting:
            with pytest.raises(TableLetGo):
                await asyncio.wait_for(asked, 60)  # bounded: never left waiting
        with pytest.raises(TableLetGo):
            await table.actor.ask(Show())

    asyncio.run(main())
    assert issubclass(TableLetGo, LogError)
