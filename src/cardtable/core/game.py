"""The Game/State protocol shared by every game (docs/architecture.md, "The game protocol").

A :class:`Game` is a rule set with resolved options; it makes :class:`State`
objects. A state is mutated only by :meth:`State.play` (checked) and
:meth:`State.apply` (unchecked fast path). The only thing that ever leaves a
state for a player is :meth:`State.view`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from .cards import Card, parse_cards
from .chance import DealSource
from .errors import ConfigError, IllegalActionError, ParseError
from .options import Option, Options, resolve
from .seats import TERMINAL

G = TypeVar("G", bound="Game")


class Action:
    """Base of every game's action type: an immutable value with a canonical
    text form (``str``), an evaluable ``repr`` and a stable integer
    :attr:`index` for environments."""

    __slots__ = ()

    @property
    def index(self) -> int:
        raise NotImplementedError

    @property
    def seat(self) -> int | None:
        """The seat the action names itself, or ``None``. The actions of a real-time game carry
        their seat (``"0 play 3 S1"``: any seat may act at any time); a turn-based game's actions
        name none (the seat to move plays them), and a timer's is ``None``."""
        return None


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended.

    ``returns[s]`` is seat ``s``'s result as the game defines it (documented per
    game); ``winners`` are the seats that won or shared the win; ``reason``
    names the rule that ended the game.
    """

    returns: tuple[float, ...]
    winners: tuple[int, ...]
    reason: str

    def __reduce__(self) -> tuple[Any, ...]:
        """By its fields: the compiled frozen class refuses to be set back field by field."""
        return (Outcome, (self.returns, self.winners, self.reason))


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, as every seat entitled to see it saw it.

    Events let a client show a forced sequence (a Trash displacement chain,
    a Trex trick) one step at a time. ``seq`` numbers the events of a game from
    0 in order; ``text`` is an English sentence; the other fields are data:
    ``slot`` a place the event concerns (a Trash slot, a Spit pile), ``value``
    a number it reports (a new layout size, a count); ``args`` the further named
    numbers and codes its sentence is made of, ``(("pile", 4), ("spit", 1))``, so
    a client can phrase the event in another language (:func:`cardtable.i18n.event_text`).
    ``args`` hold public information only, never a card a seat may not see; in
    JSON they are an object (``{"pile": 4, "spit": 1}``).
    """

    seq: int
    kind: str
    seat: int | None
    card: Card | None = None
    slot: int | None = None
    value: int | None = None
    text: str = ""
    args: tuple[tuple[str, int | str], ...] = ()

    def __reduce__(self) -> tuple[Any, ...]:
        """An event pickles by its fields (views carry events to the server's bot pool): the
        compiled class's state would be set back field by field, which a frozen class refuses."""
        return (Event, (self.seq, self.kind, self.seat, self.card, self.slot, self.value, self.text, self.args))


class Game(ABC):
    """A rule set with resolved options. Load one with :func:`cardtable.load`."""

    name: ClassVar[str]
    title: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    OPTIONS: ClassVar[tuple[Option, ...]]
    PRESETS: ClassVar[Mapping[str, Mapping[str, Any]]]
    PRESET_DOCS: ClassVar[Mapping[str, str]] = {}
    realtime: ClassVar[bool] = False
    time_limit: float | None = None
    """Seconds a whole game may last (Trash's TR-V2 option), else ``None``: a host posts a
    ``time-up`` action when they run out."""
    """Played in real time: every seat acts at once (``current_player()`` is ``SIMULTANEOUS``)
    and a host drives the timers (:class:`cardtable.host.realtime.RealtimeHost`), so a game of it
    has no turns to wait for, no undo and no per-move clock."""

    def __init__(self, options: Options) -> None:
        self.options = options

    def __reduce__(self) -> tuple[Any, ...]:
        """A game is its class and options (what ``__init__`` derives is derived again): a
        compiled class has no ``__dict__`` to pickle, and the server's bot pool pickles bots."""
        return (type(self), (self.options,))

    @classmethod
    def load(cls: type[G], preset: str | None = None, /, **overrides: Any) -> G:
        """This game with ``preset`` (default ``standard``; positional, or ``preset=``) and option
        overrides. Options are user input (a command line's ``-o``, a record, a request), so any
        name is an option's here: ``preset`` given twice is a :class:`ConfigError`, not Python's
        ``TypeError``."""
        if "preset" in overrides:
            given = overrides.pop("preset")
            if preset is not None:
                raise ConfigError(f"{cls.name} has no option 'preset': the preset is chosen apart"
                                  f" (here {preset!r})")
            preset = given
        return cls(resolve(cls.name, cls.OPTIONS, cls.PRESETS, preset, overrides))

    @property
    def preset(self) -> str:
        return str(self.options.preset)

    @property
    @abstractmethod
    def num_players(self) -> int: ...

    @abstractmethod
    def new_state(self, seed: int | None = None, deck: Sequence[Card | str | int] | None = None,
                  deals: DealSource | None = None) -> State:
        """A new game from ``seed`` (a fresh secure seed when ``None``) or from the
        stacked ``deck`` of docs/rules/index.md §0.5 (cards as :class:`Card`, text or ids); with
        ``deals``, every shuffle and chance pick comes from it (docs/fairness.md)."""

    @abstractmethod
    def parse_action(self, text: str) -> Action:
        """The action written as ``text`` (its canonical form); :class:`ParseError` otherwise."""

    @property
    @abstractmethod
    def num_distinct_actions(self) -> int:
        """How many action indices exist (the size of an action mask)."""

    @abstractmethod
    def action_from_index(self, index: int) -> Action:
        """The action whose :attr:`Action.index` is ``index``."""

    def changed_options(self) -> dict[str, Any]:
        """Option values that differ from the defaults."""
        return self.options.changed(self.OPTIONS)

    def __repr__(self) -> str:
        changed = ", ".join(f"{k}={v!r}" for k, v in self.changed_options().items())
        return f"cardtable.load({self.name!r}{', ' if changed else ''}{changed})"

    def _check_deck(self, deck: Sequence[Card | str | int], expected: Iterable[int] | None) -> list[int]:
        """Card ids of a stacked deck; with ``expected``, the deck must be exactly that multiset."""
        try:
            ids = [c.id for c in parse_cards(deck)]
        except ParseError as exc:
            raise ConfigError(f"bad stacked deck: {exc}") from None
        if expected is not None:
            want = sorted(expected)
            if sorted(ids) != want:
                raise ConfigError(
                    f"a stacked {self.name} deck must hold exactly the cards of the game "
                    f"({len(want)} cards); got {len(ids)}: {_deck_difference(ids, want)}"
                )
        return ids


def _deck_difference(ids: list[int], want: list[int]) -> str:
    """What a stacked deck lacks and has too many of, as card text."""
    left = Counter(want)
    left.subtract(ids)
    missing = sorted(left.elements())
    extra = sorted((-left).elements())
    parts = []
    if missing:
        parts.append(f"missing {_counted(missing)}")
    if extra:
        parts.append(f"too many {_counted(extra)}")
    return "; ".join(parts)


def _counted(ids: list[int]) -> str:
    """``AS ×51, 2C`` for ids in order: each card once, with its count when above 1."""
    counts = Counter(ids)
    return ", ".join(f"{Card.from_id(c)}" + (f" ×{k}" if k > 1 else "") for c, k in sorted(counts.items()))


class State(ABC):
    """One position of a game. Mutable; :meth:`clone` for an independent copy.

    Besides the abstract methods, a state has what every client may ask of any game, with
    defaults for the games that have nothing to say: the ``seed``, ``deals`` and
    ``stacked_deck`` a record is made of, :meth:`illegal_reason`, and the real-time hooks
    :meth:`timers` and :meth:`tie_rank` (a game with ``Game.realtime`` gives its own)."""

    game: Game
    history: list[Action]
    seed: int
    """The seed every shuffle of the game comes from, unless ``deals`` is set."""
    deals: DealSource | None = None
    """A provably fair game's source of every shuffle (docs/fairness.md), else ``None``."""
    stacked_deck: tuple[int, ...] | None = None
    """The §0.5 deck the game was dealt from, if it was stacked and the game keeps it for its record."""
    time_up: bool = False
    """The game's time limit has run out (``Game.time_limit``; a game without one never sets it)."""

    @abstractmethod
    def current_player(self) -> int:
        """The seat to act, or ``SIMULTANEOUS``/``TERMINAL`` (core.seats)."""

    @abstractmethod
    def legal_actions(self, seat: int | None = None) -> Sequence[Action]:
        """The actions ``seat`` (default: the current player) may take now, sorted by index."""

    @abstractmethod
    def apply(self, action: Action) -> None:
        """Apply a legal action without checking it (bots and simulations)."""

    @abstractmethod
    def view(self, seat: int | None) -> PlayerView:
        """What ``seat`` may know; ``None`` is a spectator's view."""

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """``None`` until the game is over."""

    @abstractmethod
    def clone(self) -> State:
        """An independent copy."""

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def illegal_reason(self, action: Action) -> str | None:
        """``None`` when :meth:`play` would apply ``action`` now, else why it would refuse it."""
        if self.is_terminal():
            return "the game is over"
        if action not in self.legal_actions():
            return "not legal now"
        return None

    def timers(self) -> Sequence[tuple[Action, float]]:
        """The timers running now, as ``(action, seconds)``: a real-time host applies ``action``
        when its time runs out (SP-16). Turn-based games run none."""
        return ()

    def one_handed(self, action: Action) -> bool:
        """Whether a real-time host holds ``action`` to its one-hand interval (SP-10): the
        actions that move a card. Every action by default."""
        return True

    def tie_rank(self, action: Action) -> int:
        """How a real-time host orders actions that arrive at the same time, lowest first, before
        its seeded draw (SP-20). All alike by default."""
        return 0

    def play(self, action: Action | str | object) -> None:  # object: anything else is illegal, not a TypeError
        """Apply ``action`` (or its text) if the rules allow it now.

        Raises :class:`ParseError` for text that is no action and
        :class:`IllegalActionError` for an action not allowed now; the state is
        then unchanged.
        """
        if isinstance(action, str):
            action = self.game.parse_action(action)
        if not isinstance(action, Action):
            raise IllegalActionError(f"{action!r} is not an action (play an action or its text)")
        if self.is_terminal():
            raise IllegalActionError(f"{action}: the game is over")
        legal = self.legal_actions()
        if action not in legal:
            raise IllegalActionError(
                f"{action} is not legal now; legal: {', '.join(str(a) for a in legal)}"
            )
        self.apply(action)


# PlayerView lives in its own (interpreted) module, which needs Action and Event above
from .view import PlayerView as PlayerView  # noqa: E402
