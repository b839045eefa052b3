"""Start the apps from the command line. Textual is imported only here, when an
app really starts, so ``cardtable`` works without the ``tui`` extra (``--plain``)."""

from __future__ import annotations

from ..core.errors import ConfigError
from ..records.record import Record
from .session import Session


def _textual() -> None:
    try:
        import textual  # noqa: F401
    except ModuleNotFoundError:
        raise ConfigError(
            "the terminal app needs Textual: pip install 'cardtable[tui]' (or play with --plain)"
        ) from None


def run_play(session: Session, *, pace: float = 0.25, bot_delay: float = 0.4, undo: bool = False) -> int:
    """Play ``session`` in the Textual app (``undo``: the person may take moves back against
    bots); returns the exit status."""
    _textual()
    from .app import TableApp

    code = TableApp(session, pace=pace, bot_delay=bot_delay, ready=True, undo=undo).run()
    saved = session.save_path
    if saved is not None and saved.exists():  # the app has closed: say where the game is
        from ..i18n import translate

        print(translate("tui.status.saved", session.lang, path=str(saved)))
    return int(code or 0)


def run_replay(record: Record, seat: int | None, *, lang: str = "en", pace: float = 0.3) -> int:
    """The step-by-step replay viewer."""
    _textual()
    from .replay import ReplayApp

    code = ReplayApp(record, seat, lang=lang, pace=pace).run()
    return int(code or 0)
