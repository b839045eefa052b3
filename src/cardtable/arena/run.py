"""Duplicate-deal matches between bots, in parallel processes, reproducible from a seed.

A *deal* is one seed for the game. With ``n`` seats and bots ``B0 … Bn-1`` each
deal is played ``n`` times with the seats rotated: in rotation ``r`` seat ``s``
holds bot ``B[(s + r) mod n]``. Every bot therefore plays the same cards from
every seat, which cancels most of the luck of the deal. Results are averaged
per deal first; the 95% intervals treat deals as the independent units: a win
rate's is the Wilson interval of the mean per-deal win share over the number of
deals, with the effective number of observations of that mean (never below 0 or
above 1, never a point; :func:`~cardtable.arena.stats.rate_ci`). A mean score's
is the same Wilson interval when every score lies in [0, 1] (win shares: Trash,
Spit), else Student's t interval (Trex totals).

A *game* is a whole game, played to its end from its seed: a 20-deal Trex game,
a Trash match, a Spit game; a "deal" of the arena is the seed that game is
played from (a *seed* in the printed table).
Ratings are openskill's Plackett–Luce model (Weng and Lin 2011) fitted to the
ranking of the seats of every game: winners first, then by return.

With more (distinct) bots than seats the arena is a *ladder*: every combination
of that many bots sits at a table of its own, each table plays the same deals,
and the ratings are fitted to all the games together.

Seeds: deal ``i`` uses game seed ``derive(seed, "arena", "deal", i)`` and
rotation ``r`` bot seed ``derive(seed, "arena", "bots", i, r)``, so a result
depends on the seed alone, not on the number of workers or their timing.
"""

from __future__ import annotations

import itertools
import math
import os
import time
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..bots.base import Bot, Budget, adapt, make_bot, reacts
from ..core.chance import derive
from ..core.errors import ConfigError
from ..core.game import Game, Outcome
from ..core.registry import game_class
from ..host.factory import play_out
from ..host.workers import MAX_WORKERS, end_with
from .stats import mean_ci, plackett_luce, ranks_of, rate_ci


@dataclass(frozen=True)
class GameResult:
    """One game: deal index, rotation, the bot name per seat, and the outcome."""

    deal: int
    rotation: int
    seats: tuple[str, ...]
    returns: tuple[float, ...]
    winners: tuple[int, ...]
    reason: str
    table: int = 0


@dataclass(frozen=True)
class BotStats:
    """One bot's results over all its seats (intervals over deals)."""

    name: str
    seats: int
    games: int
    win_rate: tuple[float, float, float]
    mean_score: tuple[float, float, float]
    rating: float
    rating_sigma: float = 0.0
    deals: int = 0


@dataclass
class ArenaResult:
    game: str
    preset: str
    bots: tuple[str, ...]
    deals: int
    seed: int
    results: list[GameResult]
    stats: list[BotStats] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)
    tables: int = 1
    seats: int = 0
    seconds: float = 0.0

    @property
    def games(self) -> int:
        return len(self.results)


class _WithBudget:
    def __init__(self, bot: Bot, budget: Budget) -> None:
        self.bot = bot
        self.budget = budget
        self.name = bot.name

    def act(self, view: Any, rng: Any, budget: Budget | None = None) -> Any:
        return self.bot.act(view, rng, budget or self.budget)


class ProgressBar(Protocol):
    """What the arena tells a progress bar: games played, and the end."""

    def update(self, n: int) -> None: ...

    def close(self) -> None: ...


def _build_bots(game: Game, names: Sequence[str], budget: Budget | None) -> list[Any]:
    bots: list[Any] = []
    for name in names:
        bot = make_bot(game.name, name)
        attach = getattr(bot, "attach", None)
        if attach is not None:
            attach(game)  # the public rules: search bots sample worlds under the game's options
        if budget is not None:
            bot = _WithBudget(adapt(bot), budget)
        bots.append(bot)
    return bots


def play_one(
    game: Game, names: Sequence[str], seed: int, bot_seed: int, budget: Budget | None = None
) -> Outcome:
    """One game between the named bots (one per seat), seeded."""
    outcome = play_out(game, _build_bots(game, names, budget), seed=seed, bot_seed=bot_seed)
    if outcome is None:
        raise RuntimeError(f"a {game.name} game between {', '.join(names)} did not finish (seed {seed})")
    return outcome


def deal_seed(seed: int, deal: int) -> int:
    return derive(seed, "arena", "deal", deal).getrandbits(63)


def bot_seed(seed: int, deal: int, rotation: int) -> int:
    return derive(seed, "arena", "bots", deal, rotation).getrandbits(63)


_GAMES: dict[tuple[str, str | None, tuple[tuple[str, Any], ...]], Game] = {}


def _task(
    args: tuple[str, str | None, dict[str, Any], tuple[str, ...], int, int, int, Budget | None, int],
) -> GameResult:
    name, preset, options, bots, seed, deal, rotation, budget, table = args
    key = (name, preset, tuple(sorted(options.items())))
    game = _GAMES.get(key)
    if game is None:
        game = _GAMES[key] = game_class(name).load(preset, **options)
    n = len(bots)
    seats = tuple(bots[(s + rotation) % n] for s in range(n))
    out = play_one(game, seats, deal_seed(seed, deal), bot_seed(seed, deal, rotation), budget)
    return GameResult(deal, rotation, seats, out.returns, out.winners, out.reason, table)


def load_for_bots(name: str, preset: str | None, options: Mapping[str, Any], nbots: int) -> Game:
    """The game with the player count the bots need (Trash: ``players`` = number of bots
    unless the options set it)."""
    cls = game_class(name)
    opts = dict(options)
    if any(o.name == "players" for o in cls.OPTIONS) and "players" not in opts:
        opts["players"] = nbots
    game = cls.load(preset, **opts)
    if game.num_players > nbots:
        raise ConfigError(f"{cls.title} here has {game.num_players} seats: give {game.num_players} bots, not {nbots}")
    return game


def tables_for(bots: Sequence[str], seats: int) -> list[tuple[str, ...]]:
    """The tables to play: the bots themselves when they fill the seats exactly; with
    more (distinct) bots than seats, a ladder: every combination of ``seats`` of them."""
    if len(bots) == seats:
        return [tuple(bots)]
    if len(set(bots)) != len(bots):
        raise ConfigError(f"a ladder of more bots than the {seats} seats needs distinct bot names")
    return list(itertools.combinations(bots, seats))


MAX_DEALS = 1_000_000
"""The most deals one arena run plays (each in every seating, its games listed and kept in memory)."""


def run_arena(
    game: str,
    bots: Sequence[str],
    deals: int,
    *,
    preset: str | None = None,
    options: Mapping[str, Any] | None = None,
    seed: int = 0,
    workers: int = 1,
    budget: Budget | None = None,
    progress: Callable[[int], ProgressBar] | None = None,
) -> ArenaResult:
    """Play ``deals`` duplicate deals (each once per seat rotation) and summarise; ``progress``
    makes a bar for the number of games to play (``cardtable arena`` passes the simulations'
    ``rich`` bar), which is told of every game played."""
    if not 1 <= deals <= MAX_DEALS:
        raise ConfigError(f"--games must be from 1 to {MAX_DEALS:,}, not {deals}")
    if not 1 <= workers <= MAX_WORKERS:
        raise ConfigError(f"--workers must be from 1 to {MAX_WORKERS:,}, not {workers}")
    g = load_for_bots(game, preset, options or {}, len(bots))
    name = g.name
    if g.time_limit is not None:  # play_out has no clock that runs: the limit would never end a game
        raise ConfigError("option time_limit: an arena game has no clock (TR-V2); use max_hands")
    realtime = g.realtime
    for b in sorted(set(bots)):
        bot = make_bot(name, b)  # unknown names fail here, with the list of bots
        if realtime and not reacts(bot):
            raise ConfigError(f"{g.title} is played in real time: the bot {b!r} cannot play it")
    opts = dict(g.changed_options())
    opts.pop("preset", None)
    n = g.num_players
    tables = tables_for(bots, n)
    tasks = [(name, preset, opts, t, seed, d, r, budget, i)
             for i, t in enumerate(tables) for d in range(deals) for r in range(n)]
    start = time.perf_counter()
    results: list[GameResult] = []
    bar = progress(len(tasks)) if progress is not None else None
    try:
        if workers == 1:
            for t in tasks:
                results.append(_task(t))
                if bar is not None:
                    bar.update(1)
        else:
            with ProcessPoolExecutor(max_workers=workers, initializer=end_with, initargs=(os.getpid(),)) as pool:
                for res in pool.map(_task, tasks, chunksize=max(1, len(tasks) // (workers * 8))):
                    results.append(res)
                    if bar is not None:
                        bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    results.sort(key=lambda r: (r.table, r.deal, r.rotation))
    out = ArenaResult(name, g.preset, tuple(bots), deals, seed, results, seconds=time.perf_counter() - start,
                      options=opts, tables=len(tables), seats=n)
    out.stats = summarise(results, list(dict.fromkeys(bots)))
    return out


def summarise(results: Sequence[GameResult], names: Sequence[str]) -> list[BotStats]:
    """Per-bot win rates (Wilson intervals over deals), mean scores (intervals over deals)
    and Plackett–Luce ratings (mu and sigma)."""
    per_deal_win: dict[str, dict[tuple[int, int], list[float]]] = defaultdict(lambda: defaultdict(list))
    per_deal_score: dict[str, dict[tuple[int, int], list[float]]] = defaultdict(lambda: defaultdict(list))
    seats: dict[str, int] = defaultdict(int)
    games: list[tuple[tuple[str, ...], list[int]]] = []
    for r in results:
        for s, b in enumerate(r.seats):
            share = 1.0 / len(r.winners) if s in r.winners else 0.0
            per_deal_win[b][(r.table, r.deal)].append(share)
            per_deal_score[b][(r.table, r.deal)].append(r.returns[s])
            seats[b] += 1
    # rated deal by deal, every table's games of a deal together: an online rating must not see
    # one table's games only after all of another's (a ladder sorts its results by table)
    for r in sorted(results, key=lambda r: (r.deal, r.table, r.rotation)):
        games.append((r.seats, ranks_of(_ranking(r))))
    ratings = plackett_luce(names, games)
    shares = all(0.0 <= x <= 1.0 for r in results for x in r.returns)  # scores that cannot leave [0, 1]
    stats = []
    for b in names:
        wins = [sum(v) / len(v) for v in per_deal_win[b].values()]
        scores = [sum(v) / len(v) for v in per_deal_score[b].values()]
        n = len(wins)
        mu, sigma = ratings[b]
        weight = seats[b] / max(n, 1)
        win_rate = rate_ci(wins, weight)
        mean_score = rate_ci(scores, weight) if shares else mean_ci(scores)
        stats.append(BotStats(b, seats[b], seats[b], win_rate, mean_score, mu, sigma, n))
    return stats


def _ranking(r: GameResult) -> list[tuple[int, float]]:
    """How the seats of one game rank, best highest: winners first, then by return
    (reversed when the game's winners hold the lowest returns, as under Trex's
    reverse_scores, TX-V7)."""
    won = set(r.winners)
    lost = [x for s, x in enumerate(r.returns) if s not in won]
    sign = 1.0
    if won and lost and max(r.returns[s] for s in won) < min(lost):
        sign = -1.0
    return [(1 if s in won else 0, sign * x) for s, x in enumerate(r.returns)]


def default_workers() -> int:
    return max(1, os.cpu_count() or 1)


def format_table(result: ArenaResult, fmt: str = "text") -> str:
    """The per-bot table as text or Markdown."""
    opts = "".join(f", {k}={v}" for k, v in sorted(result.options.items()))
    ladder = f" x {result.tables} tables" if result.tables > 1 else ""
    head = f"{result.game} ({result.preset}{opts}), {result.deals} seeds{ladder} x {result.seats} seatings"
    head += f" = {result.games} whole games"
    head += f", seed {result.seed}, {result.seconds:.1f}s"
    def interval(lo: float, hi: float, pct: bool) -> str:
        if math.isnan(lo):
            return "n/a (1 deal)"
        return f"[{100 * lo:.1f}, {100 * hi:.1f}]" if pct else f"[{lo:.3g}, {hi:.3g}]"

    rows = []
    for s in result.stats:
        w, wl, wh = s.win_rate
        m, ml, mh = s.mean_score
        rows.append((s.name, str(s.games), f"{100 * w:.1f}%", interval(wl, wh, True),
                     f"{m:.3g}", interval(ml, mh, False), f"{s.rating:.1f} ± {s.rating_sigma:.1f}"))
    bounded = all(0.0 <= x <= 1.0 for r in result.results for x in r.returns)
    header = ("bot", "games", "win share", "95% CI (Wilson)", "mean score",
              "95% CI (Wilson)" if bounded else "95% CI (t)", "rating (PL)")
    if fmt == "markdown":
        lines = [f"*{head}*", "", "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        lines += ["| " + " | ".join(r) + " |" for r in rows]
        return "\n".join(lines)
    widths = [max(len(x) for x in col) for col in zip(header, *rows, strict=True)]
    fmt_row: Callable[[Sequence[str]], str] = lambda r: "  ".join(  # noqa: E731
        x.ljust(w) if i == 0 else x.rjust(w) for i, (x, w) in enumerate(zip(r, widths, strict=True))
    )
    return "\n".join([head, fmt_row(header), *(fmt_row(r) for r in rows)])


__all__ = ["ArenaResult", "BotStats", "GameResult", "format_table", "play_one", "run_arena", "summarise"]
