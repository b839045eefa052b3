"""A game at the table: the host's :class:`Match`, who sits where, the language,
hints and saving. Plain Python (no Textual), so it is tested and used directly.

The session is a client of the host: humans act through :meth:`Match.submit`,
bots through :meth:`Match.run_bot`, and what a seat is shown is always
``match.view(seat)`` (or the spectator's view, ``seat=None``).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import resources
from pathlib import Path

from ..bots.base import Bot, make_bot, reacts
from ..core.chance import fresh_seed
from ..core.errors import ConfigError, IllegalActionError
from ..core.game import Action, Event, Game, PlayerView
from ..core.seats import SIMULTANEOUS, TERMINAL
from ..host.clock import Clock
from ..host.factory import realtime_host
from ..host.forced import forced_action
from ..host.match import Match
from ..host.realtime import Arrival, RealtimeBot, RealtimeHost
from ..i18n import event_text, translate
from ..i18n.bidi import visual
from ..i18n.bots import bot_name, bot_named
from ..records.record import Record, replay_views
from ..records.result import without_rule_ids as without_rule_ids  # the clients import it from here
from .seats import HINT_BOTS, NO_PRIVATE_CARDS, SeatSpec, pick_bot


def shown(text: str, lang: str) -> str:
    """``text`` as the terminal must draw it in ``lang``: Arabic reordered and joined for a
    terminal without bidi (:func:`cardtable.i18n.bidi.visual`, ``CARDTABLE_BIDI`` chooses; see
    docs/arabic.md), every other language as it is."""
    return visual(text, rtl=True) if lang == "ar" else text




def tr(key: str, lang: str, **values: object) -> str:
    """A string of the ``tui`` catalog (``tui.<key>``) in ``lang``."""
    return translate(f"tui.{key}", lang, **values)


@cache
def languages() -> tuple[str, ...]:
    """The languages the app speaks: those with an ``i18n/<lang>/tui.json`` (English first)."""
    folder = resources.files("cardtable.i18n")
    found = {item.name for item in folder.iterdir() if item.is_dir() and item.joinpath("tui.json").is_file()}
    return tuple(sorted(found, key=lambda lang: (lang != "en", lang)))


def event_line(game: str, event: Event, view: PlayerView, lang: str,
               names: Callable[[int], str] | None = None) -> str:
    """An event in ``lang`` (:func:`cardtable.i18n.event_text`); its English text while the
    common catalog of ``lang`` has no sentence for it yet. ``names(seat)``: the name the table
    shows for another seat, written where the sentence says "seat N"."""
    text = event_text(game, event, view, lang)
    if text.startswith(f"{game}.event."):
        text = event.text
    seat = event.seat
    if names is not None and seat is not None and seat != view.seat:
        for word in {translate("seat", lang, n=seat), f"seat {seat}"}:  # the catalog's, the engine's
            text = text.replace(word, names(seat))
    return text


class PausableClock:
    """A clock that stands still while paused (a help or quit screen is up) and then goes on
    from where it stopped, so the timers and the bots of a real-time game wait too."""

    def __init__(self, base: Clock) -> None:
        self.base = base
        self._offset = 0.0
        self._paused_at: float | None = None

    def now(self) -> float:
        at = self.base.now() if self._paused_at is None else self._paused_at
        return at - self._offset

    @property
    def paused(self) -> bool:
        return self._paused_at is not None

    def pause(self) -> None:
        if self._paused_at is None:
            self._paused_at = self.base.now()

    def resume(self) -> None:
        if self._paused_at is not None:
            self._offset += self.base.now() - self._paused_at
            self._paused_at = None


@dataclass
class Step:
    """One accepted action as the display seat saw it: the new events, then the view after them."""

    seat: int
    action: Action
    events: tuple[Event, ...]
    view: PlayerView


@dataclass
class Session:
    """One match at one keyboard."""

    match: Match
    seats: tuple[SeatSpec, ...]
    lang: str = "en"
    save_path: Path | None = None
    hint_rng: random.Random = field(default_factory=lambda: random.Random(0))
    bot_seed: int | None = None

    def __post_init__(self) -> None:
        if len(self.seats) != self.game.num_players:
            raise ConfigError(
                f"--seats names {len(self.seats)} seats; {self.game.title} here has {self.game.num_players}"
            )
        if self.realtime and len(self.humans) > 1:
            raise ConfigError(f"{self.game.title} is played in real time: one human seat at most (--seats)")
        self._hint_bot: Bot | None = None
        self.host: RealtimeHost | None = None
        self.clock: PausableClock | None = None  # the real-time host's clock (:meth:`live`)

    # ------------------------------------------------------------ building
    @classmethod
    def start(
        cls,
        game: Game,
        seats: Sequence[SeatSpec],
        *,
        seed: int | None = None,
        bot_seed: int | None = None,
        lang: str = "en",
        save_path: Path | None = None,
        clock: Clock | None = None,
    ) -> Session:
        """A new match of ``game`` with ``seats``."""
        bots = {s: make_bot(game.name, spec.kind) for s, spec in enumerate(seats) if not spec.is_human}
        match = Match(game, seed=seed, bots=bots, bot_seed=bot_seed, clock=clock)
        return cls(match, tuple(seats), lang=lang, save_path=save_path, bot_seed=bot_seed)

    @classmethod
    def resume(
        cls,
        record: Record,
        seats: Sequence[SeatSpec],
        *,
        bot_seed: int | None = None,
        lang: str = "en",
        save_path: Path | None = None,
    ) -> Session:
        """The match of ``record``, replayed (every action checked) and continued with ``seats``."""
        bots = {s: make_bot(record.game, spec.kind) for s, spec in enumerate(seats) if not spec.is_human}
        match = Match.from_record(record, bots=bots, bot_seed=bot_seed)
        return cls(match, tuple(seats), lang=lang, save_path=save_path, bot_seed=bot_seed)

    # ---------------------------------------------------------------- seats
    @property
    def game(self) -> Game:
        return self.match.game

    @property
    def humans(self) -> tuple[int, ...]:
        return tuple(s for s, spec in enumerate(self.seats) if spec.is_human)

    @property
    def hot_seat(self) -> bool:
        """Several humans share the keyboard (a game with private cards covers the table between
        their turns: :attr:`covers`)."""
        return len(self.humans) > 1

    @property
    def covers(self) -> bool:
        """Hot-seat play of a game with private cards: a cover screen between two people's turns."""
        return self.hot_seat and self.game.name not in NO_PRIVATE_CARDS

    def is_human(self, seat: int) -> bool:
        return 0 <= seat < len(self.seats) and self.seats[seat].is_human

    def seat_label(self, seat: int, viewer: int | None) -> str:
        """How ``viewer``'s screen names ``seat``: "you", a given name, "seat 2", or a bot by its
        name and translated level, as the page does ("Ben · sensible bot", i18n/bots.py)."""
        spec = self.seats[seat]
        if seat == viewer:
            return tr("you", self.lang)
        if spec.name:
            return spec.name
        if spec.is_human:
            return tr("seat", self.lang, n=seat)
        return bot_named(seat, spec.kind, self.lang, self.people)

    @property
    def people(self) -> list[str | None]:
        """Each seat's person's name (``None`` at a bot's), which a bot's name keeps clear of."""
        return [spec.name if spec.is_human else None for spec in self.seats]

    def short_name(self, seat: int) -> str:
        """A seat in one word for the log: a given name, the bot's name, else "seat N"."""
        spec = self.seats[seat]
        return spec.name or (tr("seat", self.lang, n=seat) if spec.is_human else bot_name(seat, self.people))

    def seat_title(self, seat: int) -> str:
        """A seat's name without "you" (for the cover screen): "Ana (seat 0)", "Ben (seat 1)" for
        the bot at seat 1, "seat 2"."""
        spec = self.seats[seat]
        base = tr("seat", self.lang, n=seat)
        name = spec.name or ("" if spec.is_human else bot_name(seat, self.people))
        return f"{name} ({base})" if name else base

    # ----------------------------------------------------------- real time
    @property
    def realtime(self) -> bool:
        """True for a real-time game (Spit): its state runs timers, so it is played on a
        :class:`RealtimeHost` (:meth:`live`) instead of turn by turn."""
        return self.game.realtime

    def live(self, on_arrival: Callable[[Arrival], None] | None = None) -> RealtimeHost:
        """The real-time host of this match (made on first use): it drives ``match.state`` on the
        match's clock (through a :class:`PausableClock`, :attr:`clock`), with a reaction-time bot
        (the seat's bot level) in every bot seat. Humans :meth:`RealtimeHost.submit`; the app calls
        :meth:`RealtimeHost.advance` many times a second."""
        if self.host is None:
            bots: dict[int, RealtimeBot] = {}
            for s, spec in enumerate(self.seats):
                if not spec.is_human:
                    bot = make_bot(self.game.name, spec.kind)
                    if not reacts(bot):
                        raise ConfigError(f"the {self.game.name} bot {spec.kind!r} cannot play in real time")
                    bots[s] = bot  # type: ignore[assignment]  # checked: it reacts
            seed = self.bot_seed if self.bot_seed is not None else fresh_seed()
            self.clock = PausableClock(self.match.clock)
            self.host = realtime_host(self.game, self.match.state, self.clock, bots=bots, seed=seed,
                                      on_arrival=on_arrival)
        elif on_arrival is not None:
            self.host.on_arrival = on_arrival
        return self.host

    # ---------------------------------------------------------------- play
    def to_move(self) -> int:
        return self.match.to_move()

    @property
    def is_over(self) -> bool:
        return self.match.to_move() == TERMINAL

    def view(self, seat: int | None) -> PlayerView:
        return self.match.view(seat)

    def human_seats_to_act(self) -> tuple[int, ...]:
        """The human seats that may act now (one in a turn-based game; any with moves when simultaneous)."""
        player = self.to_move()
        if player == TERMINAL:
            return ()
        if player == SIMULTANEOUS:
            return tuple(s for s in self.humans if self.match.state.legal_actions(s))
        return (player,) if self.is_human(player) else ()

    def bot_to_move(self) -> bool:
        player = self.to_move()
        if player == SIMULTANEOUS:
            return any(self.match.state.legal_actions(s) for s in self.match.bots)
        return player in self.match.bots

    def submit(self, seat: int, action: Action | str, display: int | None) -> Step:
        """A human seat's action; :class:`IllegalActionError` leaves everything as it was."""
        before = self._last_seq(display)
        self.match.submit(seat, action)
        accepted: Action = self.match.state.history[-1]
        return self._step(seat, accepted, display, before)

    def run_bot(self, display: int | None) -> Step | None:
        """Let one bot act (in a simultaneous game, the first bot that has a move); None if no bot may."""
        before = self._last_seq(display)
        player = self.to_move()
        if player == SIMULTANEOUS:
            for seat, bot in self.match.bots.items():
                view = self.match.view(seat)
                if not view.legal_actions:
                    continue
                action = bot.act(view, self.match.rngs[seat])
                try:
                    self.match.submit(seat, action)
                except IllegalActionError:  # lost a race: no harm done
                    continue
                return self._step(seat, action, display, before)
            return None
        acted = self.match.run_bot()
        if acted is None:
            return None
        return self._step(player, acted, display, before)

    def bot_seat(self) -> int | None:
        """The bot seat to move in a turn-based game (None: a human's turn, a race, or the end)."""
        player = self.to_move()
        return player if player >= 0 and player in self.match.bots else None

    def think(self, seat: int) -> Action:
        """What the bot at ``seat`` would play now; touches nothing but the bot's own generator,
        so the app may run it in a thread while the screen stays alive."""
        view = self.match.view(seat)
        return self.match.bots[seat].act(view, self.match.rngs[seat], self.match.budgets.get(seat))

    def play_bot(self, seat: int, action: Action, display: int | None) -> Step:
        """Submit the action :meth:`think` chose for ``seat``."""
        before = self._last_seq(display)
        self.match.submit(seat, action)
        return self._step(seat, action, display, before)

    def poll_timers(self, display: int | None) -> Step | None:
        """Let the host feed a due timer expiry (an action of no seat); the step if one was fed."""
        before, count = self._last_seq(display), len(self.match.state.history)
        self.match.poll_timers()
        if len(self.match.state.history) == count:
            return None
        return self._step(-1, self.match.state.history[-1], display, before)

    def _last_seq(self, display: int | None) -> int:
        events = self.match.view(display).events
        return events[-1].seq if events else -1

    def _step(self, seat: int, action: Action, display: int | None, before: int) -> Step:
        view = self.match.view(display)
        return Step(seat, action, tuple(e for e in view.events if e.seq > before), view)

    # --------------------------------------------------------------- hints
    def hint(self, seat: int) -> Action | None:
        """The advice of the game's best available bot (:data:`HINT_BOTS`) for ``seat``."""
        view = self.match.view(seat)
        if not view.legal_actions:
            return None
        if self._hint_bot is None:
            self._hint_bot = make_bot(self.game.name, pick_bot(self.game.name, HINT_BOTS))
        return self._hint_bot.act(view, self.hint_rng)

    @property
    def hint_bot_name(self) -> str:
        return pick_bot(self.game.name, HINT_BOTS)

    # ---------------------------------------------------------------- undo
    @property
    def undo_allowed(self) -> bool:
        """A take-back is possible at this table: one person against bots only, turn by turn
        (never with another person at the table, and not in a race)."""
        return len(self.humans) == 1 and not self.realtime

    def undo_point(self) -> int | None:
        """How many actions of the record stay when the person's last move (one they chose: not
        an answer given for them) and the bots' replies to it are taken back; None if none."""
        if not self.undo_allowed:
            return None
        human = self.humans[0]
        before: PlayerView | None = None
        point = None
        for k, (action, view) in enumerate(replay_views(self.record(), human)):
            if action is not None and before is not None and before.current_player == human \
                    and forced_action(self.game.name, before) is None:
                point = k - 1
            before = view
        return point

    def take_back(self) -> bool:
        """Undo the person's last move and the bots' replies: the match is replayed from its record
        without those actions (the same deal; only ``state.view`` is shown of it). False if there
        is nothing to take back."""
        point = self.undo_point()
        if point is None:
            return False
        record = replace(self.record(), actions=self.record().actions[:point], result=None)
        bots = {s: make_bot(record.game, spec.kind) for s, spec in enumerate(self.seats) if not spec.is_human}
        self.match = Match.from_record(record, bots=bots, bot_seed=self.bot_seed)
        self._hint_bot = None
        return True

    # ---------------------------------------------------------------- save
    def record(self) -> Record:
        """The game's record, with who holds each seat (``--resume`` seats them so again)."""
        return replace(self.match.record(), seats=tuple(str(spec) for spec in self.seats))

    def save(self, path: Path | None = None) -> Path:
        """Write the record to ``path``, the session's save path, or a new file in the current folder."""
        target = path or self.save_path
        if target is None:
            stamp = time.strftime("%Y%m%d-%H%M%S")
            target = Path(f"cardtable-{self.game.name}-{stamp}.json")
        self.record().save(target)
        self.save_path = target
        return target
