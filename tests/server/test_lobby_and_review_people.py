"""The lobby lists a game in progress only while someone is at it (an abandoned game is no game
to join or watch), and a seat's review judges the person only on the moves they chose: not on a
stand-in bot's moves after they left (H6: the review is of a finished game only, as before)."""

from __future__ import annotations

import random
import time
from pathlib import Path

from cardtable.core.game import TERMINAL
from cardtable.server.hub import ABANDONED, Hub
from cardtable.server.review import own_steps, seat_review
from cardtable.server.store import Store


def test_p11_an_abandoned_game_leaves_the_lobby_and_comes_back_when_someone_is_there(tmp_path: Path):
    hub = Hub(Store(tmp_path / "s.sqlite3"), keep=600.0)
    table, _ = hub.create("trash", None, {})
    table.sit(0, "Ada")
    table.add_bot(1, "random")
    table.start(seed=3)
    assert [t["id"] for t in hub.listing()] == [table.id]
    table.touched = time.monotonic() - ABANDONED - 1  # nobody has been at it for a minute
    assert hub.listing() == []
    table.touched = time.monotonic()  # someone came back
    assert [t["id"] for t in hub.listing()] == [table.id]



def test_ld11_the_lobby_lists_the_newest_100_tables_and_summarises_no_older_one(tmp_path: Path):
    """LD11: the listing is made every time a node writes its part of the lobby, so its cost stays
    that of 100 tables however many a node holds: the newest 100 are listed, oldest first, and the
    older tables' summaries are never made."""
    hub = Hub(Store(tmp_path / "s.sqlite3"), keep=600.0)
    tables = [hub.create("trash", None, {})[0] for _ in range(130)]
    summarised: list[str] = []
    for table in tables:
        made = table.public

        def public(made=made, table=table):  # type: ignore[no-untyped-def]
            summarised.append(table.id)
            return made()

        table.public = public  # type: ignore[method-assign]
    assert [t["id"] for t in hub.listing()] == [t.id for t in tables[30:]]
    assert sorted(summarised) == sorted(t.id for t in tables[30:])

def test_h6_a_review_judges_a_person_only_on_the_moves_they_chose(tmp_path: Path):
    store = Store(tmp_path / "s.sqlite3")
    hub = Hub(store)
    table, _ = hub.create("trash", None, {"target_size": 9})
    # a table's bots play from a secret seed of its own; fixed here, so the stand-in has choices to make
    table.s.row.bot_seed = 1
    token = table.sit(0, "Ada")
    table.add_bot(1, "random")
    table.start(seed=12)
    rng = random.Random(4)
    seq = 0
    while seq < 6 and table.match.to_move() != TERMINAL:
        if table.match.to_move() == 0:
            seq += 1
            assert table.act(0, seq, str(rng.choice(table.match.state.legal_actions())))["type"] == "ack"
            table.after_change()
        else:
            assert table.step_bot()
    table.leave(token)  # a stand-in plays seat 0 to the end
    for _ in range(100_000):
        if not table.step_bot():
            break
    assert table.match.is_over
    own = own_steps(store.actions(table.id), 0)
    assert own is not None and len(own) == seq
    record = table.match.record().to_json()
    everything = seat_review(record, 0, worlds=2)
    mine = seat_review(record, 0, worlds=2, own=own)
    assert everything["decisions"] > mine["decisions"]  # the stand-in decided too
    assert all(d["step"] in own for d in mine["costliest"])
    assert 0 < mine["decisions"] <= len(own)
    assert own_steps(store.actions(table.id), 1) is None  # a bot's seat is reviewed on all its moves
