"""Events (tournaments, docs/tournaments.md): an event's settings, its progress and its entrants.

``events.progress`` is the running event as JSON (its rounds, each game's table and result); the
``secret`` keys the seat tokens its tables hand to entrants and the event's fair-deal seeds, and
never leaves the server. An entrant is an account (``account_id``, the players' accounts), kept
with the name it registered under.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision: str | None = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "events",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("kind", sa.Text, nullable=False),
        sa.Column("game", sa.Text, nullable=False),
        sa.Column("preset", sa.Text, nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("rounds", sa.Integer, nullable=False),
        sa.Column("deals", sa.Integer),
        sa.Column("starts_at", sa.Double),
        sa.Column("when_full", sa.Boolean, nullable=False),
        sa.Column("max_entrants", sa.Integer, nullable=False),
        sa.Column("bots", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("creator", sa.BigInteger, nullable=False),
        sa.Column("creator_name", sa.Text, nullable=False),
        sa.Column("status", sa.Text, nullable=False),
        sa.Column("created", sa.Double, nullable=False),
        sa.Column("secret", sa.Text, nullable=False),
        sa.Column("progress", sa.Text),
    )
    op.create_index("events_by_status", "events", ["status", "created"])
    op.create_index("events_by_creator", "events", ["creator", "status"])
    op.create_table(
        "event_entrants",
        sa.Column("event_id", sa.Text, sa.ForeignKey("events.id"), nullable=False),
        sa.Column("account_id", sa.BigInteger, nullable=False),
        sa.Column("username", sa.Text, nullable=False),
        sa.Column("registered", sa.Double, nullable=False),
        sa.PrimaryKeyConstraint("event_id", "account_id"),
    )
    op.create_index("event_entrants_by_account", "event_entrants", ["account_id"])


def downgrade() -> None:
    op.drop_index("event_entrants_by_account", "event_entrants")
    op.drop_table("event_entrants")
    op.drop_index("events_by_creator", "events")
    op.drop_index("events_by_status", "events")
    op.drop_table("events")
