"""Ratings per game: openskill's Plackett–Luce model over each rated game's ranking.

A game's result becomes ranks by :func:`result_ranks` (1 best, equal ranks for a tie): the
winners first (the engine's :class:`~cardtable.core.game.Outcome` names them), then the others by
how close they came, read from the final public view (``state.view(None)``):

- **Trash**: the smaller layout ranks higher (TR-20: each hand won takes a slot away), then
  more hands won;
- **Trex**: the better total (the official totals the outcome returns; lower is better under
  ``reverse_scores``, TX-V7, which the winners' totals show). In partnership the two partners
  hold one total, so they share a rank, and they are rated as one team;
- **Spit**: under the points variant (SP-V1) the lowest score ranks first; otherwise fewer cards
  held ranks first.

A seat that abandoned a rated game ranks last (after everyone who stayed; two who left share
the last rank), and in partnership so does the abandoner's team.

A rating is openskill's (mu, sigma), shown as the conservative ``mu − 3σ``. It is provisional
for the first :data:`PROVISIONAL_GAMES` rated games of that game. Its sigma grows while its
player does not play (:mod:`.idle`): what is shown, ranked and rated from is the stored sigma
grown by the time since the last rated game.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...core.game import Outcome
from .accounts import Accounts
from .idle import idle_sigma
from .ports import PlayerData
from .store import RatingRow, ResultRow

PROVISIONAL_GAMES = 20
"""A rating is provisional for its first 20 rated games. Measured with openskill's Plackett–Luce
(start sigma 8.33) on random results: after 10 games sigma is still 6.3 (two players) to 6.8
(four), after 20 it is 5.0 to 5.7, about two thirds of the start, and from there one game moves
it by less than 0.1. Before that a rating says more about the few games played than about the
player, so the leaderboard and profile mark it."""

GAMES = ("trash", "trex", "spit")
"""The games rated."""


def result_ranks(game: str, outcome: Outcome, view: Any = None, abandoned: Sequence[int] = ()) -> list[int]:
    """Each seat's rank in a finished game (1 best; equal for a tie): the winners first, then
    the rest by the game's own measure read from ``view`` (the final spectator view; without
    it the rest share the rank after the winners); the seats in ``abandoned`` last.

    >>> result_ranks("trex", Outcome((10.0, -5.0, 40.0, 0.0), (2,), "best_total"))
    [2, 4, 1, 3]
    >>> result_ranks("spit", Outcome((1.0, 0.0), (0,), "SP-25"), abandoned=(0,))
    [2, 1]
    """
    n = len(outcome.returns)
    won = set(outcome.winners)
    keys: list[tuple[float, ...]] = []
    for s in range(n):
        if s in abandoned:  # last, and level with anyone else who left
            keys.append((0.0,))
        else:
            keys.append((1.0, 1.0 if s in won else 0.0, *_closeness(game, outcome, view, s)))
    return [1 + sum(1 for other in keys if other > k) for k in keys]


def _closeness(game: str, outcome: Outcome, view: Any, seat: int) -> tuple[float, ...]:
    """How close ``seat`` came, higher better."""
    if game == "trex":
        # The winners hold the best total (TX-40's tie-break only picks among the level ones), so
        # their totals are the lowest of all under reverse_scores (TX-V7) and the highest otherwise.
        totals = outcome.returns
        winners = [totals[s] for s in outcome.winners]
        reverse = bool(winners) and max(winners) == min(totals) < max(totals)
        return (-totals[seat] if reverse else totals[seat],)
    if view is None:
        return ()
    if game == "trash":
        return (-float(view.sizes[seat]), float(view.hands_won[seat]))
    if game == "spit":
        return (-float(view.scores[seat] if view.scoring == "points" else view.cards_held[seat]),)
    return ()


def teams_of(game: str, view: Any, n: int) -> list[tuple[int, ...]]:
    """The rated sides: partners in partnership Trex (seats 0 and 2, 1 and 3), else each seat."""
    if game == "trex" and view is not None and getattr(view, "partnership", False):
        return [(0, 2), (1, 3)]
    return [(s,) for s in range(n)]


Player = int | str | None
"""Who held a seat: an account id, a bot's level (its public account), or ``None`` for a person
without an account (ranked with the others, but not rated, and nobody is rated against them)."""


@dataclass(frozen=True)
class Rated:
    """What :meth:`Ratings.record_result` did: the ranks, and each account's rating before and after."""

    table_id: str
    ranks: tuple[int, ...]
    changes: dict[int, tuple[tuple[float, float], tuple[float, float]]]
    new: bool  # False: the table's result was already recorded, nothing changed


class Ratings:
    def __init__(self, store: PlayerData, accounts: Accounts) -> None:
        self.store = store
        self.accounts = accounts
        from openskill.models import PlackettLuce

        self.model = PlackettLuce()

    def record_result(self, table_id: str, game: str, seat_accounts: Sequence[Player], outcome: Outcome,
                      abandoned_seats: Sequence[int] = (), *, rated: bool = True, view: Any = None,
                      finished: float | None = None) -> Rated:
        """A finished table's result, once per table (a second call changes nothing and returns
        what the first stored). ``seat_accounts``: who held each seat (:data:`Player`).
        ``abandoned_seats``: the people who left a game in progress (their seats ranked last).
        ``view``: the final spectator view (orders the seats that did not win). ``rated``:
        ratings move only for a rated table; a casual one is kept for the profiles."""
        n = len(outcome.returns)
        if len(seat_accounts) != n:
            raise ValueError(f"{len(seat_accounts)} seat accounts for {n} seats")
        known = self.store.result(table_id)
        if known is not None:
            return Rated(table_id, known.ranks, {}, False)
        ranks = result_ranks(game, outcome, view, abandoned_seats)
        ids: list[int | None] = []
        for s, who in enumerate(seat_accounts):
            account = self.accounts.bot(who).id if isinstance(who, str) else who
            ids.append(account)
            if account is not None:
                self.store.link_seat(table_id, s, account, None, None)  # a seat not linked at sitting
        when = time.time() if finished is None else finished
        result = ResultRow(table_id, game, rated, when, tuple(ranks), tuple(sorted(set(abandoned_seats))),
                           outcome.reason)
        people = [who for who in seat_accounts if isinstance(who, int)]
        # one person at two seats played themselves: the result is kept, and rates nobody
        contest = rated and len(people) == len(set(people))
        changes: dict[int, tuple[tuple[float, float], tuple[float, float]]] = {}

        def rate(before: dict[int, RatingRow | None]) -> list[RatingRow]:
            """The new ratings from those stored now (read in the store's transaction, the accounts
            locked: two processes recording two tables of one account apply both changes)."""
            rows, moved = self._rate(game, ids, ranks, view, when, before)
            changes.update(moved)
            return rows

        accounts = sorted({a for a in ids if a is not None}) if contest else []
        if not self.store.save_result(result, accounts, rate):  # recorded meanwhile
            stored = self.store.result(table_id)
            return Rated(table_id, stored.ranks if stored else tuple(ranks), {}, False)
        return Rated(table_id, tuple(ranks), changes, True)

    def _rate(self, game: str, ids: list[int | None], ranks: list[int], view: Any, when: float,
              stored: dict[int, RatingRow | None]
              ) -> tuple[list[RatingRow], dict[int, tuple[tuple[float, float], tuple[float, float]]]]:
        """The rows the result makes from the ``stored`` ratings of its accounts (their sigmas
        grown to ``when``), and each account's (mu, sigma) before and after."""
        model = self.model
        before: dict[int, tuple[float, float, int]] = {}
        for a in ids:
            if a is not None and a not in before:
                row = grown(stored.get(a), when)
                before[a] = (row.mu, row.sigma, row.games) if row else (model.mu, model.sigma, 0)
        # a side of people without an account takes no part: a result against someone with no
        # rating to lose (a second tab of one's own, say) moves nobody's rating
        sides = [side for side in teams_of(game, view, len(ids)) if any(ids[s] is not None for s in side)]
        if len(sides) < 2:
            return [], {}

        def start(a: int | None) -> Any:
            mu, sigma = (model.mu, model.sigma) if a is None else before[a][:2]
            return model.rating(mu=mu, sigma=sigma)

        teams = [[start(ids[s]) for s in side] for side in sides]
        side_ranks: list[float] = [max(ranks[s] for s in side) for side in sides]
        side_ranks = [1.0 + sum(1 for o in side_ranks if o < r) for r in side_ranks]
        new = model.rate(teams, ranks=side_ranks)
        # an account at several seats (three "hard" bots at one table) is one rating: its mean
        # moves by the sum of its seats' changes, its sigma by the product of their shrinkages
        moved: dict[int, tuple[float, float]] = {}
        for side, team in zip(sides, new, strict=True):
            for s, rating in zip(side, team, strict=True):
                a = ids[s]
                if a is None:
                    continue
                mu0, sigma0, _ = before[a]
                dmu, shrink = moved.get(a, (0.0, 1.0))
                moved[a] = (dmu + rating.mu - mu0, shrink * rating.sigma / sigma0)
        rows, changes = [], {}
        for a, (dmu, shrink) in moved.items():
            mu0, sigma0, games = before[a]
            mu, sigma = mu0 + dmu, max(sigma0 * shrink, 1e-3)
            rows.append(RatingRow(a, game, mu, sigma, games + 1, when))
            changes[a] = ((mu0, sigma0), (mu, sigma))
        return rows, changes

    def current(self, account_id: int, game: str, now: float) -> RatingRow | None:
        """``account_id``'s rating in ``game`` as it stands at ``now``: its sigma grown by the time
        since its last rated game (:func:`.idle.idle_sigma`); ``None`` before its first."""
        return grown(self.store.rating(account_id, game), now)


def grown(row: RatingRow | None, now: float) -> RatingRow | None:
    """``row`` with its sigma as it stands at ``now`` (:func:`.idle.idle_sigma`)."""
    if row is None:
        return None
    return dataclasses.replace(row, sigma=idle_sigma(row.sigma, row.last, now))


def rating_json(row: RatingRow | Any) -> dict[str, Any]:
    """A rating as the API shows it: ``rating`` is mu − 3σ (what the leaderboard orders by);
    give it a row :func:`grown` to the time it is shown."""
    return {"rating": round(row.mu - 3 * row.sigma, 2), "mu": round(row.mu, 3), "sigma": round(row.sigma, 3),
            "games": row.games, "provisional": row.games < PROVISIONAL_GAMES}
