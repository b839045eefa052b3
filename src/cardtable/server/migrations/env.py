"""Alembic's environment for the action log's schema: it runs on the connection the caller hands
over in ``config.attributes["connection"]`` (:func:`cardtable.server.migrations.upgrade`), inside
the caller's transaction, so a migration is applied whole or not at all."""

from __future__ import annotations

from alembic import context

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=None)
with context.begin_transaction():
    context.run_migrations()
