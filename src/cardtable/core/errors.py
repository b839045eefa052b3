"""The three error types of cardtable.

Every error the library raises on bad input is one of these, so a client can
catch :class:`CardtableError` and show a one-line message.
"""

from __future__ import annotations


class CardtableError(ValueError):
    """Base class of every cardtable error about bad input."""


class ParseError(CardtableError):
    """Text that is not a card, an action or a record of the expected form."""


class IllegalActionError(CardtableError):
    """A well-formed action that the rules do not allow in the current state.

    The state is left exactly as it was.
    """


class ConfigError(CardtableError):
    """An unknown game, preset or option, an option value out of range, or a bad deck."""
