"""Simultaneous games on the server: Spit tables run on the real-time host.

Bots move by themselves with their reaction-time model, a fast human is never
throttled (P9 over the socket), arrival order decides a race, and a restart
replays the committed log, timers included.
"""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING, Any

from cardtable.server.hub import Hub
from cardtable.server.store import Store

from .helpers import new_table, receive_until
from .test_protocol import hello

if TYPE_CHECKING:
    from starlette.testclient import TestClient


def test_a_spit_bot_moves_by_itself_on_the_server_clock(client: TestClient):
    # two bots and a spectator: nobody sends anything, and the plays arrive (a person who never
    # moves could block the bot for good: Spit has no timer for a seat that just sits there)
    table_id, _, _ = new_table(client, {0: "expert", 1: "beginner"}, game="spit", sit=())
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        hello(ws)
        start = time.monotonic()
        for _ in range(500):
            frame = ws.receive_json()
            if frame["type"] == "state" and any(
                    e["seat"] == 1 and e["kind"] in ("play", "fill") for e in frame["view"]["events"]):
                break
        else:
            raise AssertionError("the bot never moved")
        assert time.monotonic() - start < 30


def test_p9_a_fast_human_at_10_actions_a_second_is_never_throttled_in_spit(client: TestClient):
    table_id, _, tokens = new_table(client, {}, game="spit", sit=(0, 1))
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        hello(ws, tokens[0])
        view = None
        while view is None:
            frame = ws.receive_json()
            if frame["type"] == "state":
                view = frame["view"]
        replies = []
        begin = time.monotonic()
        for seq in range(1, 31):  # 3 s at 10 a second: a play while there is one, else a spit request
            action = view["legal_actions"][0] if view["legal_actions"] else "0 spit"
            ws.send_json({"type": "act", "seq": seq, "action": action})
            while True:
                frame = ws.receive_json()
                if frame["type"] == "state":
                    view = frame["view"]
                elif frame["type"] in ("ack", "error") and frame.get("seq") == seq:
                    replies.append(frame)
                    break
            time.sleep(max(0.0, begin + seq * 0.1 - time.monotonic()))
        assert len(replies) == 30
        assert not [r for r in replies if r.get("code") == "rate_limited"]


def _two_humans(hub: Hub, seed: int, **options: object):
    table, _ = hub.create("spit", None, {"spit_delay": 0.0, **options})
    for seat in range(2):
        table.sit(seat, f"P{seat}")
    table.start(seed=seed)
    assert table.match is not None and table.rt is not None
    return table


def _contested(state: Any) -> dict[str, tuple[str, str]]:
    """Each spit pile both seats can play onto now: (seat 0's play, seat 1's play)."""
    mine = {str(a).split()[-1]: str(a) for a in state.legal_actions(0) if " play " in str(a)}
    theirs = {str(a).split()[-1]: str(a) for a in state.legal_actions(1) if " play " in str(a)}
    return {pile: (mine[pile], theirs[pile]) for pile in sorted(set(mine) & set(theirs))}


def test_c1_c3_arrival_order_decides_a_race_for_one_spit_pile():
    """SP-13: the first arrival wins; the second, chosen on version 0, is checked against the
    state when it arrives: refused as ``lost_race`` (with the version to look at) unless the card
    also fits the new top, in which case it is played (the documented check-at-apply rule, C3)."""
    hub = Hub(Store(":memory:"))
    rng = random.Random(5)
    outcomes = set()
    for seed in range(400):  # deals where both seats can play onto the same spit pile
        table = _two_humans(hub, seed)
        state = table.match.state  # type: ignore[union-attr]
        both = _contested(state)
        if not both:
            continue
        mine, theirs = both[rng.choice(sorted(both))]
        first, second = (mine, theirs) if seed % 2 else (theirs, mine)
        a = table.act(int(first[0]), 1, first, seen=0)
        assert a["type"] == "ack" and a["version"] == 1
        fits_after = any(str(x) == second for x in state.legal_actions(int(second[0])))
        b = table.act(int(second[0]), 1, second, seen=0)
        if fits_after:
            assert b["type"] == "ack" and b["version"] > a["version"]
        else:
            assert b == {"type": "error", "code": "lost_race", "seq": 1, "version": 1,
                         "message": b["message"]} and "SP-13" in b["message"]
            assert table.version == 1
            # the same action chosen on the current version was never legal there: illegal
            again = table.act(int(second[0]), 2, second, seen=1)
            assert again["code"] == "illegal"
        outcomes.add(fits_after)
        if outcomes == {True, False}:
            return
    raise AssertionError(f"races seen: {outcomes}")


def test_r2_r3_sp10_a_play_held_back_by_the_interval_keeps_its_seq(tmp_path):
    """SP-10 with R2/R3: a seat's second play within ``min_action_interval_ms`` is answered
    ``queued`` and applied when due. A resend meanwhile is a duplicate (not queued twice); once it
    is applied the log holds it with its client seq, and a resend gets the original version."""
    from cardtable.host.clock import PausableClock, VirtualClock
    from cardtable.server.commands import Advance

    hub = Hub(Store(tmp_path / "s.sqlite3"))
    for seed in range(200):  # a deal where seat 0 has a play, and another after it
        table = _two_humans(hub, seed, min_action_interval_ms=300)
        clock = table.match.clock  # type: ignore[union-attr]
        assert isinstance(clock, PausableClock)
        virtual = clock.base = VirtualClock(clock.base.now())  # the test moves the table's time
        state = table.match.state  # type: ignore[union-attr]
        first = next((str(a) for a in state.legal_actions(0) if " play " in str(a)), None)
        if first is None:
            continue
        assert table.act(0, 1, first)["type"] == "ack"
        second = next((str(a) for a in state.legal_actions(0) if " play " in str(a)), None)
        if second is not None:
            break
    else:
        raise AssertionError("no deal with two plays in a row")
    held = table.act(0, 2, second)
    assert held == {"type": "ack", "seq": 2, "version": None, "queued": True}
    assert table.act(0, 2, second) == {"type": "ack", "seq": 2, "version": None, "queued": True, "dup": True}
    before = table.version
    virtual.advance(0.3)  # the interval has passed: the held play is due
    table.now(Advance())
    assert table.version > before
    rows = [a for a in table.s.log.actions(table.id) if a.seat == 0]
    assert [(a.action, a.client_seq) for a in rows[-2:]] == [(first, 1), (second, 2)]
    again = table.act(0, 2, second)
    assert again == {"type": "ack", "seq": 2, "version": rows[-1].version, "dup": True}


def test_s1_a_spit_table_replays_after_a_restart_with_timers(tmp_path):
    store = Store(tmp_path / "db.sqlite3")
    hub = Hub(store)
    table = _two_humans(hub, 11, max_rounds=2)
    rng = random.Random(2)
    seqs = [0, 0]
    for _ in range(300):
        state = table.match.state  # type: ignore[union-attr]
        if table.match.is_over:  # type: ignore[union-attr]
            break
        seats = [s for s in range(2) if state.legal_actions(s)]
        if not seats:
            table.rt.advance()  # type: ignore[union-attr]  # a timer (spit_delay 0) is due now
            continue
        seat = rng.choice(seats)
        seqs[seat] += 1
        reply = table.act(seat, seqs[seat], str(rng.choice(state.legal_actions(seat))))
        assert reply["type"] == "ack", reply
    before = {s: table.view_json(s, "en") for s in (0, 1, None)}
    version = table.version
    again = Hub(store).get(table.id)
    assert again.version == version
    assert {s: again.view_json(s, "en") for s in (0, 1, None)} == before
    assert again.rt is not None


def _reply(ws, seq: int) -> dict:  # type: ignore[no-untyped-def,type-arg]
    """The answer (``ack`` or ``error``) to the action numbered ``seq``, among at most 1,000 frames."""
    for _ in range(1000):
        frame = ws.receive_json()
        if frame["type"] in ("ack", "error") and frame.get("seq") == seq:
            return frame  # type: ignore[no-any-return]
    raise AssertionError(f"no answer to action {seq}")


def _wait(test, seconds: float = 10.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while not test():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def test_r9_spit_stands_still_while_the_player_is_away_and_goes_on_after_a_countdown(db_path):
    from .conftest import _client

    store = Store(db_path)
    with _client(store, bot_delay=0.0, countdown=5.0, hold=30.0) as client:  # long enough for a loaded machine's act
        table_id, _, tokens = new_table(client, {1: "expert"}, game="spit")
        table = client.app.state.hub.tables[table_id]  # type: ignore[attr-defined]
        assert table.pause == {"waiting": [0]}  # started before the player connected
        version = table.version
        time.sleep(1.0)
        assert table.version == version  # the bot waits too
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            hello(ws, tokens[0])
            assert table.pause == {"waiting": []} and table.pause_info()["countdown"] > 0
            ws.send_json({"type": "act", "seq": 1, "action": "0 spit"})
            frame = _reply(ws, 1)
            assert frame["type"] == "error" and frame["code"] == "paused", frame
            _wait(lambda: table.pause is None, 30.0)
            _wait(lambda: table.version > version)  # the bot plays again
        # the player drops: the clock stands still again, mid-game
        _wait(lambda: table.pause == {"waiting": [0]})
        frozen = table.match.clock.now()  # type: ignore[union-attr]
        version = table.version
        time.sleep(0.8)
        assert table.version == version and table.match.clock.now() == frozen  # type: ignore[union-attr]
    store.close()


def test_s2_sp13_a_spit_game_starts_after_its_countdown_with_everyone_there(db_path):
    """The race starts after "ready, 3, 2, 1" (the table's countdown) even when the player is
    connected at the start: until then the clock stands still, the bot waits and an action is
    refused ``paused``; then the game goes on by itself."""
    from .conftest import _client

    store = Store(db_path)
    with _client(store, bot_delay=0.0, countdown=5.0) as client:  # long enough for a loaded machine's act
        table_id, host, tokens = new_table(client, {1: "expert"}, game="spit", start=False)
        table = client.app.state.hub.tables[table_id]  # type: ignore[attr-defined]
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            hello(ws, tokens[0])
            assert client.post(f"/api/tables/{table_id}/start", json={"host": host}).status_code == 200
            info = table.pause_info()
            assert info is not None and info["waiting"] == [] and info["countdown"] is not None
            assert table.match.clock.paused  # type: ignore[union-attr]
            ws.send_json({"type": "act", "seq": 1, "action": "0 spit"})
            frame = _reply(ws, 1)
            assert frame["type"] == "error" and frame["code"] == "paused", frame
            _wait(lambda: table.pause is None, 30.0)
            _wait(lambda: table.version > 0)  # the bot plays once the countdown is over
    store.close()


def test_r5_s2_s9_a_restarted_spit_game_waits_for_its_player_but_not_longer_than_the_hold(db_path):
    from .conftest import _client

    store = Store(db_path)
    hub = Hub(store)
    table, _ = hub.create("spit", None, {})
    token = table.sit(0, "P0")
    table.add_bot(1, "expert")
    table.start(seed=4)
    store.close()
    store = Store(db_path)
    with _client(store, bot_delay=0.0, countdown=0.2, hold=3.0) as client:  # the server restarts
        again = client.app.state.hub.tables[table.id]  # type: ignore[attr-defined]
        assert again.pause == {"waiting": [0]}
        assert again.version == 0
        _wait(lambda: again.pause is None, 30.0)  # the hold ran out: the game goes on without them
        _wait(lambda: again.version > 0)
        with client.websocket_connect(f"/ws/{table.id}") as ws:  # and they can still come back
            assert hello(ws, token)["seat"] == 0
    store.close()


def test_r9_the_countdown_told_to_clients_counts_down(db_path):
    from .conftest import _client

    store = Store(db_path)
    with _client(store, bot_delay=0.0, countdown=30.0) as client:
        table_id, _, tokens = new_table(client, {1: "beginner"}, game="spit")
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            before = time.monotonic()
            first = hello(ws, tokens[0])["table"]["pause"]["countdown"]
            after = time.monotonic()
            assert 0 < first <= 30.0
            deadline = after + 20
            while True:  # asked again until it has fallen by half a second
                asked = time.monotonic()
                left = client.get(f"/api/tables/{table_id}").json()["table"]["pause"]["countdown"]
                if first - left >= 0.5:
                    break
                assert time.monotonic() < deadline, "the countdown stood still"
            # it fell by the time between the two answers: at least the time from the first
            # answer to the second question, at most the time from the first question to the second
            # answer (each is rounded to 0.1 s)
            assert asked - after - 0.1 <= first - left <= time.monotonic() - before + 0.1, (first, left)
    store.close()


def test_r9_without_a_hold_spit_still_stops_waiting(db_path, monkeypatch):
    from cardtable.server import presence

    from .conftest import _client

    monkeypatch.setattr(presence, "MAX_WAIT", 3.0)  # long enough to see it wait on a loaded machine
    store = Store(db_path)
    with _client(store, bot_delay=0.0, countdown=0.2, hold=None) as client:  # cardtable serve --hold 0
        table_id, _, _ = new_table(client, {1: "expert"}, game="spit")
        table = client.app.state.hub.tables[table_id]  # type: ignore[attr-defined]
        assert table.pause == {"waiting": [0]}
        _wait(lambda: table.pause is None)
        _wait(lambda: table.version > 0)  # the bot plays on
    store.close()


def test_r5_r9_dropping_just_before_the_hold_again_and_again_pauses_spit_for_one_hold_at_most(db_path):
    """A griefer who drops and comes back before ``--hold`` runs out, over and over,
    stops the game for one hold in all; then it goes on without waiting and a stand-in plays the
    griefer's seat while they are away. The opponent's plays are no longer refused as ``paused``."""
    from .conftest import _client

    store = Store(db_path)
    hold = 1.0
    with _client(store, bot_delay=0.0, countdown=0.2, hold=hold, rate=1e6, burst=1e6) as client:
        table_id, _, tokens = new_table(client, {}, game="spit", sit=(0, 1))
        table = client.app.state.hub.tables[table_id]  # type: ignore[attr-defined]
        with client.websocket_connect(f"/ws/{table_id}") as honest:
            hello(honest, tokens[1])
            paused_time = 0.0
            start = time.monotonic()
            while time.monotonic() - start < 4.0:  # the griefer's cycle: away 0.8 s, back for a moment
                with client.websocket_connect(f"/ws/{table_id}") as griefer:
                    hello(griefer, tokens[0])
                    time.sleep(0.05)
                for _ in range(8):
                    time.sleep(0.1)
                    paused_time += 0.1 if table.pause is not None else 0.0
            assert paused_time <= hold + 0.2 * 5 + 0.5, paused_time  # the hold, the countdowns it caused
            assert table.pause is None  # the griefer is away now, and the game does not wait
            assert table.public()["seats"][0]["auto"]  # a stand-in plays their seat
            version = table.version
            _wait(lambda: table.version > version)  # and does move
            honest.send_json({"type": "act", "seq": 1, "action": "1 spit"})
            while (frame := honest.receive_json())["type"] not in ("ack", "error"):
                pass
            assert frame.get("code") != "paused"
        with client.websocket_connect(f"/ws/{table_id}") as back:  # the griefer comes back and plays again
            hello(back, tokens[0])
            assert not table.public()["seats"][0]["auto"]
    store.close()


def _held_table(tmp_path, covered: bool = False, **options: object):
    """A Spit table of two people under SP-10's interval whose time the test moves, with seat 0
    at a position where it has a play and another after it: the table, its virtual clock, the
    two plays and a socket of seat 0 whose frames the test reads (``conn.queue``)."""
    from cardtable.host.clock import PausableClock, VirtualClock
    from cardtable.server.commands import Attach
    from cardtable.server.connection import Connection

    async def ignore(*args: object) -> None:
        return None

    hub = Hub(Store(tmp_path / "s.sqlite3"))
    for seed in range(200):
        table = _two_humans(hub, seed, min_action_interval_ms=300, **options)
        clock = table.match.clock  # type: ignore[union-attr]
        assert isinstance(clock, PausableClock)
        virtual = clock.base = VirtualClock(clock.base.now())
        state = table.match.state  # type: ignore[union-attr]
        first = next((str(a) for a in state.legal_actions(0) if " play " in str(a)), None)
        if first is None:
            continue
        after = state.clone()
        after.play(first)
        second = next((str(a) for a in after.legal_actions(0) if " play " in str(a)
                       and str(a).split()[2] != first.split()[2]), None)
        if second is not None and covered:  # seat 1 can play onto that pile so that it no longer fits
            pile = second.split()[-1]
            if not any(str(a).endswith(pile) and " play " in str(a) and _covers(after, a, second)
                       for a in after.legal_actions(1)):
                continue
        if second is not None:
            conn = Connection(ignore, ignore)  # its queue is read, never sent
            cid = table.join(conn, 0)
            table.now(Attach(cid, 0, None, "en"))
            return table, virtual, first, second, conn
    raise AssertionError("no deal with two plays in a row")


def _covers(state, action, held: str) -> bool:
    trial = state.clone()
    trial.play(action)
    return held not in [str(b) for b in trial.legal_actions(0)]


def test_r3_sp10_a_held_play_applied_after_later_seqs_leaves_them_resends(tmp_path):
    """R3 with SP-10: seq 2, a play held back, is applied after seqs 3 and 4 (a spit request and
    its withdrawal, which move no card and are not held). The seat's last applied seq stays 4:
    a resend of 3 or 4 is its original answer and applies nothing again, before a restart and
    after one (the log holds the rows in the order 1, 3, 4, 2)."""
    from cardtable.server.commands import Advance

    table, virtual, first, second, _ = _held_table(tmp_path)
    assert table.act(0, 1, first)["type"] == "ack"
    assert table.act(0, 2, second)["queued"] is True
    spit = table.act(0, 3, "0 spit")
    unspit = table.act(0, 4, "0 unspit")
    assert spit["version"] is not None and unspit["version"] is not None
    virtual.advance(0.3)
    table.now(Advance())
    version = table.version
    assert table.act(0, 3, "0 spit") == {"type": "ack", "seq": 3, "version": spit["version"], "dup": True}
    assert table.act(0, 4, "0 unspit") == {"type": "ack", "seq": 4, "version": unspit["version"], "dup": True}
    assert table.version == version and table.s.flow.last_seq[0][0] == 4
    again = Hub(Store(tmp_path / "s.sqlite3")).find(table.id)
    assert again is not None and again.s.flow.last_seq[0][0] == 4
    assert again.act(0, 3, "0 spit")["dup"] is True and again.version == version


def test_r2_r3_sp10_a_held_play_refused_when_due_is_answered_and_not_queued_for_ever(tmp_path):
    """SP-10 with SP-13: a held play that no longer fits when it comes due is refused; the seat
    that was told ``queued`` is told ``lost_race`` with its seq, and a resend is judged afresh
    (before, nothing was said and every resend answered ``queued``)."""
    from cardtable.server.commands import Advance

    table, virtual, first, second, conn = _held_table(tmp_path, covered=True)
    assert table.act(0, 1, first)["type"] == "ack"
    assert table.act(0, 2, second)["queued"] is True
    pile = second.split()[-1]  # seat 1 covers that pile with a card the held play does not fit
    state = table.match.state  # type: ignore[union-attr]
    cover = next(str(a) for a in state.legal_actions(1) if str(a).endswith(pile) and " play " in str(a)
                 and _covers(state, a, second))
    assert table.act(1, 1, cover)["type"] == "ack"
    conn.queue.clear()
    virtual.advance(0.3)
    table.now(Advance())
    told = [item[1].data for item in conn.queue if not isinstance(item[0], int)
            and item[1].data.get("type") == "error"]
    assert [(f["code"], f["seq"]) for f in told] == [("lost_race", 2)]
    assert table.s.flow.held.get(0) == []
    again = table.act(0, 2, second)
    assert again["type"] == "error" and not again.get("queued")


def test_s1_sp10_a_play_still_held_when_the_server_stops_is_said_not_applied(tmp_path):
    """A graceful stop closes every socket: a play SP-10 still holds back is not applied (the log
    never had it), and its seat, told ``queued``, is told so before the close, to make it again."""
    table, _, first, second, conn = _held_table(tmp_path)
    assert table.act(0, 1, first)["type"] == "ack"
    assert table.act(0, 2, second)["queued"] is True
    conn.queue.clear()
    table.close_all()
    told = [item[1].data for item in conn.queue if not isinstance(item[0], int)]
    assert [(f["type"], f.get("code"), f.get("seq")) for f in told] == [("error", "server", 2)]
    assert table.s.flow.held == {}
    assert [a.client_seq for a in table.s.log.actions(table.id) if a.seat == 0] == [1]


def test_c2_plays_on_different_spit_piles_at_the_same_moment_are_both_accepted():
    """C2: both players play, each chosen on version 0, onto *different* spit piles; neither play
    changes what the other aims at, so both are accepted (no table-wide lock-out: a play is checked
    against the state when it arrives, SP-13), in either arrival order."""
    hub = Hub(Store(":memory:"))
    orders = set()
    for seed in range(400):  # deals where seat 0 can play onto one pile and seat 1 onto the other
        table = _two_humans(hub, seed)
        state = table.match.state  # type: ignore[union-attr]
        mine = {str(a).split()[-1]: str(a) for a in state.legal_actions(0) if " play " in str(a)}
        theirs = {str(a).split()[-1]: str(a) for a in state.legal_actions(1) if " play " in str(a)}
        pairs = [(mine[p], theirs[q]) for p in sorted(mine) for q in sorted(theirs) if p != q]
        if not pairs:
            continue
        play0, play1 = pairs[0]
        first, second = (play0, play1) if seed % 2 else (play1, play0)
        a = table.act(int(first[0]), 1, first, seen=0)
        b = table.act(int(second[0]), 1, second, seen=0)
        assert a["type"] == "ack" and a["version"] == 1, a
        assert b["type"] == "ack" and b["version"] == 2, b
        assert [str(x) for x in state.history[-2:]] == [first, second]
        orders.add(int(first[0]))
        if orders == {0, 1}:
            return
    raise AssertionError(f"different-pile plays seen first from seats {orders} only")


def test_c5_a_slower_player_loses_by_arrival_and_cannot_stamp_its_own_time(client: TestClient):
    """C5: the policy is arrival order on the server's clock. A seat whose play reaches the table
    80 ms after the other's (both chosen on version 0, onto the same pile) loses the race whichever
    seat is the slow one; and a client cannot claim an earlier time: an action carrying a time
    stamp of its own is refused by the closed schema and changes nothing."""
    from cardtable.host.clock import PausableClock, VirtualClock

    hub = Hub(Store(":memory:"))
    slow_seats = set()
    for seed in range(400):
        table = _two_humans(hub, seed)
        clock = table.match.clock  # type: ignore[union-attr]
        assert isinstance(clock, PausableClock)
        virtual = clock.base = VirtualClock(clock.base.now())
        state = table.match.state  # type: ignore[union-attr]
        both = _contested(state)
        if not both:
            continue
        mine, theirs = next(iter(both.values()))
        fast, slow = (mine, theirs) if seed % 2 else (theirs, mine)
        assert table.act(int(fast[0]), 1, fast, seen=0)["type"] == "ack"
        virtual.advance(0.080)  # the slow seat's play comes 80 ms later
        if any(str(x) == slow for x in state.legal_actions(int(slow[0]))):
            continue  # it fits the new top too (C3): no race to lose in this deal
        lost = table.act(int(slow[0]), 1, slow, seen=0)
        assert lost["code"] == "lost_race" and table.version == 1, lost
        slow_seats.add(int(slow[0]))
        if slow_seats == {0, 1}:
            break
    else:
        raise AssertionError(f"races lost only by seats {slow_seats}")

    table_id, _, tokens = new_table(client, {}, game="spit", sit=(0, 1))
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        hello(ws, tokens[0])
        state_frame, _ = receive_until(ws, "state")
        action = (state_frame["view"]["legal_actions"] or ["0 spit"])[0]
        for stamp in ({"at": 0}, {"time": 0.0}, {"ts": 1}, {"client_time": -1.0}, {"sent": 0}):
            ws.send_json({"type": "act", "seq": 1, "action": action, "version": state_frame["version"], **stamp})
            while (frame := ws.receive_json())["type"] != "error":
                assert frame["type"] not in ("ack", "state"), frame
            assert frame["code"] == "bad_message", frame
    assert client.get(f"/api/tables/{table_id}").json()["table"]["version"] == state_frame["version"]
