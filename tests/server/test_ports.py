"""The action-log and owner-lease contract (``cardtable.server.ports``), run on every adapter:
claims hand out rising epochs, a write from a stale epoch is refused in the same transaction and
writes nothing, and the adapter's own errors never leave it (``LogError`` only). Then two owners
of one table: only the newer one can write (S3: no acknowledged action of a deposed owner)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from cardtable.server.hub import Hub
from cardtable.server.ports import ActionLog, LogError, StaleLease
from cardtable.server.store import SeatRow, Store, TableRow

ADAPTERS: dict[str, Callable[[Path], ActionLog]] = {"sqlite": lambda tmp: Store(tmp / "log.sqlite3")}


@pytest.fixture(params=sorted(ADAPTERS))
def log(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ActionLog]:
    adapter = ADAPTERS[request.param](tmp_path)
    yield adapter
    adapter.close()


def a_table(log: ActionLog, table_id: str = "t1") -> str:
    log.create_table(TableRow(table_id, "trash", "standard", {}, None, 7, "h" * 64, "open", 0.0,
                              seats=[SeatRow(0, "open", "", None), SeatRow(1, "open", "", None)]))
    log.start(table_id, 99)
    return table_id


def test_s3_claims_hand_out_rising_epochs_per_table(log: ActionLog):
    assert log.epoch("t1") == 0
    assert [log.claim("t1") for _ in range(3)] == [1, 2, 3]
    assert log.claim("t2") == 1 and log.epoch("t1") == 3 and log.epoch("t2") == 1


def test_s3_a_stale_epoch_writes_nothing(log: ActionLog):
    table = a_table(log)
    old = log.claim(table)
    log.append(table, 1, 0, "stock", 1, epoch=old)
    new = log.claim(table)
    with pytest.raises(StaleLease):
        log.append(table, 2, 1, "stock", None, epoch=old)
    with pytest.raises(StaleLease):
        log.undo(table, 0, epoch=old)
    assert [(r.version, r.action) for r in log.actions(table)] == [(1, "stock")]
    log.append(table, 2, 1, "stock", None, epoch=new)
    assert log.undo(table, 1, epoch=new) == 1
    assert [r.version for r in log.actions(table)] == [1]


def test_s3_the_adapters_own_errors_do_not_leave_it(log: ActionLog):
    table = a_table(log)
    log.append(table, 1, 0, "stock", 1)
    with pytest.raises(LogError):
        log.append(table, 1, 0, "stock", 1)  # the same version twice
    log.close()
    with pytest.raises(LogError):
        log.actions(table)


def test_s3_of_two_owners_of_one_table_only_the_newer_one_can_write(tmp_path: Path):
    """Two hubs over one database, as two server processes: the second takes the table over;
    the first's next action is refused (not acknowledged) and the second goes on from the log."""
    store = Store(tmp_path / "s.sqlite3")
    first = Hub(store)
    table, _ = first.create("trash", None, {})
    table.sit(0, "Ada")
    table.sit(1, "Ben")
    table.start(seed=5)
    rng = random.Random(1)

    def move(t: object, seq: int) -> dict[str, object]:
        state = t.match.state  # type: ignore[attr-defined]
        seat = state.current_player()
        return t.act(seat, seq, str(rng.choice(state.legal_actions())))  # type: ignore[attr-defined, no-any-return]

    assert move(table, 1)["type"] == "ack"
    second = Hub(Store(tmp_path / "s.sqlite3")).get(table.id)  # loads (replays) and claims it
    assert second.epoch > table.epoch and second.version == table.version
    refused = move(table, 2)
    assert refused["type"] == "error" and refused["code"] == "server", refused
    assert move(second, 2)["type"] == "ack"
    assert len(store.actions(table.id)) == 2
