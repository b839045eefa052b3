"""Swiss events for the two-player games (Spit, two-player Trash): pairings and standings.

**Pairing** (:func:`pair_round`) is a maximum-weight matching (networkx's
``max_weight_matching``, Edmonds' blossom algorithm) over every pair of the field, so the pairing
is the best one of the whole round rather than a greedy walk down the table:

1. no pair meets twice, and nobody has a second bye, whenever a pairing of the round allows it
   (each repeat costs more than every other preference together: among the complete pairings the
   one with the fewest repeats is chosen);
2. in an odd field the bye goes to the lowest-ranked player who has not had one (the bye is one
   more node of the matching);
3. then players of equal scores meet (the cost of a pair grows with the square of the difference of
   their scores), the top half of a score group against its bottom half (in a group of eight,
   1 v 5, 2 v 6, 3 v 7, 4 v 8: the Dutch order of FIDE's and lichess's Swiss, so the best seeds
   meet late); a player who must float to another group meets the nearest one in the standings.

The seat (seat 0 moves first in Trash; it is the "white" of chess) goes to the one of a pair who has
held it fewer times, then to the one who held the other seat last, then to the higher-ranked.

**Standings** (:func:`standings`): a win is 1 point, a draw ½, a bye 1 (:data:`BYE_POINTS`); a
player who did not show up loses (a forfeit), and if neither showed up both lose. Ties are broken by

- **Buchholz**: the sum of the final scores of every opponent met over the board, each opponent's
  results by default (byes, forfeits won or lost, rounds not paired after being dropped) counted
  as draws; a round the player did not play over the board adds the score of a *virtual opponent*
  who had the player's score before that round, took the other side of the player's result in it,
  and drew every round after (FIDE's rule for unplayed games, 2009), so a bye or an absent
  opponent neither helps nor harms the player's tie-break;
- **Sonneborn–Berger**: the sum of the final scores of the opponents beaten over the board, and
  half the scores of those drawn (a result by default adds nothing);
- then the order the players were given in (their seeding: rating, then registration).

``played`` and ``won`` count the games played over the board.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

BYE = None
"""The opponent of a bye."""
BYE_POINTS = 1.0
"""What a bye scores."""
_BYE_NODE = "\x00bye"


@dataclass(frozen=True)
class Game:
    """One game of a Swiss event: ``first`` holds seat 0, ``second`` seat 1 (``None``: a bye for
    ``first``). ``points``: what each scored (1, ½ or 0 each; ``None``: not played yet; a bye
    scores :data:`BYE_POINTS` whatever it holds). ``forfeit``: somebody did not show up (the
    points say who: the absent scored 0)."""

    round: int
    first: str
    second: str | None
    points: tuple[float, float] | None = None
    forfeit: bool = False

    @property
    def bye(self) -> bool:
        return self.second is None

    def scored(self, player: str) -> float:
        """What ``player`` scored in this game (0 before its end)."""
        if self.bye:
            return BYE_POINTS if player == self.first else 0.0
        if self.points is None:
            return 0.0
        return self.points[0] if player == self.first else self.points[1] if player == self.second else 0.0

    def opponent(self, player: str) -> str | None:
        return self.second if player == self.first else self.first if player == self.second else None


@dataclass(frozen=True)
class Pairing:
    """A round's games (first player, second player) and its bye (``None``: an even field)."""

    round: int
    games: tuple[tuple[str, str], ...]
    bye: str | None

    def as_games(self) -> list[Game]:
        out = [Game(self.round, a, b) for a, b in self.games]
        if self.bye is not None:
            out.append(Game(self.round, self.bye, BYE))
        return out


@dataclass(frozen=True)
class Standing:
    """One line of the standings: ``place`` (1 best; equal for players equal on every tie-break)."""

    place: int
    player: str
    score: float
    buchholz: float
    sonneborn_berger: float
    played: int
    won: int
    byes: int
    dropped: bool = False


def scores(games: Iterable[Game]) -> dict[str, float]:
    """Each player's score over ``games`` (finished games and byes)."""
    out: dict[str, float] = {}
    for g in games:
        out[g.first] = out.get(g.first, 0.0) + g.scored(g.first)
        if g.second is not None:
            out[g.second] = out.get(g.second, 0.0) + g.scored(g.second)
    return out


def standings(players: Sequence[str], games: Sequence[Game], dropped: Iterable[str] = ()) -> list[Standing]:
    """The field ranked by score, Buchholz, Sonneborn–Berger, then the order of ``players``
    (the module's docstring says how results by default count in the tie-breaks)."""
    if len(set(players)) != len(players):
        raise ValueError("a player is entered twice")
    known = set(players)
    for g in games:
        if g.first not in known or (g.second is not None and g.second not in known):
            raise ValueError(f"a game of round {g.round} names a player who is not entered")
    total = {p: 0.0 for p in players} | scores(games)
    last = max((g.round for g in games if g.bye or g.points is not None), default=0)
    # each player's finished rounds: what they scored, and the opponent met over the board (None:
    # a result by default); a round of theirs still being played is left out of the tie-breaks
    results: dict[str, dict[int, tuple[float, str | None]]] = {p: {} for p in players}
    pending: dict[str, set[int]] = {p: set() for p in players}
    for g in games:
        for me in (g.first, g.second):
            if me is None:
                continue
            if g.points is None and not g.bye:
                pending[me].add(g.round)
            else:
                results[me][g.round] = (g.scored(me), None if g.bye or g.forfeit else g.opponent(me))

    def rounds(p: str) -> Iterable[tuple[int, float, str | None]]:
        """``p``'s rounds up to the last finished one, a round without a game a loss by default."""
        for r in range(1, last + 1):
            if r not in pending[p]:
                yield (r, *results[p].get(r, (0.0, None)))

    adjusted = {p: sum(0.5 if other is None else mine for _, mine, other in rounds(p)) for p in players}
    buchholz = dict.fromkeys(players, 0.0)
    berger = dict.fromkeys(players, 0.0)
    played = dict.fromkeys(players, 0)
    won = dict.fromkeys(players, 0)
    byes = {p: sum(1 for g in games if g.bye and g.first == p) for p in players}
    for me in players:
        before = 0.0
        for r, mine, other in rounds(me):
            if other is None:  # a virtual opponent: the other side of the result, then draws
                buchholz[me] += before + (1.0 - mine) + 0.5 * (last - r)
            else:
                theirs = results[other][r][0]
                played[me] += 1
                buchholz[me] += adjusted[other]
                if mine > theirs:
                    won[me] += 1
                    berger[me] += total[other]
                elif mine == theirs and mine > 0:
                    berger[me] += total[other] / 2
            before += mine
    order = {p: i for i, p in enumerate(players)}
    out_dropped = set(dropped)
    ranked = sorted(players, key=lambda p: (-total[p], -buchholz[p], -berger[p], order[p]))
    lines: list[Standing] = []
    for i, p in enumerate(ranked):
        key = (total[p], buchholz[p], berger[p])
        prev = lines[-1] if lines else None
        place = prev.place if prev is not None and (prev.score, prev.buchholz, prev.sonneborn_berger) == key else i + 1
        lines.append(Standing(place, p, total[p], buchholz[p], berger[p], played[p], won[p], byes[p], p in out_dropped))
    return lines


def met(games: Iterable[Game]) -> set[frozenset[str]]:
    """The pairs that have been paired (a forfeit counts: they were paired)."""
    return {frozenset((g.first, g.second)) for g in games if g.second is not None}


def pair_round(ranked: Sequence[str], games: Sequence[Game], round_number: int) -> Pairing:
    """The pairing of round ``round_number`` for the players still in, ``ranked`` best first
    (:func:`standings` order, dropped players left out), after ``games`` (every earlier round)."""
    if len(set(ranked)) != len(ranked):
        raise ValueError("a player is entered twice")
    if len(ranked) < 2:
        raise ValueError("a Swiss round needs two players")
    score = {p: 0.0 for p in ranked} | {p: s for p, s in scores(games).items() if p in ranked}
    seen = met(games)
    had_bye = {g.first for g in games if g.bye}
    nodes: list[str] = list(ranked)
    odd = len(nodes) % 2 == 1
    n = len(nodes)
    # Weights in five tiers, whole numbers so that the matching is exact; each tier outweighs
    # everything below it over a whole round: (1) no repeat, (2) the bye's holder, the lower in the
    # standings the better, (3) the seats FIDE's Dutch rules make absolute: two who must both hold
    # seat 0 next (or both seat 1: they held it two more times, or the last two rounds) meet only
    # if no pairing avoids it, (4) each pair's cost: the square of the score difference (in half
    # points), then the distance in the standings, (5) the seats wanted: two who would both
    # rather hold the same seat meet only if the round cannot do better.
    spread = n + 1
    want = {p: _seat_wanted(p, games) for p in nodes}
    clash_top = n // 2 + 1  # more than every clash of a round together
    groups: dict[float, list[int]] = {}
    for i, p in enumerate(nodes):
        groups.setdefault(score[p], []).append(i)
    place = {i: (k, len(group)) for group in groups.values() for k, i in enumerate(group)}

    def cost(i: int, j: int) -> int:
        diff = round(2 * abs(score[nodes[i]] - score[nodes[j]]))
        clash = int(want[nodes[i]][0] != 0 and want[nodes[i]][0] == want[nodes[j]][0])
        if diff == 0:  # one score group: its top half against its bottom half
            (ki, size), (kj, _) = place[i], place[j]
            return abs(abs(ki - kj) - size // 2) * clash_top + clash
        return (diff * diff * spread + abs(i - j)) * clash_top + clash

    def must_clash(i: int, j: int) -> bool:
        (wi, must_i), (wj, must_j) = want[nodes[i]], want[nodes[j]]
        return must_i and must_j and wi == wj

    pair_top = max(cost(i, j) for i in range(n) for j in range(i + 1, n)) + 1
    seat_step = (n // 2 + 1) * pair_top
    bye_step = (n // 2 + 1) * (seat_step + pair_top)
    fresh = (n + 2) * bye_step
    # imported here, not with the module: networkx takes about 0.25 s of CPU to import, which every
    # start of `cardtable serve` (and of other commands) would pay for a pairing it may never make
    import networkx as nx  # type: ignore[import-untyped]

    graph = nx.Graph()
    for i in range(n):
        for j in range(i + 1, n):
            repeat = frozenset((nodes[i], nodes[j])) in seen
            graph.add_edge(nodes[i], nodes[j], weight=(0 if repeat else fresh) + (0 if must_clash(i, j) else seat_step)
                           + pair_top - cost(i, j))
        if odd:
            graph.add_edge(nodes[i], _BYE_NODE, weight=(0 if nodes[i] in had_bye else fresh) + (i + 1) * bye_step)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    rank = {p: i for i, p in enumerate(ranked)}
    pairs: list[tuple[str, str]] = []
    bye = None
    for a, b in matching:
        if _BYE_NODE in (a, b):
            bye = b if a == _BYE_NODE else a
            continue
        pairs.append(_seats(a, b, games, rank))
    pairs.sort(key=lambda ab: min(rank[ab[0]], rank[ab[1]]))
    return Pairing(round_number, tuple(pairs), bye)


def _seat_history(p: str, games: Sequence[Game]) -> list[int]:
    """The seats ``p`` held, round by round (0 or 1; byes left out)."""
    mine = sorted((g for g in games if not g.bye and p in (g.first, g.second)), key=lambda g: g.round)
    return [0 if g.first == p else 1 for g in mine]


def _seat_wanted(p: str, games: Sequence[Game]) -> tuple[int, bool]:
    """The seat ``p`` should hold next, as FIDE's Dutch rules weigh colours: ``+1`` seat 0 (held
    it less, or seat 1 the last two rounds), ``-1`` seat 1, ``0`` either; and whether that is
    absolute (two more of the other seat, or the other seat the last two rounds: a third in a
    row or a difference of three is what the rules avoid)."""
    seats = _seat_history(p, games)
    held_first = seats.count(0) - seats.count(1)
    if held_first < 0 or seats[-2:] == [1, 1]:
        return 1, held_first <= -2 or seats[-2:] == [1, 1]
    if held_first > 0 or seats[-2:] == [0, 0]:
        return -1, held_first >= 2 or seats[-2:] == [0, 0]
    return 0, False


def _seats(a: str, b: str, games: Sequence[Game], rank: dict[str, int]) -> tuple[str, str]:
    """Who of ``a`` and ``b`` holds seat 0: an absolute want first (:func:`_seat_wanted`: never
    a third same seat in a row or a difference of three when the other may take the seat), then
    fewer times first, then seat 1 last time, then the higher-ranked."""
    def must(p: str) -> int:
        wanted, absolute = _seat_wanted(p, games)
        return -wanted if absolute else 0

    def balance(p: str) -> int:
        return sum(1 if g.first == p else -1 for g in games if not g.bye and p in (g.first, g.second))

    def last_first(p: str) -> int:
        mine = [g for g in games if not g.bye and p in (g.first, g.second)]
        return 1 if mine and max(mine, key=lambda g: g.round).first == p else 0

    key_a = (must(a), balance(a), last_first(a), rank[a])
    key_b = (must(b), balance(b), last_first(b), rank[b])
    return (a, b) if key_a <= key_b else (b, a)
