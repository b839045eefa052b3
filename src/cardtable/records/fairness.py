"""Provably fair deals: the commit–reveal protocol, its record block and its verifier.

The scheme itself (HMAC stream, rejection sampling, Fisher–Yates) is
:class:`cardtable.core.chance.FairShuffler`; docs/fairness.md specifies it byte
by byte. This module holds what surrounds it:

* :class:`FairDeal`, one game's protocol on the server: the server seed and its
  commitment, then every seat's commitment, then every seat's reveal, then the
  deals; the server seed is given out only once the game is over;
* :class:`Fairness`, the ``"fairness"`` block of a record: the scheme, the
  commitments, the reveals, every shuffle and chance pick of the game (cards
  before and after) and a digest of the actions;
* :func:`verify`, which checks all of it and replays the game.

>>> import cardtable
>>> game = cardtable.load("trash")
>>> fair = FairDeal.new(game.num_players)
>>> for seat in range(game.num_players):
...     _ = fair.add_bot_seat(seat)
>>> state = fair.new_state(game)
>>> while not state.is_terminal():
...     state.apply(state.legal_actions()[0])
>>> report = verify(fair.record(state))
>>> report.deals >= 1
True
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..core.cards import Card
from ..core.chance import (
    SCHEME,
    SEED_BYTES,
    DealSource,
    FairShuffler,
    commitment,
    deal_label,
    fair_seed,
)
from ..core.errors import CardtableError, ParseError
from ..core.game import Game, State
from ..core.registry import load

if TYPE_CHECKING:
    from .record import Record

FAIR_SEED = 0
"""The ``seed`` of a fair game's state: unused, since every shuffle comes from the deals."""


class FairnessError(CardtableError):
    """A fair record that does not verify, or a step of the protocol out of turn."""


# ------------------------------------------------------------------ the record block
@dataclass(frozen=True)
class Shuffle:
    """One shuffle of the game: its label and the cards before and after it."""

    label: str
    before: tuple[str, ...]
    after: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"label": self.label, "from": list(self.before), "cards": list(self.after)}


@dataclass(frozen=True)
class Pick:
    """One chance pick other than a shuffle: ``value`` uniform in ``range(below)``."""

    label: str
    below: int
    value: int

    def to_json(self) -> dict[str, Any]:
        return {"label": self.label, "below": self.below, "value": self.value}


def actions_digest(actions: Sequence[str]) -> str:
    """SHA-256 (hex) of the actions' UTF-8 text, each followed by a newline."""
    return hashlib.sha256("".join(a + "\n" for a in actions).encode()).hexdigest()


@dataclass(frozen=True)
class Fairness:
    """The ``"fairness"`` block of a record (docs/fairness.md, "The record").

    While the game is running ``server_seed`` and ``actions_sha256`` are ``None``
    and ``deals`` is empty: nothing derivable from the server seed is written.
    """

    server_commitment: str
    seat_commitments: tuple[str, ...]
    seat_seeds: tuple[str, ...]
    server_seed: str | None = None
    deals: tuple[Shuffle | Pick, ...] = ()
    actions_sha256: str | None = None
    scheme: str = SCHEME

    def shuffler(self) -> FairShuffler:
        """The deals of this game; :class:`FairnessError` before the server seed is revealed."""
        if self.server_seed is None:
            raise FairnessError("the server seed is not revealed yet (the game is not over)")
        return FairShuffler(_seed_bytes(self.server_seed, "the server seed"),
                            [_seed_bytes(s, f"seat {i}'s seed") for i, s in enumerate(self.seat_seeds)])

    def to_json(self) -> dict[str, Any]:
        return {
            "scheme": self.scheme,
            "server_commitment": self.server_commitment,
            "seat_commitments": list(self.seat_commitments),
            "seat_seeds": list(self.seat_seeds),
            "server_seed": self.server_seed,
            "deals": [d.to_json() for d in self.deals],
            "actions_sha256": self.actions_sha256,
        }

    @classmethod
    def from_json(cls, data: Any) -> Fairness:
        """The block from JSON; :class:`ParseError` naming what is malformed."""
        if not isinstance(data, dict):
            raise ParseError("the record's \"fairness\" is not an object")
        scheme = data.get("scheme")
        if scheme != SCHEME:
            raise ParseError(f"fairness scheme {scheme!r} is not supported (this is {SCHEME!r})")
        server_seed = data.get("server_seed")
        digest = data.get("actions_sha256")
        return cls(
            server_commitment=_text(data.get("server_commitment"), "server_commitment"),
            seat_commitments=_texts(data.get("seat_commitments"), "seat_commitments"),
            seat_seeds=_texts(data.get("seat_seeds"), "seat_seeds"),
            server_seed=None if server_seed is None else _text(server_seed, "server_seed"),
            deals=tuple(_deal_from_json(d, i) for i, d in enumerate(_list(data.get("deals", []), "deals"), 1)),
            actions_sha256=None if digest is None else _text(digest, "actions_sha256"),
        )


def _list(value: Any, name: str) -> list[Any]:
    if not isinstance(value, list):
        raise ParseError(f"fairness {name} is not a list")
    return value


def _text(value: Any, name: str) -> str:
    if not isinstance(value, str):
        raise ParseError(f"fairness {name} is not text")
    return value


def _texts(value: Any, name: str) -> tuple[str, ...]:
    return tuple(_text(v, f"{name}[{i}]") for i, v in enumerate(_list(value, name)))


def _deal_from_json(data: Any, number: int) -> Shuffle | Pick:
    if not isinstance(data, dict) or not isinstance(data.get("label"), str):
        raise ParseError(f"fairness deal {number} has no label")
    if "below" in data:
        below, value = data.get("below"), data.get("value")
        if not isinstance(below, int) or not isinstance(value, int):
            raise ParseError(f"fairness deal {number} ({data['label']}): below and value must be integers")
        return Pick(data["label"], below, value)
    return Shuffle(data["label"], _texts(data.get("from"), f"deal {number} from"),
                   _texts(data.get("cards"), f"deal {number} cards"))


def _seed_bytes(text: str, what: str) -> bytes:
    """32 bytes from 64 hex digits; :class:`FairnessError` otherwise."""
    try:
        raw = bytes.fromhex(text)
    except ValueError:
        raw = b""
    if len(raw) != SEED_BYTES or len(text) != 2 * SEED_BYTES:
        raise FairnessError(f"{what} is not {2 * SEED_BYTES} hex digits: {text!r}")
    return raw


def _commitment_of(seed_hex: str, what: str) -> str:
    return commitment(_seed_bytes(seed_hex, what)).hex()


# ------------------------------------------------------------------ logging the deals
class DealLog:
    """A deal source that writes down every shuffle and pick it makes for another.
    For a private replay only: clones of a state would share the log."""

    def __init__(self, inner: DealSource) -> None:
        self.inner = inner
        self.entries: list[Shuffle | Pick] = []

    def shuffle(self, items: list[int], *labels: int | str) -> None:
        before = _card_texts(items)
        self.inner.shuffle(items, *labels)
        self.entries.append(Shuffle(deal_label(labels), before, _card_texts(items)))

    def below(self, n: int, *labels: int | str) -> int:
        value = self.inner.below(n, *labels)
        self.entries.append(Pick(deal_label(labels), n, value))
        return value


def _card_texts(ids: Sequence[int]) -> tuple[str, ...]:
    return tuple(str(Card.from_id(c)) for c in ids)


def _card_ids(texts: Sequence[str], where: str) -> list[int]:
    out = []
    for i, text in enumerate(texts, 1):
        try:
            out.append(Card.parse(text).id)
        except CardtableError:
            raise FairnessError(f"{where}: card {i} ({text!r}) is not a card") from None
    return out


def replay_deals(game: Game, shuffler: DealSource, actions: Sequence[str]) -> tuple[State, list[Shuffle | Pick]]:
    """Replay ``actions`` from the start with ``shuffler``: the final state and every deal made."""
    log = DealLog(shuffler)
    state = game.new_state(seed=FAIR_SEED, deals=log)
    for number, text in enumerate(actions, 1):
        try:
            state.play(text)
        except CardtableError as exc:
            raise FairnessError(f"action {number} ({text!r}) does not replay: {exc}") from None
    return state, log.entries


# ------------------------------------------------------------------ the protocol
class FairDeal:
    """The commit–reveal protocol of one game, held by the server.

    1. ``FairDeal.new(seats)`` draws the secret server seed; publish
       :meth:`commitment` before anything else.
    2. Every seat commits: :meth:`add_seat_commitment` for a person (the page
       made a seed and sends only its SHA-256), :meth:`add_bot_seat` for a bot.
    3. Once :meth:`committed`, every seat reveals: :meth:`reveal_seat` checks the
       seed against its commitment (the server holds a bot's seed already; it is
       shown, like every seed, only once every seat has committed).
    4. Once :meth:`ready`, :meth:`new_state` starts the game; every shuffle
       comes from the seeds.
    5. :meth:`public` is what anyone may see during the game; :meth:`server_reveal`
       and the full :meth:`record` only once the game is over.
    """

    def __init__(self, seats: int, server_seed: bytes) -> None:
        if not 1 <= seats <= 255:
            raise FairnessError(f"a fair game has 1 to 255 seats, not {seats}")
        if len(server_seed) != SEED_BYTES:
            raise FairnessError(f"the server seed has {len(server_seed)} bytes, not {SEED_BYTES}")
        self.seats = seats
        self._server_seed = bytes(server_seed)
        self._commitments: list[str | None] = [None] * seats
        self._seeds: list[str | None] = [None] * seats

    @classmethod
    def new(cls, seats: int) -> FairDeal:
        """A protocol with a fresh secret server seed from the OS's secure source."""
        return cls(seats, fair_seed())

    def commitment(self) -> str:
        """SHA-256 of the server seed (hex): publish it before the first deal."""
        return commitment(self._server_seed).hex()

    def _check_seat(self, seat: int) -> None:
        if not 0 <= seat < self.seats:
            raise FairnessError(f"no seat {seat} (seats 0 to {self.seats - 1})")

    def add_seat_commitment(self, seat: int, seat_commitment: str) -> None:
        """Seat ``seat``'s commitment: 64 hex digits, SHA-256 of its 32-byte seed."""
        self._check_seat(seat)
        if self._commitments[seat] is not None:
            raise FairnessError(f"seat {seat} has already committed")
        _seed_bytes(seat_commitment, f"seat {seat}'s commitment")
        self._commitments[seat] = seat_commitment.lower()

    def add_bot_seat(self, seat: int) -> str:
        """Commit and reveal a server-made seed for a bot's seat; its commitment."""
        seed = fair_seed().hex()
        self.add_seat_commitment(seat, commitment(bytes.fromhex(seed)).hex())
        self._seeds[seat] = seed
        return self._commitments[seat] or ""

    def committed(self) -> bool:
        """Every seat has committed: the reveals may begin."""
        return all(c is not None for c in self._commitments)

    def reveal_seat(self, seat: int, seed: str) -> None:
        """Seat ``seat``'s seed (64 hex digits), only once every seat has committed."""
        self._check_seat(seat)
        if not self.committed():
            missing = [s for s, c in enumerate(self._commitments) if c is None]
            raise FairnessError(f"seats {missing} have not committed yet: no reveals before every commitment")
        if self._seeds[seat] is not None:
            raise FairnessError(f"seat {seat} has already revealed its seed")
        if _commitment_of(seed, f"seat {seat}'s seed") != self._commitments[seat]:
            raise FairnessError(f"seat {seat}'s seed does not match its commitment")
        self._seeds[seat] = seed.lower()

    def ready(self) -> bool:
        """Every seat has revealed: the game may start."""
        return all(s is not None for s in self._seeds)

    def deals(self) -> FairShuffler:
        """The deal source of the game; :class:`FairnessError` until :meth:`ready`."""
        if not self.ready():
            missing = [s for s, seed in enumerate(self._seeds) if seed is None]
            raise FairnessError(f"seats {missing} have not revealed their seeds yet")
        return FairShuffler(self._server_seed, [bytes.fromhex(s or "") for s in self._seeds])

    def new_state(self, game: Game) -> State:
        """The game's first state, every shuffle drawn from the seeds."""
        if game.num_players != self.seats:
            raise FairnessError(f"this protocol has {self.seats} seats; {game.name} here has {game.num_players}")
        return game.new_state(seed=FAIR_SEED, deals=self.deals())

    def public(self) -> dict[str, Any]:
        """What anyone may see during the game: no server seed, nothing derived from it."""
        seeds = list(self._seeds) if self.committed() else [None] * self.seats
        return {"scheme": SCHEME, "server_commitment": self.commitment(),
                "seat_commitments": list(self._commitments), "seat_seeds": seeds}

    def server_reveal(self, state: State) -> str:
        """The server seed (hex), only once ``state``'s game is over."""
        if not state.is_terminal():
            raise FairnessError("the server seed is revealed only when the game is over")
        return self._server_seed.hex()

    def fairness(self, state: State) -> Fairness:
        """The record block of ``state``'s game: complete once it is over, else commitments and seat seeds only."""
        if not self.ready():
            raise FairnessError("the game has not started: not every seat has revealed its seed")
        base = Fairness(self.commitment(), tuple(c or "" for c in self._commitments),
                        tuple(s or "" for s in self._seeds))
        if not state.is_terminal():
            return base
        actions = [str(a) for a in state.history]
        _, deals = replay_deals(state.game, self.deals(), actions)
        return Fairness(base.server_commitment, base.seat_commitments, base.seat_seeds,
                        server_seed=self.server_reveal(state), deals=tuple(deals),
                        actions_sha256=actions_digest(actions))

    def record(self, state: State) -> Record:
        """The record of ``state``'s game with its fairness block (see :meth:`fairness`)."""
        from .record import record_of  # record.py imports this module

        return record_of(state, fairness=self.fairness(state))

    def secret_texts(self) -> tuple[str, ...]:
        """The server seed as hex (both cases) and base64: what a leak oracle must never
        find in a frame before the game is over."""
        raw = self._server_seed
        return (raw.hex(), raw.hex().upper(), base64.b64encode(raw).decode(),
                base64.urlsafe_b64encode(raw).decode())

    def to_json(self) -> dict[str, Any]:
        """Everything, the server seed included: for the server's own store, never a client."""
        return {"scheme": SCHEME, "seats": self.seats, "server_seed": self._server_seed.hex(),
                "seat_commitments": list(self._commitments), "seat_seeds": list(self._seeds)}

    @classmethod
    def from_json(cls, data: Any) -> FairDeal:
        """The protocol from :meth:`to_json`; :class:`ParseError` if it is malformed."""
        if not isinstance(data, dict) or data.get("scheme") != SCHEME:
            raise ParseError(f"not a {SCHEME} protocol")
        try:
            fair = cls(int(data["seats"]), _seed_bytes(str(data["server_seed"]), "the server seed"))
            commitments = [None if c is None else str(c) for c in data["seat_commitments"]]
            seeds = [None if s is None else str(s) for s in data["seat_seeds"]]
        except (KeyError, TypeError, ValueError, FairnessError):
            raise ParseError(f"a stored {SCHEME} protocol is malformed") from None
        if len(commitments) != fair.seats or len(seeds) != fair.seats:
            raise ParseError("a stored fairness protocol needs one commitment and one seed slot per seat")
        fair._commitments, fair._seeds = commitments, seeds
        return fair


# ------------------------------------------------------------------ the verifier
@dataclass(frozen=True)
class Verified:
    """What :func:`verify` checked."""

    game: str
    seats: int
    deals: int
    actions: int


def verify(record: Record) -> Verified:
    """Check a fair record; :class:`FairnessError` with the first failure otherwise.

    Every commitment against its seed, the actions against their digest, every
    recorded deal against the seeds, then a replay: the actions must be legal,
    the game must make exactly the recorded deals and end with the recorded result.
    """
    fair = record.fairness
    if fair is None:
        raise FairnessError("the record has no \"fairness\" block: it is not a provably fair game")
    if fair.server_seed is None or fair.actions_sha256 is None:
        raise FairnessError("the record was written before the game was over: the server seed is not revealed")
    try:
        game = load(record.game, record.preset, **record.options)
    except CardtableError as exc:
        raise FairnessError(f"the record's game does not load: {exc}") from None
    n = game.num_players
    if len(fair.seat_commitments) != n or len(fair.seat_seeds) != n:
        raise FairnessError(f"{record.game} here has {n} seats but the record has "
                            f"{len(fair.seat_commitments)} seat commitments and {len(fair.seat_seeds)} seat seeds")
    _check_commitment(fair.server_seed, fair.server_commitment, "the server seed", "the server's commitment")
    for seat, (seed, promised) in enumerate(zip(fair.seat_seeds, fair.seat_commitments, strict=True)):
        _check_commitment(seed, promised, f"seat {seat}'s seed", f"seat {seat}'s commitment")
    if actions_digest(record.actions) != fair.actions_sha256.lower():
        raise FairnessError("the actions do not match the record's actions_sha256: an action was changed")
    shuffler = fair.shuffler()
    for number, deal in enumerate(fair.deals, 1):
        _check_deal(shuffler, deal, number)
    state, made = replay_deals(game, shuffler, record.actions)
    for number, (recorded, replayed) in enumerate(zip(fair.deals, made, strict=False), 1):
        if recorded != replayed:
            raise FairnessError(f"deal {number}: the replay makes {_describe(replayed)}, "
                                f"the record lists {_describe(recorded)}")
    if len(made) != len(fair.deals):
        raise FairnessError(f"the replay makes {len(made)} deals, the record lists {len(fair.deals)}")
    outcome = state.outcome()
    result = None if outcome is None else {"returns": list(outcome.returns), "winners": list(outcome.winners),
                                           "reason": outcome.reason}
    if result != record.result:
        raise FairnessError(f"the recorded result {record.result} differs from the replay's {result}")
    return Verified(record.game, n, len(made), len(record.actions))


def _check_commitment(seed: str, promised: str, what: str, whose: str) -> None:
    _seed_bytes(promised, whose)
    if not hmac.compare_digest(_commitment_of(seed, what), promised.lower()):
        raise FairnessError(f"{what} does not match {whose}: SHA-256 of the seed is not the commitment")


def _check_deal(shuffler: FairShuffler, deal: Shuffle | Pick, number: int) -> None:
    labels = tuple(deal.label.split(":"))
    where = f"deal {number} ({deal.label})"
    try:
        deal_label(labels)
    except ValueError as exc:
        raise FairnessError(f"deal {number}: {exc}") from None
    if isinstance(deal, Pick):
        if not 1 <= deal.below <= 2**32:
            raise FairnessError(f"{where}: a pick below {deal.below} is impossible")
        expected = shuffler.below(deal.below, *labels)
        if expected != deal.value:
            raise FairnessError(f"{where}: the record picks {deal.value}, the seeds give {expected}")
        return
    cards = _card_ids(deal.before, f"{where}, cards before the shuffle")
    recorded = _card_ids(deal.after, f"{where}, cards after the shuffle")
    shuffler.shuffle(cards, *labels)
    if len(recorded) != len(cards):
        raise FairnessError(f"{where}: the record lists {len(recorded)} cards after the shuffle, "
                            f"{len(cards)} before it")
    for i, (got, want) in enumerate(zip(recorded, cards, strict=True), 1):
        if got != want:
            raise FairnessError(f"{where}: card {i} is {Card.from_id(got)} in the record, "
                                f"the seeds give {Card.from_id(want)}")


def _describe(deal: Shuffle | Pick) -> str:
    if isinstance(deal, Pick):
        return f"{deal.label} (a pick below {deal.below}: {deal.value})"
    return f"{deal.label} (from {' '.join(deal.before)})"

