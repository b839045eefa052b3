"""Alembic's environment for the action log's schema: it runs on the connection the caller hands
over in ``config.attributes["connection"]`` (:func:`cardtable.server.migrations.upgrade_sqlite`,
:func:`~cardtable.server.migrations.upgrade_postgres`), inside the caller's transaction, so the
migrations are applied whole or not at all."""

from __future__ import annotations

from alembic import context


def run() -> None:
    connection = context.config.attributes["connection"]
    context.configure(connection=connection, target_metadata=None)
    with context.begin_transaction():
        context.run_migrations()


if hasattr(context, "config"):  # run by Alembic; merely imported (by a doctest run), it does nothing
    run()
