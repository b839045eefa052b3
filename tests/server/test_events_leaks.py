"""The leak oracle over a duplicate event (T10, H1, H3, H9): two tables of people play the same
deals at different paces. Every frame each seat and spectator of either table receives carries
only what the Trex rules show that seat at its own table; an action at one table sends no frame to
the other; the round's server seed leaves no table before its game is over; the event's public
page names no card and compares only the deals both tables have finished; and a sealed table's
summary leaves its server seed out."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

from cardtable.server.commands import Act, Attach, Fan
from cardtable.server.events.routes import event_json
from cardtable.server.events.runner import round_deal

from .test_events_run import Server, accounts
from .test_leaks import FORBIDDEN_KEYS, Capture, cards_in, no_secret
from .test_leaks_games import CONTRACT_CODES, trex_allowed, trex_reveals


def test_t10_h3_h9_a_duplicate_event_leaks_no_card_of_another_table(tmp_path: Path):
    async def main() -> None:
        rng = random.Random(11)
        server = Server(tmp_path / "server.sqlite3")
        people = accounts(8)
        row = await server.events.create(people[0], {"name": "Oracle", "kind": "duplicate", "game": "trex",
                                               "preset": "complex", "rounds": 1, "max_entrants": 8}, "ip")
        for who in people:
            await server.events.register(row.id, who, "ip")
        await server.runner.step()
        row = server.events.store.event(row.id)  # type: ignore[assignment]
        assert row is not None and row.status == "running" and row.progress is not None
        secret = tuple(round_deal(row, 1).secret_texts())
        tables = [server.hub.find(g["table"]) for g in row.progress["rounds"][0]["games"]]
        assert len(tables) == 2 and all(t is not None for t in tables)
        conns: list[dict[int | None, Capture]] = []
        for t in tables:
            assert t is not None
            mine: dict[int | None, Capture] = {}
            for seat in [0, 1, 2, 3, None]:
                conn = Capture(rng.choice(("en", "ar")))
                cid = t.join(conn, seat)
                await t.ask(Attach(cid, seat, None, conn.lang))
                mine[seat] = conn
            conns.append(mine)
        await server.runner.step()  # every person is there: both tables start
        assert all(t is not None and t.match is not None for t in tables)
        marks: dict[int, int] = {}
        ever: list[dict[int | None, set[str]]] = [{s: set() for s in c} for c in conns]

        def check(i: int, ok: dict[int | None, set[str]]) -> None:
            table = tables[i]
            for seat, conn in conns[i].items():
                ever[i][seat] |= ok[seat]
                for text in conn.frames[marks.get(id(conn), 0):]:
                    no_secret(table, secret, text)
                    allowed = ever[i][seat] if text.startswith('{"type":"events"') else ok[seat]
                    leaked = cards_in(CONTRACT_CODES.sub("", text)) - allowed
                    assert not leaked, f"table {i} seat {seat} was sent {leaked}: {text[:300]}"
                    assert not FORBIDDEN_KEYS.search(text.replace('"stock":', "")), text[:300]
                marks[id(conn)] = len(conn.frames)

        def quiet(i: int) -> None:
            for conn in conns[i].values():
                assert len(conn.frames) == marks.get(id(conn), 0), f"table {i} was sent a frame of the other table"

        for i in range(2):
            t = tables[i]
            assert t is not None and t.match is not None
            check(i, {s: trex_allowed(t.match.state, s) for s in conns[i]})
        seq = 0
        steps = 0
        while not all(t is not None and t.match is not None and t.match.is_over for t in tables):
            steps += 1
            assert steps < 20_000
            live = [i for i, t in enumerate(tables) if t is not None and t.match is not None and not t.match.is_over]
            i = live[0] if len(live) == 1 or rng.random() < 0.75 else live[1]  # table 0 runs ahead
            t = tables[i]
            assert t is not None and t.match is not None
            state = t.match.state
            before = {s: trex_allowed(state, s) for s in conns[i]}
            seat = state.current_player()
            action = rng.choice(state.legal_actions())
            shown = trex_reveals(state, seat, action)
            seq += 1
            reply = await t.ask(Act(seat, seq, str(action)))
            assert reply["type"] == "ack", reply
            await t.ask(Fan())
            now = {s: trex_allowed(state, s) for s in conns[i]}
            check(i, {s: before[s] | now[s] | shown for s in conns[i]})
            quiet(1 - i)
            if steps % 25 == 0 or t.match.is_over:
                await server.runner.step()
                current = server.events.store.event(row.id)
                assert current is not None
                public = json.dumps(event_json(current, server.events, server.runner), ensure_ascii=False,
                                    separators=(",", ":"))
                assert not cards_in(CONTRACT_CODES.sub("", public)), public[:300]
                assert not any(s in public for s in secret)
                finished = [{d for d, *_ in tt.match.state.view(None).deal_scores}  # type: ignore[union-attr]
                            for tt in tables]
                for deal in json.loads(public)["deals"]:
                    assert all(deal["deal"] in f for f in finished)
                for c in conns:  # the runner's own steps send nothing to anyone
                    for conn in c.values():
                        marks[id(conn)] = len(conn.frames)
        await server.runner.step()
        final = server.events.store.event(row.id)
        assert final is not None and final.status == "over"
        server.close()

    asyncio.run(main())


def test_t10_a_sealed_tables_summary_leaves_its_server_seed_out(tmp_path: Path):
    """Over the app: a finished table of a sealed round shows no server seed; once the round is
    no longer sealed, it does (the record is public then)."""
    from cardtable.server.app import create_app
    from cardtable.server.events.routes import with_events
    from cardtable.server.events.store import SqliteEvents
    from cardtable.server.players import Players
    from cardtable.server.store import Store

    from .players_fixtures import CHEAP, TestClient, open_limits

    path = tmp_path / "server.sqlite3"
    store = Store(path)
    players = Players(path, log=store, hasher=CHEAP, limits=open_limits())
    app = create_app(store, bot_delay=0.0, allow_hosts=("testserver",), players=players)
    runner = with_events(app, players, SqliteEvents(path), tick=3600.0)
    with TestClient(app, base_url="http://testserver") as c:
        made = c.post("/api/tables", json={"game": "trash", "options": {"max_hands": 1}},
                      headers={"Origin": "http://testserver"}).json()
        tid, host = made["table"]["id"], made["host"]
        for seat in range(2):
            c.post(f"/api/tables/{tid}/bot", json={"host": host, "seat": seat, "bot": "medium"},
                   headers={"Origin": "http://testserver"})
        c.post(f"/api/tables/{tid}/start", json={"host": host}, headers={"Origin": "http://testserver"})
        with c.websocket_connect(f"/ws/{tid}", headers={"origin": "http://testserver"}) as ws:
            ws.send_text(json.dumps({"type": "hello"}))  # a spectator, so that the bots play
            for _ in range(10_000):
                if c.get(f"/api/tables/{tid}").json()["table"]["status"] == "over":
                    break
                ws.receive_text()
        public: Any = c.get(f"/api/tables/{tid}").json()["table"]
        assert public["status"] == "over" and public["fair"]["server_seed"]
        runner.sealed.add(tid)
        assert c.get(f"/api/tables/{tid}").json()["table"]["fair"]["server_seed"] is None
        assert c.get(f"/api/tables/{tid}/record").status_code == 409
        runner.sealed.discard(tid)
        assert c.get(f"/api/tables/{tid}/record").status_code == 200
    store.close()


def test_t10_h_a_sealed_tables_summary_and_lobby_line_leave_its_version_out(tmp_path: Path):
    """Hidden cards, over the app: a sealed table's version (how many moves each of its deals
    took, with the same cards as the other tables of the round) is in neither its summary nor
    the lobby's list; another table's is, and the sealed one's is back once the round is over."""
    from cardtable.server.app import create_app
    from cardtable.server.events.routes import with_events
    from cardtable.server.events.store import SqliteEvents
    from cardtable.server.players import Players
    from cardtable.server.store import Store

    from .players_fixtures import CHEAP, TestClient, open_limits

    path = tmp_path / "server.sqlite3"
    store = Store(path)
    players = Players(path, log=store, hasher=CHEAP, limits=open_limits())
    app = create_app(store, bot_delay=0.0, allow_hosts=("testserver",), players=players)
    runner = with_events(app, players, SqliteEvents(path), tick=3600.0)
    origin = {"Origin": "http://testserver"}
    with TestClient(app, base_url="http://testserver") as c:
        ids = []
        for _ in range(2):
            made = c.post("/api/tables", json={"game": "trash", "options": {}}, headers=origin).json()
            tid, host = made["table"]["id"], made["host"]
            for seat in range(2):
                c.post(f"/api/tables/{tid}/bot", json={"host": host, "seat": seat, "bot": "medium"}, headers=origin)
            c.post(f"/api/tables/{tid}/start", json={"host": host}, headers=origin)
            ids.append(tid)
        sealed, other = ids
        runner.sealed.add(sealed)
        assert c.get(f"/api/tables/{sealed}").json()["table"]["version"] is None
        assert isinstance(c.get(f"/api/tables/{other}").json()["table"]["version"], int)
        listed = {t["id"]: t["version"] for t in c.get("/api/tables").json()["tables"]}
        assert listed[sealed] is None and isinstance(listed[other], int)
        runner.sealed.discard(sealed)
        assert isinstance(c.get(f"/api/tables/{sealed}").json()["table"]["version"], int)
    store.close()
