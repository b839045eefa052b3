"""Rated tables and their clocks: ``tables.rated`` (only a rated table's result moves ratings) and
``tables.clock`` (the JSON of the per-move clock of a rated table, ``NULL``: none).

A table stored before this revision is casual and has no clock.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision: str | None = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()))
    op.add_column("tables", sa.Column("clock", sa.Text))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("clock")
        batch.drop_column("rated")
