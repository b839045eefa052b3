"""The action log's first versioned schema: tables, seats, actions, undone, chat, leases, meta.

A SQLite database written before the schema was versioned has some or all of these tables (one
from before fair deals lacks ``tables.fair``, one from before undo ``tables.undo``): this revision
creates what is missing and keeps every row, so such a database is adopted as it stands.

On PostgreSQL a chat line has a number of its own (``line``), the order lines were said in; on
SQLite that is the ``rowid``.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels = None
depends_on = None


def _tables(postgres: bool) -> dict[str, list[sa.Column[object] | sa.Constraint]]:
    def table_id() -> sa.Column[object]:
        return sa.Column("table_id", sa.Text, sa.ForeignKey("tables.id"), nullable=False)

    line: list[sa.Column[object] | sa.Constraint] = (
        [sa.Column("line", sa.BigInteger, sa.Identity(always=True), primary_key=True)] if postgres else [])
    return {
        "meta": [sa.Column("key", sa.Text, primary_key=True), sa.Column("value", sa.Text, nullable=False)],
        "tables": [
            sa.Column("id", sa.Text, primary_key=True),
            sa.Column("game", sa.Text, nullable=False),
            sa.Column("preset", sa.Text, nullable=False),
            sa.Column("options", sa.Text, nullable=False),
            sa.Column("seed", sa.BigInteger),
            sa.Column("bot_seed", sa.BigInteger, nullable=False),
            sa.Column("host_hash", sa.Text, nullable=False),
            sa.Column("status", sa.Text, nullable=False),
            sa.Column("created", sa.Double, nullable=False),
            sa.Column("fair", sa.Text),
            sa.Column("undo", sa.Boolean, nullable=False, server_default=sa.false()),
        ],
        "seats": [
            table_id(),
            sa.Column("seat", sa.Integer, nullable=False),
            sa.Column("kind", sa.Text, nullable=False),
            sa.Column("name", sa.Text, nullable=False),
            sa.Column("token_hash", sa.Text),
            sa.PrimaryKeyConstraint("table_id", "seat"),
        ],
        "actions": [
            table_id(),
            sa.Column("version", sa.Integer, nullable=False),
            sa.Column("seat", sa.Integer, nullable=False),
            sa.Column("action", sa.Text, nullable=False),
            sa.Column("client_seq", sa.BigInteger),
            sa.Column("at", sa.Double, nullable=False),
            sa.PrimaryKeyConstraint("table_id", "version"),
        ],
        "chat": [
            *line,
            table_id(),
            sa.Column("seat", sa.Integer, nullable=False),
            sa.Column("name", sa.Text, nullable=False),
            sa.Column("text", sa.Text, nullable=False),
            sa.Column("at", sa.Double, nullable=False),
        ],
        "leases": [sa.Column("table_id", sa.Text, primary_key=True),
                   sa.Column("epoch", sa.BigInteger, nullable=False)],
        "undone": [
            table_id(),
            sa.Column("undo", sa.Integer, nullable=False),
            sa.Column("version", sa.Integer, nullable=False),
            sa.Column("seat", sa.Integer, nullable=False),
            sa.Column("action", sa.Text, nullable=False),
            sa.Column("client_seq", sa.BigInteger),
            sa.Column("at", sa.Double, nullable=False),
            sa.PrimaryKeyConstraint("table_id", "undo", "version"),
        ],
    }


_INDEXES = {"seats_by_token": ("seats", ["token_hash"]), "chat_by_table": ("chat", ["table_id", "at"])}


def upgrade() -> None:
    bind = op.get_bind()
    inspector = sa.inspect(bind)
    have = set(inspector.get_table_names())
    for name, parts in _tables(bind.dialect.name == "postgresql").items():  # "tables" before the rest
        if name not in have:
            op.create_table(name, *parts)
    if "tables" in have:
        columns = {c["name"] for c in inspector.get_columns("tables")}
        if "fair" not in columns:  # from before fair deals: its games stay seeded
            op.add_column("tables", sa.Column("fair", sa.Text))
        if "undo" not in columns:  # from before undo: its tables have none
            op.add_column("tables", sa.Column("undo", sa.Boolean, nullable=False, server_default=sa.false()))
    for index, (table, keys) in _INDEXES.items():
        if table not in have or index not in {i["name"] for i in inspector.get_indexes(table)}:
            op.create_index(index, table, keys)


def downgrade() -> None:
    raise NotImplementedError("the first schema has nothing to go back to")
