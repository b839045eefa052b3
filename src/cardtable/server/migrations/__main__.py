"""``python -m cardtable.server.migrations``: write ``head_sqlite.py`` again, after a new revision."""

from . import HERE, write_snapshot

write_snapshot()
print(f"wrote {HERE / 'head_sqlite.py'}")
