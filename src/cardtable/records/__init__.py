"""Game records (JSON), replay, and golden playthroughs."""

from .record import FORMAT, VERSION, Record, record_of, replay_views

__all__ = ["FORMAT", "VERSION", "Record", "record_of", "replay_views"]
