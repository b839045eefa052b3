"""Owner leases that run out: each lease row names its owner (a server process) and when its lease
ends, in seconds since the epoch (0: ended, or never taken with a time).

A lease taken by ``claim`` alone (one process, no time) has no owner and has ended: any process
may take the table over, with the next epoch.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("leases", sa.Column("owner", sa.Text))
    op.add_column("leases", sa.Column("expires", sa.Double, nullable=False, server_default="0"))
    op.create_index("leases_by_owner", "leases", ["owner"])


def downgrade() -> None:
    op.drop_index("leases_by_owner", "leases")
    with op.batch_alter_table("leases") as batch:
        batch.drop_column("expires")
        batch.drop_column("owner")
