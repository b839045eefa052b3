"""Post-game review: where a seat lost its points.

For each decision of a chosen seat that had more than one legal action, the
review estimates the expected points of every legal action **from what that
seat knew at the time**: worlds are dealt from the seat's view alone
(:mod:`cardtable.bots.worlds`, with the Trex memory of voids and doubled cards
the bots keep) and each action is played out in every world with the search
bots' rollout policy (common random numbers, as the ``expert`` search does).
The best action is the one with the highest estimate; the *loss* of the move
played is how much less it was expected to score. After the game, every
action is also played out from the true position (all cards known): the
*hindsight* best move and its loss.

Points are the game's own: a Trex seat's score for the deal (its team's in
partnership), a Trash seat's chance of winning the hand (1.0 = certain).
A Trex contract choice is judged as the ``expert`` search judges it: the
deal's expected score under each contract left, minus what a random hand
scores under that contract (every contract of the kingdom is played once, so
the question is which one this hand suits best).

>>> import cardtable
>>> from cardtable.host.match import play_out
>>> from cardtable.bots import make_bot
>>> from cardtable.records.record import record_of
>>> game = cardtable.load("trash", max_hands=1)
>>> end = play_out(game, [make_bot("trash", "random"), make_bot("trash", "hard")], seed=4)
>>> rev = review(record_of(end), seat=0, worlds=8)
>>> rev.unit
'win chance'
>>> all(d.loss >= 0 for d in rev.decisions)
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..bots.trash import action_value as trash_value
from ..bots.trex_expert import above_baseline
from ..bots.trex_search import action_value as trex_value
from ..bots.worlds import TrexMemory, sample_world, trex_dealer
from ..core.errors import ConfigError
from ..core.game import Action, PlayerView, State
from ..games.trash import TrashState, TrashView
from ..games.trash.actions import DISCARD, STOCK, WILD
from ..games.trex import TrexState, TrexView
from ..games.trex.actions import CONTRACT, DONE, DOUBLE, KEEP, PLAY, REDEAL
from ..records.record import Record, replay_views

__all__ = ["Decision", "Review", "review", "review_views"]

#: decisions whose loss is at least this many points count as costly (Trex points; Trash: 5% win chance)
COSTLY = {"trex": 1.0, "trash": 0.05}


@dataclass(frozen=True)
class Decision:
    """One decision of the reviewed seat.

    ``step`` is the action's number in the record (1 = the first action), so a
    replay can jump to it; ``values`` maps each legal action's text to its
    expected points from the seat's view; ``hindsight`` the same from the true
    position (empty when the review was made without it)."""

    step: int
    deal: int
    contract: str | None
    kind: str
    played: str
    best: str
    values: dict[str, float]
    loss: float
    hindsight: dict[str, float]
    hindsight_best: str
    hindsight_loss: float

    def to_json(self) -> dict[str, Any]:
        return {
            "step": self.step, "deal": self.deal, "contract": self.contract, "kind": self.kind,
            "played": self.played, "best": self.best,
            "loss": round(self.loss, 4), "values": {a: round(v, 4) for a, v in self.values.items()},
            "hindsight_best": self.hindsight_best, "hindsight_loss": round(self.hindsight_loss, 4),
            "hindsight": {a: round(v, 4) for a, v in self.hindsight.items()},
        }


@dataclass(frozen=True)
class Review:
    """The review of one seat's game: its decisions in order."""

    game: str
    seat: int
    unit: str
    worlds: int
    decisions: tuple[Decision, ...]

    def costliest(self, n: int = 5) -> list[Decision]:
        """The ``n`` decisions that lost the most expected points (ties: the earlier first)."""
        costly = [d for d in self.decisions if d.loss >= COSTLY.get(self.game, 0.0)]
        return sorted(costly, key=lambda d: (-d.loss, d.step))[:n]

    def contract_choices(self) -> list[Decision]:
        """Trex: each contract this seat chose, with every contract's value."""
        return [d for d in self.decisions if d.kind == "contract"]

    @property
    def total_loss(self) -> float:
        return sum(d.loss for d in self.decisions)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game, "seat": self.seat, "unit": self.unit, "worlds": self.worlds,
            "total_loss": round(self.total_loss, 4),
            "costliest": [d.step for d in self.costliest()],
            "decisions": [d.to_json() for d in self.decisions],
        }


# ------------------------------------------------------------------- per game
@dataclass(frozen=True)
class _Rules:
    """How one game is reviewed: its unit, the value of an action and the kind of a decision.

    ``value(state, action, seat, rng)`` plays ``action`` on a copy of ``state`` and rolls out
    the deal or hand *in which it is played*: a move that ends a hand or deal is judged by
    that hand's result, never by the next one."""

    unit: str
    value: Callable[[State, Action, int, random.Random], float]
    kind: Callable[[Action], str]


_TREX_KINDS = {PLAY: "card", CONTRACT: "contract", DOUBLE: "double", DONE: "double", REDEAL: "redeal",
               KEEP: "redeal"}


def _trex_kind(action: Action) -> str:
    return _TREX_KINDS[action.kind]  # type: ignore[attr-defined]


def _trash_kind(action: Action) -> str:
    kind = action.kind  # type: ignore[attr-defined]
    return "draw" if kind in (STOCK, DISCARD) else "wild" if kind == WILD else "displace"


def _trex_value(state: State, action: Action, seat: int, rng: random.Random) -> float:
    assert isinstance(state, TrexState)
    return trex_value(state, action, seat)  # the rollout policy is deterministic: no rng


def _trash_value(state: State, action: Action, seat: int, rng: random.Random) -> float:
    assert isinstance(state, TrashState)
    return trash_value(state, action, seat, rng)


_RULES: dict[str, _Rules] = {
    "trex": _Rules("points", _trex_value, _trex_kind),
    "trash": _Rules("win chance", _trash_value, _trash_kind),
}


class _Sampler:
    """Worlds from the seat's view; for Trex with the memory a bot at that seat keeps."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self.memory = TrexMemory() if game.name == "trex" else None

    def observe(self, view: PlayerView) -> None:
        if self.memory is not None:
            self.memory.observe(view)

    def worlds(self, view: PlayerView, rng: random.Random, n: int) -> Iterator[State]:
        if self.memory is None:
            for _ in range(n):
                yield sample_world(view, rng)
            return
        dealer = trex_dealer(view, self.game, self.memory)
        for _ in range(n):
            yield dealer.deal(rng)


def _values(starts: Iterator[State], legal: tuple[Action, ...], seat: int, rules: _Rules,
            rng: random.Random) -> list[list[float]]:
    """The rollout value of each legal action (rows) in each start position (columns)."""
    rows: list[list[float]] = [[] for _ in legal]
    for start in starts:
        for i, action in enumerate(legal):
            rows[i].append(rules.value(start, action, seat, rng))
    return rows


def _loss(rows: list[list[float]], best: int, played: int) -> float:
    """How much less the played action was expected to score than the best, counted only when
    the paired difference over the shared worlds is clear (above two standard errors): a
    handful of worlds always makes some other move look a little better by chance."""
    diffs = [b - p for b, p in zip(rows[best], rows[played], strict=True)]
    n = len(diffs)
    mean = sum(diffs) / n
    if n < 2:
        return max(0.0, mean)
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean if mean > 2 * math.sqrt(var / n) else 0.0


def _means(rows: list[list[float]]) -> list[float]:
    return [sum(r) / max(len(r), 1) for r in rows]


def _adjusted(values: list[float], legal: tuple[Action, ...], kind: str) -> list[float]:
    if kind != "contract":
        return values
    return above_baseline(values, legal)


def _deal_number(view: PlayerView) -> int:
    """The Trex deal or the Trash hand a view is in."""
    if isinstance(view, TrexView):
        return view.deal_number
    return view.hand_number if isinstance(view, TrashView) else 0


def _best(values: list[float]) -> int:
    return max(range(len(values)), key=lambda i: (values[i], -i))


def review(record: Record, seat: int, *, worlds: int = 32, hindsight: bool = True, seed: int = 0,
           progress: Callable[[int, int], None] | None = None) -> Review:
    """Review ``seat``'s decisions in a finished (or unfinished) game's ``record``.

    The judgement from the seat's own knowledge is :func:`review_views` over the
    seat's views alone; ``hindsight`` adds the all-cards-known judgement from
    the record's true positions. ``worlds`` worlds are dealt from the view per
    decision; ``seed`` makes the review reproducible; ``progress(done, total)``
    is called after each action."""
    first = record.new_state()
    if not 0 <= seat < first.game.num_players:
        raise ConfigError(f"seat {seat} is not a seat of this {record.game} game (0..{first.game.num_players - 1})")
    views = [view for _, view in replay_views(record, seat)]
    mine = review_views(first.game, views, record.actions, worlds=worlds, seed=seed, progress=progress)
    if not hindsight:
        return mine
    rules = _RULES[record.game]
    rng = random.Random(seed + 1)
    at = {d.step - 1: d for d in mine.decisions}
    judged: list[Decision] = []
    for number, (_, state) in enumerate(record.steps()):
        d = at.get(number)
        if d is None:
            continue
        legal = tuple(state.legal_actions())
        truth = state.clone()
        runs = worlds if rules.unit == "win chance" else 1  # the Trex rollout policy is deterministic
        rows = _values(iter([truth] * runs), legal, seat, rules, rng)
        after = _adjusted(_means(rows), legal, d.kind)
        best = _best(after)
        played = legal.index(state.game.parse_action(d.played))
        judged.append(replace(d, hindsight={str(a): v for a, v in zip(legal, after, strict=True)},
                              hindsight_best=str(legal[best]), hindsight_loss=_loss(rows, best, played)))
    return replace(mine, decisions=tuple(judged))


def review_views(game: Any, views: Sequence[PlayerView], actions: Sequence[str], *, worlds: int = 32,
                 seed: int = 0, progress: Callable[[int, int], None] | None = None) -> Review:
    """The review from one seat's knowledge: ``views[k]`` is what the seat saw before
    action ``k`` (``actions[k]``, its text). Nothing but the views is read."""
    rules = _RULES.get(game.name)
    if rules is None:
        raise ConfigError(f"no review for {game.name}: reviews exist for {', '.join(sorted(_RULES))}")
    seat = views[0].seat
    if seat is None:
        raise ConfigError("a review is of a seat, not of a spectator")
    rng = random.Random(seed)
    sampler = _Sampler(game)
    decisions: list[Decision] = []
    for number, text in enumerate(actions):
        if progress is not None and number:
            progress(number, len(actions))
        view = views[number]
        sampler.observe(view)
        legal = view.legal_actions
        if view.current_player != seat or len(legal) < 2:
            continue
        played = game.parse_action(text)
        kind = rules.kind(played)
        rows = _values(sampler.worlds(view, rng, worlds), legal, seat, rules, rng)
        values = _adjusted(_means(rows), legal, kind)
        best = _best(values)
        decisions.append(Decision(
            step=number + 1,
            deal=_deal_number(view),
            contract=view.contract if isinstance(view, TrexView) else None,
            kind=kind,
            played=str(played),
            best=str(legal[best]),
            values={str(a): v for a, v in zip(legal, values, strict=True)},
            loss=_loss(rows, best, legal.index(played)),
            hindsight={},
            hindsight_best="",
            hindsight_loss=0.0,
        ))
    if progress is not None:
        progress(len(actions), len(actions))
    return Review(game.name, seat, rules.unit, worlds, tuple(decisions))
