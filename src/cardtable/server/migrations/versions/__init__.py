"""The schema's revisions, oldest first (read by Alembic, never imported by the server)."""
